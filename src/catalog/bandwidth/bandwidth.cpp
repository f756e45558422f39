// Bandwidth probes (seed 000 "What's measured"): read-linear so far. Every buffer is filled with
// hashed data; reads are XOR-folded and kept alive by a sentinel compare; consecutive dispatches
// alternate between two buffers so no repetition re-reads a cache-resident footprint.
#include <fmt/format.h>

#include "catalog/common.hpp"
#include "catalog/families.hpp"
#include "gpu/hash.hpp"
#include "webgpu_bench/options.hpp"

namespace wgb::catalog {

namespace {

constexpr std::uint32_t kWorkgroup = 256;
constexpr const char* kMemoryStatisticReason =
    "median with IQR: memory traffic depends on the memory system's state and scheduling (seed 004)";
constexpr std::uint32_t kSeedA = 0xA11CE5EDu, kSeedB = 0xB0B5EED5u;

struct ReadParams {
  std::uint32_t count, threads, magic0, magic1;
};

// Invocation t's XOR fold over buffer words filled with `seed` (the same order-free fold the
// kernel computes), for the validator.
std::array<std::uint32_t, 4> expected_fold(std::uint32_t t, std::uint32_t threads, std::uint32_t count,
                                           std::uint32_t seed) {
  std::array<std::uint32_t, 4> acc{};
  for (std::uint64_t i = t; i < count; i += threads) {
    for (int c = 0; c < 4; ++c) acc[c] ^= gpu::filled_word(i * 4 + c, seed);
  }
  return acc;
}

Expected<std::unique_ptr<Workload>> prepare_read_linear(PrepareContext& pc) {
  auto& gpu = pc.gpu;
  const std::uint64_t bytes = pc.options.bandwidth_bytes;
  if (bytes < 16 || bytes % 16 != 0) {
    return make_error(ErrorKind::Usage, fmt::format("bandwidth size {} is not a positive multiple of 16", bytes));
  }
  if (bytes > gpu.limits().maxStorageBufferBindingSize || bytes > gpu.limits().maxBufferSize) {
    return make_error(ErrorKind::Skipped, fmt::format("{} bytes exceed the adapter's storage binding limit {}",
                                                      bytes, gpu.limits().maxStorageBufferBindingSize));
  }
  const auto count = static_cast<std::uint32_t>(bytes / 16);
  // Four vec4 per invocation per step; at 64 MiB that is 1M invocations in 4096 workgroups.
  const std::uint32_t groups = std::clamp<std::uint32_t>((count / 4 + kWorkgroup - 1) / kWorkgroup, 1,
                                                         gpu.limits().maxComputeWorkgroupsPerDimension);
  const std::uint32_t threads = groups * kWorkgroup;
  const std::string src = kernel_source("bandwidth/read_linear");
  auto pipeline = gpu.pipeline(src, "read-linear");
  if (!pipeline) return std::move(pipeline).error();
  auto a = gpu.buffer(bytes, kStorage, "read-linear A");
  if (!a) return std::move(a).error();
  auto b = gpu.buffer(bytes, kStorage, "read-linear B");
  if (!b) return std::move(b).error();
  if (auto st = gpu.fill_hashed(*a, bytes, kSeedA); !st) return std::move(st).error();
  if (auto st = gpu.fill_hashed(*b, bytes, kSeedB); !st) return std::move(st).error();
  auto sink = gpu.buffer(256 * 16, kStorage, "read-linear sink");
  if (!sink) return std::move(sink).error();
  const ReadParams params{count, threads, kMagic0, kMagic1};
  auto uniform = gpu.buffer_with(std::span<const ReadParams>(&params, 1), kUniform, "read-linear params");
  if (!uniform) return std::move(uniform).error();

  KernelSpec spec;
  spec.pipeline = *pipeline;
  spec.bind_groups = {bind_buffers(gpu, *pipeline, {*a, *sink, *uniform}),
                      bind_buffers(gpu, *pipeline, {*b, *sink, *uniform})};
  spec.workgroups = {groups, 1, 1};
  spec.work = [bytes](std::uint64_t) { return WorkModel{.bytes_read = static_cast<double>(bytes)}; };
  spec.parameters = {{"buffer_bytes", bytes}, {"buffers", 2}, {"element", "vec4<u32>"},
                     {"workgroup_size", kWorkgroup}, {"invocations", threads},
                     {"shape", "4096x4096 4-byte words at the default size"}};
  // Validation: point the sentinels at one invocation's true fold over buffer A; the kernel must
  // then write exactly that value. This proves every load of that invocation happened.
  spec.validate = [a = *a, b = *b, sink = *sink, uniform = *uniform, pipeline = *pipeline, count,
                   threads, groups](gpu::Context& g, std::uint64_t) -> Expected<std::string> {
    const std::uint32_t t = (threads / 2 + 77) % threads;
    const auto want = expected_fold(t, threads, count, kSeedA);
    const ReadParams probe{count, threads, want[0], want[1]};
    g.write(uniform, 0, &probe, sizeof(probe));
    const std::uint32_t zero[1024] = {};
    g.write(sink, 0, zero, sizeof(zero));
    auto group = bind_buffers(g, pipeline, {a, sink, uniform});
    auto st = g.run_pass([&](wgpu::ComputePassEncoder& pass) {
      pass.SetPipeline(pipeline);
      pass.SetBindGroup(0, group);
      pass.DispatchWorkgroups(groups);
    });
    const ReadParams restore{count, threads, kMagic0, kMagic1};
    g.write(uniform, 0, &restore, sizeof(restore));
    if (!st) return std::move(st).error();
    auto got = g.read_as<std::uint32_t>(sink, (t & 255u) * 16, 4);
    if (!got) return std::move(got).error();
    for (int c = 0; c < 4; ++c) {
      if ((*got)[c] != want[c]) {
        return make_error(ErrorKind::Failed,
                          fmt::format("invocation {} folded {:08x}{:08x}{:08x}{:08x}, expected {:08x}{:08x}{:08x}{:08x}",
                                      t, (*got)[0], (*got)[1], (*got)[2], (*got)[3], want[0], want[1], want[2], want[3]));
      }
    }
    return fmt::format("invocation {}'s XOR fold of its {} loads matched the host", t,
                       (count - t + threads - 1) / threads);
  };
  return make_kernel_workload(gpu, std::move(spec));
}

}  // namespace

std::vector<BenchmarkDefinition> bandwidth_benchmarks() {
  std::vector<BenchmarkDefinition> v;
  v.push_back(BenchmarkDefinition{
      .id = "read-linear",
      .label = "Linear read",
      .description = "Coalesced grid-stride vec4<u32> reads of a 64 MiB buffer (4096x4096 4-byte words) "
                     "filled with hashed data; four independent 16-byte loads per step, XOR-folded and kept "
                     "by a sentinel compare. Consecutive dispatches alternate between two such buffers. "
                     "Counts bytes read.",
      .category = "bandwidth",
      .metric = {"bytes", "B", "Bytes read"},
      .source = kernel_source("bandwidth/read_linear"),
      .statistic = Statistic::Median,
      .statistic_reason = kMemoryStatisticReason,
      .requires_features = {},
      .family = "",
      .in_default_suite = true,
      .prepare = prepare_read_linear,
  });
  return v;
}

}  // namespace wgb::catalog
