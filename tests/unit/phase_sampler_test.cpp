// Unit tests for measure/phase_sampler: the per-phase engine driven by scripted passes.
#include "measure/phase_sampler.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <stdexcept>
#include <vector>

namespace wgb::measure {
namespace {

using Kind = Action::Kind;
using Stage = Action::Stage;

// Runs the phase to completion; pass duration = model(action, index of the run).
std::vector<Action> drive(PhaseSampler& p, const std::function<double(const Action&, int)>& model) {
  std::vector<Action> log;
  for (int i = 0; i < 100000; ++i) {
    const Action a = p.next();
    log.push_back(a);
    if (a.kind == Kind::Done) return log;
    EXPECT_EQ(a.kind, Kind::Run);
    EXPECT_EQ(a.knob, 1u);
    p.add(model(a, i));
  }
  ADD_FAILURE() << "phase did not terminate";
  return log;
}

std::vector<Action> of(const std::vector<Action>& log, Stage st) {
  std::vector<Action> out;
  for (const Action& a : log)
    if (a.stage == st) out.push_back(a);
  return out;
}

double per_dispatch(const Action& a, double ms) { return ms * a.repetitions; }

TEST(PhaseSampler, CalibrationGrowsFourfoldThenScalesToTarget) {
  PhaseSampler p({});
  const auto log = drive(p, [](const Action& a, int) { return per_dispatch(a, 0.1); });
  const auto cal = of(log, Stage::Calibrate);
  std::vector<std::uint32_t> counts;
  for (const Action& a : cal) counts.push_back(a.repetitions);
  // 0.1, 0.4, 1.6, 6.4 ms are under a quarter of 40 ms; 25.6 ms is not -> scale 256*40/25.6 = 400.
  EXPECT_EQ(counts, (std::vector<std::uint32_t>{1, 4, 16, 64, 256}));
  EXPECT_EQ(p.report().dispatches, 400u);
  for (const Action& a : of(log, Stage::Sample)) {
    EXPECT_EQ(a.repetitions, 400u);
    EXPECT_TRUE(a.recorded);
  }
  for (const Action& a : of(log, Stage::WarmUp)) EXPECT_FALSE(a.recorded);
}

TEST(PhaseSampler, CalibrationClampedToMaxDispatches) {
  PhaseConfig cfg;
  cfg.max_dispatches = 100;
  PhaseSampler p(cfg);
  drive(p, [](const Action& a, int) { return per_dispatch(a, 0.001); });
  EXPECT_EQ(p.report().dispatches, 100u);
}

TEST(PhaseSampler, WarmUpBoundedByTenthOfBudget) {
  PhaseConfig cfg;  // budget 2000 -> warm-up min(500, 200) = 200 ms
  PhaseSampler p(cfg);
  const auto log = drive(p, [](const Action& a, int) { return per_dispatch(a, 0.1); });
  EXPECT_EQ(of(log, Stage::WarmUp).size(), 5u);  // 5 x 40 ms
  EXPECT_DOUBLE_EQ(p.report().warmup_ms_spent, 200);

  cfg.budget_ms = 20000;  // a tenth is 2000 -> capped at warmup_max_ms = 500
  PhaseSampler big(cfg);
  const auto log2 = drive(big, [](const Action& a, int) { return per_dispatch(a, 0.1); });
  EXPECT_EQ(of(log2, Stage::WarmUp).size(), 13u);  // ceil(500 / 40)
  EXPECT_GE(big.report().warmup_ms_spent, 500);
  EXPECT_LT(big.report().warmup_ms_spent, 540);
}

TEST(PhaseSampler, SamplesUntilBudgetSpent) {
  PhaseSampler p({});
  drive(p, [](const Action& a, int) { return per_dispatch(a, 0.1); });
  const auto r = p.report();
  EXPECT_EQ(r.samples_ms.size(), 50u);  // 2000 ms / 40 ms
  EXPECT_DOUBLE_EQ(r.sampled_ms, 2000);
  EXPECT_FALSE(r.hit_hard_stop);
  EXPECT_NEAR(r.median_ms, 40.0, 1e-9);
  EXPECT_NEAR(r.cv, 0.0, 1e-12);
  EXPECT_TRUE(p.done());
  EXPECT_EQ(p.estimate_remaining_ms(), 0);
}

TEST(PhaseSampler, AtLeastEightSamples) {
  PhaseConfig cfg;
  cfg.budget_ms = 200;  // spent after 5 passes of 40 ms, but 8 are required (320 < 500 hard stop)
  PhaseSampler p(cfg);
  drive(p, [](const Action& a, int) { return per_dispatch(a, 0.1); });
  EXPECT_EQ(p.report().samples_ms.size(), 8u);
  EXPECT_FALSE(p.report().hit_hard_stop);
}

TEST(PhaseSampler, HardStopAtTwoAndAHalfBudgets) {
  PhaseSampler p({});
  // A very slow device: a single dispatch takes 1 s; the phase stops at 2.5 x 2000 ms.
  drive(p, [](const Action& a, int) { return per_dispatch(a, 1000.0); });
  const auto r = p.report();
  EXPECT_EQ(r.dispatches, 1u);
  EXPECT_TRUE(r.hit_hard_stop);
  EXPECT_EQ(r.samples_ms.size(), 5u);
  EXPECT_LE(r.sampled_ms, 2.5 * 2000);
}

TEST(PhaseSampler, HardStopNeverOverrunByPredictedPass) {
  PhaseSampler p({});
  // 1.5 s passes: 3 passes = 4.5 s; a 4th would end at 6 s > 5 s, so the phase stops at 3.
  drive(p, [](const Action& a, int) { return per_dispatch(a, 1500.0); });
  EXPECT_TRUE(p.report().hit_hard_stop);
  EXPECT_EQ(p.report().samples_ms.size(), 3u);
  EXPECT_LE(p.report().sampled_ms, 5000);
}

TEST(PhaseSampler, OutlierRejectedAndMedianOfRest) {
  PhaseSampler p({});
  int recorded = 0;
  drive(p, [&](const Action& a, int) {
    if (!a.recorded) return per_dispatch(a, 0.1);
    ++recorded;
    if (recorded == 10) return 120.0;                  // e.g. a compositor hiccup
    return 40.0 + 0.1 * static_cast<double>(recorded % 5);  // 40.0 .. 40.4
  });
  const auto r = p.report();
  EXPECT_EQ(r.rejected_ms, (std::vector<double>{120.0}));
  EXPECT_EQ(r.kept_ms.size() + 1, r.samples_ms.size());
  EXPECT_NEAR(r.median_ms, 40.2, 1e-9);
  EXPECT_EQ(r.stats.count, r.kept_ms.size());
  EXPECT_LT(r.stats.max, 41);
  EXPECT_GT(r.cv, 0);
  EXPECT_LT(r.cv, 0.01);
}

TEST(PhaseSampler, BadDurationsStillTerminate) {
  PhaseSampler p({});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  int call = 0;
  drive(p, [&](const Action& a, int) {
    ++call;
    if (call == 1 || call % 7 == 0) return nan;
    if (call % 11 == 0) return 0.0;
    return per_dispatch(a, 0.1);
  });
  const auto r = p.report();
  EXPECT_FALSE(r.invalid_ms.empty());
  EXPECT_EQ(r.notes.size(), r.invalid_ms.size());
  for (double x : r.samples_ms) EXPECT_GT(x, 0);
  EXPECT_GE(r.samples_ms.size(), 8u);

  PhaseSampler all_bad({});
  drive(all_bad, [&](const Action&, int) { return nan; });
  EXPECT_TRUE(all_bad.report().samples_ms.empty());
  EXPECT_TRUE(all_bad.report().hit_hard_stop);
}

TEST(PhaseSampler, AddWithoutRunThrows) {
  PhaseSampler p({});
  EXPECT_THROW(p.add(1.0), std::logic_error);
}

TEST(PhaseSampler, EstimateDecreases) {
  PhaseSampler p({});
  const double initial = p.estimate_remaining_ms();
  EXPECT_GE(initial, 2000 + 200);  // sampling budget + warm-up
  double prev = initial;
  while (!p.done()) {
    const Action a = p.next();
    p.add(per_dispatch(a, 0.1));
    EXPECT_LE(p.estimate_remaining_ms(), prev + 1e-9);
    prev = p.estimate_remaining_ms();
  }
  EXPECT_EQ(prev, 0);
}

// The one record: kept passes per dispatch, outliers and rejected timestamps as discarded entries
// with their reasons (before, a rejected timestamp was a NaN and a note, never a discarded entry).
TEST(PhaseSampler, RecordKeepsEveryPassWithItsReason) {
  PhaseConfig cfg;
  cfg.budget_ms = 400;
  PhaseSampler p(cfg);
  int samples = 0;
  bool rejected = false;
  for (int guard = 0; guard < 10000 && !p.done(); ++guard) {
    const Action a = p.next();
    if (a.kind == Kind::Done) break;
    double ms = per_dispatch(a, 0.1);
    if (a.stage == Stage::Sample) {
      ++samples;
      if (samples == 3 && !rejected) {
        rejected = true;
        p.reject(ms, "timestamp-rejected", "negative timestamp");
        continue;
      }
      ms *= 1 + 0.01 * (samples % 3);  // some spread: a zero MAD rejects nothing
      if (samples == 5) ms *= 10;       // an outlier
    }
    p.add(ms);
  }
  const Record r = p.record();
  const auto rep = p.report();
  EXPECT_EQ(r.repetitions, rep.dispatches);
  EXPECT_EQ(r.kept_ms.size(), rep.kept_ms.size());
  ASSERT_FALSE(r.kept_ms.empty());
  EXPECT_DOUBLE_EQ(r.kept_ms[0], rep.kept_ms[0] / rep.dispatches);
  EXPECT_EQ(r.stop_reason, StopReason::Budget);
  ASSERT_EQ(r.discarded.size(), 2u);
  EXPECT_EQ(r.discarded[0].reason, "timestamp-rejected");
  EXPECT_EQ(r.discarded[0].stage, "sample");
  EXPECT_EQ(r.discarded[0].note, "negative timestamp");
  EXPECT_EQ(r.discarded[1].reason, "outlier");
  EXPECT_FALSE(r.calibration_trace.empty());
  EXPECT_EQ(rep.invalid_ms.size(), 1u);  // still counted as an unusable pass against the budget
  EXPECT_THROW(p.reject(1, "x", ""), std::logic_error);
}

}  // namespace
}  // namespace wgb::measure
