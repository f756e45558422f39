// The one timed loop (suite/runner.hpp) with a scripted PassHost: no GPU. The loop feeds the
// protocol what the host measured, keeps the arbiter's notes, records each recorded batch's
// completion time, honours cancel before every submission, and passes a host's error through.
#include "suite/runner.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <optional>

#include "measure/phase_sampler.hpp"

namespace wgb {
namespace {

class ScriptedHost final : public PassHost {
 public:
  std::function<std::optional<double>(int)> gpu = [](int) { return std::optional<double>(); };
  int passes = 0;
  std::optional<Error> fail_at_pass;
  int fail_index = -1;
  Expected<measure::RawTiming> time_pass(const measure::Action& a) override {
    const int i = passes++;
    if (i == fail_index) return make_error(ErrorKind::DeviceLost, "device lost (scripted)");
    measure::RawTiming t;
    t.wall_ms = 1.0 + 0.02 * a.repetitions;
    if (auto g = gpu(i)) t.gpu_ms = *g * a.repetitions;
    return t;
  }
};

measure::ClockedSampler phase_sampler(bool timestamps) {
  return measure::ClockedSampler(
      [](measure::ClockKind) {
        measure::PhaseConfig cfg;
        cfg.target_sample_ms = 2;
        cfg.budget_ms = 20;
        cfg.warmup_max_ms = 0;
        return std::make_unique<measure::PhaseSampler>(cfg);
      },
      measure::TimingArbiter(timestamps, 1.0));
}

TEST(Runner, RunsTheProtocolToItsEnd) {
  auto sampler = phase_sampler(true);
  ScriptedHost host;
  host.gpu = [](int) { return std::optional<double>(0.015); };
  TimedLoop loop;
  int runs = 0;
  loop.on_run = [&](const measure::Action&, int) { ++runs; };
  auto r = run_timed(sampler, host, loop);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(runs, host.passes);
  EXPECT_EQ(r->clock, TimingMethod::GpuTimestamp);
  EXPECT_EQ(r->stop_reason, StopReason::Budget);
  EXPECT_FALSE(r->kept_ms.empty());
  EXPECT_GE(r->recorded_end_s.size(), r->kept_ms.size());
  for (std::size_t i = 1; i < r->recorded_end_s.size(); ++i) {
    EXPECT_GE(r->recorded_end_s[i], r->recorded_end_s[i - 1]);
  }
}

TEST(Runner, RejectedTimestampsAreDiscardedWithTheArbitersNote) {
  auto sampler = phase_sampler(true);
  ScriptedHost host;
  host.gpu = [](int i) { return std::optional<double>(i == 8 ? -1.0 : 0.015); };
  auto r = run_timed(sampler, host, TimedLoop{});
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_FALSE(r->notes.empty());
  bool found = false;
  for (const auto& d : r->discarded) found = found || d.reason == "timestamp-rejected";
  EXPECT_TRUE(found);
  EXPECT_EQ(r->clock, TimingMethod::GpuTimestamp);
}

TEST(Runner, CancelStopsBeforeTheNextSubmission) {
  auto sampler = phase_sampler(false);
  ScriptedHost host;
  std::atomic<bool> flag{false};
  TimedLoop loop;
  loop.cancel.flag = &flag;
  loop.on_run = [&](const measure::Action&, int) {
    if (host.passes == 3) flag = true;
  };
  auto r = run_timed(sampler, host, loop);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::Cancelled);
  EXPECT_EQ(host.passes, 4);
}

TEST(Runner, HostErrorsEndTheLoopAsValues) {
  auto sampler = phase_sampler(false);
  ScriptedHost host;
  host.fail_index = 2;
  auto r = run_timed(sampler, host, TimedLoop{});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::DeviceLost);
  EXPECT_EQ(host.passes, 3);
}

TEST(Runner, IdleForReturnsFalseWhenCancelled) {
  std::atomic<bool> flag{true};
  EXPECT_FALSE(idle_for(1000, CancelToken{&flag}));
  EXPECT_TRUE(idle_for(1, CancelToken{}));
}

}  // namespace
}  // namespace wgb
