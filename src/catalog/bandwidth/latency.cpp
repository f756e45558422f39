// read-latency: dependent-load latency at a chosen working-set size (SuiteOptions::working_set_bytes,
// default 64 MiB), so `webgpu-bench sweep read-latency` draws the latency-versus-working-set curve
// whose steps are the cache levels (a single point does not show the regime).
// Not in the default suite: the memory suite's latency phase is the default-size measurement.
#include <fmt/format.h>

#include "catalog/bandwidth/prepare.hpp"
#include "catalog/common.hpp"
#include "catalog/families.hpp"
#include "catalog/technique/reference.hpp"
#include "gpu/hash.hpp"
#include "report/facts.hpp"
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
struct ChainSize {
  std::uint64_t bytes;
  std::uint32_t nodes;
};
Expected<ChainSize> chain_size(PrepareContext& pc) {
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
  return ChainSize{bytes, static_cast<std::uint32_t>(bytes / kNodeBytes)};
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

// The chain: `bytes` of hashed filler (seeded by `fill`; never read, never zero) in which each
// slice's nodes form one random cycle (Sattolo): a node's first word holds the word index of its
// successor. Returns the words and each slice's first word, where its walker starts.
struct Chain {
  std::vector<std::uint32_t> words, start;
};
Chain build_chain(std::uint64_t bytes, const std::vector<Slice>& slices, std::uint32_t fill) {
  Chain c{std::vector<std::uint32_t>(bytes / 4), std::vector<std::uint32_t>(slices.size())};
  for (std::size_t i = 0; i < c.words.size(); ++i) c.words[i] = gpu::filled_word(i, fill);
  for (std::uint32_t w = 0; w < slices.size(); ++w) {
    const std::uint64_t seed = kChainSeed ^ (std::uint64_t{w} * 0x9e3779b97f4a7c15ULL);
    const auto next = technique::sattolo_chain(slices[w].count, seed);
    for (std::uint32_t i = 0; i < slices[w].count; ++i) {
      c.words[std::size_t{slices[w].first + i} * 16] = (slices[w].first + next[i]) * 16;
    }
    c.start[w] = slices[w].first * 16;
  }
  return c;
}

// The chase's pipeline and its three bindings: the chain, the walkers' positions, the parameters.
struct ChaseResources {
  wgpu::ComputePipeline pipeline;
  wgpu::Buffer chain, state, uniform;
};
Expected<ChaseResources> chase_resources(gpu::Context& gpu, const char* kernel, const std::string& id,
                                         const std::vector<std::uint32_t>& words,
                                         const std::vector<std::uint32_t>& state, const LatencyParams& params) {
  auto pipeline = gpu.pipeline(kernel_source(kernel), id);
  if (!pipeline) return std::move(pipeline).error();
  auto chain = gpu.buffer_with(std::span<const std::uint32_t>(words), kStorage, id + " chain");
  if (!chain) return std::move(chain).error();
  auto positions = gpu.buffer_with(std::span<const std::uint32_t>(state), kStorage, id + " state");
  if (!positions) return std::move(positions).error();
  auto uniform = gpu.buffer_with(std::span<const LatencyParams>(&params, 1), kUniform, id + " params");
  if (!uniform) return std::move(uniform).error();
  return ChaseResources{*pipeline, *chain, *positions, *uniform};
}

// What both chases' rows share: `workgroups` walkers, the hop count as the knob (the parameters'
// first word), a hop counted as one operation.
KernelSpec chase_spec(gpu::Context& gpu, const ChaseResources& r, std::uint32_t workgroups) {
  KernelSpec spec;
  spec.pipeline = r.pipeline;
  spec.bind_groups = {bind_buffers(gpu, r.pipeline, {r.chain, r.state, r.uniform})};
  spec.workgroups = {workgroups, 1, 1};
  spec.knob = {"hops", 16, 1u << 26, 4096};
  spec.knob_uniform = r.uniform;
  spec.knob_offset = 0;
  spec.work = [](std::uint64_t hops) { return WorkModel{.operations = static_cast<double>(hops)}; };
  return spec;
}

Expected<std::unique_ptr<Workload>> prepare_read_latency(PrepareContext& pc) {
  auto& gpu = pc.gpu;
  auto sized = chain_size(pc);
  if (!sized) return std::move(sized).error();
  const auto [bytes, nodes] = *sized;
  auto words = build_chain(bytes, {Slice{0, nodes}}, 0x1a7e11u).words;
  auto r = chase_resources(gpu, "bandwidth/read_latency", "read-latency", words, std::vector<std::uint32_t>(4, 0u),
                           LatencyParams{4096, 0, 0, 0});
  if (!r) return std::move(r).error();

  KernelSpec spec = chase_spec(gpu, *r, 1);
  spec.parameters = report::with_facts(nlohmann::json({{"nodes", nodes},
                                                       {"node_bytes", kNodeBytes},
                                                       {"invocations", 1},
                                                       {"ns_per_hop", "1e9 / (hops per second)"}}),
                                       {.working_set_bytes = bytes});
  // Validation: restart from node 0 and walk a count that wraps the cycle once for small sets; the
  // GPU's final index must equal the host's walk of the same cycle.
  spec.validate = [chain = r->chain, state = r->state, uniform = r->uniform, pipeline = r->pipeline,
                   words = std::move(words), nodes](gpu::Context& g, std::uint64_t knob) -> Expected<std::string> {
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

Expected<std::unique_ptr<Workload>> prepare_read_latency_spread(PrepareContext& pc) {
  auto& gpu = pc.gpu;
  auto sized = chain_size(pc);
  if (!sized) return std::move(sized).error();
  const auto [bytes, nodes] = *sized;
  const std::uint32_t walkers = std::min(kWalkers, nodes / 2);
  const auto slices = walker_slices(nodes, walkers);
  auto [words, start] = build_chain(bytes, slices, 0x5b7e11u);
  auto r = chase_resources(gpu, "bandwidth/read_latency_spread", "read-latency-spread", words, start,
                           LatencyParams{4096, walkers, 0, 0});
  if (!r) return std::move(r).error();

  KernelSpec spec = chase_spec(gpu, *r, walkers);
  spec.parameters = report::with_facts(
      nlohmann::json(
          {{"nodes", nodes},
           {"node_bytes", kNodeBytes},
           {"walkers", walkers},
           {"invocations", walkers},
           {"nodes_per_walker", nodes / walkers},
           {"load", "atomicAdd of 0 (a device-coherent read-modify-write, performed where the line is homed)"},
           {"ns_per_hop", "1e9 / (hops per second of one walker)"}}),
      {.working_set_bytes = bytes});
  // Validation: every walker restarts at its slice's first node and walks a count that wraps its
  // cycle once for small slices; each final position must equal the host's walk of that cycle.
  spec.validate = [chain = r->chain, state = r->state, uniform = r->uniform, pipeline = r->pipeline,
                   words = std::move(words), start = std::move(start), walkers,
                   slices](gpu::Context& g, std::uint64_t knob) -> Expected<std::string> {
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

// The chase rows differ in their walkers, kernel and description; both count hops and report the
// median (a memory round trip depends on the memory system's state).
BenchmarkDefinition chase(std::string id, std::string label, std::string description, const char* kernel,
                          std::function<Expected<std::unique_ptr<Workload>>(PrepareContext&)> prepare) {
  auto d = bandwidth::bandwidth_definition(std::move(id), std::move(label), std::move(description),
                                {"hops", "hop", "Dependent loads"}, kernel, std::move(prepare));
  d.category = "latency";
  d.statistic_reason = "median with IQR: a memory round trip depends on the memory system's state";
  d.in_default_suite = false;
  d.sweep_parameters = {"size"};
  return d;
}

}  // namespace

std::vector<BenchmarkDefinition> latency_benchmarks() {
  std::vector<BenchmarkDefinition> v;
  v.push_back(chase("read-latency", "Dependent-load latency",
            "One invocation follows a single random cycle (Sattolo) through 64-byte nodes filling the "
            "working set (SuiteOptions::working_set_bytes, default 64 MiB; `sweep read-latency` varies it); "
            "each load's address is the previous load's value; the position carries across dispatches. "
            "Counts hops; ns per hop = 1e9 / rate (includes loop cost, amortised dispatch cost). The "
            "walker runs on whichever compute unit the driver schedules it on, and that choice shows: on "
            "an H200 the same walk from different SMs spans 8% at 4 MiB and 4% at 256 MiB "
            "(results/h200-2026-11-30-third.md).",
            "bandwidth/read_latency", prepare_read_latency));
  v.push_back(chase("read-latency-spread", "Dependent-access latency, device-wide",
            "256 walkers, one per workgroup so that they spread over the compute units, each follow their "
            "own random cycle (Sattolo) through their own slice of the working set (64-byte nodes; "
            "SuiteOptions::working_set_bytes, default 64 MiB), every hop an atomic read-modify-write that "
            "changes nothing (atomicAdd of 0): device-coherent, so it skips each compute unit's private "
            "cache, and performed where the line is homed, so a cache split between groups of units holds "
            "each node once. Shows the capacity of the cache the whole device shares, where one walker "
            "(read-latency) sees only the part near its unit (NVIDIA's two L2 partitions). ns per hop = "
            "1e9 / rate, the rate counting one walker's hops: a read-modify-write's round trip, longer than "
            "a load's; meaningful where the walkers run at once (a GPU, not a CPU adapter's few threads).",
            "bandwidth/read_latency_spread", prepare_read_latency_spread));
  return v;
}

}  // namespace wgb::catalog
