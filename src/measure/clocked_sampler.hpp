// One row, one clock (issue 3: "each row records which clock it used"). ClockedSampler drives the
// best-run Sampler with raw timings (both clocks) through the TimingArbiter, and keeps every kept
// sample on the clock the row names: a batch whose trusted reading comes from another clock than
// the row's (a rejected or missing timestamp while the row is on GPU timestamps) is recorded as
// discarded, never kept; when the arbiter demotes the row to the wall clock, sampling restarts on
// the wall clock (calibration included) and everything measured before moves to the discarded
// record. Fed numbers; reads no clock.
#pragma once

#include <string>
#include <vector>

#include "measure/sampler.hpp"
#include "measure/timing.hpp"

namespace wgb::measure {

class ClockedSampler {
 public:
  ClockedSampler(SamplerConfig cfg, KnobRange knob, CooldownBudget& budget, TimingArbiter arbiter);

  Action next() { return sampler_.next(); }
  // Result of the last Run, as the GPU layer measured it. Returns what the arbiter made of it.
  TimedSample add(const RawTiming& raw);
  bool done() const { return sampler_.done(); }
  // The current sampler's report, with the samples discarded by a restart first in `discarded`,
  // their notes first in `notes`, and the cooldowns of every attempt counted.
  SamplerReport report() const;
  const TimingArbiter& arbiter() const { return arbiter_; }
  ClockKind clock() const { return arbiter_.clock(); }
  int restarts() const { return restarts_; }

 private:
  void restart_on_wall_clock(const TimedSample& trigger);

  SamplerConfig cfg_;
  KnobRange knob_;
  CooldownBudget* budget_;
  TimingArbiter arbiter_;
  Sampler sampler_;
  int restarts_ = 0;
  int earlier_cooldowns_ = 0;
  std::vector<DiscardedSample> earlier_discarded_;
  std::vector<std::string> earlier_notes_;
};

}  // namespace wgb::measure
