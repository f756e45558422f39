// The ALU probes' skip paths, which the CPU driver never takes on its own (lavapipe has shader-f16
// and packed_4x8_integer_dot_product): with a feature hidden through the prepare step's feature
// lookups (the technique tests' mechanism, catalog/common.hpp FeatureProbe), an f16 probe and each
// dp4a probe come back skipped naming what is missing, as a prepare error and as a scheduler row.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "catalog/compute/alu.hpp"
#include "gpu_fixture.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb {
namespace {

namespace alu = catalog::alu;

const catalog::FeatureProbe kWithoutF16 = [](std::string_view f) { return f != "shader-f16"; };
const catalog::FeatureProbe kWithoutDot4 = [](std::string_view f) { return f != "packed_4x8_integer_dot_product"; };
const catalog::FeatureProbe kEverything = [](std::string_view) { return true; };

// One definition of the catalog with its prepare step seeing the given features.
BenchmarkDefinition hiding(const std::string& id, catalog::FeatureProbe webgpu, catalog::FeatureProbe wgsl) {
  for (const auto& d : builtin_benchmarks()) {
    if (d.id != id) continue;
    BenchmarkDefinition def = d;
    const alu::Probe* probe = alu::find_probe(id);
    def.prepare = [probe, webgpu, wgsl](PrepareContext& pc) { return alu::prepare(pc, *probe, webgpu, wgsl); };
    return def;
  }
  ADD_FAILURE() << id << " is not in the catalog";
  return {};
}

std::vector<BenchmarkResult> run_rows(gpu::Context* ctx, std::vector<BenchmarkDefinition> defs) {
  SuiteOptions o;
  o.context = ctx;
  o.benchmarks = std::move(defs);
  o.sampling = test::quick_sampling();
  o.compute_threads = 256;
  std::vector<BenchmarkResult> rows;
  auto st = run_suite(o, [&](const BenchmarkResult& r) { rows.push_back(r); });
  EXPECT_TRUE(st) << st.error().message;
  return rows;
}

TEST(CatalogComputeSkip, F16ProbeWithoutShaderF16IsSkippedNamingTheFeature) {
  WGB_GPU_OR_SKIP(ctx);
  SuiteOptions options;
  options.compute_threads = 256;
  PrepareContext pc{*ctx, options};
  for (const char* id : {"f16-fma-scalar", "f16-sqrt", "f32-f16-convert"}) {
    const auto* probe = alu::find_probe(id);
    ASSERT_NE(probe, nullptr) << id;
    auto w = alu::prepare(pc, *probe, kWithoutF16, kEverything);
    ASSERT_FALSE(w) << id;
    EXPECT_EQ(w.error().kind, ErrorKind::Skipped) << id;
    EXPECT_NE(w.error().message.find("'shader-f16' feature"), std::string::npos) << id << ": " << w.error().message;
  }
  // An f32 probe does not need it.
  EXPECT_TRUE(alu::prepare(pc, *alu::find_probe("f32-fma-scalar"), kWithoutF16, kEverything));

  const auto rows = run_rows(ctx, {hiding("f16-fma-vec4", kWithoutF16, kEverything)});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].id, "f16-fma-vec4");
  EXPECT_EQ(rows[0].status, RowStatus::Skipped) << rows[0].message;
  EXPECT_NE(rows[0].message.find("shader-f16"), std::string::npos) << rows[0].message;
}

TEST(CatalogComputeSkip, EveryDp4aProbeWithoutThePackedDotLanguageFeatureIsSkippedNamingIt) {
  WGB_GPU_OR_SKIP(ctx);
  SuiteOptions options;
  options.compute_threads = 256;
  PrepareContext pc{*ctx, options};
  std::vector<BenchmarkDefinition> defs;
  std::size_t dot_probes = 0;
  for (const auto& probe : alu::probes()) {
    if (!probe.dot4) continue;
    ++dot_probes;
    auto w = alu::prepare(pc, probe, kEverything, kWithoutDot4);
    ASSERT_FALSE(w) << probe.id;
    EXPECT_EQ(w.error().kind, ErrorKind::Skipped) << probe.id;
    EXPECT_NE(w.error().message.find("WGSL language feature 'packed_4x8_integer_dot_product'"), std::string::npos)
        << probe.id << ": " << w.error().message;
    defs.push_back(hiding(probe.id, kEverything, kWithoutDot4));
  }
  EXPECT_EQ(dot_probes, 3u);  // i8-dp4a, i8-dp4a-matvec, u8-dp4a
  // The language feature is not a device feature: hiding shader-f16 leaves the dp4a probes alone.
  if (ctx->has_wgsl_feature("packed_4x8_integer_dot_product")) {
    EXPECT_TRUE(alu::prepare(pc, *alu::find_probe("i8-dp4a"), kWithoutF16, kEverything));
  }

  const auto rows = run_rows(ctx, defs);
  ASSERT_EQ(rows.size(), 3u);
  for (const auto& r : rows) {
    EXPECT_EQ(r.status, RowStatus::Skipped) << r.id << ": " << r.message;
    EXPECT_NE(r.message.find("packed_4x8_integer_dot_product"), std::string::npos) << r.id << ": " << r.message;
  }
}

}  // namespace
}  // namespace wgb
