// The row vocabulary (webgpu_bench/vocabulary.hpp): every value has one spelling that parses back,
// the spellings of schema version 1 still parse, and anything else is refused.
#include "webgpu_bench/vocabulary.hpp"

#include <gtest/gtest.h>

#include <string>

namespace wgb {
namespace {

TEST(Vocabulary, EveryValueRoundTrips) {
  for (auto s : {RowStatus::Ok, RowStatus::Skipped, RowStatus::Error, RowStatus::Throttled, RowStatus::Cancelled,
                 RowStatus::Suspect}) {
    EXPECT_EQ(parse_row_status(to_string(s)), s) << to_string(s);
  }
  for (auto s : {Statistic::Best, Statistic::Median}) EXPECT_EQ(parse_statistic(to_string(s)), s);
  for (auto s : {StopReason::None, StopReason::Converged, StopReason::MaxRounds, StopReason::Throttled,
                 StopReason::Budget, StopReason::HardStop, StopReason::FixedRepetitions}) {
    EXPECT_EQ(parse_stop_reason(to_string(s)), s) << to_string(s);
  }
  for (auto t : {TimingMethod::None, TimingMethod::GpuTimestamp, TimingMethod::WallClock,
                 TimingMethod::HostSteadyClock, TimingMethod::OperationWallClock}) {
    EXPECT_EQ(parse_timing_method(to_string(t)), t) << to_string(t);
  }
}

TEST(Vocabulary, DocumentedSpellings) {
  EXPECT_STREQ(to_string(StopReason::HardStop), "hard-stop");
  EXPECT_STREQ(to_string(StopReason::FixedRepetitions), "fixed-repetitions");
  EXPECT_STREQ(to_string(StopReason::None), "");
  EXPECT_STREQ(to_string(TimingMethod::HostSteadyClock), "host-steady-clock");
  EXPECT_STREQ(to_string(TimingMethod::GpuTimestamp), "gpu-timestamp");
  EXPECT_STREQ(to_string(TimingMethod::OperationWallClock), "operation-wall-clock");
  EXPECT_STREQ(to_string(Statistic::Median), "median");
  EXPECT_STREQ(to_string(RowStatus::Suspect), "suspect");
}

TEST(Vocabulary, VersionOneSpellingsStillParse) {
  EXPECT_EQ(parse_timing_method("steady_clock"), TimingMethod::HostSteadyClock);
  EXPECT_EQ(parse_stop_reason("none"), StopReason::None);
  EXPECT_EQ(parse_stop_reason("budget"), StopReason::Budget);
}

TEST(Vocabulary, UnknownSpellingsAreRefused) {
  EXPECT_FALSE(parse_row_status("OK"));
  EXPECT_FALSE(parse_statistic("mean"));
  EXPECT_FALSE(parse_stop_reason("converge"));
  EXPECT_FALSE(parse_timing_method("steady-clock"));
  EXPECT_FALSE(parse_timing_method(std::string("gpu-timestamp\0x", 15)));
}

}  // namespace
}  // namespace wgb
