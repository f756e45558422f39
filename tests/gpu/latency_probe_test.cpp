// read-latency: the sweepable dependent-load probe. Its walk matches the host's at several working
// sets (the validator runs after timing), and the working-set option really changes the footprint.
#include <gtest/gtest.h>

#include "gpu_fixture.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb {
namespace {

BenchmarkDefinition find(const std::string& id) {
  for (const auto& d : builtin_benchmarks()) {
    if (d.id == id) return d;
  }
  throw std::runtime_error("no " + id);
}

BenchmarkResult run_at(gpu::Context* ctx, std::uint64_t bytes, const std::string& id = "read-latency") {
  SuiteOptions o;
  o.context = ctx;
  o.benchmarks = {find(id)};
  o.sampling = test::quick_sampling();
  o.working_set_bytes = bytes;
  std::vector<BenchmarkResult> rows;
  auto st = run_suite(o, [&](const BenchmarkResult& r) { rows.push_back(r); });
  EXPECT_TRUE(st);
  return rows.at(0);
}

TEST(ReadLatency, WalkMatchesTheHostAtSeveralWorkingSets) {
  WGB_GPU_OR_SKIP(ctx);
  for (std::uint64_t bytes : {std::uint64_t{128}, std::uint64_t{64} << 10, std::uint64_t{1} << 20}) {
    const auto r = run_at(ctx, bytes);
    EXPECT_EQ(r.status, RowStatus::Ok) << bytes << ": " << r.message;
    EXPECT_GT(r.value, 0);
    EXPECT_NE(r.validation.find("matched"), std::string::npos) << r.validation;
    EXPECT_EQ(r.parameters["working_set_bytes"].get<std::uint64_t>(), bytes);
    EXPECT_EQ(r.parameters["nodes"].get<std::uint64_t>(), bytes / 64);
    EXPECT_DOUBLE_EQ(r.work.operations, static_cast<double>(r.knob));
  }
}

TEST(ReadLatency, NotInTheDefaultSuiteAndTooSmallIsAnError) {
  WGB_GPU_OR_SKIP(ctx);
  for (const auto& d : default_suite()) EXPECT_NE(d.id, "read-latency");
  const auto r = run_at(ctx, 64);
  EXPECT_EQ(r.status, RowStatus::Error);
}

// The device-wide chase: every walker's walk matches the host's (a wrong slice or start would put
// some walker elsewhere), with as many walkers as the working set gives two nodes each, up to 256.
TEST(ReadLatencySpread, EveryWalkerMatchesTheHost) {
  WGB_GPU_OR_SKIP(ctx);
  for (std::uint64_t bytes : {std::uint64_t{256}, std::uint64_t{64} << 10, std::uint64_t{1} << 20}) {
    const auto r = run_at(ctx, bytes, "read-latency-spread");
    EXPECT_EQ(r.status, RowStatus::Ok) << bytes << ": " << r.message;
    EXPECT_NE(r.validation.find("walkers' positions matched"), std::string::npos) << r.validation;
    const auto walkers = r.parameters["walkers"].get<std::uint64_t>();
    EXPECT_EQ(walkers, std::min<std::uint64_t>(256, bytes / 64 / 2));
    EXPECT_EQ(r.parameters["working_set_bytes"].get<std::uint64_t>(), bytes);
  }
  for (const auto& d : default_suite()) EXPECT_NE(d.id, "read-latency-spread");
}

}  // namespace
}  // namespace wgb
