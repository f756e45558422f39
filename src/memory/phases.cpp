// The memory suite's phase definitions, in order (phases.hpp), and what every phase shares.
#include "memory/phases.hpp"

#include "measure/timing.hpp"

namespace wgb::memory {

const std::vector<PhaseDefinition>& phase_definitions() {
  static const std::vector<PhaseDefinition> all = {read_phase(),   write_phase(),   copy_phase(),
                                                   random_phase(), latency_phase(), sustain_phase()};
  return all;
}

const PhaseDefinition& definition(Phase p) {
  for (const auto& d : phase_definitions()) {
    if (d.phase == p) return d;
  }
  return phase_definitions().front();  // unreachable: every Phase has a definition (tested)
}

measure::PhaseConfig phase_config(const PhaseDefinition& d, const MemoryOptions& o, bool wall_clock,
                                  double floor_ms) {
  measure::PhaseConfig cfg;
  // ~40 ms of GPU work per sample (latency: ~45 ms of hops); twice that on the wall clock, where
  // the submit round trip is a larger share of a short sample; at least ten times that round trip
  // (docs/method.md#clocks).
  cfg.target_sample_ms = measure::floor_sized_ms((wall_clock ? 2.0 : 1.0) * d.sample_ms(o), floor_ms);
  cfg.budget_ms = d.budget_ms(o);
  cfg.warmup_max_ms = o.warmup_ms;
  cfg.min_samples = o.min_samples;
  cfg.hard_stop_factor = o.hard_stop_factor;
  cfg.max_dispatches = d.max_units;
  return cfg;
}

void AlternatingWorkload::encode(wgpu::ComputePassEncoder& pass, std::uint32_t units) {
  f_.alternate(pass, a_.kernel, groups_, a_.workgroups, units);
}

Status AlternatingWorkload::prepare() {
  for (int k = 0; k < (a_.shared ? 1 : 2); ++k) {
    auto buffer = f_.uniform(a_.params[k], a_.params_label);
    if (!buffer) return std::move(buffer).error();
    params_[k] = *buffer;
  }
  if (a_.shared) params_[1] = params_[0];
  for (int k = 0; k < 2; ++k) {
    wgpu::Buffer v[4];
    std::size_t n = 0;
    for (const char* c = a_.slots[k]; *c != 0 && n < 4; ++c) {
      v[n++] = *c == 'A' ? f_.a : *c == 'B' ? f_.b : *c == 'S' ? f_.sink : params_[k];
    }
    groups_[k] = n == 2   ? f_.bind(a_.kernel, {v[0], v[1]})
                 : n == 3 ? f_.bind(a_.kernel, {v[0], v[1], v[2]})
                          : f_.bind(a_.kernel, {v[0], v[1], v[2], v[3]});
  }
  return ok();
}

void AlternatingWorkload::describe(BenchmarkResult& row, const PhaseOutcome& o,
                                   report::MemoryPhaseParameters& p) const {
  p.workgroup_size = kWorkgroupSize;
  p.workgroups = a_.workgroups;
  p.invocations = a_.invocations;
  p.dispatches_per_sample = o.report.dispatches;
  p.bytes_per_dispatch = row.work.bytes_read + row.work.bytes_written;
  p.alternation = a_.text;
  p.median_gbps = row.value / 1e9;
}

}  // namespace wgb::memory
