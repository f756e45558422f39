// Unit tests for host/harness: the statistic of each regime, the summary of a sample set, and the
// host protocol driven through the one timed loop by a scripted region host and by RegionHost.
#include <gtest/gtest.h>

#include <sched.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

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

// The calling thread's CPU time, ms.
double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return 1e3 * static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_nsec);
}

double steady_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A busy region that records, per call, its steady-clock span and the CPU time its thread spent.
struct BusyRegion {
  struct Call {
    double start_ms, stop_ms, cpu_ms;
  };
  std::vector<Call> calls;
  std::uint64_t passes = 0;
  void operator()(std::uint64_t repeat) {
    const double t0 = steady_ms(), c0 = thread_cpu_ms();
    volatile std::uint64_t sink = 0;
    for (std::uint64_t i = 0; i < repeat * 200; ++i) sink = sink + i;
    passes += repeat;
    calls.push_back({t0, steady_ms(), thread_cpu_ms() - c0});
  }
};

TEST(HostProtocol, RegionHostTimesTheRegionAndCountsInterference) {
  // A real region on the steady clock: busy work proportional to the repeat count.
  BusyRegion region;
  auto r = time_region(std::ref(region), small_protocol(), CancelToken{});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->report.clock, TimingMethod::HostSteadyClock);
  ASSERT_EQ(r->report.region_ms.size(), 4u);
  EXPECT_GT(region.passes, 4 * r->report.knob);
  double sum = 0;
  for (double t : r->report.region_ms) sum += t;
  EXPECT_DOUBLE_EQ(r->timed_wall_ms, sum);
  // The counters cover the last timed set: the last four calls. The process's CPU time over it
  // holds at least what this thread spent inside those regions (the busy loop cannot run without
  // its CPU) and at most the set's span on the one thread that runs here, however loaded the
  // machine is: a loaded machine lowers the share, it cannot raise the CPU time above the wall.
  ASSERT_GE(region.calls.size(), 4u);
  const std::vector<BusyRegion::Call> set(region.calls.end() - 4, region.calls.end());
  double inside_cpu = 0;
  for (const auto& c : set) inside_cpu += c.cpu_ms;
  const double span_ms = set.back().stop_ms - set.front().start_ms;
  EXPECT_GT(inside_cpu, 0);
  EXPECT_GE(r->timed_cpu_ms, inside_cpu * 0.99 - 0.05) << "the regions' own CPU time " << inside_cpu << " ms";
  EXPECT_LE(r->timed_cpu_ms, span_ms + 1.0) << "the set lasted " << span_ms << " ms";
  // The share is CPU time / (wall x threads), within 0..1.
  EXPECT_GT(r->cpu_share(1), 0);
  EXPECT_LE(r->cpu_share(1), 1);
  EXPECT_NEAR(r->cpu_share(4), r->timed_cpu_ms / (4 * r->timed_wall_ms), 1e-12);
}

// A thread kept runnable on the same CPU takes that CPU from the region by preemption: the
// involuntary context switches of the set are counted, and this thread holds its CPU for part of
// the time only.
TEST(HostProtocol, RegionHostCountsPreemptionByACompetingThread) {
  cpu_set_t before;
  ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);
  int cpu = 0;
  while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &before)) ++cpu;
  ASSERT_LT(cpu, CPU_SETSIZE);
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  if (sched_setaffinity(0, sizeof one, &one) != 0) GTEST_SKIP() << "this thread cannot be pinned to CPU " << cpu;
  std::atomic<bool> stop{false};
  // Created after the pin, the competitor inherits it.
  std::thread competitor([&] {
    while (!stop.load(std::memory_order_relaxed)) {
    }
  });
  ProtocolConfig c = small_protocol();
  c.min_region_ms = 10;  // regions of about 20 ms: many scheduler slices each
  BusyRegion region;
  auto r = time_region(std::ref(region), c, CancelToken{});
  stop = true;
  competitor.join();
  sched_setaffinity(0, sizeof before, &before);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_GT(r->involuntary_switches, 0);
  double inside_cpu = 0;
  for (auto it = region.calls.end() - 4; it != region.calls.end(); ++it) inside_cpu += it->cpu_ms;
  // Sharing one CPU, this thread got well under the whole wall time of its regions.
  EXPECT_LT(inside_cpu, 0.9 * r->timed_wall_ms) << "CPU " << inside_cpu << " ms of " << r->timed_wall_ms << " ms";
}

// The barriers stop the optimiser: a loop whose only use is keep() still runs, and a load after
// clobber_memory() is done again on every pass (without the barriers both loops fold to nothing
// at -O1 and above, and take no CPU time).
TEST(HostProtocol, KeepAndClobberStopTheOptimiser) {
  static_assert(noexcept(keep(1)) && noexcept(clobber_memory()));
  constexpr std::uint64_t kSteps = 20'000'000;
  double t0 = thread_cpu_ms();
  std::uint64_t x = 88172645463325252ull;
  for (std::uint64_t i = 0; i < kSteps; ++i) {  // xorshift64: no closed form to fold it into
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  keep(x);
  const double kept_ms = thread_cpu_ms() - t0;
  auto cell = std::make_unique<std::uint64_t>(3);  // heap memory: the clobber may have written it
  t0 = thread_cpu_ms();
  std::uint64_t sum = 0;
  for (std::uint64_t i = 0; i < kSteps; ++i) {
    clobber_memory();
    sum += *cell;
  }
  keep(sum);
  const double reloaded_ms = thread_cpu_ms() - t0;
  EXPECT_EQ(sum, 3 * kSteps);
  // 20 M dependent steps take some 10 ms on any CPU this runs on; folded, they take microseconds.
  EXPECT_GT(kept_ms, 1.0);
  EXPECT_GT(reloaded_ms, 1.0);
}

}  // namespace
}  // namespace wgb::host
