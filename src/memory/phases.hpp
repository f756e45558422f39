// The memory suite's phases as definitions (docs/method.md#memory-workload, #phases): each phase is
// one PhaseDefinition (src/memory/phases/<name>.cpp) that names its kernels, its row, its work per
// repetition and its budget, and prepares a PhaseWorkload on the shared Fixture: how a pass is
// encoded, what the buffers hold after it, how the result is validated and which parameters the
// row records. The engine runs every definition through the one timed loop (suite/runner.hpp) and
// turns its record into a row with the one record -> row function (suite/row.hpp). Adding a phase
// is one definition file, its entry in phase_definitions() and its test.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "measure/phase_sampler.hpp"
#include "measure/record.hpp"
#include "memory/fixture.hpp"
#include "report/memory_parameters.hpp"
#include "webgpu_bench/result.hpp"

namespace wgb::memory {

// What one phase measured, as the definitions' hooks see it.
struct PhaseOutcome {
  const measure::PhaseSampler::Report& report;  // every recorded pass, warm-up, budget accounting
  measure::Record& record;                      // per repetition; the row comes from it
  double per_pass = 1;                          // repetitions per pass
  double units = 0;                             // metric units per repetition
  std::vector<double> rejected_ms;              // whole passes the statistics leave out as outliers
};

class PhaseWorkload {
 public:
  virtual ~PhaseWorkload() = default;
  // Uniforms and bind groups on the fixture, when the phase's turn comes.
  virtual Status prepare() { return ok(); }
  // Queued before the pass's submit, outside its timestamps (latency: the hop count).
  virtual void before_pass(std::uint32_t /*units*/) {}
  virtual void encode(wgpu::ComputePassEncoder& pass, std::uint32_t units) = 0;
  // What the timed dispatches left in the buffers (Fixture::content_a/b).
  virtual void after_timing() {}
  virtual Expected<std::string> validate() = 0;
  // Which samples the statistics keep, when the phase decides that itself (sustain's windows).
  virtual void choose_kept(PhaseOutcome& /*o*/) {}
  // The phase's own parameters (`p`) and, for a statistic of its own (sustain), its headline.
  virtual void describe(BenchmarkResult& row, const PhaseOutcome& o, report::MemoryPhaseParameters& p) const = 0;
};

// How an alternating phase binds (read, write, copy, random): one kernel, two bind groups, dispatch k
// bound to group k mod 2. Group k's uniform holds params[k] (one buffer for both when `shared`), and
// group k binds, in binding order, the buffers slots[k] names: 'A', 'B', 'S' (the sink), 'P' (its
// uniform).
struct Alternation {
  const char* kernel;
  std::uint32_t workgroups, invocations;
  const char* text;  // parameters.alternation
  Params4 params[2];
  bool shared;
  const char* params_label;
  const char* slots[2];
};

class AlternatingWorkload : public PhaseWorkload {
 public:
  AlternatingWorkload(Fixture& f, const Alternation& a) : f_(f), a_(a) {}
  Status prepare() override;
  void encode(wgpu::ComputePassEncoder& pass, std::uint32_t units) override;
  // The bandwidth phases' parameters: workgroups, invocations, bytes per dispatch, alternation.
  void describe(BenchmarkResult& row, const PhaseOutcome& o, report::MemoryPhaseParameters& p) const override;

 protected:
  Fixture& f_;
  Alternation a_;
  wgpu::Buffer params_[2];
  wgpu::BindGroup groups_[2];
};

// A definition's prepare step for workload W (constructed from the fixture, then W::prepare()).
template <class W>
Expected<std::unique_ptr<PhaseWorkload>> prepared(Fixture& f) {
  std::unique_ptr<PhaseWorkload> w = std::make_unique<W>(f);
  if (auto st = w->prepare(); !st) return std::move(st).error();
  return w;
}

using OptionMs = double (*)(const MemoryOptions&);

struct PhaseDefinition {
  Phase phase = Phase::Read;
  const char* name = "";      // "read": --phases and the id memory-<name>
  const char* kernel = "";    // the timed kernel (its WGSL hash is the row's)
  std::vector<std::string> kernels;  // compiled at set-up
  bool needs_chain = false;   // the latency cycle
  bool needs_distinct_buffers = false;  // A and B must differ before the phase (copy validation)
  const char* label = "";
  const char* description = "";
  Metric metric{"bytes", "B", "Bytes moved"};
  const char* knob_name = "dispatches per sample";
  double units_per_repetition = 1;  // repetitions per calibrated unit (latency: hops per unit)
  std::uint32_t max_units = 1u << 20;
  // The phase's sampling budget and its sample length on GPU timestamps (twice that on the wall clock).
  OptionMs budget_ms = [](const MemoryOptions& o) { return o.budget_ms; };
  OptionMs sample_ms = [](const MemoryOptions& o) { return o.sample_ms; };
  std::function<WorkModel(const Geometry&)> work;  // per repetition
  std::function<Expected<std::unique_ptr<PhaseWorkload>>(Fixture&)> prepare;
};

// In kAllPhases order.
const std::vector<PhaseDefinition>& phase_definitions();
const PhaseDefinition& definition(Phase p);

// The phase sampler's configuration for a definition on a clock, on a device whose empty submit
// costs `floor_ms` (a sample lasts at least ten times that: measure::floor_sized_ms).
measure::PhaseConfig phase_config(const PhaseDefinition& d, const MemoryOptions& o, bool wall_clock,
                                  double floor_ms = 0);

// The definitions (src/memory/phases/*.cpp).
PhaseDefinition read_phase();
PhaseDefinition write_phase();
PhaseDefinition copy_phase();
PhaseDefinition random_phase();
PhaseDefinition latency_phase();
PhaseDefinition sustain_phase();
// The copy kernel's workload, which sustain also runs.
Expected<std::unique_ptr<PhaseWorkload>> prepare_copy(Fixture& f);

}  // namespace wgb::memory
