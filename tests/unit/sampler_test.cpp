// Unit tests for measure/sampler: the best-run state machine driven by scripted durations.
#include "measure/sampler.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <functional>
#include <limits>
#include <stdexcept>
#include <vector>

namespace wgb::measure {
namespace {

using Kind = Action::Kind;
using Stage = Action::Stage;

// Feeds the sampler until Done.  Unrecorded runs (calibration / warm-up) get `model(action)`;
// recorded (timed) runs take per-repetition times from `rounds` in order (times the batch size),
// falling back to the model once the script is exhausted.
struct Driver {
  std::function<double(const Action&)> model;
  std::deque<double> rounds;  // per-repetition ms for successive timed rounds
  std::vector<Action> log;

  void run(Sampler& s) {
    for (int guard = 0; guard < 10000; ++guard) {
      const Action a = s.next();
      log.push_back(a);
      if (a.kind == Kind::Done) return;
      if (a.kind != Kind::Run) continue;
      if (a.recorded && !rounds.empty()) {
        s.add(rounds.front() * a.repetitions);
        rounds.pop_front();
      } else {
        s.add(model(a));
      }
    }
    FAIL() << "sampler did not terminate";
  }
  std::vector<Action> of(Stage st) const {
    std::vector<Action> out;
    for (const Action& a : log)
      if (a.stage == st) out.push_back(a);
    return out;
  }
  std::vector<Action> timed() const {
    std::vector<Action> out;
    for (const Action& a : log)
      if (a.kind == Kind::Run && a.recorded) out.push_back(a);
    return out;
  }
};

// Per-repetition time linear in the loop count: unit_ms per knob unit.
std::function<double(const Action&)> linear(double unit_ms) {
  return [unit_ms](const Action& a) {
    return static_cast<double>(a.knob) * unit_ms * a.repetitions;
  };
}

const KnobRange kFixed{1, 1, 1};

TEST(Sampler, StopReasonNames) {
  EXPECT_STREQ(to_string(StopReason::Converged), "converged");
  EXPECT_STREQ(to_string(StopReason::MaxRounds), "max-rounds");
  EXPECT_STREQ(to_string(StopReason::Throttled), "throttled");
  // The row vocabulary writes nothing for a row that measured nothing (as documents always held);
  // the sampler's old spelling "none" still parses (vocabulary_test.cpp).
  EXPECT_STREQ(to_string(StopReason::None), "");
}

TEST(Sampler, SteadySequenceConvergesWithIdleGaps) {
  CooldownBudget budget;
  Sampler s({}, KnobRange{1, 1'000'000, 1}, budget);
  Driver d{linear(0.01), {}, {}};
  d.run(s);
  const SamplerReport r = s.report();
  // Knob: 1 -> 4 -> 16 -> 64 -> 256 (x4 capped), then 2.56 ms -> x(10/2.56) -> 1000 (10 ms).
  EXPECT_EQ(r.knob, 1000u);
  ASSERT_EQ(r.calibration_trace.size(), 6u);
  EXPECT_NEAR(r.calibration_trace.back().second, 10.0, 1e-9);
  // Batch: 1 rep = 10 ms (< 25) -> 4 reps = 40 ms -> scale to ceil(4*100/40) = 10.
  EXPECT_EQ(r.repetitions, 10u);
  EXPECT_EQ(d.of(Stage::WarmUp).size(), 1u);
  EXPECT_FALSE(d.of(Stage::WarmUp)[0].recorded);
  // 3 steady rounds: min_rounds reached and the best stable for 2 rounds.
  EXPECT_EQ(r.stop_reason, StopReason::Converged);
  EXPECT_EQ(r.rounds, 3);
  EXPECT_EQ(r.kept_ms.size(), 3u);
  EXPECT_NEAR(r.best_ms, 10.0, 1e-9);
  EXPECT_NEAR(r.stats.mean, 10.0, 1e-9);
  EXPECT_TRUE(r.throttled_ms.empty());
  EXPECT_TRUE(r.valid());
  // Idle gaps between the timed rounds, none after the last one.
  const auto idles = d.of(Stage::Idle);
  ASSERT_EQ(idles.size(), 2u);
  for (const Action& a : idles) {
    EXPECT_EQ(a.kind, Kind::Sleep);
    EXPECT_DOUBLE_EQ(a.sleep_ms, 100);
    EXPECT_FALSE(a.cooldown);
  }
  std::vector<Kind> tail;
  for (std::size_t i = d.log.size() - 6; i < d.log.size(); ++i) tail.push_back(d.log[i].kind);
  EXPECT_EQ(tail, (std::vector<Kind>{Kind::Run, Kind::Sleep, Kind::Run, Kind::Sleep, Kind::Run,
                                     Kind::Done}));
  EXPECT_TRUE(s.done());
  EXPECT_EQ(s.next().kind, Kind::Done);
}

// The run's first row warms an idle device up for a minimum time: the warm-up repeats its batch
// (100 ms here) until 250 ms are spent, and the estimate counts the whole minimum.
TEST(Sampler, AMinimumWarmUpRepeatsTheWarmUpBatch) {
  CooldownBudget budget;
  SamplerConfig cfg;
  cfg.min_warmup_ms = 250;
  Sampler s(cfg, KnobRange{1, 1'000'000, 1}, budget);
  Driver d{linear(0.01), {}, {}};
  d.run(s);
  EXPECT_EQ(d.of(Stage::WarmUp).size(), 3u);  // 100 + 100 + 100 ms >= 250
  for (const Action& a : d.of(Stage::WarmUp)) EXPECT_FALSE(a.recorded);
  EXPECT_EQ(s.report().stop_reason, StopReason::Converged);
  SamplerConfig plain;
  EXPECT_NEAR(estimate_total_ms(cfg, kFixed) - estimate_total_ms(plain, kFixed), 250 - 100, 1e-9);
}

// An idle device calibrated before its clocks are up: every run is 4.5x slower until 1 s of work
// has run (about the knob calibration's), then at speed. The first row's long warm-up finds the
// warm dispatch under half the target and calibrates the knob again, so the timed dispatches are at
// the target, not 4.5x shorter; the row says so. Without the long warm-up nothing changes.
TEST(Sampler, AWarmDispatchUnderHalfTheTargetCalibratesTheKnobAgainAfterTheFirstRowsWarmUp) {
  auto cold_then_warm = [](double* spent) {
    return [spent](const Action& a) {
      const double ms = static_cast<double>(a.knob) * 0.01 * a.repetitions * (*spent < 60 ? 4.5 : 1.0);
      *spent += ms;
      return ms;
    };
  };
  CooldownBudget budget;
  SamplerConfig cfg;
  cfg.min_warmup_ms = 400;
  double spent = 0;
  Sampler s(cfg, KnobRange{1, 1'000'000, 1}, budget);
  Driver d{cold_then_warm(&spent), {}, {}};
  d.run(s);
  const SamplerReport r = s.report();
  // Calibrated cold: 11.5 ms at knob 256; warm, that is 2.56 ms, so it grows again to a 10 ms
  // dispatch near the target.
  EXPECT_GE(r.knob, 500u);  // a 5-20 ms dispatch (within half and twice the target)
  EXPECT_LE(r.knob, 2000u);
  for (const Action& a : d.timed()) EXPECT_EQ(a.knob, r.knob);
  ASSERT_FALSE(d.timed().empty());
  EXPECT_NEAR(r.best_ms, static_cast<double>(r.knob) * 0.01, 1e-9);
  bool said = false;
  for (const auto& n : r.notes) said = said || n.find("the knob was calibrated again") != std::string::npos;
  EXPECT_TRUE(said);
  // The warm-up is not repeated whole: one batch at the new knob.
  std::size_t warm_at_new_knob = 0;
  for (const Action& a : d.of(Stage::WarmUp)) warm_at_new_knob += a.knob == r.knob ? 1 : 0;
  EXPECT_EQ(warm_at_new_knob, 1u);

  // The same device without the long warm-up keeps the knob it calibrated (later rows).
  double spent2 = 0;
  Sampler plain({}, KnobRange{1, 1'000'000, 1}, budget);
  Driver d2{cold_then_warm(&spent2), {}, {}};
  d2.run(plain);
  EXPECT_LT(plain.report().knob, 300u);
  for (const auto& n : plain.report().notes) EXPECT_EQ(n.find("calibrated again"), std::string::npos) << n;
}

TEST(Sampler, CalibrationGrowthAtMostFourTimesPerStepAndClampedToMax) {
  CooldownBudget budget;
  Sampler s({}, KnobRange{1, 100, 1}, budget);
  Driver d{linear(0.01), {}, {}};
  d.run(s);
  const SamplerReport r = s.report();
  std::vector<std::uint64_t> knobs;
  for (const auto& [k, ms] : r.calibration_trace) knobs.push_back(k);
  EXPECT_EQ(knobs, (std::vector<std::uint64_t>{1, 4, 16, 64, 100}));
  for (std::size_t i = 1; i < knobs.size(); ++i) EXPECT_LE(knobs[i], knobs[i - 1] * 4);
  EXPECT_EQ(r.knob, 100u);  // pinned at the bound although 1 ms < target/2
}

TEST(Sampler, CalibrationGrowthUsesRatioWhenCloseToTarget) {
  CooldownBudget budget;
  Sampler s({}, KnobRange{1, 1'000'000, 1000}, budget);
  Driver d{linear(0.004), {}, {}};  // 1000 -> 4 ms: factor 10/4 = 2.5 -> 2500 -> 10 ms
  d.run(s);
  ASSERT_EQ(s.report().calibration_trace.size(), 2u);
  EXPECT_EQ(s.report().knob, 2500u);
}

TEST(Sampler, CalibrationShrinksAfterRetryAndClampsToMin) {
  CooldownBudget budget;
  Sampler s({}, KnobRange{1, 1'000'000, 10000}, budget);
  Driver d{linear(0.01), {}, {}};
  d.run(s);
  // 10000 -> 100 ms (> 20): re-run once (first run may be cold), then shrink by at most 4x:
  // 2500 (25 ms), then by 10/25 = 0.4 -> 1000 (10 ms).
  const auto& tr = s.report().calibration_trace;
  ASSERT_EQ(tr.size(), 4u);
  EXPECT_EQ(tr[0].first, 10000u);
  EXPECT_EQ(tr[1].first, 10000u);
  EXPECT_EQ(tr[2].first, 2500u);
  EXPECT_EQ(tr[3].first, 1000u);
  EXPECT_EQ(s.report().knob, 1000u);

  CooldownBudget b2;
  Sampler m({}, KnobRange{500, 1'000'000, 1000}, b2);
  Driver d2{linear(1.0), {}, {}};
  d2.run(m);
  EXPECT_EQ(m.report().knob, 500u);  // still slow, but at the minimum
}

TEST(Sampler, ColdFirstRunIsRetriedNotShrunk) {
  CooldownBudget budget;
  Sampler s({}, KnobRange{1, 1'000'000, 1000}, budget);
  int calls = 0;
  Driver d{[&](const Action& a) { return ++calls == 1 ? 150.0 : linear(0.01)(a); }, {}, {}};
  d.run(s);
  ASSERT_GE(s.report().calibration_trace.size(), 2u);
  EXPECT_EQ(s.report().knob, 1000u);
}

// The H200 case: the cold first dispatch of the 256 MiB chase (4096 hops) took 5.6 ms, inside the
// [5, 20] ms window, while a warm one takes 1.4 ms. Trusting it left every timed dispatch at 1.4 ms;
// measuring the same knob again shows it is too fast and calibration grows the knob.
TEST(Sampler, ColdFirstRunInsideTheWindowIsMeasuredAgain) {
  CooldownBudget budget;
  Sampler s({}, KnobRange{16, 1u << 26, 4096}, budget);
  int calls = 0;
  const auto warm = linear(0.000345);  // 345 ns per hop
  Driver d{[&](const Action& a) { return ++calls == 1 ? 5.6 : warm(a); }, {}, {}};
  d.run(s);
  const auto& tr = s.report().calibration_trace;
  ASSERT_GE(tr.size(), 3u);
  EXPECT_EQ(tr[0].first, 4096u);
  EXPECT_EQ(tr[1].first, 4096u);  // the same knob, measured warm
  EXPECT_NEAR(tr[1].second, 4096 * 0.000345, 1e-9);
  EXPECT_GE(s.report().knob, 4u * 4096);
  EXPECT_GE(warm(Action{.knob = s.report().knob, .repetitions = 1}), 5.0);
}

TEST(Sampler, CalibrationStepsAreCapped) {
  SamplerConfig cfg;
  cfg.max_calibration_steps = 3;
  CooldownBudget budget;
  Sampler s(cfg, KnobRange{1, 1'000'000, 1}, budget);
  Driver d{linear(0.0001), {}, {}};
  d.run(s);
  EXPECT_EQ(s.report().calibration_trace.size(), 3u);
  EXPECT_EQ(s.report().knob, 16u);  // the last measured knob, not an extrapolated one
}

TEST(Sampler, FixedWorkCalibratesOnlyRepetitions) {
  CooldownBudget budget;
  Sampler s({}, KnobRange{7, 7, 7}, budget);
  Driver d{[](const Action& a) { return 10.0 * a.repetitions; }, {}, {}};
  d.run(s);
  for (const Action& a : d.log) {
    if (a.kind == Kind::Run) {
      EXPECT_EQ(a.knob, 7u);
    }
  }
  const SamplerReport r = s.report();
  EXPECT_TRUE(r.calibration_trace.empty());
  EXPECT_EQ(r.knob, 7u);
  // Calibrate runs: 1 rep (10 ms) -> 4 reps (40 ms >= 25) -> scaled to 10 reps.
  const auto cal = d.of(Stage::Calibrate);
  ASSERT_EQ(cal.size(), 2u);
  EXPECT_EQ(cal[0].repetitions, 1u);
  EXPECT_EQ(cal[1].repetitions, 4u);
  EXPECT_EQ(r.repetitions, 10u);
  EXPECT_NEAR(r.best_ms, 10.0, 1e-12);  // reported per repetition, not per batch
}

TEST(Sampler, BatchGrowthIsFourfoldAndClampedToMaxBatch) {
  SamplerConfig cfg;
  cfg.max_batch = 20;
  CooldownBudget budget;
  Sampler s(cfg, kFixed, budget);
  Driver d{[](const Action& a) { return 0.01 * a.repetitions; }, {}, {}};
  d.run(s);
  const auto cal = d.of(Stage::Calibrate);
  ASSERT_EQ(cal.size(), 4u);  // 1, 4, 16, 20 (clamped) -> at the cap, stop
  EXPECT_EQ(cal[2].repetitions, 16u);
  EXPECT_EQ(cal[3].repetitions, 20u);
  EXPECT_EQ(s.report().repetitions, 20u);
}

// The batch sizing both samplers share (the phase sampler sizes dispatches per pass with it).
TEST(Sampler, SizeBatchGrowsBelowAQuarterThenScalesToTheTarget) {
  const BatchStep grow = size_batch(8, 10, 100, 1000, false);  // 10 ms < 100 / 4
  EXPECT_EQ(grow.count, 32u);
  EXPECT_FALSE(grow.done);
  EXPECT_EQ(size_batch(400, 1, 100, 1000, false).count, 1000u);  // growth clamped to the cap
  const BatchStep scale = size_batch(8, 40, 100, 1000, false);  // a quarter reached: 8 * 100 / 40
  EXPECT_EQ(scale.count, 20u);
  EXPECT_TRUE(scale.done);
  const BatchStep last = size_batch(8, 10, 100, 1000, true);  // the last step scales too
  EXPECT_EQ(last.count, 80u);
  EXPECT_TRUE(last.done);
  EXPECT_EQ(size_batch(8, 2000, 100, 1000, false).count, 1u);  // never below one
  EXPECT_EQ(size_batch(8, std::nan(""), 100, 1000, true).count, 1u);
  EXPECT_TRUE(size_batch(1000, 1, 100, 1000, false).done);  // at the cap: nothing left to grow
}

TEST(Sampler, SlowFixedWorkKeepsOneRepetition) {
  CooldownBudget budget;
  Sampler s({}, kFixed, budget);
  Driver d{[](const Action& a) { return 300.0 * a.repetitions; }, {}, {}};
  d.run(s);
  EXPECT_EQ(s.report().repetitions, 1u);
}

TEST(Sampler, ShortTimedBatchRestartsSamplingWithALongerBatch) {
  // Seen on an H200: a fixed-work chain was calibrated while the clocks were still low (10 ms per
  // repetition), so 10 repetitions were batched; at full clock a repetition takes 0.6 ms and a
  // batch lasted 6 ms, short enough for the clocks to fall in every idle gap, and the rounds then
  // swung between clock states and were flagged as throttling. The first timed round re-sizes
  // the batch from its own speed and sampling starts over at that size.
  CooldownBudget budget;
  Sampler s({}, kFixed, budget);
  Driver d{[](const Action& a) { return (a.stage == Stage::Calibrate ? 10.0 : 0.6) * a.repetitions; }, {}, {}};
  d.run(s);
  const SamplerReport r = s.report();
  const auto timed = d.timed();
  ASSERT_GE(timed.size(), 4u);
  EXPECT_EQ(timed.front().repetitions, 10u);  // calibrated: 1 rep (10 ms) -> 4 reps (40 ms) -> 10
  EXPECT_EQ(r.repetitions, 167u);  // ceil(10 x 100 / 6)
  EXPECT_EQ(timed.back().repetitions, 167u);
  EXPECT_EQ(r.batch_resizes, 1);
  EXPECT_EQ(r.stop_reason, StopReason::Converged);
  EXPECT_EQ(r.rounds, 3);  // counted afresh at the new size
  EXPECT_EQ(r.kept_ms.size(), 3u);  // the 6 ms round is not among them
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("re-sized from 10 to 167"), std::string::npos) << r.notes[0];
  // A warm-up at the new size precedes its first timed round.
  bool warm_after_resize = false;
  for (std::size_t i = 1; i < d.log.size(); ++i) {
    if (d.log[i].stage == Stage::WarmUp && d.log[i].repetitions == 167u) warm_after_resize = true;
  }
  EXPECT_TRUE(warm_after_resize);
}

TEST(Sampler, BatchAtTheCapOrLongEnoughIsNotResized) {
  {  // capped at max_batch: cannot grow, sampling proceeds at the cap
    SamplerConfig cfg;
    cfg.max_batch = 8;
    CooldownBudget budget;
    Sampler s(cfg, kFixed, budget);
    Driver d{[](const Action& a) { return 0.5 * a.repetitions; }, {}, {}};
    d.run(s);
    EXPECT_EQ(s.report().batch_resizes, 0);
    EXPECT_EQ(s.report().repetitions, 8u);
  }
  {  // timed rounds 3x faster than calibration but still >= a quarter of the target: kept as is
    CooldownBudget budget;
    Sampler s({}, kFixed, budget);
    Driver d{[](const Action& a) { return (a.stage == Stage::Calibrate ? 10.0 : 3.0) * a.repetitions; }, {}, {}};
    d.run(s);
    EXPECT_EQ(s.report().batch_resizes, 0);
    EXPECT_EQ(s.report().repetitions, 10u);
  }
}

TEST(Sampler, NoisyImprovingSequenceHitsMaxRounds) {
  CooldownBudget budget;
  Sampler s({}, kFixed, budget);
  Driver d{[](const Action& a) { return 10.0 * a.repetitions; }, {}, {}};
  double t = 10;
  for (int i = 0; i < 20; ++i, t *= 0.95) d.rounds.push_back(t);  // always > 1% better
  d.run(s);
  const SamplerReport r = s.report();
  EXPECT_EQ(r.stop_reason, StopReason::MaxRounds);
  EXPECT_EQ(r.rounds, 10);
  EXPECT_EQ(d.timed().size(), 10u);
  EXPECT_EQ(r.kept_ms.size(), 10u);
  EXPECT_NEAR(r.best_ms, 10 * std::pow(0.95, 9), 1e-9);
}

TEST(Sampler, ImprovementWithinToleranceCountsAsStable) {
  CooldownBudget budget;
  Sampler s({}, kFixed, budget);
  Driver d{[](const Action& a) { return 10.0 * a.repetitions; }, {10.0, 9.95, 9.92}, {}};
  d.run(s);
  EXPECT_EQ(s.report().stop_reason, StopReason::Converged);
  EXPECT_EQ(s.report().rounds, 3);
  EXPECT_DOUBLE_EQ(s.report().best_ms, 9.92);
}

TEST(Sampler, ThrottledRunsAreDiscardedFromStats) {
  CooldownBudget budget;
  Sampler s({}, kFixed, budget);
  Driver d{[](const Action& a) { return 10.0 * a.repetitions; }, {10, 13, 10, 10}, {}};
  d.run(s);
  const SamplerReport r = s.report();
  EXPECT_EQ(r.stop_reason, StopReason::Converged);
  EXPECT_EQ(r.rounds, 4);
  EXPECT_EQ(r.throttled_ms, (std::vector<double>{13}));
  EXPECT_EQ(r.kept_ms, (std::vector<double>{10, 10, 10}));
  EXPECT_EQ(r.stats.count, 3u);
  EXPECT_DOUBLE_EQ(r.stats.max, 10);
  EXPECT_EQ(r.cooldowns_taken, 0);  // a single discard does not pause
  EXPECT_TRUE(d.of(Stage::Cooldown).empty());
  EXPECT_EQ(budget.remaining, 3);
}

TEST(Sampler, DiscardDoesNotCountTowardStability) {
  CooldownBudget budget;
  Sampler s({}, kFixed, budget);
  // 10, 10(stable 1), 13(discard), 10(stable 2, 3 kept) -> converged after round 4, not 3.
  Driver d{[](const Action& a) { return 10.0 * a.repetitions; }, {10, 10, 13, 10}, {}};
  d.run(s);
  EXPECT_EQ(s.report().rounds, 4);
  EXPECT_EQ(s.report().stop_reason, StopReason::Converged);
}

TEST(Sampler, TwoConsecutiveDiscardsTriggerCooldown) {
  CooldownBudget budget;
  Sampler s({}, kFixed, budget);
  Driver d{[](const Action& a) { return 10.0 * a.repetitions; }, {10, 13, 13, 10, 10}, {}};
  d.run(s);
  const SamplerReport r = s.report();
  const auto cds = d.of(Stage::Cooldown);
  ASSERT_EQ(cds.size(), 1u);
  EXPECT_EQ(cds[0].kind, Kind::Sleep);
  EXPECT_TRUE(cds[0].cooldown);
  EXPECT_DOUBLE_EQ(cds[0].sleep_ms, 3000);
  EXPECT_EQ(r.cooldowns_taken, 1);
  EXPECT_EQ(budget.remaining, 2);
  EXPECT_FALSE(r.flagged_throttled);
  EXPECT_EQ(r.stop_reason, StopReason::Converged);
  EXPECT_EQ(r.throttled_ms.size(), 2u);
  // The cooldown replaces the idle gap after the second discard (round 3).
  std::size_t timed_seen = 0, cooldown_after = 0;
  for (const Action& a : d.log) {
    if (a.kind == Kind::Run && a.recorded) ++timed_seen;
    if (a.stage == Stage::Cooldown) cooldown_after = timed_seen;
  }
  EXPECT_EQ(cooldown_after, 3u);
}

TEST(Sampler, ExhaustedSharedBudgetFlagsAndContinues) {
  CooldownBudget budget{1};
  const auto model = [](const Action& a) { return 10.0 * a.repetitions; };
  Sampler first({}, kFixed, budget);
  Driver d1{model, {10, 13, 13, 10, 10}, {}};
  d1.run(first);
  EXPECT_EQ(first.report().cooldowns_taken, 1);
  EXPECT_EQ(budget.remaining, 0);

  // The second sampler shares the (now empty) budget: no pause, the row is flagged, and a run
  // that ends on discards reports Throttled.
  Sampler second({}, kFixed, budget);
  Driver d2{model, {10, 13, 13, 13, 13, 13, 13, 13, 13, 13}, {}};
  d2.run(second);
  const SamplerReport r = second.report();
  EXPECT_TRUE(d2.of(Stage::Cooldown).empty());
  EXPECT_EQ(r.cooldowns_taken, 0);
  EXPECT_TRUE(r.flagged_throttled);
  EXPECT_EQ(r.stop_reason, StopReason::Throttled);
  EXPECT_EQ(r.rounds, 10);
  EXPECT_EQ(r.kept_ms.size(), 1u);
  EXPECT_EQ(r.throttled_ms.size(), 9u);
  EXPECT_EQ(budget.remaining, 0);
  EXPECT_EQ(d2.of(Stage::Idle).size(), 9u);  // idle gaps still separate the rounds
}

TEST(Sampler, FlaggedButRecoveredEndsNotThrottled) {
  CooldownBudget budget{0};
  Sampler s({}, kFixed, budget);
  Driver d{[](const Action& a) { return 10.0 * a.repetitions; }, {10, 13, 13, 10, 10}, {}};
  d.run(s);
  EXPECT_TRUE(s.report().flagged_throttled);
  EXPECT_EQ(s.report().stop_reason, StopReason::Converged);
}

TEST(Sampler, BadDurationsDoNotCrash) {
  CooldownBudget budget;
  Sampler s({}, kFixed, budget);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  std::deque<double> calib = {0.0, nan, 10.0, 40.0, -5.0};  // calibration, then warm-up
  Driver d{[&](const Action& a) {
             if (calib.empty()) return 10.0 * a.repetitions;
             const double v = calib.front();
             calib.pop_front();
             return v;
           },
           {nan, 10, 0.0, 10, inf, 10},
           {}};
  d.run(s);
  const SamplerReport r = s.report();
  EXPECT_EQ(r.repetitions, 10u);
  EXPECT_EQ(r.invalid_ms.size(), 6u);  // 0, NaN (calibration), -5 (warm-up), NaN, 0, inf
  EXPECT_EQ(r.notes.size(), r.invalid_ms.size());
  EXPECT_EQ(r.kept_ms, (std::vector<double>{10, 10, 10}));
  EXPECT_EQ(r.rounds, 6);  // invalid rounds count toward max_rounds
  EXPECT_EQ(r.stop_reason, StopReason::Converged);
}

TEST(Sampler, AllInvalidRoundsStopAtMaxRounds) {
  CooldownBudget budget;
  Sampler s({}, kFixed, budget);
  Driver d{[](const Action& a) { return 10.0 * a.repetitions; }, {}, {}};
  for (int i = 0; i < 10; ++i) d.rounds.push_back(std::numeric_limits<double>::quiet_NaN());
  d.run(s);
  const SamplerReport r = s.report();
  EXPECT_EQ(r.stop_reason, StopReason::MaxRounds);
  EXPECT_FALSE(r.valid());
  EXPECT_EQ(r.best_ms, 0);
  EXPECT_EQ(r.stats.count, 0u);
}

TEST(Sampler, RunIsRepeatedUntilAddedAndAddWithoutRunThrows) {
  CooldownBudget budget;
  Sampler s({}, kFixed, budget);
  EXPECT_THROW(s.add(1.0), std::logic_error);
  const Action a = s.next();
  const Action b = s.next();
  EXPECT_EQ(a.kind, Kind::Run);
  EXPECT_EQ(b.kind, Kind::Run);
  EXPECT_EQ(a.repetitions, b.repetitions);
  s.add(10.0);
  EXPECT_THROW(s.add(10.0), std::logic_error);
}

TEST(Sampler, EstimateShrinksToZero) {
  CooldownBudget budget;
  Sampler s({}, KnobRange{1, 1'000'000, 1}, budget);
  const double initial = s.estimate_remaining_ms();
  EXPECT_DOUBLE_EQ(initial, estimate_total_ms({}, KnobRange{1, 1'000'000, 1}));
  // Upper estimate: at least max_rounds measurements plus their gaps.
  EXPECT_GE(initial, 10 * 100 + 9 * 100);
  EXPECT_LT(estimate_total_ms({}, kFixed), initial);  // no knob calibration
  double prev = initial;
  for (int guard = 0; guard < 1000 && !s.done(); ++guard) {
    const Action a = s.next();
    if (a.kind == Kind::Run) s.add(linear(0.01)(a));
    const double now = s.estimate_remaining_ms();
    EXPECT_LE(now, prev + 1e-9);
    prev = now;
  }
  EXPECT_TRUE(s.done());
  EXPECT_EQ(s.estimate_remaining_ms(), 0);
}

// Review finding: the rounds dropped by a batch re-size were cleared, and unusable durations never
// reached the row; every measured batch must stay in the record (docs/method.md#record).
TEST(Sampler, ResizedRoundsAndUnusableDurationsAreKeptAsDiscarded) {
  CooldownBudget budget;
  Sampler s({}, kFixed, budget);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  bool first_timed = true;
  Driver d{[&](const Action& a) {
             if (a.stage == Stage::Calibrate) return 10.0 * a.repetitions;
             if (a.recorded && first_timed) {  // the first timed round is unusable, the next one short
               first_timed = false;
               return nan;
             }
             return 0.6 * a.repetitions;
           },
           {},
           {}};
  d.run(s);
  const SamplerReport r = s.report();
  EXPECT_EQ(r.batch_resizes, 1);
  ASSERT_EQ(r.discarded.size(), 2u);
  EXPECT_EQ(r.discarded[0].reason, "unusable");
  EXPECT_EQ(r.discarded[0].stage, "sample");
  EXPECT_TRUE(std::isnan(r.discarded[0].ms));
  EXPECT_EQ(r.discarded[0].repetitions, 10u);
  EXPECT_EQ(r.discarded[1].reason, "batch-resized");
  EXPECT_EQ(r.discarded[1].stage, "sample");
  EXPECT_DOUBLE_EQ(r.discarded[1].ms, 0.6);  // per repetition, at the old batch size
  EXPECT_EQ(r.discarded[1].repetitions, 10u);
  EXPECT_EQ(r.kept_ms.size(), 3u);
  for (const double ms : r.kept_ms) EXPECT_DOUBLE_EQ(ms, 0.6);
}

TEST(Sampler, RejectedResultIsDiscardedWithItsReasonAndCountsAsARound) {
  CooldownBudget budget;
  SamplerConfig cfg;
  cfg.idle_gap_ms = 0;
  Sampler s(cfg, kFixed, budget);
  EXPECT_THROW(s.reject(1.0, "x", ""), std::logic_error);
  int timed = 0;
  for (int guard = 0; guard < 1000 && !s.done(); ++guard) {
    const Action a = s.next();
    if (a.kind != Kind::Run) continue;
    if (a.recorded && timed++ == 0) {
      s.reject(12.0 * a.repetitions, "timestamp-rejected", "timestamp negative");
    } else {
      s.add(10.0 * a.repetitions);
    }
  }
  const SamplerReport r = s.report();
  ASSERT_EQ(r.discarded.size(), 1u);
  EXPECT_EQ(r.discarded[0].reason, "timestamp-rejected");
  EXPECT_EQ(r.discarded[0].note, "timestamp negative");
  EXPECT_DOUBLE_EQ(r.discarded[0].ms, 12.0);
  EXPECT_TRUE(r.invalid_ms.empty());  // a rejected reading is not an unusable value
  EXPECT_EQ(r.rounds, 4);             // it counted toward max_rounds
  for (const double ms : r.kept_ms) EXPECT_DOUBLE_EQ(ms, 10.0);
}

}  // namespace
}  // namespace wgb::measure
