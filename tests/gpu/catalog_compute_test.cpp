// The ALU probes on a real adapter (lavapipe in CI), at small sizes: every kernel compiles, runs
// and matches the host reference (float probes in double precision within their tolerance,
// integer and dot-product probes exactly) at several loop counts including odd ones; outputs stay
// finite at the maximum loop count; the loop count changes the result; the validator rejects
// corrupted outputs and wrong expectations; every definition gives a validated row through
// run_suite with a work model matching the hand count; plausibility marks impossible rates.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <map>
#include <memory>

#include "catalog/compute/alu.hpp"
#include "gpu/hash.hpp"
#include "gpu_fixture.hpp"
#include "suite/plausibility.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb {
namespace {

namespace alu = catalog::alu;

// Two workgroups: both workgroup parities (branch-coherent) and both lane parities.
constexpr std::uint32_t kThreads = 512;

bool supported(gpu::Context* ctx, const alu::Probe& p) {
  if (p.f16 && !ctx->has_feature("shader-f16")) return false;
  if (p.dot4 && !ctx->has_wgsl_feature("packed_4x8_integer_dot_product")) return false;
  return true;
}

// One compiled runner per probe per test binary (compiling 256-operation bodies on a CPU driver
// is the slow part).
alu::Runner* runner_for(gpu::Context* ctx, const alu::Probe& p) {
  static std::map<std::string, std::unique_ptr<alu::Runner>> cache;
  auto it = cache.find(p.id);
  if (it != cache.end()) return it->second.get();
  auto r = alu::Runner::create(*ctx, p, kThreads);
  EXPECT_TRUE(r) << p.id << ": " << r.error().message;
  if (!r) return nullptr;
  return cache.emplace(p.id, std::make_unique<alu::Runner>(std::move(*r))).first->second.get();
}

std::vector<std::uint32_t> all_invocations(std::uint32_t n) {
  std::vector<std::uint32_t> v(n);
  for (std::uint32_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

alu::Params params_at(const alu::Runner& r, std::uint32_t iterations) {
  alu::Params p = r.params();
  p.iterations = iterations;
  return p;
}

TEST(CatalogCompute, EveryProbeMatchesItsHostReferenceAtSeveralLoopCounts) {
  WGB_GPU_OR_SKIP(ctx);
  for (const auto& probe : alu::probes()) {
    if (!supported(ctx, probe)) continue;
    auto* r = runner_for(ctx, probe);
    ASSERT_NE(r, nullptr);
    for (std::uint32_t iterations : {1u, 2u, 3u}) {
      auto out = r->run(*ctx, iterations);
      ASSERT_TRUE(out) << probe.id << ": " << out.error().message;
      auto ok = alu::check_outputs(probe, params_at(*r, iterations), all_invocations(kThreads), *out);
      EXPECT_TRUE(ok) << probe.id << " at " << iterations << ": " << ok.error().message;
    }
  }
}

TEST(CatalogCompute, MatrixAndDotProbesMatchAtOddLoopCounts) {
  WGB_GPU_OR_SKIP(ctx);
  for (const char* id : {"f32-fma-mat4", "f32-fma-matvec", "f16-fma-mat4", "f16-fma-matvec", "i32-mad-mat4",
                         "i32-mad-matvec", "i8-dp4a", "i8-dp4a-matvec", "u8-dp4a"}) {
    const auto* probe = alu::find_probe(id);
    ASSERT_NE(probe, nullptr) << id;
    if (!supported(ctx, *probe)) continue;
    // The validation tolerances: f32 1e-5 relative, f16 0.015; dot products exact.
    if (probe->f16) {
      EXPECT_LE(probe->tolerance, 0.015) << id;
    } else if (probe->metric.key == "flops") {
      EXPECT_LE(probe->tolerance, 1e-5) << id;
    } else {
      EXPECT_EQ(probe->tolerance, 0) << id;
    }
    auto* r = runner_for(ctx, *probe);
    ASSERT_NE(r, nullptr);
    for (std::uint32_t iterations : {5u, 7u, 13u}) {
      auto out = r->run(*ctx, iterations);
      ASSERT_TRUE(out) << id << ": " << out.error().message;
      auto ok = alu::check_outputs(*probe, params_at(*r, iterations), all_invocations(kThreads), *out);
      EXPECT_TRUE(ok) << id << " at " << iterations << ": " << ok.error().message;
    }
  }
}

TEST(CatalogCompute, EveryProbeIsFiniteAtItsMaximumLoopCount) {
  WGB_GPU_OR_SKIP(ctx);
  for (const auto& probe : alu::probes()) {
    if (!supported(ctx, probe)) continue;
    auto* r = runner_for(ctx, probe);
    ASSERT_NE(r, nullptr);
    // Eight invocations compute (the grid is unchanged): the maximum loop count stays cheap.
    auto out = r->run(*ctx, static_cast<std::uint32_t>(probe.max_iterations), 8);
    ASSERT_TRUE(out) << probe.id << ": " << out.error().message;
    ASSERT_EQ(out->size(), 8u);
    for (std::uint32_t t = 0; t < 8; ++t) {
      EXPECT_NE((*out)[t], 0x7fc0deadu) << probe.id << " invocation " << t << " stored nothing";
      if (probe.tolerance > 0) {
        EXPECT_TRUE(std::isfinite(std::bit_cast<float>((*out)[t]))) << probe.id << " invocation " << t;
      }
    }
  }
}

// Every probe, with no exceptions: 1, 2 and 3 loop trips give pairwise different results for
// (nearly) every invocation, each matching the host reference at its own count, and the validator
// rejects the one-trip output as two trips. This is what makes the validation see the loop count:
// a kernel that silently ran one trip fails it. (The transcendental, conversion and counting probes
// settle within one trip, so their kernels take a per-trip operand: prelude.wgsl trip_word.)
TEST(CatalogCompute, TheLoopCountChangesTheResult) {
  WGB_GPU_OR_SKIP(ctx);
  std::size_t checked = 0;
  for (const auto& probe : alu::probes()) {
    if (!supported(ctx, probe)) continue;
    auto* r = runner_for(ctx, probe);
    ASSERT_NE(r, nullptr);
    std::vector<std::vector<std::uint32_t>> outs;
    for (std::uint32_t iterations : {1u, 2u, 3u}) {
      auto out = r->run(*ctx, iterations);
      ASSERT_TRUE(out) << probe.id << ": " << out.error().message;
      auto ok = alu::check_outputs(probe, params_at(*r, iterations), all_invocations(kThreads), *out);
      EXPECT_TRUE(ok) << probe.id << " at " << iterations << ": " << ok.error().message;
      outs.push_back(std::move(*out));
    }
    for (std::size_t a = 0; a < outs.size(); ++a) {
      for (std::size_t b = a + 1; b < outs.size(); ++b) {
        std::size_t differ = 0;
        for (std::size_t t = 0; t < kThreads; ++t) differ += outs[a][t] != outs[b][t];
        EXPECT_GT(differ, kThreads * 9 / 10) << probe.id << ": " << a + 1 << " and " << b + 1 << " trips agree";
      }
    }
    // And the check itself notices a wrong loop count.
    EXPECT_FALSE(alu::check_outputs(probe, params_at(*r, 2), all_invocations(kThreads), outs[0])) << probe.id;
    ++checked;
  }
  // lavapipe has shader-f16 and the packed dot products: every probe was checked there.
  if (ctx->has_feature("shader-f16") && ctx->has_wgsl_feature("packed_4x8_integer_dot_product")) {
    EXPECT_EQ(checked, alu::probes().size());
  }
}

// fma_scalar and fma_vec4 run four loop trips per pass of their loop and single trips for the
// remainder (f16-fma-scalar: one trip per pass, checked here all the same). With m = 1 and c = 1/256 every chain counts its steps (x = start + steps / 256, exact in
// f32; within a few f16 ulps), so at counts that use the long pass (alone and with a remainder) the
// outputs must match the reference for exactly that count and be rejected as the count one trip
// either side (the probes' own operands contract towards a fixed point, which hides a trip).
TEST(CatalogCompute, FmaProbesDoExactlyTheirTripsInFourTripPasses) {
  WGB_GPU_OR_SKIP(ctx);
  for (const char* id : {"f32-fma-scalar", "f32-fma-builtin", "f32-fma-vec4", "f16-fma-scalar", "f16-fma-vec4"}) {
    const auto* found = alu::find_probe(id);
    ASSERT_NE(found, nullptr) << id;
    if (!supported(ctx, *found)) continue;
    alu::Probe counting = *found;
    counting.f[0] = counting.f[2] = 1.0f;
    counting.f[1] = counting.f[3] = 1.0f / 256.0f;
    // Both forms where the probe has two, whichever this adapter would pick.
    for (const alu::Form form : {alu::Form::Gpu, alu::Form::Cpu}) {
      if (form == alu::Form::Cpu && counting.cpu_substitutions.empty()) continue;
      const std::string what = fmt::format("{} ({} form)", id, alu::to_string(form));
      auto r = alu::Runner::create(*ctx, counting, kThreads, alu::kDefaultWorkgroup, form);
      ASSERT_TRUE(r) << what << ": " << r.error().message;
      for (std::uint32_t iterations : {4u, 6u}) {
        auto out = r->run(*ctx, iterations);
        ASSERT_TRUE(out) << what << ": " << out.error().message;
        auto ok = alu::check_outputs(counting, params_at(*r, iterations), all_invocations(kThreads), *out);
        EXPECT_TRUE(ok) << what << " at " << iterations << ": " << ok.error().message;
        for (std::uint32_t other : {iterations - 1, iterations + 1}) {
          EXPECT_FALSE(alu::check_outputs(counting, params_at(*r, other), all_invocations(kThreads), *out))
              << what << ": the output of " << iterations << " trips passed as " << other;
        }
      }
    }
  }
}

// A probe with a CPU form computes the same values in both: each form, compiled on this adapter
// whichever it would pick, matches the one host reference at several loop counts (a remainder after
// the long passes included), and the two forms are different WGSL.
TEST(CatalogCompute, BothFormsOfAProbeMatchItsHostReference) {
  WGB_GPU_OR_SKIP(ctx);
  std::size_t two_forms = 0;
  for (const auto& probe : alu::probes()) {
    if (probe.cpu_substitutions.empty()) continue;
    ++two_forms;
    EXPECT_NE(probe.source(alu::Form::Gpu), probe.source(alu::Form::Cpu)) << probe.id;
    if (!supported(ctx, probe)) continue;
    for (const alu::Form form : {alu::Form::Gpu, alu::Form::Cpu}) {
      auto r = alu::Runner::create(*ctx, probe, kThreads, alu::kDefaultWorkgroup, form);
      ASSERT_TRUE(r) << probe.id << ": " << r.error().message;
      EXPECT_EQ(r->form(), form);
      EXPECT_EQ(r->source(), probe.source(form));
      for (std::uint32_t iterations : {1u, 3u, 5u}) {
        auto out = r->run(*ctx, iterations);
        ASSERT_TRUE(out) << probe.id << ": " << out.error().message;
        auto ok = alu::check_outputs(probe, params_at(*r, iterations), all_invocations(kThreads), *out);
        EXPECT_TRUE(ok) << probe.id << " (" << alu::to_string(form) << " form) at " << iterations << ": "
                        << ok.error().message;
      }
    }
  }
  EXPECT_GE(two_forms, 2u);
}

TEST(CatalogCompute, ValidatorRejectsCorruptedOutputs) {
  WGB_GPU_OR_SKIP(ctx);
  for (const char* id : {"f32-fma-scalar", "f16-fma-vec4", "i32-mad-scalar", "i8-dp4a", "f32-sincos",
                         "u32-reversebits", "i32-f32-convert", "i32-div", "u32-packunpack", "f32-select",
                         "f32-clamp", "f32-minmax"}) {
    const auto* probe = alu::find_probe(id);
    ASSERT_NE(probe, nullptr);
    if (!supported(ctx, *probe)) continue;
    auto* r = runner_for(ctx, *probe);
    ASSERT_NE(r, nullptr);
    auto out = r->run(*ctx, 3);
    ASSERT_TRUE(out);
    const auto sample = alu::sample_invocations(kThreads);
    ASSERT_TRUE(alu::check_outputs(*probe, params_at(*r, 3), sample, *out)) << id;
    auto bad = *out;
    const std::uint32_t t = sample[sample.size() / 2];
    if (probe->tolerance > 0) {
      bad[t] = std::bit_cast<std::uint32_t>(std::bit_cast<float>(bad[t]) * 1.05f);
    } else {
      bad[t] ^= 1u << 7;
    }
    EXPECT_FALSE(alu::check_outputs(*probe, params_at(*r, 3), sample, bad)) << id;
    bad = *out;
    bad[t] = 0x7fc0dead;  // nothing stored
    EXPECT_FALSE(alu::check_outputs(*probe, params_at(*r, 3), sample, bad)) << id;
  }
}

TEST(CatalogCompute, EveryDefinitionGivesAValidatedRowThroughTheScheduler) {
  WGB_GPU_OR_SKIP(ctx);
  std::vector<BenchmarkDefinition> defs;
  for (const auto& d : builtin_benchmarks()) {
    if (d.category == "compute") defs.push_back(d);
  }
  ASSERT_EQ(defs.size(), alu::probes().size());
  SuiteOptions o;
  o.context = ctx;
  o.benchmarks = defs;
  o.sampling = test::quick_sampling();
  o.compute_threads = 256;
  std::vector<BenchmarkResult> rows;
  auto st = run_suite(o, [&](const BenchmarkResult& r) { rows.push_back(r); });
  ASSERT_TRUE(st) << st.error().message;
  ASSERT_EQ(rows.size(), defs.size());
  for (const auto& r : rows) {
    const auto* probe = alu::find_probe(r.id);
    ASSERT_NE(probe, nullptr) << r.id;
    if (r.status == RowStatus::Skipped) {
      // Only for a missing feature, and the reason names it.
      EXPECT_TRUE(probe->f16 || probe->dot4) << r.id;
      EXPECT_TRUE(r.message.find("shader-f16") != std::string::npos ||
                  r.message.find("packed_4x8_integer_dot_product") != std::string::npos)
          << r.id << ": " << r.message;
      continue;
    }
    // Throttled is the scheduler's verdict on a noisy shared CPU; the row is still validated.
    EXPECT_TRUE(r.status == RowStatus::Ok || r.status == RowStatus::Throttled) << r.id << ": " << r.message;
    EXPECT_FALSE(r.validation.empty()) << r.id;
    EXPECT_GT(r.value, 0) << r.id;
    EXPECT_EQ(r.knob_name, "iterations") << r.id;
    EXPECT_GE(r.knob, 1u) << r.id;
    EXPECT_LE(r.knob, probe->max_iterations) << r.id;
    EXPECT_DOUBLE_EQ(r.work.operations, 256.0 * static_cast<double>(r.knob) * probe->ops_per_iteration) << r.id;
    EXPECT_EQ(r.parameters.value("invocations", 0u), 256u) << r.id;
    EXPECT_EQ(r.parameters.value("peak_class", std::string()), probe->peak_class) << r.id;
    // The row's hash is of the WGSL that ran: the adapter's form, named where the probe has two.
    const alu::Form form = alu::form_for(ctx->adapter());
    EXPECT_EQ(r.wgsl_hash, gpu::source_hash(probe->source(form))) << r.id;
    if (!probe->cpu_substitutions.empty()) {
      EXPECT_EQ(r.parameters.value("kernel_form", std::string()), alu::to_string(form)) << r.id;
    } else {
      EXPECT_FALSE(r.parameters.contains("kernel_form")) << r.id;
    }
  }
}

TEST(CatalogCompute, PlausibilityMarksAnImpossibleRateSuspect) {
  WGB_GPU_OR_SKIP(ctx);
  BenchmarkResult row;
  row.id = "f32-fma-scalar";
  row.metric = alu::find_probe("f32-fma-scalar")->metric;
  row.parameters = {{"peak_class", "fp32"}};
  row.value = 1e9;
  apply_plausibility(row, *ctx);
  EXPECT_EQ(row.status, RowStatus::Ok);
  row.value = 5e15;  // more than any GPU's non-tensor peak: the chains must have been removed
  apply_plausibility(row, *ctx);
  EXPECT_EQ(row.status, RowStatus::Suspect);
  EXPECT_NE(row.message.find("optimised away"), std::string::npos) << row.message;
}

}  // namespace
}  // namespace wgb
