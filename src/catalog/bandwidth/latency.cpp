// read-latency: dependent-load latency at a chosen working-set size (SuiteOptions::working_set_bytes,
// default 64 MiB), so `webgpu-bench sweep read-latency` draws the latency-versus-working-set curve
// whose steps are the cache levels (a single point does not show the regime).
// Not in the default suite: the memory suite's latency phase is the default-size measurement.
#include <fmt/format.h>

#include "catalog/common.hpp"
#include "catalog/families.hpp"
#include "catalog/technique/reference.hpp"
#include "gpu/hash.hpp"
#include "webgpu_bench/options.hpp"

namespace wgb::catalog {

namespace {

constexpr std::uint64_t kNodeBytes = 64;  // one node per 64-byte line
constexpr std::uint64_t kDefaultWorkingSet = 64ull << 20;
constexpr std::uint64_t kChainSeed = 0x1a7e9c1ULL;

struct LatencyParams {
  std::uint32_t iterations, pad0, pad1, pad2;
};

// The walk the GPU must reproduce: `hops` steps from word `start` (word indices, 16 words per node).
std::uint32_t host_walk(const std::vector<std::uint32_t>& words, std::uint64_t hops, std::uint32_t start = 0) {
  std::uint32_t idx = start;
  for (std::uint64_t i = 0; i < hops; ++i) idx = words[idx];
  return idx;
}

// The chase's working set: the option (or the default) in whole nodes, at least two of them, within
// the adapter's storage binding limit (a larger one is skipped with the reason).
Expected<std::uint64_t> chain_bytes(PrepareContext& pc) {
  std::uint64_t bytes = pc.options.working_set_bytes != 0 ? pc.options.working_set_bytes : kDefaultWorkingSet;
  bytes = bytes / kNodeBytes * kNodeBytes;
  const std::uint64_t limit = std::min<std::uint64_t>(pc.gpu.limits().maxStorageBufferBindingSize, 1ull << 32);
  if (bytes < 2 * kNodeBytes) {
    return make_error(ErrorKind::Usage, fmt::format("working set {} bytes is below two 64-byte nodes", bytes));
  }
  if (bytes > limit) {
    return make_error(ErrorKind::Skipped,
                      fmt::format("a {} byte working set exceeds the adapter's storage binding limit {}", bytes, limit));
  }
  return bytes;
}

Expected<std::unique_ptr<Workload>> prepare_read_latency(PrepareContext& pc) {
  auto& gpu = pc.gpu;
  auto sized = chain_bytes(pc);
  if (!sized) return std::move(sized).error();
  const std::uint64_t bytes = *sized;
  const auto nodes = static_cast<std::uint32_t>(bytes / kNodeBytes);
  // Node i's first word holds the word index of its successor; the other 15 words are hashed filler
  // (never read, never zero).
  std::vector<std::uint32_t> words(bytes / 4);
  for (std::size_t i = 0; i < words.size(); ++i) words[i] = gpu::filled_word(i, 0x1a7e11u);
  const auto next = technique::sattolo_chain(nodes, kChainSeed);
  for (std::uint32_t i = 0; i < nodes; ++i) words[std::size_t{i} * 16] = next[i] * 16;

  const std::string src = kernel_source("bandwidth/read_latency");
  auto pipeline = gpu.pipeline(src, "read-latency");
  if (!pipeline) return std::move(pipeline).error();
  auto chain = gpu.buffer_with(std::span<const std::uint32_t>(words), kStorage, "read-latency chain");
  if (!chain) return std::move(chain).error();
  const std::uint32_t zero[4] = {};
  auto state = gpu.buffer_with(std::span<const std::uint32_t>(zero), kStorage, "read-latency state");
  if (!state) return std::move(state).error();
  const LatencyParams params{4096, 0, 0, 0};
  auto uniform = gpu.buffer_with(std::span<const LatencyParams>(&params, 1), kUniform, "read-latency params");
  if (!uniform) return std::move(uniform).error();

  KernelSpec spec;
  spec.pipeline = *pipeline;
  spec.bind_groups = {bind_buffers(gpu, *pipeline, {*chain, *state, *uniform})};
  spec.workgroups = {1, 1, 1};
  spec.knob = {"hops", 16, 1u << 26, 4096};
  spec.knob_uniform = *uniform;
  spec.knob_offset = 0;
  spec.work = [](std::uint64_t hops) { return WorkModel{.operations = static_cast<double>(hops)}; };
  spec.parameters = {{"working_set_bytes", bytes}, {"nodes", nodes}, {"node_bytes", kNodeBytes},
                     {"invocations", 1}, {"ns_per_hop", "1e9 / (hops per second)"}};
  // Validation: restart from node 0 and walk a count that wraps the cycle once for small sets; the
  // GPU's final index must equal the host's walk of the same cycle.
  spec.validate = [chain = *chain, state = *state, uniform = *uniform, pipeline = *pipeline, words = std::move(words),
                   nodes](gpu::Context& g, std::uint64_t knob) -> Expected<std::string> {
    const std::uint32_t hops = std::min<std::uint32_t>(nodes + 7, 1u << 20);
    const std::uint32_t zero4[4] = {};
    g.write(state, 0, zero4, sizeof(zero4));
    const LatencyParams probe{hops, 0, 0, 0};
    g.write(uniform, 0, &probe, sizeof(probe));
    auto group = bind_buffers(g, pipeline, {chain, state, uniform});
    auto st = g.run_pass([&](wgpu::ComputePassEncoder& pass) {
      pass.SetPipeline(pipeline);
      pass.SetBindGroup(0, group);
      pass.DispatchWorkgroups(1);
    });
    const LatencyParams restore{static_cast<std::uint32_t>(knob), 0, 0, 0};
    g.write(uniform, 0, &restore, sizeof(restore));
    if (!st) return std::move(st).error();
    auto got = g.read_as<std::uint32_t>(state, 0, 1);
    if (!got) return std::move(got).error();
    const std::uint32_t want = host_walk(words, hops);
    if ((*got)[0] != want) {
      return make_error(ErrorKind::Failed,
                        fmt::format("after {} hops the GPU was at word {}, the host walk at {}", hops, (*got)[0], want));
    }
    return fmt::format("after {} hops from node 0 the GPU's position matched the host's walk of the cycle", hops);
  };
  return make_kernel_workload(gpu, std::move(spec));
}

// The spread chase: up to kWalkers walkers, one per workgroup, each on its own cycle through its own
// contiguous slice of the nodes (at least two nodes each).
constexpr std::uint32_t kWalkers = 256;

struct Slice {
  std::uint32_t first = 0, count = 0;  // node indices
};

std::vector<Slice> walker_slices(std::uint32_t nodes, std::uint32_t walkers) {
  std::vector<Slice> v(walkers);
  for (std::uint32_t w = 0; w < walkers; ++w) {
    const auto a = static_cast<std::uint32_t>(std::uint64_t{nodes} * w / walkers);
    const auto b = static_cast<std::uint32_t>(std::uint64_t{nodes} * (w + 1) / walkers);
    v[w] = {a, b - a};
  }
  return v;
}

Expected<std::unique_ptr<Workload>> prepare_read_latency_spread(PrepareContext& pc) {
  auto& gpu = pc.gpu;
  auto sized = chain_bytes(pc);
  if (!sized) return std::move(sized).error();
  const std::uint64_t bytes = *sized;
  const auto nodes = static_cast<std::uint32_t>(bytes / kNodeBytes);
  const std::uint32_t walkers = std::min(kWalkers, nodes / 2);
  const auto slices = walker_slices(nodes, walkers);
  std::vector<std::uint32_t> words(bytes / 4);
  for (std::size_t i = 0; i < words.size(); ++i) words[i] = gpu::filled_word(i, 0x5b7e11u);
  std::vector<std::uint32_t> start(walkers);
  for (std::uint32_t w = 0; w < walkers; ++w) {
    const auto next = technique::sattolo_chain(slices[w].count, kChainSeed ^ (std::uint64_t{w} * 0x9e3779b97f4a7c15ULL));
    for (std::uint32_t i = 0; i < slices[w].count; ++i) {
      words[std::size_t{slices[w].first + i} * 16] = (slices[w].first + next[i]) * 16;
    }
    start[w] = slices[w].first * 16;
  }

  const std::string src = kernel_source("bandwidth/read_latency_spread");
  auto pipeline = gpu.pipeline(src, "read-latency-spread");
  if (!pipeline) return std::move(pipeline).error();
  auto chain = gpu.buffer_with(std::span<const std::uint32_t>(words), kStorage, "read-latency-spread chain");
  if (!chain) return std::move(chain).error();
  auto state = gpu.buffer_with(std::span<const std::uint32_t>(start), kStorage, "read-latency-spread state");
  if (!state) return std::move(state).error();
  const LatencyParams params{4096, walkers, 0, 0};
  auto uniform = gpu.buffer_with(std::span<const LatencyParams>(&params, 1), kUniform, "read-latency-spread params");
  if (!uniform) return std::move(uniform).error();

  KernelSpec spec;
  spec.pipeline = *pipeline;
  spec.bind_groups = {bind_buffers(gpu, *pipeline, {*chain, *state, *uniform})};
  spec.workgroups = {walkers, 1, 1};
  spec.knob = {"hops", 16, 1u << 26, 4096};
  spec.knob_uniform = *uniform;
  spec.knob_offset = 0;
  spec.work = [](std::uint64_t hops) { return WorkModel{.operations = static_cast<double>(hops)}; };
  spec.parameters = {{"working_set_bytes", bytes},
                     {"nodes", nodes},
                     {"node_bytes", kNodeBytes},
                     {"walkers", walkers},
                     {"invocations", walkers},
                     {"nodes_per_walker", nodes / walkers},
                     {"load", "atomicAdd of 0 (a device-coherent read-modify-write, performed where the line is homed)"},
                     {"ns_per_hop", "1e9 / (hops per second of one walker)"}};
  // Validation: every walker restarts at its slice's first node and walks a count that wraps its
  // cycle once for small slices; each final position must equal the host's walk of that cycle.
  spec.validate = [chain = *chain, state = *state, uniform = *uniform, pipeline = *pipeline, words = std::move(words),
                   start, walkers, slices](gpu::Context& g, std::uint64_t knob) -> Expected<std::string> {
    const std::uint32_t hops = std::min<std::uint32_t>(slices.back().count + 7, 1u << 16);
    g.write(state, 0, start.data(), start.size() * sizeof(std::uint32_t));
    const LatencyParams probe{hops, walkers, 0, 0};
    g.write(uniform, 0, &probe, sizeof(probe));
    auto group = bind_buffers(g, pipeline, {chain, state, uniform});
    auto st = g.run_pass([&](wgpu::ComputePassEncoder& pass) {
      pass.SetPipeline(pipeline);
      pass.SetBindGroup(0, group);
      pass.DispatchWorkgroups(walkers);
    });
    const LatencyParams restore{static_cast<std::uint32_t>(knob), walkers, 0, 0};
    g.write(uniform, 0, &restore, sizeof(restore));
    if (!st) return std::move(st).error();
    auto got = g.read_as<std::uint32_t>(state, 0, walkers);
    if (!got) return std::move(got).error();
    for (std::uint32_t w = 0; w < walkers; ++w) {
      const std::uint32_t idx = host_walk(words, hops, start[w]);
      if ((*got)[w] != idx) {
        return make_error(ErrorKind::Failed, fmt::format("walker {} of {}: after {} hops the GPU was at word {}, the "
                                                         "host walk at {}",
                                                         w, walkers, hops, (*got)[w], idx));
      }
    }
    return fmt::format("after {} hops each of the {} walkers' positions matched the host's walk of its cycle", hops,
                       walkers);
  };
  return make_kernel_workload(gpu, std::move(spec));
}

}  // namespace

std::vector<BenchmarkDefinition> latency_benchmarks() {
  std::vector<BenchmarkDefinition> v;
  v.push_back(BenchmarkDefinition{
      .id = "read-latency",
      .label = "Dependent-load latency",
      .description = "One invocation follows a single random cycle (Sattolo) through 64-byte nodes filling the "
                     "working set (SuiteOptions::working_set_bytes, default 64 MiB; `sweep read-latency` varies it); "
                     "each load's address is the previous load's value; the position carries across dispatches. "
                     "Counts hops; ns per hop = 1e9 / rate (includes loop cost, amortised dispatch cost). The "
                     "walker runs on whichever compute unit the driver schedules it on, and that choice shows: on "
                     "an H200 the same walk from different SMs spans 8% at 4 MiB and 4% at 256 MiB "
                     "(results/h200-2026-11-30-third.md).",
      .category = "latency",
      .metric = {"hops", "hop", "Dependent loads"},
      .source = kernel_source("bandwidth/read_latency"),
      .statistic = Statistic::Median,
      .statistic_reason = "median with IQR: a memory round trip depends on the memory system's state",
      .requires_features = {},
      .family = "",
      .in_default_suite = false,
      .prepare = prepare_read_latency,
      .sweep_parameters = {"size"},
  });
  v.push_back(BenchmarkDefinition{
      .id = "read-latency-spread",
      .label = "Dependent-access latency, device-wide",
      .description = "256 walkers, one per workgroup so that they spread over the compute units, each follow their "
                     "own random cycle (Sattolo) through their own slice of the working set (64-byte nodes; "
                     "SuiteOptions::working_set_bytes, default 64 MiB), every hop an atomic read-modify-write that "
                     "changes nothing (atomicAdd of 0): device-coherent, so it skips each compute unit's private "
                     "cache, and performed where the line is homed, so a cache split between groups of units holds "
                     "each node once. Shows the capacity of the cache the whole device shares, where one walker "
                     "(read-latency) sees only the part near its unit (NVIDIA's two L2 partitions). ns per hop = "
                     "1e9 / rate, the rate counting one walker's hops: a read-modify-write's round trip, longer than "
                     "a load's; meaningful where the walkers run at once (a GPU, not a CPU adapter's few threads).",
      .category = "latency",
      .metric = {"hops", "hop", "Dependent loads"},
      .source = kernel_source("bandwidth/read_latency_spread"),
      .statistic = Statistic::Median,
      .statistic_reason = "median with IQR: a memory round trip depends on the memory system's state",
      .requires_features = {},
      .family = "",
      .in_default_suite = false,
      .prepare = prepare_read_latency_spread,
      .sweep_parameters = {"size"},
  });
  return v;
}

}  // namespace wgb::catalog
