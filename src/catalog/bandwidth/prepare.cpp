// The bandwidth probes' shared prepare steps (prepare.hpp).
#include "catalog/bandwidth/prepare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "catalog/bandwidth/bandwidth.hpp"
#include "catalog/common.hpp"
#include "report/facts.hpp"
#include "webgpu_bench/options.hpp"

namespace wgb::catalog::bandwidth {

namespace {

constexpr const char* kMemoryStatisticReason =
    "median with IQR: memory traffic depends on the memory system's state and scheduling";

Grid grid_of(PrepareContext& pc, std::uint64_t threads) {
  const std::uint64_t want = (threads + kWorkgroup - 1) / kWorkgroup;
  const auto groups = static_cast<std::uint32_t>(
      std::clamp<std::uint64_t>(want, 1, pc.gpu.limits().maxComputeWorkgroupsPerDimension));
  return {groups, groups * kWorkgroup};
}

}  // namespace

std::uint32_t block_steps(const gpu::Context& gpu) {
  return gpu.adapter().adapter_type == "cpu" ? kCpuBlockSteps : kGpuBlockSteps;
}

std::uint32_t linear_block_steps(const gpu::Context& gpu) {
  return gpu.adapter().adapter_type == "cpu" ? kCpuBlockSteps : kGpuLinearBlockSteps;
}

std::uint32_t block_run(const gpu::Context& gpu) { return gpu.adapter().adapter_type == "cpu" ? kCpuRun : kGpuRun; }

Grid stream_grid(PrepareContext& pc, std::uint64_t elements) {
  const std::uint64_t per_invocation = 4ull * block_steps(pc.gpu);
  return grid_of(pc, pc.options.compute_threads != 0 ? pc.options.compute_threads : elements / per_invocation);
}

Grid block_grid(PrepareContext& pc, std::uint32_t blocks) {
  return grid_of(pc, pc.options.compute_threads != 0 ? pc.options.compute_threads : std::uint64_t{blocks} * kWorkgroup);
}

Status check_size(gpu::Context& gpu, std::uint64_t bytes, std::uint64_t buffer_bytes) {
  if (bytes < 16 || bytes % 16 != 0) {
    return make_error(ErrorKind::Usage, fmt::format("bandwidth size {} is not a positive multiple of 16", bytes));
  }
  if (bytes > (1ull << 32)) {  // element indices are u32 in the kernels, with room for 4 * stride
    return make_error(ErrorKind::Skipped, fmt::format("bandwidth size {} exceeds the 4 GiB the kernels index", bytes));
  }
  if (buffer_bytes > gpu.limits().maxStorageBufferBindingSize || buffer_bytes > gpu.limits().maxBufferSize) {
    return make_error(ErrorKind::Skipped, fmt::format("{} bytes exceed the adapter's storage binding limit {}",
                                                      buffer_bytes, gpu.limits().maxStorageBufferBindingSize));
  }
  return ok();
}

Expected<BufferPair> filled_pair(gpu::Context& gpu, std::uint64_t bytes, const std::string& label) {
  auto a = gpu.buffer(bytes, kStorage, label + " A");
  if (!a) return std::move(a).error();
  auto b = gpu.buffer(bytes, kStorage, label + " B");
  if (!b) return std::move(b).error();
  if (auto st = gpu.fill_hashed(*a, bytes, kSeedA); !st) return std::move(st).error();
  if (auto st = gpu.fill_hashed(*b, bytes, kSeedB); !st) return std::move(st).error();
  return BufferPair{*a, *b};
}

KernelSpec alternating_spec(gpu::Context& gpu, const wgpu::ComputePipeline& pipeline, const BufferPair& pair,
                            std::initializer_list<wgpu::Buffer> rest, std::uint32_t groups) {
  KernelSpec spec;
  spec.pipeline = pipeline;
  for (const auto& buffer : {pair.a, pair.b}) {
    std::vector<std::pair<std::uint32_t, wgpu::Buffer>> bindings{{0, buffer}};
    for (const auto& r : rest) bindings.emplace_back(static_cast<std::uint32_t>(bindings.size()), r);
    spec.bind_groups.push_back(bind_at(gpu, pipeline, bindings));
  }
  spec.workgroups = {groups, 1, 1};
  return spec;
}

Status dispatch_once(gpu::Context& g, const wgpu::ComputePipeline& pipeline, const wgpu::BindGroup& group,
                     std::uint32_t groups) {
  return g.run_pass([&](wgpu::ComputePassEncoder& pass) {
    pass.SetPipeline(pipeline);
    pass.SetBindGroup(0, group);
    pass.DispatchWorkgroups(groups);
  });
}

namespace {

std::string hex4(const std::array<std::uint32_t, 4>& v) {
  return fmt::format("{:08x}{:08x}{:08x}{:08x}", v[0], v[1], v[2], v[3]);
}

}  // namespace

void clear_sink(gpu::Context& g, const wgpu::Buffer& sink) {
  const std::uint32_t zero[256 * 4] = {};
  g.write(sink, 0, zero, sizeof(zero));
}

Status check_sink(gpu::Context& g, const wgpu::Buffer& sink, std::uint32_t slot, const std::array<std::uint32_t, 4>& want,
                  const std::string& who) {
  auto got = g.read_as<std::uint32_t>(sink, std::uint64_t{slot & 255u} * 16, 4);
  if (!got) return std::move(got).error();
  const std::array<std::uint32_t, 4> have{(*got)[0], (*got)[1], (*got)[2], (*got)[3]};
  if (have == want) return ok();
  return make_error(ErrorKind::Failed, fmt::format("{} folded {}, expected {}", who, hex4(have), hex4(want)));
}

void add_footprint(nlohmann::json& p, std::uint64_t footprint) {
  report::write_facts(p, {.peak_class = "memory", .footprint_bytes = footprint});
}

void set_passes_knob(KernelSpec& spec, const wgpu::Buffer& uniform, std::uint64_t offset, std::uint32_t max_passes) {
  spec.knob = KnobSpec{.name = "passes", .min = 1, .max = std::max(2u, max_passes), .initial = 1};
  spec.knob_uniform = uniform;
  spec.knob_offset = offset;
}

Status add_launch_cost(gpu::Context& gpu, KernelSpec& spec) {
  // An even number of dispatches, so the alternation (and read-linear's pair of ticket counters)
  // is where it started; three passes.
  constexpr std::uint32_t kDispatches = 32;
  constexpr int kPasses = 3;
  const std::uint32_t zero = 0;
  gpu.write(spec.knob_uniform, spec.knob_offset, &zero, sizeof(zero));
  std::vector<double> per_dispatch;
  for (int i = 0; i < kPasses; ++i) {
    auto t = gpu.time_pass([&](wgpu::ComputePassEncoder& pass) {
      pass.SetPipeline(spec.pipeline);
      for (std::uint32_t d = 0; d < kDispatches; ++d) {
        pass.SetBindGroup(0, spec.bind_groups[d % spec.bind_groups.size()]);
        pass.DispatchWorkgroups(spec.workgroups[0], spec.workgroups[1], spec.workgroups[2]);
      }
    });
    if (!t) return std::move(t).error();
    // A timestamp reading is used when it is plausible (positive, within the round trip); else the
    // round trip less the empty-submit cost (docs/method.md#clocks).
    const bool stamp = t->gpu_ms && *t->gpu_ms > 0 && *t->gpu_ms <= t->wall_ms;
    const double ms = stamp ? *t->gpu_ms : std::max(0.0, t->wall_ms - gpu.empty_submit_ms());
    per_dispatch.push_back(ms / kDispatches);
  }
  // The fastest: interference (a shared CPU, another process) only adds time, and an inflated
  // launch cost would call a row launch-bound that is not.
  report::write_facts(spec.parameters, {.launch_ms = *std::min_element(per_dispatch.begin(), per_dispatch.end()),
                                        .dispatches_per_repetition = 1});
  return ok();
}

BenchmarkDefinition bandwidth_definition(std::string id, std::string label, std::string description, Metric metric,
                                         std::string kernel,
                                         std::function<Expected<std::unique_ptr<Workload>>(PrepareContext&)> prepare) {
  return BenchmarkDefinition{
      .id = std::move(id),
      .label = std::move(label),
      .description = std::move(description),
      .category = "bandwidth",
      .metric = std::move(metric),
      .source = kernel_source(kernel),
      .statistic = Statistic::Median,
      .statistic_reason = kMemoryStatisticReason,
      .requires_features = {},
      .family = "",
      .in_default_suite = true,
      .prepare = std::move(prepare),
      .sweep_parameters = {"size", "threads"},
  };
}

}  // namespace wgb::catalog::bandwidth
