// Unit tests for measure/repetition_protocol: the host protocol's decisions (calibration to regions
// > 1 ms, best of three, the scaling check, warm-up to steady state, re-timed short sets) fed
// scripted region durations, so every case is exact and instant.
#include "measure/repetition_protocol.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <stdexcept>

namespace wgb::measure {
namespace {

// Runs the protocol to its end; `region` gives the duration (ms) of a region of `repeat` passes.
RepetitionReport drive(RepetitionProtocol& p, const std::function<double(std::uint64_t, const Action&)>& region) {
  for (int guard = 0; guard < 100000 && !p.done(); ++guard) {
    const Action a = p.next();
    if (a.kind != Action::Kind::Run) break;
    EXPECT_EQ(a.repetitions, 1u);
    p.add(region(a.knob, a));
  }
  EXPECT_TRUE(p.done());
  return p.report();
}

double linear(std::uint64_t repeat, double fixed_ms, double pass_ms) {
  return fixed_ms + static_cast<double>(repeat) * pass_ms;
}

TEST(RepetitionProtocol, CalibratesEveryRegionPastOneMillisecond) {
  RepetitionConfig c;
  c.repetitions = 7;
  c.warmup_ms = 10;
  RepetitionProtocol p(c);
  const auto r = drive(p, [](std::uint64_t n, const Action&) { return linear(n, 0, 700e-6); });  // 700 ns a pass
  EXPECT_GE(static_cast<double>(r.knob) * 700e-6, c.min_region_ms * c.target_factor);
  ASSERT_EQ(r.region_ms.size(), 7u);
  ASSERT_EQ(r.kept_ms.size(), 7u);
  for (double t : r.region_ms) EXPECT_GT(t, 1.0);
  for (double ms : r.kept_ms) EXPECT_NEAR(ms, 700e-6, 1e-12);
  EXPECT_EQ(r.short_regions, 0u);
  EXPECT_TRUE(r.warmup_steady);
  EXPECT_GE(r.warmup_ms, 10.0);
  EXPECT_GE(r.warmup_runs, c.warmup_min_runs);
  EXPECT_FALSE(r.calibration_trace.empty());
  EXPECT_EQ(r.stop_reason, StopReason::FixedRepetitions);
  EXPECT_TRUE(r.discarded.empty());
  EXPECT_EQ(p.record().knob, r.knob);
}

TEST(RepetitionProtocol, OnePreemptedRegionDoesNotStopCalibration) {
  // The first region is stretched by 50 ms (a preemption): best of three catches it.
  RepetitionConfig c;
  c.repetitions = 3;
  c.warmup_ms = 1;
  RepetitionProtocol p(c);
  int call = 0;
  const auto r = drive(p, [&](std::uint64_t n, const Action&) { return linear(n, call++ == 0 ? 50 : 0, 1e-3); });
  EXPECT_GE(r.knob, 2000u);  // 2 ms of 1 us passes
  for (double t : r.region_ms) EXPECT_GT(t, 1.0);
}

TEST(RepetitionProtocol, FixedCostPerRegionIsOutgrownNotMeasured) {
  // Every region costs 20 ms before any work (a thread team whose members wait for a scheduler
  // slice on a loaded machine) and a pass costs 1 us. A 2 ms target is met by the fixed cost alone
  // at one pass; the scaling check must grow the count until the fixed part is at most about 10%
  // of a region, so the per-pass time is the kernel's (within ~12%), not 20 ms.
  RepetitionConfig c;
  c.repetitions = 3;
  c.warmup_ms = 1;
  RepetitionProtocol p(c);
  const auto r = drive(p, [](std::uint64_t n, const Action&) { return linear(n, 20, 1e-3); });
  EXPECT_GE(r.scaling, c.min_scaling);
  EXPECT_GE(r.scaling_steps, 1);
  EXPECT_GE(r.knob, 162'000u);  // 20 ms of fixed cost is <= ~11% of the passes' time
  for (double ms : r.kept_ms) EXPECT_LT(ms, 1.12e-3);
}

TEST(RepetitionProtocol, LinearKernelNeedsNoScalingSteps) {
  // A small fixed cost (5 us) next to 1 us passes: the first count past the target scales.
  RepetitionConfig c;
  c.repetitions = 3;
  c.warmup_ms = 1;
  RepetitionProtocol p(c);
  const auto r = drive(p, [](std::uint64_t n, const Action&) { return linear(n, 5e-3, 1e-3); });
  EXPECT_EQ(r.scaling_steps, 0);
  EXPECT_GE(r.scaling, c.min_scaling);
  EXPECT_LT(r.knob, 4000u);  // the 2 ms target, not more
}

// After calibration and warm-up the kernel gets 4x faster: the regions fall under 1 ms, so the set
// is discarded and timed again with a larger repeat count until they do not.
RepetitionReport faster_when_timed(const RepetitionConfig& c, std::uint64_t* first_timed_repeat) {
  RepetitionProtocol p(c);
  return drive(p, [&](std::uint64_t n, const Action& a) {
    if (a.recorded && *first_timed_repeat == 0) *first_timed_repeat = n;
    return linear(n, 0, a.recorded ? 0.25e-3 : 1e-3);
  });
}

RepetitionConfig short_set_config() {
  RepetitionConfig c;
  c.repetitions = 3;
  c.warmup_ms = 0;
  c.warmup_min_runs = 1;
  return c;
}

TEST(RepetitionProtocol, ShortTimedRegionsAreRetriedWithMoreRepeats) {
  std::uint64_t first = 0;
  const auto r = faster_when_timed(short_set_config(), &first);
  EXPECT_GE(r.recalibrations, 1);
  EXPECT_EQ(r.short_regions, 0u);
  EXPECT_GE(r.knob, 2 * first);
  ASSERT_EQ(r.region_ms.size(), 3u);
  for (double t : r.region_ms) EXPECT_GT(t, 1.0);
}

TEST(RepetitionProtocol, RetimedSetsAreDiscardedWithTheirReason) {
  // Nothing measured is dropped silently: the short set's regions are in the record.
  std::uint64_t first = 0;
  const auto r = faster_when_timed(short_set_config(), &first);
  ASSERT_EQ(r.discarded.size(), 3u * static_cast<std::size_t>(r.recalibrations));
  for (const auto& d : r.discarded) {
    EXPECT_EQ(d.stage, "sample");
    EXPECT_EQ(d.reason, "batch-resized");
    EXPECT_NE(d.note.find("not longer than the minimum region"), std::string::npos) << d.note;
    EXPECT_EQ(d.knob, first);
    EXPECT_NEAR(d.ms, 0.25e-3, 1e-12);  // per pass, like the kept samples
  }
  EXPECT_EQ(r.kept_ms.size(), 3u);
}

TEST(RepetitionProtocol, RepeatCapEndsCalibrationAndRetiming) {
  RepetitionConfig c = short_set_config();
  c.max_repeat = 64;  // a region of 64 passes stays short: the protocol stops at the cap
  RepetitionProtocol p(c);
  const auto r = drive(p, [](std::uint64_t n, const Action&) { return linear(n, 0, 1e-3); });
  EXPECT_EQ(r.knob, 64u);
  EXPECT_EQ(r.short_regions, 3u);
  EXPECT_EQ(r.recalibrations, 0);
  EXPECT_EQ(r.kept_ms.size(), 3u);
}

TEST(RepetitionProtocol, UnusableReadingsAreDiscardedAndRetried) {
  RepetitionConfig c = short_set_config();
  RepetitionProtocol p(c);
  bool once = true;
  const auto r = drive(p, [&](std::uint64_t n, const Action&) {
    if (once) {
      once = false;
      return 0.0;
    }
    return linear(n, 0, 1e-3);
  });
  ASSERT_FALSE(r.discarded.empty());
  EXPECT_EQ(r.discarded.front().reason, "unusable");
  EXPECT_EQ(r.discarded.front().stage, "calibrate");
  EXPECT_EQ(r.kept_ms.size(), 3u);
}

TEST(RepetitionProtocol, AddWithoutARunIsALogicError) {
  RepetitionProtocol p(RepetitionConfig{});
  EXPECT_THROW(p.add(1.0), std::logic_error);
  EXPECT_GT(p.estimate_remaining_ms(), 0);
}

}  // namespace
}  // namespace wgb::measure
