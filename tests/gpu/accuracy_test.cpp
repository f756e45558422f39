// The accuracy pass on a real adapter (lavapipe in CI): every accuracy kernel compiles and runs and
// gives finite, plausible errors (sqrt and the conversions within their bounds); without
// shader-f16 the f16 entries are skipped with the reason; and a polynomial sin put in place of the
// builtin through a kernel directory is reported outside its bound, with its worst input.
#include "catalog/accuracy/accuracy.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <numbers>

#include "gpu/kernel_override.hpp"
#include "gpu_fixture.hpp"
#include "polynomial_sin.hpp"

namespace wgb::catalog::accuracy {
namespace {

const Case& find_case(const std::string& probe, Builtin b, bool bounded) {
  for (const auto& c : cases()) {
    if (c.probe == probe && c.builtin == b && c.bounded == bounded) return c;
  }
  ADD_FAILURE() << "no case " << probe;
  return cases().front();
}

// Every kernel on every 16th input of its set (the whole sets run in the tests below and in
// `run --accuracy`): the tool measures, and the results are plausible. Implementations may be
// outside their bounds (lavapipe's log of a subnormal is), so plausible means that nine results in
// ten are within their bound (where there is none, half are correctly rounded): a kernel that read
// the wrong arguments or wrote garbage would have almost none.
TEST(Accuracy, EveryKernelRunsAndGivesPlausibleErrors) {
  WGB_GPU_OR_SKIP(ctx);
  for (const auto& c : cases()) {
    SCOPED_TRACE(c.probe + " " + c.range);
    if ((c.operand == &kF16 || c.result == &kF16) && !ctx->has_feature("shader-f16")) continue;
    const auto all = c.inputs();
    std::vector<Arguments> args;
    for (std::size_t i = 0; i < all.size(); i += 16) args.push_back(all[i]);
    const auto started = std::chrono::steady_clock::now();
    auto results = evaluate(*ctx, c, args);
    ASSERT_TRUE(results) << results.error().message;
    const BuiltinAccuracy e = compare(c, args, *results);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const std::uint64_t counted = e.inputs - e.excluded;
    std::cout << fmt::format("{} {} {}: {} inputs, max {:.3g} {}, {:.1f}% correctly rounded, {} outside, {:.2f} s\n",
                             c.probe, e.builtin, e.range, e.inputs, e.max_error, e.unit,
                             100.0 * static_cast<double>(e.correctly_rounded) / static_cast<double>(counted),
                             e.violations, s);
    EXPECT_EQ(e.inputs, args.size());
    EXPECT_LT(e.excluded, e.inputs / 100 + 1);
    EXPECT_TRUE(std::isfinite(e.mean_error));
    if (c.bounded) {
      EXPECT_LT(e.violations, counted / 10);
    } else {
      EXPECT_GT(e.correctly_rounded, counted / 2);
    }
  }
}

// The whole sets: lavapipe's sqrt is correctly rounded, its conversions exact or correctly rounded.
TEST(Accuracy, SqrtAndTheConversionsAreWithinTheirBounds) {
  WGB_GPU_OR_SKIP(ctx);
  for (const char* probe : {"f32-sqrt", "f16-sqrt", "f32-f16-convert"}) {
    for (const auto& e : measure_probe(*ctx, probe)) {
      if (e.status == "skipped") continue;
      SCOPED_TRACE(std::string(probe) + " " + e.builtin);
      ASSERT_EQ(e.status, "measured") << e.reason;
      ASSERT_TRUE(e.within);
      EXPECT_TRUE(*e.within) << (e.worst_violation ? e.worst_violation->input.at(0) : 0.0);
      if (e.builtin == "f32(x)") {
        EXPECT_EQ(e.max_error, 0);  // every f16 value is an f32 value
      }
    }
  }
}

TEST(Accuracy, WithoutShaderF16TheF16EntriesAreSkippedWithTheReason) {
  WGB_GPU_OR_SKIP(ctx);
  const FeatureProbe no_f16 = [](std::string_view name) { return name != "shader-f16"; };
  for (const char* probe : {"f16-sqrt", "f16-sincos", "f32-f16-convert"}) {
    for (const auto& e : measure_probe(*ctx, probe, no_f16)) {
      EXPECT_EQ(e.status, "skipped") << probe;
      EXPECT_NE(e.reason.find("'shader-f16'"), std::string::npos) << e.reason;
      EXPECT_FALSE(e.within);
    }
  }
  for (const auto& e : measure_probe(*ctx, "f32-sqrt", no_f16)) EXPECT_EQ(e.status, "measured");
}

TEST(Accuracy, APolynomialSinInAKernelDirectoryIsOutsideItsBound) {
  WGB_GPU_OR_SKIP(ctx);
  const auto dir = test::polynomial_sin_dir("wgb-acc-kdir");
  auto known = [](std::string_view name) { return !kernels::find(name).empty(); };
  ASSERT_TRUE(gpu::set_kernel_dir(dir.string(), known));
  const Case& c = find_case("f32-sincos", Builtin::Sin, true);
  const BuiltinAccuracy e = measure(*ctx, c);
  ASSERT_TRUE(gpu::set_kernel_dir("", known));
  std::filesystem::remove_all(dir);
  ASSERT_EQ(e.status, "measured") << e.reason;  // a finding, not an error
  ASSERT_TRUE(e.within);
  EXPECT_FALSE(*e.within);
  EXPECT_GT(e.violations, 0u);
  ASSERT_TRUE(e.worst_violation);
  EXPECT_NEAR(std::fabs(e.worst_violation->input.at(0)), std::numbers::pi, 1e-3);
  EXPECT_GT(e.worst_violation->error, 0.4);
  // The shipped builtin on the same inputs is within.
  const BuiltinAccuracy shipped = measure(*ctx, c);
  ASSERT_TRUE(shipped.within);
  EXPECT_TRUE(*shipped.within);
  EXPECT_NE(shipped.wgsl_hash, e.wgsl_hash);
}

}  // namespace
}  // namespace wgb::catalog::accuracy
