// The host reference and the specification's bounds (src/catalog/accuracy/spec.hpp): exact
// results against values known to 40 digits (computed with mpmath), their correctly rounded f32
// bits, and the intervals each requirement accepts, inherited ones worked through by hand.
#include "catalog/accuracy/spec.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>

namespace wgb::catalog::accuracy {
namespace {

constexpr long double kInf = std::numeric_limits<long double>::infinity();

// Relative agreement with a 40-digit value: the reference must be far more precise than f32's
// 2^-24 (long double gives 2^-64; 1e-17 leaves room for the library's last bit).
void expect_close(long double got, long double want) {
  EXPECT_LE(std::fabs(got - want), 1e-17L * std::fabs(want)) << static_cast<double>(got);
}

TEST(AccuracySpec, ExactResultsMatchKnownValues) {
  expect_close(exact(Builtin::Sin, 1), 0.8414709848078965066525023216302989996226L);
  expect_close(exact(Builtin::Cos, 1), 0.5403023058681397174009366074429766037323L);
  expect_close(exact(Builtin::Log, 2), 0.6931471805599453094172321214581765680755L);
  expect_close(exact(Builtin::Log, 1.5L), 0.405465108108164381978013115464349136572L);
  expect_close(exact(Builtin::Pow, 2, 0.75L), 1.68179283050742908606225095246642979008L);
  expect_close(exact(Builtin::Sqrt, 2), 1.41421356237309504880168872420969807857L);
  expect_close(exact(Builtin::InverseSqrt, 2), 0.70710678118654752440084436210484903928L);
  expect_close(exact(Builtin::Div, 1, 3), 0.33333333333333333333333333333333333333L);
  // Argument reduction: a large argument, and the f32 value nearest pi (sin is tiny there).
  expect_close(exact(Builtin::Sin, 1e22L), -0.8522008497671888017727058937530293682618L);
  expect_close(exact(Builtin::Sin, 1048576), 0.3304931400217346716397309590712820880787L);
  expect_close(exact(Builtin::Sin, 3.1415927410125732421875L), -8.742278000372474525842166067384064233599e-8L);
  EXPECT_EQ(exact(Builtin::ToF16, 1.25L), 1.25L);
  EXPECT_TRUE(std::isnan(exact(Builtin::Log, -1)));
  EXPECT_EQ(exact(Builtin::Log, 0), -kInf);
  EXPECT_EQ(exact(Builtin::InverseSqrt, 0), kInf);
}

TEST(AccuracySpec, CorrectlyRoundedF32OfKnownValues) {
  EXPECT_EQ(f32_bits(static_cast<float>(round_to(exact(Builtin::Sin, 1), kF32))), 0x3f576aa4U);
  EXPECT_EQ(f32_bits(static_cast<float>(round_to(exact(Builtin::Log, 1.5L), kF32))), 0x3ecf991fU);
  EXPECT_EQ(f32_bits(static_cast<float>(round_to(exact(Builtin::Sqrt, 2), kF32))), 0x3fb504f3U);
}

TEST(AccuracySpec, EveryBuiltinHasARequirementInTheSpecificationsWords) {
  for (const Builtin b : {Builtin::Div, Builtin::Sqrt, Builtin::InverseSqrt, Builtin::Log, Builtin::Log2, Builtin::Exp2,
                          Builtin::Pow, Builtin::Sin, Builtin::Cos, Builtin::ToF16, Builtin::ToF32}) {
    EXPECT_EQ(requirement(b).builtin, b);
  }
  EXPECT_STREQ(requirement_text(Builtin::Div, kF32), "2.5 ULP for |y| in [2^-126, 2^126]");
  EXPECT_STREQ(requirement_text(Builtin::Sin, kF16), "absolute error <= 2^-7 inside [-pi, pi]");
  EXPECT_EQ(requirement(Builtin::Log).absolute32, 0x1p-21);
}

TEST(AccuracySpec, UlpBoundsAroundTheExactResult) {
  // 1 / 3 lies in [0.25, 0.5): ULP 2^-25, 2.5 of them each way.
  const auto d = accepted(Builtin::Div, 1, 3, kF32);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->hi - d->lo, 5 * 0x1p-25L);
  EXPECT_FALSE(accepted(Builtin::Div, 1, 0x1p-127L, kF32));  // y subnormal: no bound
  EXPECT_FALSE(accepted(Builtin::Div, 1, 0x1p127L, kF32));   // |y| above 2^126: no bound
  EXPECT_TRUE(accepted(Builtin::Div, 1, 0x1p126L, kF32));
  EXPECT_TRUE(accepted(Builtin::Div, 1, 0x1p14L, kF16));
  EXPECT_FALSE(accepted(Builtin::Div, 1, 0x1p15L, kF16));
  // inverseSqrt(4) = 0.5, a power of two: WGSL's ULP there is the spacing below (2^-25).
  const auto r = accepted(Builtin::InverseSqrt, 4, 0, kF32);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->lo, 0.5L - 2 * 0x1p-25L);
  EXPECT_EQ(r->hi, 0.5L + 2 * 0x1p-25L);
  const auto z = accepted(Builtin::InverseSqrt, 0, 0, kF32);
  ASSERT_TRUE(z);
  EXPECT_EQ(z->lo, kInf);
}

TEST(AccuracySpec, AbsoluteBoundsAndTheirRanges) {
  const auto s = accepted(Builtin::Sin, 1, 0, kF32);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->hi - s->lo, 2 * 0x1p-11L);
  EXPECT_TRUE(accepted(Builtin::Cos, pi_in(kF32), 0, kF32));
  EXPECT_LT(pi_in(kF32), std::numbers::pi_v<long double>);
  EXPECT_FALSE(accepted(Builtin::Sin, round_up(std::numbers::pi_v<long double>, kF32), 0, kF32));
  EXPECT_FALSE(accepted(Builtin::Sin, 4, 0, kF32));
  EXPECT_EQ(pi_in(kF16), 3.140625L);
  const auto l = accepted(Builtin::Log, 1, 0, kF32);  // inside [0.5, 2]: absolute
  ASSERT_TRUE(l);
  EXPECT_EQ(l->lo, -0x1p-21L);
  EXPECT_EQ(l->hi, 0x1p-21L);
  const auto l4 = accepted(Builtin::Log, 4, 0, kF32);  // outside: 3 ULP of log(4) in [1, 2)
  ASSERT_TRUE(l4);
  EXPECT_NEAR(static_cast<double>(l4->hi - l4->lo), 6 * 0x1p-23, 1e-20);
  const auto l0 = accepted(Builtin::Log, 0, 0, kF32);  // a subnormal read as zero leads here
  ASSERT_TRUE(l0);
  EXPECT_EQ(l0->lo, -kInf);
  EXPECT_EQ(l0->hi, -kInf);
  EXPECT_FALSE(accepted(Builtin::Log, -1, 0, kF32));
}

TEST(AccuracySpec, SqrtInheritsFromOneOverInverseSqrt) {
  // inverseSqrt(4) within [0.5 - 2^-24, 0.5 + 2^-24]; its reciprocal within about
  // [2 - 2^-22, 2 + 2^-22]; division's 2.5 ULP of each quotient beyond, where a quotient just above
  // 2 has ULP 2^-22: the f32 values from 2 - 4 x 2^-23 to 2 + 3 x 2^-22.
  const auto s = accepted(Builtin::Sqrt, 4, 0, kF32);
  ASSERT_TRUE(s);
  for (int k = 0; k <= 4; ++k) EXPECT_TRUE(s->contains(2 - k * 0x1p-23L)) << k;
  EXPECT_FALSE(s->contains(2 - 5 * 0x1p-23L));
  for (int k = 0; k <= 3; ++k) EXPECT_TRUE(s->contains(2 + k * 0x1p-22L)) << k;
  EXPECT_FALSE(s->contains(2 + 4 * 0x1p-22L));
  const auto zero = accepted(Builtin::Sqrt, 0, 0, kF32);
  ASSERT_TRUE(zero);
  EXPECT_TRUE(zero->contains(0) && zero->contains(-0.0L));
  EXPECT_FALSE(zero->contains(0x1p-149L));
}

TEST(AccuracySpec, PowInheritsFromExp2OfYTimesLog2) {
  // x = 2, y = 0.75: log2(2) = 1 within 2^-21 (inside [0.5, 2]); y * that rounded either way;
  // exp2 of about 0.75 within 3 + 2 * 0.75 = 4.5 ULP.
  const auto p = accepted(Builtin::Pow, 2, 0.75L, kF32);
  ASSERT_TRUE(p);
  const long double r = exact(Builtin::Pow, 2, 0.75L);
  EXPECT_TRUE(p->contains(r));
  const long double spread = 0.75L * 0x1p-21L * r * std::numbers::ln2_v<long double>;  // from log2's bound
  EXPECT_GT(r - p->lo, spread);
  EXPECT_LT(r - p->lo, spread + 6 * 0x1p-23L);
  EXPECT_EQ(accepted(Builtin::Pow, 0, 2, kF32)->hi, 0);  // a subnormal x read as zero
  EXPECT_EQ(accepted(Builtin::Pow, 0, -1, kF32)->lo, kInf);
  EXPECT_FALSE(accepted(Builtin::Pow, 2, 200, kF32));  // beyond the finite range: not judged
}

TEST(AccuracySpec, ConversionToF16AcceptsEitherNeighbour) {
  const auto mid = accepted(Builtin::ToF16, 1 + 0x1p-11L, 0, kF16);  // halfway between 1 and 1 + 2^-10
  ASSERT_TRUE(mid);
  EXPECT_EQ(mid->lo, 1);
  EXPECT_EQ(mid->hi, 1 + 0x1p-10L);
  const auto exact_value = accepted(Builtin::ToF16, 1.5L, 0, kF16);
  ASSERT_TRUE(exact_value);
  EXPECT_EQ(exact_value->lo, 1.5L);
  EXPECT_EQ(exact_value->hi, 1.5L);
  EXPECT_FALSE(accepted(Builtin::ToF16, 70000, 0, kF16));  // outside f16's finite range
  const auto back = accepted(Builtin::ToF32, 0x1p-24L, 0, kF32);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->lo, back->hi);
}

}  // namespace
}  // namespace wgb::catalog::accuracy
