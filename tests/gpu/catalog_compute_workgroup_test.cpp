// The ALU probes' workgroup size (their thread count per workgroup): the
// WGSL `override wg_size` set through pipeline constants. At tiny sizes on the CPU driver: two
// workgroup sizes give validated rows that record the size, with the same exact work model; the
// dispatched grid really uses the size (branch-coherent's branch follows the workgroup id, so its
// outputs match the reference only for the size that ran); a size above the adapter's limit is a
// skipped row naming the limit; and a sweep over `workgroup` varies it point by point.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "catalog/compute/alu.hpp"
#include "gpu_fixture.hpp"
#include "suite/sweep.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb {
namespace {

namespace alu = catalog::alu;

std::vector<std::uint32_t> all_invocations(std::uint32_t n) {
  std::vector<std::uint32_t> v(n);
  for (std::uint32_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

const BenchmarkDefinition& definition(const std::string& id) {
  for (const auto& d : builtin_benchmarks()) {
    if (d.id == id) return d;
  }
  throw std::runtime_error("no " + id);
}

TEST(CatalogComputeWorkgroup, TheOverrideSetsTheDispatchedWorkgroupSize) {
  WGB_GPU_OR_SKIP(ctx);
  // 320 invocations: five workgroups of 64, two and a half of 128 (the last one partly idle).
  constexpr std::uint32_t kThreads = 320;
  const auto* probe = alu::find_probe("branch-coherent");
  ASSERT_NE(probe, nullptr);
  for (std::uint32_t wg : {64u, 128u}) {
    auto r = alu::Runner::create(*ctx, *probe, kThreads, wg);
    ASSERT_TRUE(r) << wg << ": " << r.error().message;
    EXPECT_EQ(r->workgroup_size(), wg);
    EXPECT_EQ(r->workgroups(), (kThreads + wg - 1) / wg);
    auto out = r->run(*ctx, 3);
    ASSERT_TRUE(out) << out.error().message;
    alu::Params p = r->params();
    p.iterations = 3;
    auto ok = alu::check_outputs(*probe, p, all_invocations(kThreads), *out);
    EXPECT_TRUE(ok) << wg << ": " << ok.error().message;
    // Judged as if dispatched in workgroups of 256, the same outputs fail: the size took effect.
    p.workgroup = 256;
    EXPECT_FALSE(alu::check_outputs(*probe, p, all_invocations(kThreads), *out)) << wg;
  }
}

TEST(CatalogComputeWorkgroup, TwoSizesGiveValidatedRowsRecordingTheSize) {
  WGB_GPU_OR_SKIP(ctx);
  const auto* probe = alu::find_probe("u32-shift");
  ASSERT_NE(probe, nullptr);
  const BenchmarkDefinition& def = definition("u32-shift");
  EXPECT_NE(std::find(def.sweep_parameters.begin(), def.sweep_parameters.end(), "workgroup"),
            def.sweep_parameters.end());
  SuiteOptions base;
  base.context = ctx;
  base.sampling = test::quick_sampling();
  base.compute_threads = 256;
  SweepSpec spec{"workgroup", {64, 128}, {}, {}};
  std::vector<BenchmarkResult> rows;
  auto st = run_sweep(def, base, spec, [&](BenchmarkResult& r) { rows.push_back(r); });
  ASSERT_TRUE(st) << st.error().message;
  ASSERT_EQ(rows.size(), 2u);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    EXPECT_TRUE(r.status == RowStatus::Ok || r.status == RowStatus::Throttled) << r.message;
    EXPECT_FALSE(r.validation.empty());
    EXPECT_EQ(r.parameters.value("workgroup_size", 0u), spec.values[i]);
    EXPECT_EQ(r.parameters["sweep"]["option"], "compute_workgroup_size");
    EXPECT_EQ(r.parameters.value("invocations", 0u), 256u);
    // The work model counts the invocations that compute, whatever their grouping.
    EXPECT_DOUBLE_EQ(r.work.operations, 256.0 * static_cast<double>(r.knob) * probe->ops_per_iteration);
  }
  EXPECT_TRUE(spec.notes.empty()) << spec.notes.front();  // the sweep saw the probe respond
}

TEST(CatalogComputeWorkgroup, ASizeAboveTheAdapterLimitIsSkippedNamingIt) {
  WGB_GPU_OR_SKIP(ctx);
  SuiteOptions o;
  o.context = ctx;
  o.sampling = test::quick_sampling();
  o.compute_threads = 256;
  o.compute_workgroup_size = ctx->limits().maxComputeInvocationsPerWorkgroup * 2;
  o.benchmarks = {definition("f32-sqrt")};
  std::vector<BenchmarkResult> rows;
  ASSERT_TRUE(run_suite(o, [&](const BenchmarkResult& r) { rows.push_back(r); }));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].status, RowStatus::Skipped) << rows[0].message;
  EXPECT_NE(rows[0].message.find("exceeds the adapter's maxCompute"), std::string::npos) << rows[0].message;
}

}  // namespace
}  // namespace wgb
