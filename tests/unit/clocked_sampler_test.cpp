// Unit tests for measure/clocked_sampler: one row, one clock. Scripted raw timings (both clocks)
// where GPU timestamps go bad mid-row; every kept sample must come from the clock the row names
// (the bug: samples timed on GPU timestamps before a demotion stayed in a wall-clock row, and a
// single rejected timestamp fed a wall-clock value into a GPU-timed row).
#include "measure/clocked_sampler.hpp"

#include "measure/phase_sampler.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace wgb::measure {
namespace {

// Per-repetition costs: the GPU takes 10 ms per repetition; the host round trip adds 1 ms per batch
// (subtracted as empty-submit overhead) plus 2 ms per repetition of host-side cost, so a wall-clock
// sample reads 12 ms per repetition and can never be mistaken for a GPU one.
constexpr double kGpuPerRep = 10.0;
constexpr double kWallPerRep = 12.0;
constexpr double kEmptySubmit = 1.0;

struct Feed {
  // timed_round -> the timestamp this batch reports (nullopt: keep it good).
  std::function<std::optional<double>(int timed_round, const Action&)> bad;
  int timed_rounds = 0;

  void run(ClockedSampler& s) {
    for (int guard = 0; guard < 10000; ++guard) {
      const Action a = s.next();
      if (a.kind == Action::Kind::Done) return;
      if (a.kind != Action::Kind::Run) continue;
      RawTiming raw;
      raw.wall_ms = kEmptySubmit + kWallPerRep * a.repetitions;
      raw.gpu_ms = kGpuPerRep * a.repetitions;
      if (a.recorded) {
        if (auto b = bad(timed_rounds, a)) raw.gpu_ms = *b;
        ++timed_rounds;
      }
      s.add(raw);
    }
    FAIL() << "sampler did not terminate";
  }
};

SamplerConfig quick() {
  SamplerConfig c;
  c.idle_gap_ms = 0;
  return c;
}

TEST(ClockedSampler, GoodTimestampsKeepGpuSamplesOnly) {
  CooldownBudget budget;
  ClockedSampler s(quick(), KnobRange{1, 1, 1}, budget, TimingArbiter(true, kEmptySubmit));
  Feed f{[](int, const Action&) { return std::nullopt; }};
  f.run(s);
  const Record r = s.record();
  EXPECT_EQ(s.clock(), ClockKind::GpuTimestamp);
  ASSERT_FALSE(r.kept_ms.empty());
  for (const double ms : r.kept_ms) EXPECT_DOUBLE_EQ(ms, kGpuPerRep);
  EXPECT_TRUE(r.discarded.empty());
  EXPECT_EQ(s.restarts(), 0);
}

TEST(ClockedSampler, SingleRejectedTimestampIsDiscardedNotKept) {
  CooldownBudget budget;
  ClockedSampler s(quick(), KnobRange{1, 1, 1}, budget, TimingArbiter(true, kEmptySubmit));
  // The second timed round's timestamp is negative: one strike, no demotion.
  Feed f{[](int round, const Action&) { return round == 1 ? std::optional<double>(-3.0) : std::nullopt; }};
  f.run(s);
  const Record r = s.record();
  EXPECT_EQ(s.clock(), ClockKind::GpuTimestamp);
  EXPECT_EQ(s.arbiter().strikes(), 1);
  ASSERT_FALSE(r.kept_ms.empty());
  for (const double ms : r.kept_ms) EXPECT_DOUBLE_EQ(ms, kGpuPerRep) << "a wall-clock value in a GPU-timed row";
  ASSERT_EQ(r.discarded.size(), 1u);
  EXPECT_EQ(r.discarded[0].reason, "timestamp-rejected");
  EXPECT_EQ(r.discarded[0].stage, "sample");
  EXPECT_DOUBLE_EQ(r.discarded[0].ms * r.discarded[0].repetitions, kWallPerRep * r.discarded[0].repetitions);
  EXPECT_FALSE(r.discarded[0].note.empty());
}

TEST(ClockedSampler, DemotionMidRowRestartsOnTheWallClock) {
  CooldownBudget budget;
  ClockedSampler s(quick(), KnobRange{1, 1, 1}, budget, TimingArbiter(true, kEmptySubmit));
  // Timestamps are good for two timed rounds, then every one reads longer than the round trip.
  Feed f{[](int round, const Action& a) {
    return round >= 2 ? std::optional<double>(100.0 * kGpuPerRep * a.repetitions) : std::nullopt;
  }};
  f.run(s);
  const Record r = s.record();
  EXPECT_EQ(s.clock(), ClockKind::WallClock);
  EXPECT_TRUE(s.arbiter().demoted());
  EXPECT_EQ(s.restarts(), 1);
  ASSERT_GE(r.kept_ms.size(), 3u);
  for (const double ms : r.kept_ms) EXPECT_NEAR(ms, kWallPerRep, 1e-9) << "a GPU-timestamp value in a wall-clock row";
  for (const double ms : r.throttled_ms) EXPECT_NEAR(ms, kWallPerRep, 1e-9);
  EXPECT_EQ(r.stop_reason, StopReason::Converged);
  // The two GPU rounds kept before the demotion, the first rejected one and the demoting one are
  // in the discarded record, not lost.
  int demoted = 0, rejected = 0;
  for (const auto& d : r.discarded) {
    if (d.reason == "clock-demoted") ++demoted;
    if (d.reason == "timestamp-rejected") ++rejected;
  }
  EXPECT_EQ(demoted, 3);  // two kept GPU rounds + the demoting batch
  EXPECT_EQ(rejected, 1);
  bool noted = false;
  for (const auto& n : r.notes) noted = noted || n.find("restarted on the wall clock") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(ClockedSampler, NoTimestampsMeansWallClockThroughout) {
  CooldownBudget budget;
  ClockedSampler s(quick(), KnobRange{1, 1, 1}, budget, TimingArbiter(false, kEmptySubmit));
  Feed f{[](int, const Action&) { return std::nullopt; }};
  f.run(s);
  const Record r = s.record();
  EXPECT_EQ(s.clock(), ClockKind::WallClock);
  ASSERT_FALSE(r.kept_ms.empty());
  for (const double ms : r.kept_ms) EXPECT_NEAR(ms, kWallPerRep, 1e-9);
  EXPECT_TRUE(r.discarded.empty());
}

// Any protocol restarts on the wall clock after a demotion: the phase sampler is made again for the
// wall clock (its samples twice as long), and what it measured on timestamps is discarded.
TEST(ClockedSampler, PhaseSamplerRestartsOnTheWallClock) {
  std::vector<ClockKind> made;
  ProtocolFactory make = [&](ClockKind clock) -> std::unique_ptr<Protocol> {
    made.push_back(clock);
    PhaseConfig cfg;
    cfg.budget_ms = 400;
    cfg.target_sample_ms = clock == ClockKind::WallClock ? 80 : 40;
    return std::make_unique<PhaseSampler>(cfg);
  };
  ClockedSampler s(make, TimingArbiter(true, kEmptySubmit));
  Feed f{[](int round, const Action& a) -> std::optional<double> {
    if (round >= 2 && round < 6) return -1.0 * a.repetitions;  // negative: rejected, then demoted
    return std::nullopt;
  }};
  f.run(s);
  const Record r = s.record();
  EXPECT_EQ(made, (std::vector<ClockKind>{ClockKind::GpuTimestamp, ClockKind::WallClock}));
  EXPECT_EQ(s.clock(), ClockKind::WallClock);
  EXPECT_EQ(r.clock, ClockKind::WallClock);
  EXPECT_EQ(r.restarts, 1);
  EXPECT_EQ(r.stop_reason, StopReason::Budget);
  ASSERT_FALSE(r.kept_ms.empty());
  for (double ms : r.kept_ms) EXPECT_NEAR(ms, kWallPerRep, 1e-9);
  int demoted = 0, rejected = 0;
  for (const auto& d : r.discarded) {
    demoted += d.reason == "clock-demoted" ? 1 : 0;
    rejected += d.reason == "timestamp-rejected" ? 1 : 0;
  }
  EXPECT_GE(demoted, 3);  // the two GPU-timed samples and the batch that triggered the demotion
  EXPECT_GE(rejected, 1);
}

}  // namespace
}  // namespace wgb::measure
