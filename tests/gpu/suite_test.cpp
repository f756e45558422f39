// The scheduler end to end on a real adapter: rows carry every field; skips and errors are rows,
// not crashes; cancel keeps completed rows; a user's own definition runs.
#include <gtest/gtest.h>

#include "gpu_fixture.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb {
namespace {

SuiteOptions quick(gpu::Context* ctx, std::vector<BenchmarkDefinition> defs) {
  SuiteOptions o;
  o.context = ctx;
  o.benchmarks = std::move(defs);
  o.sampling = test::quick_sampling();
  o.bandwidth_bytes = 1 << 20;
  return o;
}

const BenchmarkDefinition& find(const std::string& id) {
  for (const auto& d : builtin_benchmarks()) {
    if (d.id == id) return d;
  }
  throw std::runtime_error("no " + id);
}

TEST(Suite, ReadLinearRowIsValidatedAndComplete) {
  WGB_GPU_OR_SKIP(ctx);
  std::vector<BenchmarkResult> rows;
  auto st = run_suite(quick(ctx, {find("read-linear")}), [&](const BenchmarkResult& r) { rows.push_back(r); });
  ASSERT_TRUE(st) << st.error().message;
  ASSERT_EQ(rows.size(), 1u);
  const auto& r = rows[0];
  // The test's 2 ms dispatches on a CPU driver may be launch-bound (docs/method.md#streaming):
  // measured and validated, and said so.
  const bool launch_bound = r.status == RowStatus::Suspect && r.message.starts_with("launch-bound");
  EXPECT_TRUE(r.status == RowStatus::Ok || launch_bound) << r.message;
  EXPECT_GT(r.value, 0);
  EXPECT_FALSE(r.validation.empty());
  EXPECT_FALSE(r.samples_ms.empty());
  EXPECT_EQ(r.stats.count, r.samples_ms.size());
  EXPECT_NE(r.timing_method, TimingMethod::None);
  EXPECT_NE(r.stop_reason, StopReason::None);
  EXPECT_EQ(r.wgsl_hash.size(), 16u);
  EXPECT_EQ(r.knob_name, "passes");
  EXPECT_DOUBLE_EQ(r.work.bytes_read, static_cast<double>(r.knob) * (1 << 20));
  EXPECT_NEAR(r.value, r.work.bytes_read / (r.time_ms / 1000.0), r.value * 1e-9);
}

// Measured: ok, or launch-bound with this quick sampling on a CPU driver (docs/method.md#streaming).
bool measured_ok(const BenchmarkResult& r) {
  return r.status == RowStatus::Ok || (r.status == RowStatus::Suspect && r.message.starts_with("launch-bound"));
}

TEST(Suite, SkipsAndCompileErrorsBecomeRows) {
  WGB_GPU_OR_SKIP(ctx);
  BenchmarkDefinition skip{.id = "needs-magic", .label = "x", .description = "x", .category = "custom",
                           .metric = {"ops", "OP", "ops"}, .source = "",
                           .prepare = [](PrepareContext&) -> Expected<std::unique_ptr<Workload>> {
                             return make_error(ErrorKind::Skipped, "the adapter lacks 'magic'");
                           }};
  BenchmarkDefinition broken = skip;
  broken.id = "broken-wgsl";
  broken.prepare = [](PrepareContext& pc) -> Expected<std::unique_ptr<Workload>> {
    auto p = pc.gpu.pipeline("@compute @workgroup_size(1) fn main() { nope(); }", "broken-wgsl");
    if (!p) return std::move(p).error();
    return make_error(ErrorKind::Failed, "unreachable");
  };
  std::vector<BenchmarkResult> rows;
  auto st = run_suite(quick(ctx, {skip, broken, find("read-linear")}),
                      [&](const BenchmarkResult& r) { rows.push_back(r); });
  ASSERT_TRUE(st);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].status, RowStatus::Skipped);
  EXPECT_NE(rows[0].message.find("magic"), std::string::npos);
  EXPECT_EQ(rows[1].status, RowStatus::Error);
  EXPECT_NE(rows[1].message.find("compile"), std::string::npos) << rows[1].message;
  EXPECT_TRUE(measured_ok(rows[2])) << rows[2].message;
}

TEST(Suite, CancelStopsAndReportsRemainingRowsAsCancelled) {
  WGB_GPU_OR_SKIP(ctx);
  std::atomic<bool> flag{false};
  auto o = quick(ctx, {find("read-linear"), find("read-linear")});
  o.cancel.flag = &flag;
  SuiteRun run = run_suite(o);
  ASSERT_TRUE(run.start());
  auto first = run.next();
  ASSERT_TRUE(first);
  EXPECT_TRUE(measured_ok(*first)) << first->message;
  flag = true;
  auto second = run.next();
  ASSERT_TRUE(second);
  EXPECT_EQ(second->status, RowStatus::Cancelled);
  EXPECT_FALSE(run.next());
}

}  // namespace
}  // namespace wgb
