// Bandwidth probes: read-linear, write-linear, read-gather-* and
// write-scatter-*. Every buffer is filled with hashed data (never zeros); reads are XOR-folded and
// kept alive by a sentinel compare; consecutive dispatches alternate between two buffers so no
// repetition finds its footprint still in cache from the previous one. Each probe is validated
// after timing by a dedicated pass whose output the host recomputes.
#include <fmt/format.h>

#include <algorithm>

#include "catalog/bandwidth/bandwidth.hpp"
#include "catalog/common.hpp"
#include "catalog/families.hpp"
#include "gpu/hash.hpp"
#include "webgpu_bench/options.hpp"

namespace wgb::catalog {

namespace {

using namespace bandwidth;

constexpr std::uint32_t kWorkgroup = 256;
constexpr const char* kMemoryStatisticReason =
    "median with IQR: memory traffic depends on the memory system's state and scheduling";
// Fill seeds of the two alternated buffers, and the seeds of the address/value streams.
constexpr std::uint32_t kSeedA = 0xA11CE5EDu, kSeedB = 0xB0B5EED5u;
constexpr std::uint32_t kStreamSeed = 0x5EED0F1Cu;

// Grid of a streaming kernel over `elements` vec4: by default four elements per invocation per
// step, as many invocations as that needs (1M at 64 MiB); SuiteOptions::compute_threads, when set,
// asks for that many invocations instead (rounded up to whole workgroups; each then walks its
// grid-stride share). Either way capped by the dispatch limit.
struct Grid {
  std::uint32_t groups, threads;
};
Grid stream_grid(PrepareContext& pc, std::uint64_t elements) {
  const std::uint64_t threads = pc.options.compute_threads != 0 ? pc.options.compute_threads : elements / 4;
  const std::uint64_t want = (threads + kWorkgroup - 1) / kWorkgroup;
  const auto groups = static_cast<std::uint32_t>(
      std::clamp<std::uint64_t>(want, 1, pc.gpu.limits().maxComputeWorkgroupsPerDimension));
  return {groups, groups * kWorkgroup};
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

struct BufferPair {
  wgpu::Buffer a, b;
};
Expected<BufferPair> filled_pair(gpu::Context& gpu, std::uint64_t bytes, const std::string& label) {
  auto a = gpu.buffer(bytes, kStorage, label + " A");
  if (!a) return std::move(a).error();
  auto b = gpu.buffer(bytes, kStorage, label + " B");
  if (!b) return std::move(b).error();
  if (auto st = gpu.fill_hashed(*a, bytes, kSeedA); !st) return std::move(st).error();
  if (auto st = gpu.fill_hashed(*b, bytes, kSeedB); !st) return std::move(st).error();
  return BufferPair{*a, *b};
}

// `pipeline` over `groups` workgroups, its repetitions alternating between the pair's buffers (bound
// at 0, `rest` after them at 1..n).
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

std::string hex4(const std::array<std::uint32_t, 4>& v) {
  return fmt::format("{:08x}{:08x}{:08x}{:08x}", v[0], v[1], v[2], v[3]);
}

// ---- read-linear and read-gather: XOR fold + sentinel ------------------------------------------

// Both read kernels share one uniform prefix {count, threads, magic0, magic1} and the sink; the
// gather kernel appends its stream parameters.
struct ReadParams {
  std::uint32_t count, threads, magic0, magic1;
  std::uint32_t seed = 0, mask = 0, shift = 0, pad = 0;
};

// Validation of a read kernel: point the sentinels at one invocation's true fold over buffer A;
// the kernel must then write exactly that value into the sink. This proves every load of that
// invocation happened, at the addresses the host replays.
Expected<std::string> validate_read(gpu::Context& g, const wgpu::ComputePipeline& pipeline, const wgpu::Buffer& a,
                                    const wgpu::Buffer& sink, const wgpu::Buffer& uniform, ReadParams params,
                                    std::uint32_t groups, std::uint32_t t, const std::array<std::uint32_t, 4>& want,
                                    std::uint32_t loads) {
  const ReadParams restore = params;
  params.magic0 = want[0];
  params.magic1 = want[1];
  g.write(uniform, 0, &params, sizeof(params));
  const std::uint32_t zero[1024] = {};
  g.write(sink, 0, zero, sizeof(zero));
  auto group = bind_buffers(g, pipeline, {a, sink, uniform});
  auto st = dispatch_once(g, pipeline, group, groups);
  g.write(uniform, 0, &restore, sizeof(restore));
  if (!st) return std::move(st).error();
  auto got = g.read_as<std::uint32_t>(sink, (t & 255u) * 16, 4);
  if (!got) return std::move(got).error();
  const std::array<std::uint32_t, 4> have{(*got)[0], (*got)[1], (*got)[2], (*got)[3]};
  if (have != want) {
    return make_error(ErrorKind::Failed,
                      fmt::format("invocation {} folded {}, expected {}", t, hex4(have), hex4(want)));
  }
  return fmt::format("invocation {}'s XOR fold of its {} loads matched the host", t, loads);
}

// The footprint parameters plausibility reads (src/suite/plausibility.cpp): the unique bytes two
// consecutive dispatches touch decide whether a DRAM ceiling applies.
void add_footprint(nlohmann::json& p, std::uint64_t footprint) {
  p["footprint_bytes"] = footprint;
  p["peak_class"] = "memory";
}

Expected<std::unique_ptr<Workload>> prepare_read(PrepareContext& pc, const std::string& id,
                                                 std::uint64_t nominal_window) {
  auto& gpu = pc.gpu;
  const std::uint64_t bytes = pc.options.bandwidth_bytes;
  if (auto st = check_size(gpu, bytes, bytes); !st) return std::move(st).error();
  const bool gather = nominal_window != 0;
  const auto count = static_cast<std::uint32_t>(bytes / 16);
  const Grid grid = stream_grid(pc, count);
  const std::string src = kernel_source(gather ? "bandwidth/read_gather" : "bandwidth/read_linear");
  auto pipeline = gpu.pipeline(src, id);
  if (!pipeline) return std::move(pipeline).error();
  auto pair = filled_pair(gpu, bytes, id);
  if (!pair) return std::move(pair).error();
  auto sink = gpu.buffer(256 * 16, kStorage, id + " sink");
  if (!sink) return std::move(sink).error();
  ReadParams params{count, grid.threads, kMagic0, kMagic1};
  std::uint32_t window = count;
  if (gather) {
    window = window_elements(nominal_window, bytes);
    params.seed = kStreamSeed;
    params.mask = window - 1;
    params.shift = gather_shift(log2_exact(window));
  }
  auto uniform = gpu.buffer_with(std::span<const ReadParams>(&params, 1), kUniform, id + " params");
  if (!uniform) return std::move(uniform).error();

  KernelSpec spec = alternating_spec(gpu, *pipeline, *pair, {*sink, *uniform}, grid.groups);
  spec.work = [bytes](std::uint64_t) { return WorkModel{.bytes_read = static_cast<double>(bytes)}; };
  spec.parameters = {{"buffer_bytes", bytes}, {"buffers", 2}, {"element", "vec4<u32>"},
                     {"workgroup_size", kWorkgroup}, {"invocations", grid.threads}, {"loads", count}};
  spec.parameters["access"] = gather ? "gather" : "linear";  // plausibility compares linear streams only
  spec.parameters["shape"] = buffer_shape(bytes);
  if (gather) {
    spec.parameters["window_bytes"] = static_cast<std::uint64_t>(window) * 16;
    spec.parameters["nominal_window_bytes"] = nominal_window;
    add_footprint(spec.parameters, 2ull * window * 16);
  } else {
    add_footprint(spec.parameters, 2 * bytes);
  }
  spec.validate = [a = pair->a, sink = *sink, uniform = *uniform, pipeline = *pipeline, params, grid, gather](
                      gpu::Context& g, std::uint64_t) -> Expected<std::string> {
    const std::uint32_t t = (grid.threads / 2 + 77) % grid.threads;
    const auto want = gather ? gather_fold(t, GatherStream{params.count, params.threads, params.seed, params.mask,
                                                           params.shift, kSeedA})
                             : linear_fold(t, params.threads, params.count, kSeedA);
    const std::uint32_t loads = (params.count - t + params.threads - 1) / params.threads;
    return validate_read(g, pipeline, a, sink, uniform, params, grid.groups, t, want, loads);
  };
  return make_kernel_workload(gpu, std::move(spec));
}

// ---- write-linear ------------------------------------------------------------------------------

struct WriteParams {
  std::uint32_t count, threads, seed, pad;
};

Expected<std::unique_ptr<Workload>> prepare_write_linear(PrepareContext& pc) {
  auto& gpu = pc.gpu;
  const std::string id = "write-linear";
  const std::uint64_t bytes = pc.options.bandwidth_bytes;
  if (auto st = check_size(gpu, bytes, bytes); !st) return std::move(st).error();
  const auto count = static_cast<std::uint32_t>(bytes / 16);
  const Grid grid = stream_grid(pc, count);
  auto pipeline = gpu.pipeline(kernel_source("bandwidth/write_linear"), id);
  if (!pipeline) return std::move(pipeline).error();
  auto pair = filled_pair(gpu, bytes, id);
  if (!pair) return std::move(pair).error();
  const WriteParams params{count, grid.threads, kStreamSeed, 0};
  auto uniform = gpu.buffer_with(std::span<const WriteParams>(&params, 1), kUniform, id + " params");
  if (!uniform) return std::move(uniform).error();

  KernelSpec spec = alternating_spec(gpu, *pipeline, *pair, {*uniform}, grid.groups);
  spec.work = [bytes](std::uint64_t) { return WorkModel{.bytes_written = static_cast<double>(bytes)}; };
  spec.parameters = {{"buffer_bytes", bytes},       {"buffers", 2},
                     {"element", "vec4<u32>"},      {"workgroup_size", kWorkgroup},
                     {"invocations", grid.threads}, {"shape", buffer_shape(bytes)},
                     {"access", "linear"}};
  add_footprint(spec.parameters, 2 * bytes);
  // Validation: re-fill buffer A with hashed data, run one pass, and check every element: an
  // element the kernel skipped still holds the hash, not its index value.
  spec.validate = [a = pair->a, uniform = *uniform, pipeline = *pipeline, bytes, grid](
                      gpu::Context& g, std::uint64_t) -> Expected<std::string> {
    if (auto st = g.fill_hashed(a, bytes, kSeedA); !st) return std::move(st).error();
    auto group = bind_buffers(g, pipeline, {a, uniform});
    if (auto st = dispatch_once(g, pipeline, group, grid.groups); !st) return std::move(st).error();
    auto words = g.read_as<std::uint32_t>(a, 0, bytes / 4);
    if (!words) return std::move(words).error();
    return check_write_linear(*words, kStreamSeed);
  };
  return make_kernel_workload(gpu, std::move(spec));
}

// ---- write-scatter -----------------------------------------------------------------------------

struct ScatterParams {
  std::uint32_t total, threads, seed, mask, bits, s1, s2, pad;
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
  const ScatterParams params{total, grid.threads, shape.seed, n - 1, log2_exact(n), shape.s1, shape.s2, 0};
  auto uniform = gpu.buffer_with(std::span<const ScatterParams>(&params, 1), kUniform, id + " params");
  if (!uniform) return std::move(uniform).error();

  KernelSpec spec = alternating_spec(gpu, *pipeline, *pair, {*uniform}, grid.groups);
  const auto written = static_cast<double>(plan.bytes_written);
  spec.work = [written](std::uint64_t) { return WorkModel{.bytes_written = written}; };
  spec.parameters = {{"window_bytes", window_bytes},
                     {"nominal_window_bytes", nominal_window},
                     {"rounds", rounds},
                     {"buffers", 2},
                     {"element", "vec4<u32>"},
                     {"sentinel_bytes", kSentinelElements * 16},
                     {"workgroup_size", kWorkgroup},
                     {"invocations", grid.threads},
                     {"access", "scatter"}};
  add_footprint(spec.parameters, 2 * window_bytes);
  // Validation: (1) the timed passes left both sentinels alone; (2) a one-round pass over a
  // freshly filled buffer A wrote every destination exactly once and nothing past the window.
  spec.validate = [pair = *pair, uniform = *uniform, pipeline = *pipeline, params, shape, buffer_bytes, window_bytes,
                   n, grid](gpu::Context& g, std::uint64_t) -> Expected<std::string> {
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
    g.write(uniform, 0, &one, sizeof(one));
    auto group = bind_buffers(g, pipeline, {pair.a, uniform});
    // Same grid as the timed passes: the kernel's stride is the dispatched invocation count.
    auto st = dispatch_once(g, pipeline, group, grid.groups);
    g.write(uniform, 0, &params, sizeof(params));
    if (!st) return std::move(st).error();
    auto words = g.read_as<std::uint32_t>(pair.a, 0, buffer_bytes / 4);
    if (!words) return std::move(words).error();
    return check_scatter(*words, shape, kSeedA);
  };
  return make_kernel_workload(gpu, std::move(spec));
}

BenchmarkDefinition bandwidth_definition(std::string id, std::string label, std::string description,
                                         Metric metric, std::string kernel,
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

}  // namespace

std::vector<BenchmarkDefinition> bandwidth_benchmarks() {
  const Metric read{"bytes", "B", "Bytes read"};
  const Metric written{"bytes", "B", "Bytes written"};
  std::vector<BenchmarkDefinition> v;
  v.push_back(bandwidth_definition(
      "read-linear", "Linear read",
      "Coalesced grid-stride vec4<u32> reads of a buffer filled with hashed data (64 MiB, 4096x4096 4-byte words, "
      "by default; --bandwidth-mib sets it and the row's shape and buffer_bytes say what was used); four independent "
      "16-byte loads per step, XOR-folded and kept by a sentinel compare. Consecutive "
      "dispatches alternate between two such buffers. Counts bytes read.",
      read, "bandwidth/read_linear", [](PrepareContext& pc) { return prepare_read(pc, "read-linear", 0); }));
  v.push_back(bandwidth_definition(
      "write-linear", "Linear write",
      "Coalesced grid-stride vec4<u32> stores covering a buffer (64 MiB, 4096x4096 4-byte words, by default; "
      "--bandwidth-mib sets it and the row's shape and buffer_bytes say what was used); four "
      "independent 16-byte stores per step of a value computed from the index. Consecutive dispatches "
      "alternate between two buffers. Counts bytes written.",
      written, "bandwidth/write_linear", prepare_write_linear));
  struct Window {
    const char* suffix;
    const char* label;
    std::uint64_t bytes;
  };
  const Window windows[] = {{"16kb", "16 KiB", kWindow16k}, {"4mb", "4 MiB", kWindow4m}, {"64mb", "64 MiB", kWindow64m}};
  for (const auto& w : windows) {
    const std::string id = fmt::format("read-gather-{}", w.suffix);
    const std::uint64_t nominal = w.bytes;
    v.push_back(bandwidth_definition(
        id, fmt::format("Gather read, {} window", w.label),
        fmt::format("The same number of 16-byte vec4<u32> loads as read-linear (the whole buffer's worth: 64 MiB by "
                    "default, the row's shape and buffer_bytes give the size used), each at a pseudo-random "
                    "element inside the first {} of the buffer (clamped to the buffer, a "
                    "power of two); addresses from per-invocation LCG streams seeded by a hash of the invocation "
                    "id and a uniform seed; four loads in flight, XOR-folded. Two buffers alternate. Counts bytes "
                    "read.",
                    w.label),
        read, "bandwidth/read_gather", [id, nominal](PrepareContext& pc) { return prepare_read(pc, id, nominal); }));
  }
  for (const auto& w : windows) {
    const std::string id = fmt::format("write-scatter-{}", w.suffix);
    const std::uint64_t nominal = w.bytes;
    v.push_back(bandwidth_definition(
        id, fmt::format("Scatter write, {} window", w.label),
        fmt::format("Each 16-byte vec4<u32> of a {} window (clamped to the buffer size, a power of two) is "
                    "written exactly once per round through a hashed unique-destination permutation; a dispatch "
                    "runs as many rounds as the bandwidth size (64 MiB by default; the row's rounds say how many) "
                    "holds windows. A sentinel past the window must stay untouched. Two buffers alternate. Counts "
                    "bytes written (window x rounds).",
                    w.label),
        written, "bandwidth/write_scatter",
        [id, nominal](PrepareContext& pc) { return prepare_write_scatter(pc, id, nominal); }));
  }
  return v;
}

}  // namespace wgb::catalog
