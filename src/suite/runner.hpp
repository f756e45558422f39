// The one timed loop (docs/method.md#sampling): every definition that times GPU passes, the
// catalog's kernels and the memory suite's phases alike, is measured here. A protocol decides
// (measure/sampler.hpp), a PassHost encodes, submits and times the pass, the ClockedSampler picks
// the clock and restarts on demotion (docs/method.md#clocks), and the loop handles cancel, idle
// gaps, cooldowns and progress. The PassHost is the one thing a second WebGPU host (a browser)
// implements; the protocols, the record and the row function stay the same. A workload that is an
// API operation rather than a compute pass (Workload::time) goes through the same loop: WorkloadHost
// lets it time itself, and workload_arbiter gives it the clock it names (Workload::clock).
#pragma once

#include <functional>

#include "measure/clocked_sampler.hpp"
#include "measure/record.hpp"
#include "measure/timing.hpp"
#include "webgpu_bench/context.hpp"
#include "webgpu_bench/definition.hpp"
#include "webgpu_bench/expected.hpp"
#include "webgpu_bench/options.hpp"

namespace wgb {

// Executes one Run action: sets the work knob, encodes `repetitions` repetitions into one pass,
// submits it and reports what both clocks measured.
class PassHost {
 public:
  virtual ~PassHost() = default;
  virtual Expected<measure::RawTiming> time_pass(const measure::Action& run) = 0;
};

// The native host of the timed loop for a catalog workload on Dawn: sets the knob, then lets the
// workload time the batch (Workload::time: one compute pass through Context::time_pass by default,
// or the workload's own API operation).
class WorkloadHost final : public PassHost {
 public:
  WorkloadHost(gpu::Context& gpu, Workload& workload) : gpu_(gpu), w_(workload) {}
  Expected<measure::RawTiming> time_pass(const measure::Action& run) override;

 private:
  gpu::Context& gpu_;
  Workload& w_;
};

// The clock arbiter for a workload's row: GPU timestamps cross-checked against the wall clock (with
// the empty-submit cost subtracted on the wall clock) for passes, the whole operation's wall clock
// for API operations (docs/method.md#clocks).
measure::TimingArbiter workload_arbiter(const Workload& workload, const gpu::Context& gpu);

struct TimedLoop {
  CancelToken cancel;
  // Before every Run: the action and how many recorded batches the current attempt has so far.
  std::function<void(const measure::Action&, int recorded)> on_run;
  std::function<void(double ms)> on_cooldown_start;
  std::function<void()> on_cooldown_end;
  int max_timing_notes = 8;  // the arbiter's notes on rejected timestamps kept in the record
};

// Runs the sampler to its end. The record's notes start with the arbiter's notes on rejected
// timestamps; recorded_end_s holds the completion time of every recorded batch. Errors: Cancelled
// when the token fired (checked before every submission), or the host's error (device lost, ...).
Expected<measure::Record> run_timed(measure::ClockedSampler& sampler, PassHost& host, const TimedLoop& loop);

// Idles for `ms` in short slices so a cancel is seen promptly (docs/method.md#sampling: idle
// gaps, cooldowns, transitions). False when cancelled.
bool idle_for(double ms, const CancelToken& cancel);

}  // namespace wgb
