// Implementation of TimingArbiter (timing.hpp).
#include "measure/timing.hpp"

#include <algorithm>
#include <cmath>

namespace wgb::measure {

double floor_sized_ms(double target_ms, double floor_ms) {
  if (!std::isfinite(floor_ms) || floor_ms <= 0) return target_ms;
  return std::max(target_ms, kFloorMultiple * floor_ms);
}

TimingArbiter::TimingArbiter(bool timestamps_available, double empty_submit_ms, int max_strikes)
    : timestamps_available_(timestamps_available),
      // A negative or NaN overhead (a bad start-up measurement) must not inflate wall samples.
      empty_submit_ms_(std::isfinite(empty_submit_ms) ? std::max(0.0, empty_submit_ms) : 0.0),
      max_strikes_(std::max(1, max_strikes)) {}

TimingArbiter TimingArbiter::whole_operation() {
  TimingArbiter a(false, 0.0);
  a.as_measured_ = ClockKind::OperationWallClock;
  return a;
}

TimingArbiter TimingArbiter::host_steady_clock() {
  TimingArbiter a(false, 0.0);
  a.as_measured_ = ClockKind::HostSteadyClock;
  return a;
}

ClockKind TimingArbiter::clock() const {
  if (as_measured_ != ClockKind::None) return as_measured_;
  return timestamps_available_ && !demoted_ ? ClockKind::GpuTimestamp : ClockKind::WallClock;
}

TimedSample TimingArbiter::wall(const RawTiming& raw, bool rejected, std::string note) const {
  // The round trip includes submit + fence latency that the GPU did not spend on the batch; the
  // median empty-submit cost measured at start-up is the best available estimate of it
  // (docs/method.md#clocks).
  const double ms = std::max(raw.wall_ms - empty_submit_ms_, kMinWallMs);
  return TimedSample{ms, ClockKind::WallClock, rejected, std::move(note)};
}

TimedSample TimingArbiter::resolve(const RawTiming& raw) {
  if (as_measured_ != ClockKind::None) {
    // No timestamp applies to a host-side operation or a host CPU region; a reading is kept even
    // when one came along.
    return TimedSample{std::max(raw.wall_ms, kMinWallMs), as_measured_, false, {}};
  }
  if (!timestamps_available_) return wall(raw, false, "timestamps unavailable");
  if (demoted_) return wall(raw, false, "demoted to wall clock after repeated bad timestamps");
  if (!raw.gpu_ms) return wall(raw, false, "no timestamp reading for this batch");

  const double gpu = *raw.gpu_ms;
  // The round trip less the measured empty-submit cost: what the host waited for the GPU's work.
  // Behind a host whose completion callback has a floor of its own (a browser or runtime that
  // polls for completion every ~100 ms), comparing with the raw round trip would reject every
  // batch shorter than twice that floor, and demote rows whose timestamps are fine.
  // Natively the submit call records the driver's commands for every dispatch before the GPU starts
  // (Dawn's Vulkan backend: a few microseconds per dispatch): a batch of thousands of short
  // dispatches spends more of its round trip there than on the GPU, so that time is taken out too.
  const double net = raw.wall_ms - empty_submit_ms_ - std::max(0.0, raw.submit_ms);
  const char* problem = nullptr;
  // The GPU cannot spend longer on a batch than the host waited for it, and cannot take negative
  // time; such readings are wrapped/unsynchronised counters (seen on Safari, some mobile drivers).
  if (!std::isfinite(gpu) || gpu < 0) {
    problem = "timestamp negative or non-finite";
  } else if (gpu > raw.wall_ms) {
    problem = "timestamp longer than the wall-clock round trip";
  } else if (net >= kUnderHalfMinWallMs && gpu < 0.5 * net) {
    // For a long batch the round trip is dominated by GPU work, so a timestamp under half of it
    // means the counters missed part of the work (e.g. a pass split or a clock-domain bug).
    problem = "timestamp under half of the wall-clock round trip (less the empty-submit cost)";
  }
  if (problem == nullptr) return TimedSample{gpu, ClockKind::GpuTimestamp, false, {}};

  ++strikes_;
  std::string note = problem;
  if (strikes_ >= max_strikes_) {
    // One bad reading may be a hiccup; repeated ones mean the timer itself is untrustworthy, and
    // mixing clocks within one benchmark would blend two different biases into its statistics.
    demoted_ = true;
    note += "; demoted to wall clock";
  }
  return wall(raw, true, std::move(note));
}

}  // namespace wgb::measure
