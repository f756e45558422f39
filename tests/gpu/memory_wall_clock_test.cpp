// The wall-clock path of seed 001 end to end: lavapipe (and the H200) have timestamp queries, so
// without ContextOptions::wall_clock (`--clock wall`) the fallback would never run. With it, every
// memory phase is timed on the wall clock, with samples twice as long (~80 ms at full size), minus
// the median empty-submit cost measured at start-up; each row records that clock and that cost.
#include <gtest/gtest.h>

#include <memory>

#include "gpu_fixture.hpp"
#include "memory/document.hpp"
#include "memory/memory.hpp"

namespace wgb::memory {
namespace {

// One device for this binary, with timestamps turned off by the option under test.
gpu::Context* wall_context(std::string* why) {
  static std::string reason;
  static std::unique_ptr<gpu::Context> ctx = [] {
    gpu::ContextOptions o;
    o.wall_clock = true;
    auto c = gpu::Context::create(o);
    if (!c) {
      reason = c.error().message;
      return std::unique_ptr<gpu::Context>();
    }
    return std::move(*c);
  }();
  *why = reason;
  return ctx.get();
}

#define WALL_CONTEXT_OR_SKIP(var)                                          \
  std::string why_;                                                        \
  gpu::Context* var = wall_context(&why_);                                 \
  if (var == nullptr) {                                                    \
    if (::wgb::test::adapter_required()) FAIL() << "no adapter: " << why_; \
    GTEST_SKIP() << "no WebGPU adapter on this machine: " << why_;         \
  }

TEST(MemoryWallClock, TheOptionTurnsTimestampsOff) {
  WALL_CONTEXT_OR_SKIP(ctx);
  EXPECT_TRUE(ctx->options().wall_clock);
  EXPECT_FALSE(ctx->has_timestamps());
  EXPECT_GT(ctx->empty_submit_ms(), 0);
  // time_pass reports no GPU time at all: nothing downstream can pick the timestamps up.
  auto t = ctx->time_pass([](wgpu::ComputePassEncoder&) {});
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_FALSE(t->gpu_ms.has_value());
  EXPECT_GT(t->wall_ms, 0);
}

TEST(MemoryWallClock, EveryPhaseIsValidatedOnTheWallClock) {
  WALL_CONTEXT_OR_SKIP(ctx);
  MemoryOptions o;
  o.working_set_mib = 16;
  o.min_working_set_mib = 16;
  o.sample_ms = 4;
  o.latency_sample_ms = 4;
  o.budget_ms = 30;
  o.latency_budget_ms = 30;
  o.sustain_ms = 100;
  o.warmup_ms = 10;
  o.transition_ms = 5;
  MemoryDocument doc({"webgpu-bench", "memory", "--clock", "wall", "(test)"}, *ctx, o);
  const MemoryRun run = run_memory(*ctx, o);
  ASSERT_FALSE(run.fatal) << run.fatal->message;
  ASSERT_EQ(run.rows.size(), 6u);
  for (const auto& r : run.rows) {
    SCOPED_TRACE(r.id);
    ASSERT_EQ(r.status, RowStatus::Ok) << r.message;
    EXPECT_FALSE(r.validation.empty());
    EXPECT_GT(r.value, 0);
    EXPECT_EQ(r.timing_method, "wall-clock");
    EXPECT_EQ(r.parameters["clock"], "wall-clock");
    EXPECT_EQ(r.timestamp_strikes, 0);
    // The cost subtracted from every sample, as measured at start-up.
    ASSERT_TRUE(r.parameters.contains("empty_submit_ms"));
    EXPECT_DOUBLE_EQ(r.parameters["empty_submit_ms"].get<double>(), ctx->empty_submit_ms());
    // Samples twice as long as with timestamps (seed 001: ~80 ms instead of ~40 at full size).
    EXPECT_DOUBLE_EQ(r.parameters["target_sample_ms"].get<double>(), 8.0);
  }
  doc.finish(run);
  const auto& j = doc.json();
  EXPECT_EQ(j["options"]["clock"], "wall");
  EXPECT_EQ(j["machine"]["dawn"]["timestamps"], false);
  EXPECT_GT(j["machine"]["dawn"]["empty_submit_ms"].get<double>(), 0);
}

}  // namespace
}  // namespace wgb::memory
