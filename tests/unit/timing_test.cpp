// Unit tests for measure/timing: timestamp cross-checks against the wall clock, strikes, demotion.
#include "measure/timing.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace wgb::measure {
namespace {

TEST(Timing, ClockNames) {
  EXPECT_STREQ(to_string(ClockKind::GpuTimestamp), "gpu-timestamp");
  EXPECT_STREQ(to_string(ClockKind::WallClock), "wall-clock");
}

TEST(Timing, PlausibleTimestampIsUsed) {
  TimingArbiter a(true, 0.5);
  const TimedSample s = a.resolve({40.0, 41.0});
  EXPECT_EQ(s.clock, ClockKind::GpuTimestamp);
  EXPECT_DOUBLE_EQ(s.ms, 40.0);
  EXPECT_FALSE(s.timestamp_rejected);
  EXPECT_EQ(a.strikes(), 0);
  EXPECT_EQ(a.clock(), ClockKind::GpuTimestamp);
}

TEST(Timing, ShortBatchMayBeUnderHalf) {
  // Below 4 ms of wall time the round trip is latency-dominated: a small timestamp is fine.
  TimingArbiter a(true, 0.0);
  const TimedSample s = a.resolve({0.5, 3.0});
  EXPECT_EQ(s.clock, ClockKind::GpuTimestamp);
  EXPECT_EQ(a.strikes(), 0);
}

TEST(Timing, NegativeTimestampFallsBackAndStrikes) {
  TimingArbiter a(true, 1.0);
  const TimedSample s = a.resolve({-3.0, 41.0});
  EXPECT_EQ(s.clock, ClockKind::WallClock);
  EXPECT_TRUE(s.timestamp_rejected);
  EXPECT_DOUBLE_EQ(s.ms, 40.0);  // wall minus empty-submit overhead
  EXPECT_FALSE(s.note.empty());
  EXPECT_EQ(a.strikes(), 1);
  EXPECT_FALSE(a.demoted());
  EXPECT_EQ(a.clock(), ClockKind::GpuTimestamp);  // one strike is not enough
}

TEST(Timing, LongerThanWallFallsBackAndStrikes) {
  TimingArbiter a(true, 0.0);
  const TimedSample s = a.resolve({50.0, 41.0});
  EXPECT_EQ(s.clock, ClockKind::WallClock);
  EXPECT_TRUE(s.timestamp_rejected);
  EXPECT_DOUBLE_EQ(s.ms, 41.0);
  EXPECT_EQ(a.strikes(), 1);
}

TEST(Timing, UnderHalfOfLongBatchFallsBackAndStrikes) {
  TimingArbiter a(true, 0.0);
  const TimedSample s = a.resolve({10.0, 41.0});
  EXPECT_EQ(s.clock, ClockKind::WallClock);
  EXPECT_TRUE(s.timestamp_rejected);
  EXPECT_EQ(a.strikes(), 1);
  // Exactly half is still trusted.
  EXPECT_EQ(a.resolve({20.5, 41.0}).clock, ClockKind::GpuTimestamp);
  EXPECT_EQ(a.strikes(), 1);
}

// Behind a host whose completion callback has a floor (Firefox polls for completion about every
// 100 ms), a 10 ms pass reads a 110 ms round trip. Compared with the raw round trip it was "under
// half" and two such batches demoted every row to the wall clock (the bug); less the measured
// empty-submit cost it is what the GPU took.
TEST(Timing, TheRoundTripFloorIsSubtractedBeforeTheUnderHalfCheck) {
  TimingArbiter a(true, 100.0);
  for (int i = 0; i < 4; ++i) {
    const TimedSample s = a.resolve({10.0, 110.5});
    EXPECT_EQ(s.clock, ClockKind::GpuTimestamp);
    EXPECT_DOUBLE_EQ(s.ms, 10.0);
  }
  EXPECT_EQ(a.strikes(), 0);
  EXPECT_FALSE(a.demoted());
  // Still a strike when the timestamp is under half of what is left after the floor.
  EXPECT_TRUE(a.resolve({10.0, 130.0}).timestamp_rejected);
  EXPECT_EQ(a.strikes(), 1);
}

// Natively Dawn records the driver's commands for every dispatch inside Submit, before the GPU
// starts: on an H200 a batch of 1024 stencil dispatches (2.2 us each on the GPU) spent about 4 ms
// there, so its 6.7 ms round trip made the correct 2.2 ms timestamp "under half", and two such
// batches demoted the row to the wall clock, which then read 0.57 of the rate (the bug). The time
// inside the submit call is not time the GPU could have spent on the batch.
TEST(Timing, TheSubmitCallIsSubtractedBeforeTheUnderHalfCheck) {
  TimingArbiter a(true, 0.05);
  for (int i = 0; i < 4; ++i) {
    const TimedSample s = a.resolve({2.2, 6.7, 4.4});
    EXPECT_EQ(s.clock, ClockKind::GpuTimestamp);
    EXPECT_DOUBLE_EQ(s.ms, 2.2);
  }
  EXPECT_EQ(a.strikes(), 0);
  EXPECT_FALSE(a.demoted());
  // Without the submit call's share the same reading is a strike, as before.
  EXPECT_TRUE(a.resolve({2.2, 6.7}).timestamp_rejected);
  // And a timestamp under half of what the GPU could have spent is still one.
  EXPECT_TRUE(a.resolve({2.2, 16.7, 4.4}).timestamp_rejected);
  EXPECT_EQ(a.strikes(), 2);
}

TEST(Timing, BatchesAreSizedToTenTimesTheFloor) {
  EXPECT_DOUBLE_EQ(floor_sized_ms(100.0, 0.012), 100.0);  // native: never binds
  EXPECT_DOUBLE_EQ(floor_sized_ms(100.0, 11.5), 115.0);   // a runtime's 11.5 ms floor
  EXPECT_DOUBLE_EQ(floor_sized_ms(100.0, 100.0), 1000.0);  // a browser's 100 ms floor
  EXPECT_DOUBLE_EQ(floor_sized_ms(40.0, std::numeric_limits<double>::quiet_NaN()), 40.0);
  EXPECT_DOUBLE_EQ(floor_sized_ms(40.0, -1.0), 40.0);
}

TEST(Timing, NanTimestampIsAStrike) {
  TimingArbiter a(true, 0.0);
  const TimedSample s = a.resolve({std::numeric_limits<double>::quiet_NaN(), 10.0});
  EXPECT_EQ(s.clock, ClockKind::WallClock);
  EXPECT_EQ(a.strikes(), 1);
}

TEST(Timing, TwoStrikesDemoteForGood) {
  TimingArbiter a(true, 1.0);
  a.resolve({-1.0, 41.0});
  const TimedSample second = a.resolve({99.0, 41.0});
  EXPECT_TRUE(second.timestamp_rejected);
  EXPECT_NE(second.note.find("demoted"), std::string::npos);
  EXPECT_EQ(a.strikes(), 2);
  EXPECT_TRUE(a.demoted());
  EXPECT_EQ(a.clock(), ClockKind::WallClock);
  // A perfectly good timestamp after demotion is ignored: the benchmark stays on one clock.
  const TimedSample after = a.resolve({40.0, 41.0});
  EXPECT_EQ(after.clock, ClockKind::WallClock);
  EXPECT_FALSE(after.timestamp_rejected);
  EXPECT_DOUBLE_EQ(after.ms, 40.0);
  EXPECT_EQ(a.strikes(), 2);
}

TEST(Timing, ConfigurableStrikes) {
  TimingArbiter a(true, 0.0, 3);
  a.resolve({-1.0, 10.0});
  a.resolve({-1.0, 10.0});
  EXPECT_FALSE(a.demoted());
  a.resolve({-1.0, 10.0});
  EXPECT_TRUE(a.demoted());
}

TEST(Timing, NoTimestampsUsesWallClockWithoutStrikes) {
  TimingArbiter a(false, 2.0);
  EXPECT_EQ(a.clock(), ClockKind::WallClock);
  const TimedSample s = a.resolve({40.0, 82.0});  // gpu value ignored: feature unavailable
  EXPECT_EQ(s.clock, ClockKind::WallClock);
  EXPECT_DOUBLE_EQ(s.ms, 80.0);
  EXPECT_FALSE(s.timestamp_rejected);
  EXPECT_EQ(a.strikes(), 0);
  EXPECT_FALSE(a.demoted());
}

TEST(Timing, MissingReadingUsesWallClockWithoutStrike) {
  TimingArbiter a(true, 2.0);
  const TimedSample s = a.resolve({std::nullopt, 82.0});
  EXPECT_EQ(s.clock, ClockKind::WallClock);
  EXPECT_DOUBLE_EQ(s.ms, 80.0);
  EXPECT_FALSE(s.timestamp_rejected);
  EXPECT_EQ(a.strikes(), 0);
  EXPECT_EQ(a.clock(), ClockKind::GpuTimestamp);
}

TEST(Timing, WallClockClampedAboveZero) {
  TimingArbiter a(false, 5.0);
  const TimedSample s = a.resolve({std::nullopt, 3.0});  // overhead larger than the round trip
  EXPECT_GT(s.ms, 0.0);
  EXPECT_LE(s.ms, TimingArbiter::kMinWallMs);
}

// A whole API operation (an upload, a submit) is its wall clock: the empty-submit cost is part of
// what it measures, so nothing is subtracted, and a timestamp that came along is not preferred.
TEST(Timing, WholeOperationKeepsTheWallClockAsMeasured) {
  TimingArbiter a = TimingArbiter::whole_operation();
  EXPECT_EQ(a.clock(), ClockKind::OperationWallClock);
  const TimedSample s = a.resolve({std::nullopt, 0.25});
  EXPECT_EQ(s.clock, ClockKind::OperationWallClock);
  EXPECT_DOUBLE_EQ(s.ms, 0.25);
  EXPECT_FALSE(s.timestamp_rejected);
  const TimedSample t = a.resolve({0.01, 3.0});
  EXPECT_DOUBLE_EQ(t.ms, 3.0);
  EXPECT_EQ(a.strikes(), 0);
  EXPECT_FALSE(a.demoted());
  EXPECT_GT(a.resolve({std::nullopt, 0.0}).ms, 0.0);  // never zero: no infinite rate downstream
}

}  // namespace
}  // namespace wgb::measure
