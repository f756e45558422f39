// Plausibility: rates above an adapter's published ceilings (x margin) or above physical bounds
// become `suspect`; rows in cache, below the margin, or without a peak class are left alone.
#include "suite/plausibility.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace wgb {
namespace {

BenchmarkResult memory_row(double bytes_per_s, double footprint) {
  BenchmarkResult r;
  r.id = "read-linear";
  r.metric = {"bytes", "B", "Bytes read"};
  r.value = bytes_per_s;
  r.parameters = {{"peak_class", "memory"}, {"footprint_bytes", footprint}};
  return r;
}

BenchmarkResult alu_row(const std::string& peak_class, double rate) {
  BenchmarkResult r;
  r.id = "probe";
  r.metric = {"flops", "FLOP", "Floating-point ops (an FMA counts 2)"};
  r.value = rate;
  r.parameters = {{"peak_class", peak_class}};
  return r;
}

constexpr double kMiB = 1 << 20;

TEST(Plausibility, PublishedCeilingsOnlyForKnownDevices) {
  auto h200 = published_ceilings("NVIDIA H200");
  ASSERT_TRUE(h200);
  EXPECT_DOUBLE_EQ(*h200->memory_bytes_per_s, 4.8e12);
  EXPECT_DOUBLE_EQ(*h200->fp32_flops, 67e12);
  EXPECT_DOUBLE_EQ(*h200->fp16_flops, 134e12);
  EXPECT_DOUBLE_EQ(*h200->int32_ops, 33.5e12);
  EXPECT_NE(h200->source.find("published"), std::string::npos);
  EXPECT_TRUE(published_ceilings("nvidia h200 nvl"));
  EXPECT_FALSE(published_ceilings("llvmpipe (LLVM 15.0.6, 256 bits)"));
  EXPECT_FALSE(published_ceilings(""));
}

TEST(Plausibility, DramRateAboveThePublishedCeilingIsSuspect) {
  const auto h200 = published_ceilings("NVIDIA H200");
  // 128 MiB footprint (two alternated 64 MiB buffers) is past the 50 MB L2.
  EXPECT_FALSE(implausibility(memory_row(4.56e12, 128 * kMiB), h200));
  EXPECT_FALSE(implausibility(memory_row(5.2e12, 128 * kMiB), h200));  // within 10%
  auto reason = implausibility(memory_row(5.4e12, 128 * kMiB), h200);
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->find("4.8 TB/s"), std::string::npos) << *reason;
  EXPECT_NE(reason->find("published"), std::string::npos) << *reason;
}

TEST(Plausibility, CacheResidentFootprintsMayBeatDram) {
  const auto h200 = published_ceilings("NVIDIA H200");
  // A 16 KiB gather window lives in L1: 10 TB/s is plausible there.
  EXPECT_FALSE(implausibility(memory_row(10e12, 32 * 1024), h200));
  EXPECT_FALSE(implausibility(memory_row(10e12, 64 * kMiB), h200));  // under 2 x L2
  // but nothing delivers 200 TB/s, cache or not.
  EXPECT_TRUE(implausibility(memory_row(250e12, 32 * 1024), h200));
  EXPECT_TRUE(implausibility(memory_row(250e12, 32 * 1024), std::nullopt));
}

TEST(Plausibility, PhysicalDramBoundForAnyAdapter) {
  EXPECT_FALSE(implausibility(memory_row(19e12, 512 * kMiB), std::nullopt));
  EXPECT_TRUE(implausibility(memory_row(21e12, 512 * kMiB), std::nullopt));
  // Below 256 MiB a large cache may hold the footprint: only the cache bound applies.
  EXPECT_FALSE(implausibility(memory_row(21e12, 128 * kMiB), std::nullopt));
}

TEST(Plausibility, MeasuredCopyCeilingUsesAWiderMargin) {
  auto measured = measured_copy_ceilings(4.13e12);
  measured.last_level_cache_bytes = 50e6;
  // Reads beat a copy by ~10% on HBM: not suspect.
  EXPECT_FALSE(implausibility(memory_row(4.56e12, 128 * kMiB), measured));
  auto reason = implausibility(memory_row(5.3e12, 128 * kMiB), measured);
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->find("measured"), std::string::npos) << *reason;
}

TEST(Plausibility, AluRatesAgainstPublishedPeaks) {
  const auto h200 = published_ceilings("NVIDIA H200");
  EXPECT_FALSE(implausibility(alu_row("fp32", 65e12), h200));
  EXPECT_FALSE(implausibility(alu_row("fp32", 73e12), h200));  // 67 x 1.10 = 73.7
  EXPECT_TRUE(implausibility(alu_row("fp32", 74e12), h200));
  EXPECT_FALSE(implausibility(alu_row("fp16", 130e12), h200));
  EXPECT_TRUE(implausibility(alu_row("fp16", 150e12), h200));
  EXPECT_FALSE(implausibility(alu_row("int32", 33e12), h200));
  EXPECT_TRUE(implausibility(alu_row("int32", 37e12), h200));
  EXPECT_FALSE(implausibility(alu_row("int8-dot", 134e12), h200));
  EXPECT_TRUE(implausibility(alu_row("int8-dot", 150e12), h200));
  // The fp16 rate is fine for the fp16 class but not for fp32.
  EXPECT_TRUE(implausibility(alu_row("fp32", 130e12), h200));
  // No published ceiling for the other ALU probes: only the physical bound.
  EXPECT_FALSE(implausibility(alu_row("alu", 100e12), h200));
}

TEST(Plausibility, PhysicalAluBoundForAnyAdapter) {
  EXPECT_FALSE(implausibility(alu_row("fp32", 1e15), std::nullopt));
  auto reason = implausibility(alu_row("fp32", 3e15), std::nullopt);
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->find("3 PFLOP/s"), std::string::npos) << *reason;
  EXPECT_TRUE(implausibility(alu_row("alu", 3e15), std::nullopt));
}

TEST(Plausibility, RowsWithoutAPeakClassAreNotJudged) {
  auto r = alu_row("fp32", 1e20);
  r.parameters = nlohmann::json::object();
  EXPECT_FALSE(implausibility(r, published_ceilings("NVIDIA H200")));
  r.parameters = {{"peak_class", "tensor"}};
  EXPECT_FALSE(implausibility(r, std::nullopt));
  r.parameters = {{"peak_class", "fp32"}};
  r.value = 0;  // a row without a rate
  EXPECT_FALSE(implausibility(r, std::nullopt));
}

// The launch-bound rule on scripted durations: the H200's first read-linear row (32.3 us per
// dispatch, one pass of 64 MiB) against an empty dispatch of its grid of a few microseconds is
// launch-bound; the same kernel calibrated to 10 ms dispatches is not.
TEST(LaunchBound, TheEmptyDispatchShareDecides) {
  auto reason = launch_bound_reason(0.0323, 0.0045);
  ASSERT_TRUE(reason);
  EXPECT_EQ(reason->rfind("launch-bound: a dispatch took 32.3 us", 0), 0u) << *reason;
  EXPECT_NE(reason->find("4.5 us (13.9%, above 5%)"), std::string::npos) << *reason;
  EXPECT_FALSE(launch_bound_reason(10.0, 0.0045));
  // At the threshold it is not launch-bound; just above it, it is.
  EXPECT_FALSE(launch_bound_reason(1.0, kLaunchBoundShare));
  EXPECT_TRUE(launch_bound_reason(1.0, kLaunchBoundShare * 1.01));
  // Unknown durations decide nothing.
  EXPECT_FALSE(launch_bound_reason(0, 0.0045));
  EXPECT_FALSE(launch_bound_reason(0.0323, 0));
  EXPECT_FALSE(launch_bound_reason(std::nan(""), 0.0045));
}

BenchmarkResult timed_row(double time_ms, double launch_ms) {
  BenchmarkResult r = memory_row(2e12, 128 * kMiB);
  r.time_ms = time_ms;
  r.parameters["launch_ms"] = launch_ms;
  r.parameters["dispatches_per_repetition"] = 1;
  return r;
}

TEST(LaunchBound, ALaunchBoundRowIsSuspectAndRecordsItsDispatch) {
  BenchmarkResult tiny = timed_row(0.0323, 0.0045);
  apply_launch_rule(tiny);
  EXPECT_EQ(tiny.status, RowStatus::Suspect);
  EXPECT_EQ(tiny.message.rfind("launch-bound", 0), 0u) << tiny.message;
  EXPECT_DOUBLE_EQ(tiny.parameters["dispatch_ms"].get<double>(), 0.0323);
  EXPECT_NEAR(tiny.parameters["launch_share"].get<double>(), 0.0045 / 0.0323, 1e-12);

  BenchmarkResult big = timed_row(10.0, 0.0045);
  apply_launch_rule(big);
  EXPECT_EQ(big.status, RowStatus::Ok);
  EXPECT_TRUE(big.message.empty());
  EXPECT_DOUBLE_EQ(big.parameters["dispatch_ms"].get<double>(), 10.0);

  // Two dispatches per repetition: each dispatch took half the repetition.
  BenchmarkResult two = timed_row(0.2, 0.006);
  two.parameters["dispatches_per_repetition"] = 2;
  apply_launch_rule(two);
  EXPECT_DOUBLE_EQ(two.parameters["dispatch_ms"].get<double>(), 0.1);
  EXPECT_EQ(two.status, RowStatus::Suspect);

  // Judged on the fastest repetition, like the launch cost: a median that interference inflated
  // (other work on the device while the row was timed) does not hide a launch-bound dispatch.
  BenchmarkResult busy = timed_row(0.3725, 0.0145);
  busy.stats.count = 16;
  busy.stats.min = 0.02;
  apply_launch_rule(busy);
  EXPECT_EQ(busy.status, RowStatus::Suspect) << busy.parameters.dump();
  EXPECT_DOUBLE_EQ(busy.parameters["dispatch_ms"].get<double>(), 0.02);
  BenchmarkResult steady = timed_row(10.0, 0.0045);
  steady.stats.count = 16;
  steady.stats.min = 9.5;
  apply_launch_rule(steady);
  EXPECT_EQ(steady.status, RowStatus::Ok);
  EXPECT_DOUBLE_EQ(steady.parameters["dispatch_ms"].get<double>(), 9.5);

  // A row already suspect keeps its reason; a row that records no launch cost is not judged.
  BenchmarkResult above = timed_row(0.0323, 0.0045);
  above.status = RowStatus::Suspect;
  above.message = "above the ceiling";
  apply_launch_rule(above);
  EXPECT_EQ(above.message, "above the ceiling");
  BenchmarkResult alu = alu_row("fp32", 1e12);
  alu.time_ms = 0.001;
  apply_launch_rule(alu);
  EXPECT_EQ(alu.status, RowStatus::Ok);
  EXPECT_FALSE(alu.parameters.contains("dispatch_ms"));
}

}  // namespace
}  // namespace wgb
