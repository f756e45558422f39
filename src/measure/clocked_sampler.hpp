// One row, one clock (docs/method.md#clocks: each row records the clock it used). ClockedSampler
// drives any sampling Protocol with raw timings (both clocks) through the TimingArbiter, and keeps
// every kept sample on the clock the row names: a batch whose trusted reading comes from another
// clock than the row's (a rejected or missing timestamp while the row is on GPU timestamps) is
// rejected into the discarded record, never kept; when the arbiter demotes the row to the wall
// clock, a fresh protocol for the wall clock starts over (calibration included) and everything
// measured before moves to the discarded record. Fed numbers; reads no clock.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "measure/sampler.hpp"
#include "measure/timing.hpp"

namespace wgb::measure {

// Makes the protocol for a clock: the phase sampler takes longer samples on the wall clock.
using ProtocolFactory = std::function<std::unique_ptr<Protocol>(ClockKind)>;

class ClockedSampler {
 public:
  ClockedSampler(ProtocolFactory make, TimingArbiter arbiter);
  // The best-run Sampler of `run` and `sweep`.
  ClockedSampler(SamplerConfig cfg, KnobRange knob, CooldownBudget& budget, TimingArbiter arbiter);

  Action next() { return protocol_->next(); }
  // Result of the last Run, as the GPU layer measured it. Returns what the arbiter made of it.
  TimedSample add(const RawTiming& raw);
  bool done() const { return protocol_->done(); }
  // The current protocol's record, with what a restart discarded first in `discarded` and `notes`,
  // every attempt's cooldowns counted, and the clock, strikes and restarts filled in.
  Record record() const;
  double estimate_remaining_ms() const { return protocol_->estimate_remaining_ms(); }
  const TimingArbiter& arbiter() const { return arbiter_; }
  ClockKind clock() const { return arbiter_.clock(); }
  int restarts() const { return restarts_; }

 private:
  void restart_on_wall_clock(const TimedSample& trigger);

  ProtocolFactory make_;
  TimingArbiter arbiter_;
  std::unique_ptr<Protocol> protocol_;
  int restarts_ = 0;
  int earlier_cooldowns_ = 0;
  std::vector<DiscardedSample> earlier_discarded_;
  std::vector<std::string> earlier_notes_;
};

}  // namespace wgb::measure
