// Bandwidth probes: read-linear and write-linear (linear.cpp), read-gather-* and write-scatter-*.
// Every buffer is filled with hashed data (never zeros); reads are XOR-folded and kept alive by a
// sentinel compare; consecutive dispatches alternate between two buffers. A dispatch makes
// `passes` passes (the work knob), so launch and drain are a negligible part of it
// (docs/method.md#streaming); a gather or scatter window is its footprint, whatever the passes.
// Each probe is validated after timing by a dedicated pass whose output the host recomputes.
#include "catalog/bandwidth/bandwidth.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>

#include "catalog/bandwidth/prepare.hpp"
#include "catalog/common.hpp"
#include "catalog/families.hpp"
#include "gpu/hash.hpp"
#include "report/facts.hpp"
#include "webgpu_bench/options.hpp"

namespace wgb::catalog {

namespace {

using namespace bandwidth;

// Pass counts far beyond what a 10 ms dispatch needs; the loops count in u32.
constexpr std::uint32_t kMaxPasses = 1u << 20;

// ---- read-gather: XOR fold + sentinel ------------------------------------------------------------

struct GatherParams {
  std::uint32_t count, threads, magic0, magic1, seed, mask, shift, passes;
};

// Validation of the gather kernel: one pass over buffer A with the sentinels pointed at one
// invocation's true fold; the kernel must then write exactly that value into the sink. This proves
// every load of that invocation happened, at the addresses the host replays. The uniform gets its
// timed values back (`passes`, the calibrated knob) afterwards.
Expected<std::string> validate_gather(gpu::Context& g, const wgpu::ComputePipeline& pipeline, const wgpu::Buffer& a,
                                      const wgpu::Buffer& sink, const wgpu::Buffer& uniform, GatherParams params,
                                      std::uint32_t passes, std::uint32_t groups, std::uint32_t t,
                                      const std::array<std::uint32_t, 4>& want, std::uint32_t loads) {
  GatherParams restore = params;
  restore.passes = passes;
  params.magic0 = want[0];
  params.magic1 = want[1];
  params.passes = 1;
  g.write(uniform, 0, &params, sizeof(params));
  clear_sink(g, sink);
  auto group = bind_buffers(g, pipeline, {a, sink, uniform});
  auto st = dispatch_once(g, pipeline, group, groups);
  g.write(uniform, 0, &restore, sizeof(restore));
  if (!st) return std::move(st).error();
  if (auto match = check_sink(g, sink, t, want, fmt::format("invocation {}", t)); !match) return std::move(match).error();
  return fmt::format("invocation {}'s XOR fold of its {} loads matched the host", t, loads);
}

Expected<std::unique_ptr<Workload>> prepare_gather(PrepareContext& pc, const std::string& id,
                                                   std::uint64_t nominal_window) {
  auto& gpu = pc.gpu;
  const std::uint64_t bytes = pc.options.bandwidth_bytes;
  if (auto st = check_size(gpu, bytes, bytes); !st) return std::move(st).error();
  const auto count = static_cast<std::uint32_t>(bytes / 16);
  const Grid grid = stream_grid(pc, count);
  auto pipeline = gpu.pipeline(kernel_source("bandwidth/read_gather"), id);
  if (!pipeline) return std::move(pipeline).error();
  auto pair = filled_pair(gpu, bytes, id);
  if (!pair) return std::move(pair).error();
  auto sink = gpu.buffer(256 * 16, kStorage, id + " sink");
  if (!sink) return std::move(sink).error();
  const std::uint32_t window = window_elements(nominal_window, bytes);
  const GatherParams params{count,       grid.threads, kMagic0, kMagic1, kStreamSeed, window - 1,
                            gather_shift(log2_exact(window)), 1};
  auto uniform = gpu.buffer_with(std::span<const GatherParams>(&params, 1), kUniform, id + " params");
  if (!uniform) return std::move(uniform).error();

  KernelSpec spec = alternating_spec(gpu, *pipeline, *pair, {*sink, *uniform}, grid.groups);
  set_passes_knob(spec, *uniform, offsetof(GatherParams, passes), kMaxPasses);
  spec.work = [bytes](std::uint64_t passes) { return WorkModel{.bytes_read = static_cast<double>(bytes * passes)}; };
  spec.parameters = report::with_facts(nlohmann::json({{"buffer_bytes", bytes},
                                                       {"element", "vec4<u32>"},
                                                       {"workgroup_size", kWorkgroup},
                                                       {"invocations", grid.threads},
                                                       {"shape", buffer_shape(bytes)}}),
                                       {.access = "gather", .buffers = 2, .loads_per_pass = count});
  report::write_facts(spec.parameters, {.window_bytes = static_cast<std::uint64_t>(window) * 16,
                                        .nominal_window_bytes = nominal_window});
  add_footprint(spec.parameters, 2ull * window * 16);
  spec.validate = [a = pair->a, sink = *sink, uniform = *uniform, pipeline = *pipeline, params, grid](
                      gpu::Context& g, std::uint64_t passes) -> Expected<std::string> {
    const std::uint32_t t = (grid.threads / 2 + 77) % grid.threads;
    const auto want =
        gather_fold(t, GatherStream{params.count, params.threads, params.seed, params.mask, params.shift, kSeedA});
    const std::uint32_t loads = (params.count - t + params.threads - 1) / params.threads;
    return validate_gather(g, pipeline, a, sink, uniform, params, static_cast<std::uint32_t>(passes), grid.groups, t,
                           want, loads);
  };
  if (auto st = add_launch_cost(gpu, spec); !st) return std::move(st).error();
  return make_kernel_workload(gpu, std::move(spec));
}

// ---- write-scatter -----------------------------------------------------------------------------

struct ScatterParams {
  std::uint32_t total, threads, seed, mask, bits, s1, s2, passes;
};

Expected<std::unique_ptr<Workload>> prepare_write_scatter(PrepareContext& pc, const std::string& id,
                                                          std::uint64_t nominal_window) {
  auto& gpu = pc.gpu;
  const std::uint64_t bytes = pc.options.bandwidth_bytes;
  // Rounds per dispatch: as many whole windows as the bandwidth size holds, so every window size
  // moves about the same bytes per dispatch (exactly bandwidth_bytes for power-of-two sizes).
  const ScatterPlan plan = scatter_plan(bytes, nominal_window);
  const std::uint32_t n = plan.n, rounds = plan.rounds;
  const std::uint64_t window_bytes = static_cast<std::uint64_t>(n) * 16;
  const std::uint64_t buffer_bytes = window_bytes + kSentinelElements * 16;
  if (auto st = check_size(gpu, bytes, buffer_bytes); !st) return std::move(st).error();
  const std::uint32_t total = rounds * n;
  const Grid grid = stream_grid(pc, total);
  auto pipeline = gpu.pipeline(kernel_source("bandwidth/write_scatter"), id);
  if (!pipeline) return std::move(pipeline).error();
  auto pair = filled_pair(gpu, buffer_bytes, id);
  if (!pair) return std::move(pair).error();
  const ScatterShape shape = scatter_shape(n, kStreamSeed);
  const ScatterParams params{total, grid.threads, shape.seed, n - 1, log2_exact(n), shape.s1, shape.s2, 1};
  auto uniform = gpu.buffer_with(std::span<const ScatterParams>(&params, 1), kUniform, id + " params");
  if (!uniform) return std::move(uniform).error();

  KernelSpec spec = alternating_spec(gpu, *pipeline, *pair, {*uniform}, grid.groups);
  set_passes_knob(spec, *uniform, offsetof(ScatterParams, passes), kMaxPasses);
  const auto written = static_cast<double>(plan.bytes_written);
  spec.work = [written](std::uint64_t passes) {
    return WorkModel{.bytes_written = written * static_cast<double>(passes)};
  };
  spec.parameters = report::with_facts(
      nlohmann::json({{"rounds", rounds},
                      {"element", "vec4<u32>"},
                      {"sentinel_bytes", kSentinelElements * 16},
                      {"workgroup_size", kWorkgroup},
                      {"invocations", grid.threads}}),
      {.access = "scatter", .buffers = 2, .window_bytes = window_bytes, .nominal_window_bytes = nominal_window});
  add_footprint(spec.parameters, 2 * window_bytes);
  // Validation: (1) the timed passes left both sentinels alone; (2) a one-round pass over a
  // freshly filled buffer A wrote every destination exactly once and nothing past the window.
  spec.validate = [pair = *pair, uniform = *uniform, pipeline = *pipeline, params, shape, buffer_bytes, window_bytes,
                   n, grid](gpu::Context& g, std::uint64_t passes) -> Expected<std::string> {
    for (const auto& [buf, seed] : {std::pair{pair.a, kSeedA}, std::pair{pair.b, kSeedB}}) {
      auto tail = g.read_as<std::uint32_t>(buf, window_bytes, kSentinelElements * 4);
      if (!tail) return std::move(tail).error();
      for (std::uint32_t w = 0; w < kSentinelElements * 4; ++w) {
        if ((*tail)[w] != gpu::filled_word(static_cast<std::uint64_t>(n) * 4 + w, seed)) {
          return make_error(ErrorKind::Failed, "a timed pass wrote past the scatter window");
        }
      }
    }
    if (auto st = g.fill_hashed(pair.a, buffer_bytes, kSeedA); !st) return std::move(st).error();
    ScatterParams one = params;
    one.total = n;
    one.passes = 1;
    g.write(uniform, 0, &one, sizeof(one));
    auto group = bind_buffers(g, pipeline, {pair.a, uniform});
    // Same grid as the timed passes: the kernel's stride is the dispatched invocation count.
    auto st = dispatch_once(g, pipeline, group, grid.groups);
    ScatterParams restore = params;
    restore.passes = static_cast<std::uint32_t>(passes);
    g.write(uniform, 0, &restore, sizeof(restore));
    if (!st) return std::move(st).error();
    auto words = g.read_as<std::uint32_t>(pair.a, 0, buffer_bytes / 4);
    if (!words) return std::move(words).error();
    return check_scatter(*words, shape, kSeedA);
  };
  if (auto st = add_launch_cost(gpu, spec); !st) return std::move(st).error();
  return make_kernel_workload(gpu, std::move(spec));
}

}  // namespace

std::vector<BenchmarkDefinition> bandwidth_benchmarks() {
  const Metric read{"bytes", "B", "Bytes read"};
  const Metric written{"bytes", "B", "Bytes written"};
  std::vector<BenchmarkDefinition> v = linear_benchmarks();
  struct Window {
    const char* suffix;
    const char* label;
    std::uint64_t bytes;
  };
  const Window windows[] = {{"16kb", "16 KiB", kWindow16k}, {"4mb", "4 MiB", kWindow4m}, {"64mb", "64 MiB", kWindow64m}};
  // Each access pattern at every window size; its label and description name the window ({}).
  using PrepareWindow = Expected<std::unique_ptr<Workload>> (*)(PrepareContext&, const std::string&, std::uint64_t);
  struct Pattern {
    const char* id;
    const char* label;
    const char* description;
    const Metric& metric;
    const char* kernel;
    PrepareWindow prepare;
  };
  const Pattern patterns[] = {
      {"read-gather", "Gather read, {} window",
       "Per pass as many 16-byte vec4<u32> loads as a pass of read-linear (the whole buffer's worth: "
       "64 MiB by default, the row's shape and buffer_bytes give the size used), each at a "
       "pseudo-random element inside the first {} of the buffer (clamped to the buffer, a power of "
       "two); addresses from per-invocation LCG streams seeded by a hash of the invocation id and a "
       "uniform seed; four loads in flight, XOR-folded; `passes` passes per dispatch continue the "
       "streams. Two buffers alternate between dispatches. Counts bytes read.",
       read, "bandwidth/read_gather", prepare_gather},
      {"write-scatter", "Scatter write, {} window",
       "Each 16-byte vec4<u32> of a {} window (clamped to the buffer size, a power of two) is "
       "written exactly once per round through a hashed unique-destination permutation; a pass "
       "runs as many rounds as the bandwidth size (64 MiB by default; the row's rounds say how many) "
       "holds windows, a dispatch `passes` passes. A sentinel past the window must stay untouched. "
       "Two buffers alternate between dispatches. Counts bytes written (window x rounds x passes).",
       written, "bandwidth/write_scatter", prepare_write_scatter},
  };
  for (const auto& p : patterns) {
    for (const auto& w : windows) {
      const std::string id = fmt::format("{}-{}", p.id, w.suffix);
      const std::uint64_t nominal = w.bytes;
      const PrepareWindow prepare = p.prepare;
      v.push_back(bandwidth_definition(
          id, fmt::format(fmt::runtime(p.label), w.label), fmt::format(fmt::runtime(p.description), w.label),
          p.metric, p.kernel, [id, nominal, prepare](PrepareContext& pc) { return prepare(pc, id, nominal); }));
    }
  }
  return v;
}

}  // namespace wgb::catalog
