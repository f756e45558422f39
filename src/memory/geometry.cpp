// Working-set arithmetic of the memory suite (geometry.hpp).
#include "memory/geometry.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace wgb::memory {

Geometry Geometry::of(std::uint64_t bytes) {
  Geometry g;
  g.bytes = bytes;
  g.elements = bytes / kElementBytes;
  g.invocations = static_cast<std::uint32_t>(g.elements / kElementsPerInvocation);
  g.workgroups = g.invocations / kWorkgroupSize;
  g.slots = bytes / kSlotBytes;
  return g;
}

std::string format_mib(std::uint64_t bytes) {
  if (bytes % kMiB == 0) return fmt::format("{} MiB", bytes / kMiB);
  return fmt::format("{:g} MiB", static_cast<double>(bytes) / static_cast<double>(kMiB));
}

Expected<WorkingSetPlan> plan_working_set(std::uint64_t requested_mib, std::uint64_t floor_mib,
                                          const AdapterCaps& caps) {
  if (!is_power_of_two(requested_mib) || requested_mib < kMinWorkingSetMiB || requested_mib > kMaxWorkingSetMiB) {
    return make_error(ErrorKind::Usage,
                      fmt::format("--working-set {} is not a power of two from {} to {} MiB", requested_mib,
                                  kMinWorkingSetMiB, kMaxWorkingSetMiB));
  }
  if (!is_power_of_two(floor_mib) || floor_mib > kMaxWorkingSetMiB) {
    return make_error(ErrorKind::Usage, fmt::format("--min-working-set {} is not a power of two from 1 to {} MiB",
                                                    floor_mib, kMaxWorkingSetMiB));
  }
  WorkingSetPlan plan;
  plan.requested_bytes = requested_mib * kMiB;
  plan.bytes = plan.requested_bytes;
  // The largest buffer the adapter lets one storage binding cover; the dispatch limit matters only
  // for adapters with tiny maxComputeWorkgroupsPerDimension (invocations / 256 workgroups).
  const std::uint64_t cap = std::min(caps.max_buffer_size, caps.max_storage_binding);
  const std::uint64_t floor_bytes = std::min(floor_mib * kMiB, plan.requested_bytes);
  auto fits = [&](std::uint64_t bytes) {
    return bytes <= cap && Geometry::of(bytes).workgroups <= caps.max_workgroups_per_dimension;
  };
  while (!fits(plan.bytes)) {
    plan.capped = true;
    if (plan.bytes / 2 < floor_bytes) {
      return make_error(ErrorKind::OutOfMemory,
                        fmt::format("the adapter caps storage bindings at {} bytes (maxBufferSize {}, "
                                    "maxStorageBufferBindingSize {}): not even the {} floor fits",
                                    cap, caps.max_buffer_size, caps.max_storage_binding, format_mib(floor_bytes)));
    }
    plan.bytes /= 2;
  }
  if (plan.capped) {
    plan.reason = fmt::format("the adapter caps a storage buffer binding at {} bytes; working set halved from {} to {}",
                              cap, format_mib(plan.requested_bytes), format_mib(plan.bytes));
  }
  return plan;
}

std::string unranked_reason(std::uint64_t requested_bytes, std::uint64_t used_bytes,
                            const std::string& reduction_reason) {
  if (used_bytes < requested_bytes) {
    return reduction_reason.empty()
               ? fmt::format("working set reduced from {} to {}", format_mib(requested_bytes), format_mib(used_bytes))
               : reduction_reason;
  }
  // Below 256 MiB per buffer, 512 MiB of alternating traffic no longer dwarfs the largest
  // last-level caches, so a small working set measures caches as much as memory
  // (docs/method.md#memory-workload).
  if (used_bytes < kRankedMinMiB * kMiB) {
    return fmt::format("working set {} is below the {} MiB ranking size", format_mib(used_bytes), kRankedMinMiB);
  }
  return {};
}

}  // namespace wgb::memory
