// The memory suite's workload shape (docs/method.md#memory-workload): sizes, dispatch geometry and
// the working-set plan (power of two, halved when the adapter caps buffer or binding sizes). Pure
// arithmetic, no Dawn: unit-tested in tests/unit/memory_geometry_test.cpp.
#pragma once

#include <cstdint>
#include <string>

#include "webgpu_bench/defaults.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::memory {

inline constexpr std::uint64_t kMiB = 1ull << 20;
inline constexpr std::uint64_t kElementBytes = 16;          // vec4<u32>
inline constexpr std::uint32_t kElementsPerInvocation = 4;  // four independent 16-byte accesses
inline constexpr std::uint32_t kWorkgroupSize = 256;
// Random phase: 1M invocations x 16 gathers of 16 bytes = 256 MiB of useful bytes per dispatch.
inline constexpr std::uint32_t kRandomInvocations = 1u << 20;
inline constexpr std::uint32_t kGathersPerInvocation = 16;
// Latency phase: one chain slot per 64 bytes (a cache line on most GPUs), so every hop misses.
inline constexpr std::uint64_t kSlotBytes = 64;
inline constexpr std::uint32_t kSlotWords = kSlotBytes / 4;
// The latency phase's unit of calibration: the engine grows "units" and a pass runs one dispatch
// of units x kHopsPerUnit dependent loads.
inline constexpr std::uint32_t kHopsPerUnit = 1024;

inline constexpr std::uint64_t kDefaultWorkingSetMiB = defaults::memory::kWorkingSetMiB;
inline constexpr std::uint64_t kMinWorkingSetMiB = 16;
inline constexpr std::uint64_t kMaxWorkingSetMiB = 512;
inline constexpr std::uint64_t kDefaultFloorMiB = defaults::memory::kMinWorkingSetMiB;  // out of memory: halve to this
inline constexpr std::uint64_t kRankedMinMiB = 256;       // smaller working sets are never ranked

constexpr bool is_power_of_two(std::uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

// Everything that follows from the size of one buffer.
struct Geometry {
  std::uint64_t bytes = 0;         // per buffer (there are two, A and B)
  std::uint64_t elements = 0;      // vec4<u32> per buffer
  std::uint32_t invocations = 0;   // elements / 4: the grid stride of read, write and copy
  std::uint32_t workgroups = 0;    // invocations / 256: 16,384 at 256 MiB, 32,768 at 512 MiB
  std::uint64_t slots = 0;         // latency chain slots: bytes / 64 (4M at 256 MiB)
  std::uint32_t random_workgroups = kRandomInvocations / kWorkgroupSize;

  // bytes must be a power of two of at least 64 KiB (callers check; see plan_working_set).
  static Geometry of(std::uint64_t bytes);
};

// Which working set a run uses. The request is honoured unless the adapter caps a buffer or a
// storage binding below it; then it halves until it fits (never below the floor), and the run is
// unranked. Out-of-memory halving happens later, at allocation (engine).
struct WorkingSetPlan {
  std::uint64_t requested_bytes = 0;
  std::uint64_t bytes = 0;          // what to try first
  bool capped = false;
  std::string reason;               // why it is smaller than requested (empty when it is not)
};

struct AdapterCaps {
  std::uint64_t max_buffer_size = 0;
  std::uint64_t max_storage_binding = 0;
  std::uint32_t max_workgroups_per_dimension = 65535;
};

// Usage errors: requested or floor not a power of two, requested outside 16..512 MiB.
// OutOfMemory: even the floor exceeds the adapter's caps.
Expected<WorkingSetPlan> plan_working_set(std::uint64_t requested_mib, std::uint64_t floor_mib,
                                          const AdapterCaps& caps);

// Whether results at this working set may be ranked, and why not (empty when they may).
std::string unranked_reason(std::uint64_t requested_bytes, std::uint64_t used_bytes,
                            const std::string& reduction_reason);

std::string format_mib(std::uint64_t bytes);  // "256 MiB", "0.5 MiB"

}  // namespace wgb::memory
