// The wall-clock path (docs/method.md#clocks) end to end: lavapipe (and the H200) have timestamp
// queries, so without ContextOptions::wall_clock (`--clock wall`) the fallback would never run.
// With it, every memory phase is timed on the wall clock, with samples twice as long (~80 ms at
// full size), minus the median empty-submit cost measured at start-up; each row records that clock
// and that cost.
#include <gtest/gtest.h>

#include <memory>

#include "gpu_fixture.hpp"
#include "memory_fixture.hpp"
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
    return test::create_or_reason(o, reason);
  }();
  *why = reason;
  return ctx.get();
}

TEST(MemoryWallClock, TheOptionTurnsTimestampsOff) {
  WGB_CONTEXT_OR_SKIP(ctx, wall_context);
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
  WGB_CONTEXT_OR_SKIP(ctx, wall_context);
  const MemoryOptions o = test::tiny_memory_options();
  MemoryDocument doc({"webgpu-bench", "memory", "--clock", "wall", "(test)"}, *ctx, o);
  const MemoryRun run = run_memory(*ctx, o);
  ASSERT_FALSE(run.fatal) << run.fatal->message;
  ASSERT_EQ(run.rows.size(), 6u);
  for (const auto& r : run.rows) {
    SCOPED_TRACE(r.id);
    ASSERT_EQ(r.status, RowStatus::Ok) << r.message;
    EXPECT_FALSE(r.validation.empty());
    EXPECT_GT(r.value, 0);
    EXPECT_EQ(r.timing_method, TimingMethod::WallClock);
    EXPECT_EQ(r.parameters["clock"], "wall-clock");
    EXPECT_EQ(r.timestamp_strikes, 0);
    // The cost subtracted from every sample, as measured at start-up.
    ASSERT_TRUE(r.parameters.contains("empty_submit_ms"));
    EXPECT_DOUBLE_EQ(r.parameters["empty_submit_ms"].get<double>(), ctx->empty_submit_ms());
    // Samples twice as long as with timestamps (~80 ms instead of ~40 at full size).
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
