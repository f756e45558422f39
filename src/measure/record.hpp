// The one record every sampling protocol returns (docs/method.md#record): the best-run sampler of
// `run` and `sweep`, the memory suite's phase sampler, and the host CPU's fixed-repetition protocol.
// What was kept, what was left out of the statistics (thermal discards, and every other measured
// batch with its reason), the calibration, why sampling stopped and which clock timed it. One
// function (suite/row.hpp) turns a record into a result row. Standard library only; no clock.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "measure/stats.hpp"
#include "webgpu_bench/vocabulary.hpp"

namespace wgb::measure {

struct Record {
  std::uint64_t knob = 1;          // calibrated work knob (fixed-work protocols: 1)
  std::uint32_t repetitions = 1;   // repetitions per timed batch
  std::vector<std::pair<std::uint64_t, double>> calibration_trace;  // (knob or batch size, ms per repetition)
  std::vector<double> kept_ms;      // per-repetition ms of every kept batch, in time order
  std::vector<double> throttled_ms; // per-repetition ms of thermal discards (docs/method.md#throttling)
  std::vector<DiscardedSample> discarded;  // every other measured batch, with its reason
  std::vector<std::string> notes;   // the protocol's and the clock arbiter's notes
  StopReason stop_reason = StopReason::None;
  TimingMethod clock = TimingMethod::None;
  int cooldowns_taken = 0;
  int timestamp_strikes = 0;
  int restarts = 0;                 // times sampling started over on another clock
  bool flagged_throttled = false;   // the cooldown budget ran out while still discarding
  // Completion time of each recorded batch (s since the first recorded batch was submitted), in
  // the order the protocol recorded them; filled by the timed loop, empty where no one kept it.
  std::vector<double> recorded_end_s;
};

// Scales a record whose repetition is `factor` smaller units (a latency pass of N dispatches of
// 1024 hops each: factor 1024): per-repetition times divide, repetitions multiply.
Record per_unit(Record r, double factor);

}  // namespace wgb::measure
