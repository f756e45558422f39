// The texture probes on a real adapter (lavapipe in CI), at small sizes: both kernels compile, run
// and match the host's interpolation at several loop counts; the loop count changes the result;
// the validator rejects corrupted outputs and a wrong loop count; the builtin path skips naming
// float32-filterable when the feature is hidden (the manual path does not need it); both
// definitions give validated rows through run_suite with the work model's byte count.
#include <gtest/gtest.h>

#include <bit>
#include <map>
#include <memory>

#include "catalog/compute/alu.hpp"
#include "catalog/texture/texture.hpp"
#include "gpu_fixture.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb {
namespace {

namespace tx = catalog::texture;

constexpr std::uint32_t kThreads = 512;

bool filterable(gpu::Context* ctx) { return ctx->has_feature("float32-filterable"); }

tx::Runner* runner_for(gpu::Context* ctx, tx::Interp which) {
  static std::map<tx::Interp, std::unique_ptr<tx::Runner>> cache;
  auto it = cache.find(which);
  if (it != cache.end()) return it->second.get();
  auto r = tx::Runner::create(*ctx, which, kThreads);
  EXPECT_TRUE(r) << tx::id(which) << ": " << r.error().message;
  if (!r) return nullptr;
  return cache.emplace(which, std::make_unique<tx::Runner>(std::move(*r))).first->second.get();
}

std::vector<std::uint32_t> all_invocations(std::uint32_t n) {
  std::vector<std::uint32_t> v(n);
  for (std::uint32_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

tx::Params params_at(const tx::Runner& r, std::uint32_t iterations) {
  tx::Params p = r.params();
  p.iterations = iterations;
  return p;
}

std::vector<tx::Interp> available(gpu::Context* ctx) {
  std::vector<tx::Interp> v{tx::Interp::Manual};
  if (filterable(ctx)) v.push_back(tx::Interp::Builtin);
  return v;
}

TEST(CatalogTexture, BothPathsMatchTheHostInterpolationAndSeeTheLoopCount) {
  WGB_GPU_OR_SKIP(ctx);
  for (const auto which : available(ctx)) {
    auto* r = runner_for(ctx, which);
    ASSERT_NE(r, nullptr);
    std::vector<std::vector<std::uint32_t>> outs;
    for (std::uint32_t iterations : {1u, 2u, 5u}) {
      auto out = r->run(*ctx, iterations);
      ASSERT_TRUE(out) << tx::id(which) << ": " << out.error().message;
      auto ok = tx::check_outputs(params_at(*r, iterations), r->texels(), all_invocations(kThreads), *out);
      EXPECT_TRUE(ok) << tx::id(which) << " at " << iterations << ": " << ok.error().message;
      outs.push_back(std::move(*out));
    }
    for (std::size_t a = 0; a < outs.size(); ++a) {
      for (std::size_t b = a + 1; b < outs.size(); ++b) {
        std::size_t differ = 0;
        for (std::size_t t = 0; t < kThreads; ++t) differ += outs[a][t] != outs[b][t];
        EXPECT_GT(differ, kThreads * 9 / 10) << tx::id(which) << ": runs " << a << " and " << b << " agree";
      }
    }
    // The check notices a wrong loop count: one trip's output does not pass as two.
    EXPECT_FALSE(tx::check_outputs(params_at(*r, 2), r->texels(), all_invocations(kThreads), outs[0]))
        << tx::id(which);
  }
}

// The sampler and the shader interpolate the same samples: both store the same sums (up to the
// order of f32 additions, which is the same in both kernels).
TEST(CatalogTexture, SamplerAndShaderInterpolationAgree) {
  WGB_GPU_OR_SKIP(ctx);
  if (!filterable(ctx)) GTEST_SKIP() << "the adapter lacks float32-filterable";
  auto* builtin = runner_for(ctx, tx::Interp::Builtin);
  auto* manual = runner_for(ctx, tx::Interp::Manual);
  ASSERT_NE(builtin, nullptr);
  ASSERT_NE(manual, nullptr);
  auto a = builtin->run(*ctx, 3);
  auto b = manual->run(*ctx, 3);
  ASSERT_TRUE(a && b);
  std::size_t equal = 0;
  for (std::size_t t = 0; t < kThreads; ++t) equal += (*a)[t] == (*b)[t];
  EXPECT_EQ(equal, kThreads);
}

TEST(CatalogTexture, ValidatorRejectsCorruptedOutputs) {
  WGB_GPU_OR_SKIP(ctx);
  auto* r = runner_for(ctx, tx::Interp::Manual);
  ASSERT_NE(r, nullptr);
  auto out = r->run(*ctx, 2);
  ASSERT_TRUE(out);
  const auto sample = catalog::alu::sample_invocations(kThreads);
  ASSERT_TRUE(tx::check_outputs(params_at(*r, 2), r->texels(), sample, *out));
  auto bad = *out;
  const std::uint32_t t = sample[sample.size() / 2];
  // One sample's worth off: 0.25 added to a sum of 512 samples.
  bad[t] = std::bit_cast<std::uint32_t>(std::bit_cast<float>(bad[t]) + 0.25f);
  EXPECT_FALSE(tx::check_outputs(params_at(*r, 2), r->texels(), sample, bad));
  bad = *out;
  bad[t] = 0x7fc0dead;  // nothing stored
  EXPECT_FALSE(tx::check_outputs(params_at(*r, 2), r->texels(), sample, bad));
}

TEST(CatalogTexture, BuiltinWithoutFloat32FilterableIsSkippedNamingTheFeature) {
  WGB_GPU_OR_SKIP(ctx);
  SuiteOptions options;
  options.compute_threads = 256;
  PrepareContext pc{*ctx, options};
  const catalog::FeatureProbe without = [](std::string_view f) { return f != "float32-filterable"; };
  auto w = tx::prepare(pc, tx::Interp::Builtin, without);
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().kind, ErrorKind::Skipped);
  EXPECT_NE(w.error().message.find("'float32-filterable' feature"), std::string::npos) << w.error().message;
  // The manual path needs no filterable format.
  auto m = tx::prepare(pc, tx::Interp::Manual, without);
  EXPECT_TRUE(m) << m.error().message;

  // Through the scheduler: a skipped row naming it.
  BenchmarkDefinition def;
  for (const auto& d : builtin_benchmarks()) {
    if (d.id == "texture-interp-builtin") def = d;
  }
  ASSERT_EQ(def.id, "texture-interp-builtin");
  def.prepare = [without](PrepareContext& p) { return tx::prepare(p, tx::Interp::Builtin, without); };
  SuiteOptions o;
  o.context = ctx;
  o.benchmarks = {def};
  o.sampling = test::quick_sampling();
  o.compute_threads = 256;
  std::vector<BenchmarkResult> rows;
  ASSERT_TRUE(run_suite(o, [&](const BenchmarkResult& r) { rows.push_back(r); }));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].status, RowStatus::Skipped) << rows[0].message;
  EXPECT_NE(rows[0].message.find("float32-filterable"), std::string::npos) << rows[0].message;
}

TEST(CatalogTexture, BothDefinitionsGiveValidatedRowsThroughTheScheduler) {
  WGB_GPU_OR_SKIP(ctx);
  std::vector<BenchmarkDefinition> defs;
  for (const auto& d : builtin_benchmarks()) {
    if (d.category == "texture") defs.push_back(d);
  }
  ASSERT_EQ(defs.size(), 2u);
  SuiteOptions o;
  o.context = ctx;
  o.benchmarks = defs;
  o.sampling = test::quick_sampling();
  o.compute_threads = 256;
  std::vector<BenchmarkResult> rows;
  ASSERT_TRUE(run_suite(o, [&](const BenchmarkResult& r) { rows.push_back(r); }));
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& r : rows) {
    if (r.id == "texture-interp-builtin" && !filterable(ctx)) {
      EXPECT_EQ(r.status, RowStatus::Skipped) << r.message;
      continue;
    }
    EXPECT_TRUE(r.status == RowStatus::Ok || r.status == RowStatus::Throttled) << r.id << ": " << r.message;
    EXPECT_NE(r.validation.find("matched the host's interpolation"), std::string::npos) << r.id << ": " << r.validation;
    EXPECT_GT(r.value, 0) << r.id;
    EXPECT_EQ(r.knob_name, "iterations") << r.id;
    EXPECT_DOUBLE_EQ(r.work.bytes_read, 256.0 * static_cast<double>(r.knob) * 256 * 32) << r.id;
    EXPECT_EQ(r.parameters.value("peak_class", std::string()), "memory") << r.id;
  }
}

}  // namespace
}  // namespace wgb
