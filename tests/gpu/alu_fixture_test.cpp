// The plain fixture kernels (tests/fixtures/alu/, a folder in --kernel-dir form) that
// bench/alu_fixtures.cpp times against the ALU probes: every probe's template has one, each replaces
// it and computes exactly what the probe's host reference expects, at several loop counts.
// Correctness only: timing belongs to the benchmark, not to a unit test.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "catalog/common.hpp"
#include "catalog/compute/alu.hpp"
#include "gpu/kernel_override.hpp"
#include "gpu_fixture.hpp"

namespace wgb {
namespace {

namespace alu = catalog::alu;

constexpr std::uint32_t kThreads = 512;  // two workgroups: both parities of lanes and workgroups

const std::filesystem::path kFixtures = std::filesystem::path(WGB_SOURCE_DIR) / "tests" / "fixtures" / "alu";

bool supported(gpu::Context* ctx, const alu::Probe& p) {
  if (p.f16 && !ctx->has_feature("shader-f16")) return false;
  if (p.dot4 && !ctx->has_wgsl_feature("packed_4x8_integer_dot_product")) return false;
  return true;
}

std::vector<std::uint32_t> all_invocations() {
  std::vector<std::uint32_t> v(kThreads);
  for (std::uint32_t i = 0; i < kThreads; ++i) v[i] = i;
  return v;
}

// Replaces the probes' templates by the fixtures for one test, as --kernel-dir does.
class FixtureKernels {
 public:
  FixtureKernels()
      : status_(gpu::set_kernel_dir(kFixtures.string(),
                                    [](std::string_view n) { return !kernels::find(n).empty(); })) {}
  ~FixtureKernels() { (void)gpu::set_kernel_dir("", {}); }
  FixtureKernels(const FixtureKernels&) = delete;
  FixtureKernels& operator=(const FixtureKernels&) = delete;
  const Status& status() const { return status_; }

 private:
  Status status_;
};

TEST(AluFixtures, EveryProbeTemplateHasAPlainFixture) {
  std::set<std::string> templates;
  for (const auto& p : alu::probes()) templates.insert(p.kernel);
  for (const auto& k : templates) {
    EXPECT_TRUE(std::filesystem::exists(kFixtures / "compute" / (k + ".wgsl"))) << "no fixture for compute/" << k;
  }
  // And nothing else: a fixture replaces a probe's template, never the prelude or another kernel.
  for (const auto& f : std::filesystem::directory_iterator(kFixtures / "compute")) {
    EXPECT_TRUE(templates.count(f.path().stem().string()) == 1) << f.path() << " is no probe's template";
  }
}

// The fixtures compute what the probes compute: 1, 2 and 3 loop trips (and 5 for the probes that run
// several trips per pass) match the probe's host reference for every invocation, and the WGSL that
// ran is the fixture's, not the probe's.
TEST(AluFixtures, EveryFixtureMatchesItsProbesHostReference) {
  WGB_GPU_OR_SKIP(ctx);
  std::map<std::string, std::string> shipped;
  for (const auto& p : alu::probes()) shipped[p.id] = p.source();
  FixtureKernels fixtures;
  ASSERT_TRUE(fixtures.status()) << fixtures.status().error().message;
  std::size_t checked = 0;
  for (const auto& probe : alu::probes()) {
    if (!supported(ctx, probe)) continue;
    EXPECT_NE(probe.source(), shipped[probe.id]) << probe.id << ": the fixture did not replace the template";
    auto r = alu::Runner::create(*ctx, probe, kThreads);
    ASSERT_TRUE(r) << probe.id << ": " << r.error().message;
    for (std::uint32_t iterations : {1u, 2u, 3u, 5u}) {
      auto out = r->run(*ctx, iterations);
      ASSERT_TRUE(out) << probe.id << ": " << out.error().message;
      alu::Params params = r->params();
      params.iterations = iterations;
      auto ok = alu::check_outputs(probe, params, all_invocations(), *out);
      EXPECT_TRUE(ok) << probe.id << " fixture at " << iterations << ": " << ok.error().message;
    }
    ++checked;
  }
  if (ctx->has_feature("shader-f16") && ctx->has_wgsl_feature("packed_4x8_integer_dot_product")) {
    EXPECT_EQ(checked, alu::probes().size());
  }
}

}  // namespace
}  // namespace wgb
