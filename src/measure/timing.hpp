// Clock arbitration for one timed batch: decides whether a GPU timestamp reading is trusted or the
// host wall clock (minus empty-submit overhead) is used instead, and demotes a benchmark to the
// wall clock for good after repeated implausible timestamp readings; and the rule that sizes a
// batch against that overhead (floor_sized_ms).  Fed numbers; reads no clock.
#pragma once

#include <optional>
#include <string>

#include "webgpu_bench/vocabulary.hpp"

namespace wgb::measure {

// The clock of a GPU pass: TimingMethod::GpuTimestamp or TimingMethod::WallClock.
using ClockKind = wgb::TimingMethod;
using wgb::to_string;

struct RawTiming {                 // what the GPU layer measured for one submitted batch
  std::optional<double> gpu_ms;    // timestamp end-begin, if the feature exists and was read
  double wall_ms = 0;              // submit -> completion round trip on the host clock
  // Of wall_ms, the time the host spent inside the submit call itself (natively, Dawn records the
  // driver's commands for every dispatch there, before the GPU starts); 0 where unknown.
  double submit_ms = 0;
};

// A timed batch lasts at least this many times the round-trip floor, the measured cost of an empty
// submit (docs/method.md#clocks): the floor, and how much it varies, stay a tenth or less of every
// wall-clock reading. Natively the floor is microseconds and the rule never binds; behind a
// browser's or runtime's completion polling (about 100 ms in Firefox, 11-12 ms in Deno) it does.
constexpr double kFloorMultiple = 10;
// The batch (or sample) target on a device whose empty submit costs `floor_ms`: `target_ms`, or
// kFloorMultiple x floor_ms where that is longer.
double floor_sized_ms(double target_ms, double floor_ms);

struct TimedSample {
  double ms = 0;
  ClockKind clock = ClockKind::WallClock;
  bool timestamp_rejected = false;  // a timestamp was read but failed the cross-check
  std::string note;                 // why the wall clock was used; empty for a trusted timestamp
};

class TimingArbiter {
 public:
  // Wall-clock samples below this are clamped up to it: a batch always takes *some* time, and a
  // zero or negative duration would produce an infinite or negative throughput downstream.
  static constexpr double kMinWallMs = 1e-6;
  // The "under half of the wall clock" check only applies to batches whose round trip, less the
  // empty-submit cost, is at least this long: for short batches the remaining submit/readback
  // latency legitimately dominates the round trip.
  static constexpr double kUnderHalfMinWallMs = 4.0;

  TimingArbiter(bool timestamps_available, double empty_submit_ms, int max_strikes = 2);
  // The arbiter of a row that times a whole API operation on the host wall clock (an upload, a
  // submit, a pipeline compile): every reading is the wall clock as measured, nothing subtracted
  // (the submit and completion cost is part of the thing measured), on TimingMethod::OperationWallClock.
  static TimingArbiter whole_operation();
  // The arbiter of a host CPU row (docs/method.md#host-protocol): the host times its own regions
  // with std::chrono::steady_clock; every reading is kept as measured, on TimingMethod::HostSteadyClock.
  static TimingArbiter host_steady_clock();

  TimedSample resolve(const RawTiming& raw);
  ClockKind clock() const;  // current policy: GpuTimestamp until demoted / unavailable
  int strikes() const { return strikes_; }
  bool demoted() const { return demoted_; }
  double empty_submit_ms() const { return empty_submit_ms_; }

 private:
  TimedSample wall(const RawTiming& raw, bool rejected, std::string note) const;

  bool timestamps_available_;
  double empty_submit_ms_;
  int max_strikes_;
  int strikes_ = 0;
  bool demoted_ = false;
  ClockKind as_measured_ = ClockKind::None;  // whole operation or host: kept as measured on it
};

}  // namespace wgb::measure
