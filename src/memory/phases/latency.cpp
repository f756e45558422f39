// memory-latency: one invocation follows the single random cycle (Sattolo) through slots 64 bytes
// apart; each address depends on the previous load (docs/method.md#memory-workload).
#include <fmt/format.h>

#include "memory/phases.hpp"

namespace wgb::memory {

namespace {

class LatencyWorkload final : public PhaseWorkload {
 public:
  explicit LatencyWorkload(Fixture& f) : f_(f) {}
  Status prepare() override {
    auto params = f_.uniform({0, 0, 0, 0}, "memory chase params");
    if (!params) return std::move(params).error();
    params_ = *params;
    group_ = f_.bind("memory/chase", {f_.chain, f_.state, params_});
    return ok();
  }
  void before_pass(std::uint32_t units) override {
    const auto hops = static_cast<std::uint32_t>(std::uint64_t{units} * kHopsPerUnit);
    if (hops == hops_) return;
    f_.write(params_, {hops, 0, 0, 0});
    hops_ = hops;
  }
  // One dispatch of units x kHopsPerUnit dependent loads; the position lives in `state`.
  void encode(wgpu::ComputePassEncoder& pass, std::uint32_t units) override {
    pass.SetPipeline(f_.pipeline("memory/chase"));
    pass.SetBindGroup(0, group_);
    pass.DispatchWorkgroups(1);
    f_.total_hops += std::uint64_t{units} * kHopsPerUnit;
  }
  Expected<std::string> validate() override {
    auto got = f_.gpu().read_as<std::uint32_t>(f_.state, 0, 1);
    if (!got) return std::move(got).error();
    const std::uint32_t want = walk(f_.next, 0, f_.total_hops);
    if ((*got)[0] != want * kSlotWords) {
      return make_error(ErrorKind::Failed,
                        fmt::format("after {} hops the chase stands at word {}, the host's walk at slot {} (word {})",
                                    f_.total_hops, (*got)[0], want, want * kSlotWords));
    }
    return fmt::format("the cycle is single ({} slots, checked on the host); after {} hops the GPU's position "
                       "matches the host's walk (slot {})",
                       f_.geometry().slots, f_.total_hops, want);
  }
  void describe(BenchmarkResult& row, const PhaseOutcome& o, report::MemoryPhaseParameters& p) const override {
    const Geometry& g = f_.geometry();
    p.slots = g.slots;
    p.slot_bytes = kSlotBytes;
    p.chain_bytes = g.slots * kSlotBytes;
    p.cycle = "single cycle by Sattolo's algorithm, scattered into place on the GPU";
    p.cycle_seed = f_.options().cycle_seed;
    p.hops_per_sample = o.per_pass;
    p.total_hops = f_.total_hops;
    p.ns_per_load = row.stats.median * 1e6;
    p.workgroup_size = 1;
    p.invocations = 1;
  }

 private:
  Fixture& f_;
  wgpu::Buffer params_;
  wgpu::BindGroup group_;
  std::uint32_t hops_ = 0;  // what the chase uniform holds
};

}  // namespace

PhaseDefinition latency_phase() {
  return {.phase = Phase::Latency,
          .name = "latency",
          .kernel = "memory/chase",
          .kernels = {"memory/chase", "memory/scatter"},
          .needs_chain = true,
          .label = "Dependent-load latency",
          .description = "One invocation follows a single random cycle (Sattolo) through slots 64 bytes apart; each "
                         "address depends on the previous load, so time per hop approximates a round trip to "
                         "memory, TLB misses included. Rate in loads/s; ns per load in the parameters.",
          .metric = {"loads", "load", "Dependent loads"},
          .knob_name = "hops per sample",
          .units_per_repetition = kHopsPerUnit,
          .max_units = 1u << 21,  // units of 1024 hops: at most 2^31 hops, a u32 uniform
          .budget_ms = [](const MemoryOptions& o) { return o.latency_budget_ms; },
          .sample_ms = [](const MemoryOptions& o) { return o.latency_sample_ms; },
          .work = [](const Geometry&) { return WorkModel{.operations = 1}; },  // a repetition is one load
          .prepare = prepared<LatencyWorkload>};
}

}  // namespace wgb::memory
