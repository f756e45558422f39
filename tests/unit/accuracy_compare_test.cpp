// Device results against the exact ones (catalog::accuracy::compare), with results made on the host:
// a correctly rounded implementation is within every bound; an inaccurate one (a short polynomial
// sin, one result 3 ULP off, a NaN) is a finding with its input; a flushed subnormal is allowed
// and counted; an input without an exact result in range is excluded, not counted.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>

#include "catalog/accuracy/accuracy.hpp"

namespace wgb::catalog::accuracy {
namespace {

const Case& find_case(const std::string& probe, const std::string& range_prefix, Builtin b) {
  for (const auto& c : cases()) {
    if (c.probe == probe && c.builtin == b && c.range.rfind(range_prefix, 0) == 0) return c;
  }
  ADD_FAILURE() << "no case " << probe << " " << range_prefix;
  return cases().front();
}

std::uint32_t bits_in(long double v, const Format& f) {
  return f.precision == kF16.precision ? f16_bits(v) : f32_bits(static_cast<float>(v));
}

// The results an implementation `f` gives, rounded to the case's result type.
std::vector<std::uint32_t> results_of(const Case& c, const std::vector<Arguments>& args,
                                      const std::function<long double(const Arguments&)>& f) {
  std::vector<std::uint32_t> out;
  for (const auto& a : args) out.push_back(bits_in(round_to(f(a), *c.result), *c.result));
  return out;
}

using Words = std::vector<std::uint32_t>;
using Pairs = std::vector<Arguments>;

std::vector<Arguments> xs(std::initializer_list<long double> v) {
  std::vector<Arguments> out;
  for (const long double x : v) out.push_back({x, 0});
  return out;
}

TEST(AccuracyCompare, CorrectlyRoundedIsWithinEveryBound) {
  for (const auto& c : cases()) {
    const auto all = c.inputs();
    // Every 97th input keeps the test quick; the sets are ordered, so this still spans them.
    std::vector<Arguments> args;
    for (std::size_t i = 0; i < all.size(); i += 97) args.push_back(all[i]);
    const auto e = compare(c, args, results_of(c, args, [&](const Arguments& a) { return exact(c.builtin, a.x, a.y); }));
    SCOPED_TRACE(c.probe + " " + e.builtin + " " + e.range);
    EXPECT_EQ(e.status, "measured");
    EXPECT_EQ(e.inputs, args.size());
    EXPECT_EQ(e.nonfinite, 0u);
    EXPECT_EQ(e.correctly_rounded + e.excluded, e.inputs);
    EXPECT_LE(e.max_ulp, 0.5 + 1e-9);
    if (c.bounded) {
      ASSERT_TRUE(e.within);
      EXPECT_TRUE(*e.within) << (e.worst_violation ? e.worst_violation->input[0] : 0.0);
    } else {
      EXPECT_FALSE(e.within);  // no bound: no verdict
    }
  }
}

TEST(AccuracyCompare, APolynomialSinIsOutsideItsBoundWithItsWorstInput) {
  const Case& c = find_case("f32-sincos", "[-pi", Builtin::Sin);
  const auto args = c.inputs();
  // x - x^3/6 + x^5/120: good near 0, about 0.52 off at pi.
  const auto e = compare(c, args, results_of(c, args, [](const Arguments& a) {
                           const float x = static_cast<float>(a.x);
                           return static_cast<long double>(x - x * x * x / 6 + x * x * x * x * x / 120);
                         }));
  ASSERT_TRUE(e.within);
  EXPECT_FALSE(*e.within);
  EXPECT_GT(e.violations, 0u);
  ASSERT_TRUE(e.worst_violation);
  EXPECT_NEAR(std::fabs(e.worst_violation->input.at(0)), std::numbers::pi, 1e-6);
  EXPECT_GT(e.max_error, 0.5);
  EXPECT_EQ(e.unit, "absolute");
  EXPECT_EQ(e.worst.input, e.worst_violation->input);
}

TEST(AccuracyCompare, OneResultThreeUlpOffIsTheOnlyViolation) {
  const Case& c = find_case("f32-rsqrt", "x > 0", Builtin::InverseSqrt);
  const auto args = xs({1, 2, 3, 5, 7, 11});
  auto results = results_of(c, args, [](const Arguments& a) { return 1 / std::sqrt(a.x); });
  results[3] += 3;  // 1/sqrt(5) is not a power of two: three steps of one ULP
  const auto e = compare(c, args, results);
  ASSERT_TRUE(e.within);
  EXPECT_FALSE(*e.within);
  EXPECT_EQ(e.violations, 1u);
  ASSERT_TRUE(e.worst_violation);
  EXPECT_EQ(e.worst_violation->input, std::vector<double>{5});
  EXPECT_NEAR(e.max_error, 3, 0.51);
  EXPECT_EQ(e.correctly_rounded, 5u);
  ASSERT_EQ(e.worst_violation->allowed.size(), 2u);
  EXPECT_LT(e.worst_violation->allowed[1], e.worst_violation->output);
}

TEST(AccuracyCompare, ANanResultIsAnInfiniteErrorAndAFinding) {
  const Case& c = find_case("f32-sqrt", "x >= 0", Builtin::Sqrt);
  const auto args = xs({1, 4, 9});
  auto results = results_of(c, args, [](const Arguments& a) { return std::sqrt(a.x); });
  results[1] = 0x7fc00000U;
  const auto e = compare(c, args, results);
  EXPECT_EQ(e.nonfinite, 1u);
  EXPECT_TRUE(std::isinf(e.max_error));
  EXPECT_EQ(e.worst.input, std::vector<double>{4});
  EXPECT_EQ(e.mean_error, 0);  // the mean is over the finite errors
  ASSERT_TRUE(e.within);
  EXPECT_FALSE(*e.within);
}

TEST(AccuracyCompare, SubnormalsReadOrWrittenAsZeroAreAllowedAndCounted) {
  // sqrt of a subnormal f32 is normal: a device that reads the input as zero returns 0.
  const Case& c = find_case("f32-sqrt", "x >= 0", Builtin::Sqrt);
  const auto args = xs({0x1p-140L, 0x1p-130L, 4});
  auto results = results_of(c, args, [](const Arguments& a) { return a.x < 0x1p-126L ? 0.0L : std::sqrt(a.x); });
  auto e = compare(c, args, results);
  EXPECT_TRUE(e.within && *e.within);
  EXPECT_EQ(e.flushed, 2u);
  EXPECT_EQ(e.max_error, 0);
  // A subnormal quotient written as zero.
  const Case& d = find_case("f32-div", "2^-126", Builtin::Div);
  const Pairs q = {{0x1p-130L, 2}, {3, 2}};
  e = compare(d, q, Words{0x00000000U, f32_bits(1.5f)});
  EXPECT_TRUE(e.within && *e.within);
  EXPECT_EQ(e.flushed, 1u);
  // A zero that correct rounding gives too (an underflow) owes nothing to flushing.
  e = compare(d, Pairs{{0x1p-100L, 0x1p60L}}, Words{0x00000000U});
  EXPECT_TRUE(e.within && *e.within);
  EXPECT_EQ(e.flushed, 0u);
  EXPECT_EQ(e.correctly_rounded, 1u);
  // The same zero where the exact result is normal is a finding.
  e = compare(d, Pairs{{0x1p-120L, 2}}, Words{0x00000000U});
  EXPECT_TRUE(e.within && !*e.within);
}

TEST(AccuracyCompare, AFlushedZeroMayHaveEitherSignAndZeroOverZeroIsNan) {
  // Division by a subnormal read as +0 or -0, where the bound does not reach: +inf, -inf and, with
  // both arguments read as zero, NaN are what flushing leads to; nothing else is explained.
  const Case& d = find_case("f32-div", "|y|<", Builtin::Div);
  const Pairs q = {{0x1p-100L, -0x1p-149L}, {0x1p-100L, -0x1p-149L}, {-0x1p-149L, 0x1p-149L}, {0x1p-100L, -0x1p-149L}};
  const auto e = compare(d, q, Words{0x7f800000U, 0xff800000U, 0x7fc00000U, 0x3f800000U});
  EXPECT_EQ(e.excluded, 0u);
  EXPECT_EQ(e.flushed, 3u);
  EXPECT_EQ(e.nonfinite, 0u);
  ASSERT_EQ(e.worst.input, (std::vector<double>{0x1p-100, -0x1p-149}));
  EXPECT_EQ(e.worst.output, 1);
  EXPECT_FALSE(e.within);  // no bound there
}

TEST(AccuracyCompare, InputsWithoutAnExactResultInRangeAreExcluded) {
  const Case& d = find_case("f32-div", "2^-126", Builtin::Div);
  const auto e = compare(d, Pairs{{0x1p127L, 0x1p-126L}, {1, 2}}, Words{0x7f800000U, f32_bits(0.5f)});
  EXPECT_EQ(e.excluded, 1u);
  EXPECT_EQ(e.inputs, 2u);
  EXPECT_TRUE(e.within && *e.within);
}

TEST(AccuracyCompare, AConversionMayRoundEitherWayButNoFurther) {
  const Case& c = find_case("f32-f16-convert", "|x|", Builtin::ToF16);
  const auto args = xs({1 + 0x1p-12L, 1 + 0x1p-11L, 1.5L});
  // Up where nearest is down: allowed (either neighbour), but not correctly rounded.
  auto e = compare(c, args, Words{f16_bits(1 + 0x1p-10L), f16_bits(1), f16_bits(1.5L)});
  EXPECT_TRUE(e.within && *e.within);
  EXPECT_EQ(e.correctly_rounded, 2u);  // 1 + 2^-11 is a tie: 1 (even) is the nearest
  e = compare(c, args, Words{f16_bits(1), f16_bits(1 + 0x1p-10L), f16_bits(1.5L + 0x1p-10L)});
  EXPECT_TRUE(e.within && !*e.within);  // 1.5 is an f16 value: nothing else is accepted
  EXPECT_EQ(e.violations, 1u);
  EXPECT_EQ(e.worst_violation->input, std::vector<double>{1.5});
}

}  // namespace
}  // namespace wgb::catalog::accuracy
