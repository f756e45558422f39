// Unit tests for host/harness: the statistic of each regime, the summary of a sample set, and the
// host protocol driven through the one timed loop by a scripted region host and by RegionHost.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <optional>

#include "host/harness.hpp"

namespace wgb::host {
namespace {

TEST(HostStatistic, MinimumForComputeMedianForMemoryAndLatency) {
  EXPECT_EQ(statistic_for(Regime::Compute), Statistic::Best);
  EXPECT_EQ(statistic_for(Regime::Memory), Statistic::Median);
  EXPECT_EQ(statistic_for(Regime::Latency), Statistic::Median);
  EXPECT_NE(std::string(statistic_reason(Regime::Compute)).find("minimum"), std::string::npos);
  EXPECT_NE(std::string(statistic_reason(Regime::Memory)).find("median"), std::string::npos);
}

TEST(HostStatistic, SummaryUsesTheChosenStatistic) {
  const std::vector<double> ms = {4.0, 1.0, 2.0, 3.0, 10.0};  // min 1, median 3, q1 2, q3 4
  const Summary best = summarize(ms, Statistic::Best, 1000.0);
  EXPECT_DOUBLE_EQ(best.time_ms, 1.0);
  EXPECT_DOUBLE_EQ(best.value, 1000.0 / 1e-3);
  const Summary med = summarize(ms, Statistic::Median, 1000.0);
  EXPECT_DOUBLE_EQ(med.time_ms, 3.0);
  EXPECT_DOUBLE_EQ(med.value, 1000.0 / 3e-3);
  EXPECT_DOUBLE_EQ(med.value_low, 1000.0 / 4e-3);   // rate at q3
  EXPECT_DOUBLE_EQ(med.value_high, 1000.0 / 2e-3);  // rate at q1
  EXPECT_DOUBLE_EQ(med.iqr_relative, 2.0 / 3.0);
  EXPECT_EQ(summarize({}, Statistic::Median, 1.0).value, 0);
}

// The protocol's decisions are tested on scripted durations in repetition_protocol_test.cpp; here
// it is driven through the one timed loop (suite/runner.hpp), as the host suite drives it.
class ScriptedRegions final : public PassHost {
 public:
  Expected<measure::RawTiming> time_pass(const measure::Action& run) override {
    ++runs;
    if (run.recorded) ++recorded;
    return measure::RawTiming{std::nullopt, 5e-3 + static_cast<double>(run.knob) * 1e-3};  // 1 us a pass
  }
  int runs = 0, recorded = 0;
};

ProtocolConfig small_protocol() {
  ProtocolConfig c;
  c.repetitions = 4;
  c.warmup_ms = 1;
  return c;
}

TEST(HostProtocol, RunsThroughTheTimedLoopOnTheHostSteadyClock) {
  ScriptedRegions host;
  auto r = run_repetitions(host, small_protocol(), CancelToken{});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->clock, TimingMethod::HostSteadyClock);
  EXPECT_EQ(r->stop_reason, StopReason::FixedRepetitions);
  EXPECT_EQ(r->kept_ms.size(), 4u);
  EXPECT_EQ(r->region_ms.size(), 4u);
  EXPECT_EQ(host.recorded, 4);
  EXPECT_GT(host.runs, host.recorded);  // calibration and warm-up ran first, unrecorded
  EXPECT_GE(r->knob, 2000u);            // regions of 2 ms of 1 us passes
  EXPECT_EQ(r->recorded_end_s.size(), 4u);
  for (double ms : r->kept_ms) EXPECT_NEAR(ms, 1e-3, 1e-5);
}

TEST(HostProtocol, RegionReadingsAreKeptAsMeasured) {
  // Nothing is subtracted, and a stray GPU reading does not replace the host's clock.
  measure::TimingArbiter a = RegionHost::arbiter();
  EXPECT_EQ(a.clock(), TimingMethod::HostSteadyClock);
  const measure::TimedSample s = a.resolve(measure::RawTiming{0.5, 2.5});
  EXPECT_DOUBLE_EQ(s.ms, 2.5);
  EXPECT_EQ(s.clock, TimingMethod::HostSteadyClock);
  EXPECT_FALSE(s.timestamp_rejected);
}

TEST(HostProtocol, CancelStopsTheTimedLoop) {
  ScriptedRegions host;
  std::atomic<bool> flag{true};
  auto r = run_repetitions(host, small_protocol(), CancelToken{&flag});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::Cancelled);
  EXPECT_EQ(host.runs, 0);
}

TEST(HostProtocol, RegionHostTimesTheRegionAndCountsInterference) {
  // A real region on the steady clock: busy work proportional to the repeat count.
  std::uint64_t passes = 0;
  auto r = time_region(
      [&](std::uint64_t repeat) {
        volatile std::uint64_t sink = 0;
        for (std::uint64_t i = 0; i < repeat * 200; ++i) sink = sink + i;
        passes += repeat;
      },
      small_protocol(), CancelToken{});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->report.clock, TimingMethod::HostSteadyClock);
  EXPECT_EQ(r->report.region_ms.size(), 4u);
  EXPECT_GT(passes, 4 * r->report.knob);
  double sum = 0;
  for (double t : r->report.region_ms) sum += t;
  EXPECT_DOUBLE_EQ(r->timed_wall_ms, sum);
  EXPECT_GE(r->timed_cpu_ms, 0);
  EXPECT_GE(r->involuntary_switches, 0);
  EXPECT_GE(r->cpu_share(1), 0);
  EXPECT_LE(r->cpu_share(1), 1);
}

TEST(HostProtocol, KeepAndClobberCompile) {
  int x = 41;
  keep(x);
  clobber_memory();
  keep(x + 1);
  SUCCEED();
}

}  // namespace
}  // namespace wgb::host
