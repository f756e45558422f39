// ULPs, rounding and f16 bits (src/catalog/accuracy/ulp.hpp): exhaustive over f16, over small f32
// ranges around zero, the subnormals, 1 and the largest finite value, and against the hardware's
// own rounding of doubles to float.
#include "catalog/accuracy/ulp.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

namespace wgb::catalog::accuracy {
namespace {

constexpr long double kInf = std::numeric_limits<long double>::infinity();

// f32 bits of the i-th value counted from +0 (negative i: the negatives, -0 being i = 0 too).
std::uint32_t f32_step(std::int64_t i) {
  return i >= 0 ? static_cast<std::uint32_t>(i) : 0x80000000U | static_cast<std::uint32_t>(-i);
}

TEST(AccuracyUlp, WgslUlpOfF32) {
  EXPECT_EQ(ulp(1.0L, kF32), 0x1p-24L);  // at a power of two: the spacing below
  EXPECT_EQ(ulp(1.5L, kF32), 0x1p-23L);
  EXPECT_EQ(ulp(-1.5L, kF32), 0x1p-23L);
  EXPECT_EQ(ulp(std::nextafter(1.0L, 2.0L), kF32), 0x1p-23L);  // just above 1: the spacing above
  EXPECT_EQ(ulp(0x1p-126L, kF32), 0x1p-149L);  // the smallest normal: below it, subnormal spacing
  EXPECT_EQ(ulp(1e-40L, kF32), 0x1p-149L);
  EXPECT_EQ(ulp(0.0L, kF32), 0x1p-149L);
  EXPECT_EQ(ulp(kF32.max_finite(), kF32), 0x1p104L);
  EXPECT_EQ(ulp(kInf, kF32), 0x1p104L);  // beyond the finite range: ULP of the largest finite value
  EXPECT_EQ(ulp(0x1p200L, kF32), 0x1p104L);
}

TEST(AccuracyUlp, WgslUlpOfF16IsTheSpacingOfNeighboursForEveryValue) {
  EXPECT_EQ(ulp(1.0L, kF16), 0x1p-11L);
  EXPECT_EQ(ulp(0.0L, kF16), 0x1p-24L);
  EXPECT_EQ(ulp(65504.0L, kF16), 32.0L);
  EXPECT_EQ(kF16.max_finite(), 65504.0L);
  // Exhaustive: strictly between two adjacent finite f16 values, ULP is their distance.
  for (std::uint32_t bits = 0; bits < 0x7bffU; ++bits) {
    const long double a = f16_value(static_cast<std::uint16_t>(bits));
    const long double b = f16_value(static_cast<std::uint16_t>(bits + 1));
    ASSERT_EQ(ulp((a + b) / 2, kF16), b - a) << bits;
    ASSERT_EQ(ulp(-(a + b) / 2, kF16), b - a) << bits;
  }
}

TEST(AccuracyUlp, DistanceCountsStepsAcrossZeroAndTheSubnormals) {
  // Every pair of the 2001 f32 values nearest to zero (both signs, subnormals only).
  for (std::int64_t i = -1000; i <= 1000; i += 7) {
    for (std::int64_t j = -1000; j <= 1000; ++j) {
      ASSERT_EQ(ulp_distance_f32(f32_step(i), f32_step(j)), static_cast<std::uint64_t>(std::llabs(i - j)));
    }
  }
  EXPECT_EQ(ulp_distance_f32(0x00000000U, 0x80000000U), 0u);  // +0 and -0
  EXPECT_EQ(ulp_distance_f32(0x00000001U, 0x80000001U), 2u);  // the smallest subnormals straddle 0
  EXPECT_EQ(ulp_distance_f32(0x007fffffU, 0x00800000U), 1u);  // largest subnormal, smallest normal
  EXPECT_EQ(ulp_distance_f32(0x3f7fffffU, 0x3f800000U), 1u);  // below 1, 1
  EXPECT_EQ(ulp_distance_f32(0x7f7fffffU, 0x7f800000U), 1u);  // largest finite, infinity
  EXPECT_EQ(ulp_distance_f32(0xff800000U, 0x7f800000U), 2u * 0x7f800000U);
  EXPECT_FALSE(ulp_distance_f32(0x7fc00000U, 0x3f800000U));  // NaN
  EXPECT_FALSE(ulp_distance_f32(0x3f800000U, 0xffc00001U));
  // f16, exhaustive: adjacent bit patterns of one sign are one step apart; +0 and -0 none.
  for (std::uint32_t bits = 0; bits < 0x7c00U; ++bits) {
    ASSERT_EQ(ulp_distance_f16(static_cast<std::uint16_t>(bits), static_cast<std::uint16_t>(bits + 1)), 1u);
    ASSERT_EQ(ulp_distance_f16(static_cast<std::uint16_t>(0x8000U | bits), static_cast<std::uint16_t>(bits)),
              2u * bits);
  }
  EXPECT_FALSE(ulp_distance_f16(0x7e00U, 0x0000U));
}

TEST(AccuracyUlp, ErrorAgainstTheExactValue) {
  EXPECT_EQ(ulp_error(1.0L, 1.0L, kF32), 0);
  EXPECT_EQ(ulp_error(-0.0L, 0.0L, kF32), 0);  // signed zeros are equal
  EXPECT_EQ(ulp_error(1.0L + 0x1p-23L, 1.0L, kF32), 2);  // ULP(1) is the spacing below 1
  EXPECT_EQ(ulp_error(1.5L + 0x1p-23L, 1.5L, kF32), 1);
  EXPECT_EQ(ulp_error(0x1p-149L, 0.0L, kF32), 1);  // around zero: the subnormal spacing
  EXPECT_EQ(ulp_error(3 * 0x1p-24L, 0.0L, kF16), 3);
  EXPECT_DOUBLE_EQ(static_cast<double>(ulp_error(1.0L, 1.0L + 0x1p-25L, kF32)), 0.25);
  EXPECT_EQ(ulp_error(std::numeric_limits<long double>::quiet_NaN(), 1.0L, kF32), kInf);
  EXPECT_EQ(ulp_error(kInf, 1.0L, kF32), kInf);
  EXPECT_EQ(ulp_error(kInf, kInf, kF32), 0);
  EXPECT_EQ(ulp_error(-kInf, kInf, kF32), kInf);
}

TEST(AccuracyUlp, F16BitsRoundTripAndRoundToNearestEven) {
  for (std::uint32_t bits = 0; bits <= 0xffffU; ++bits) {
    const long double v = f16_value(static_cast<std::uint16_t>(bits));
    if (std::isnan(v)) continue;
    ASSERT_EQ(f16_bits(v), bits) << bits;
    ASSERT_EQ(round_to(v, kF16), v) << bits;
    // The midpoint to the next value rounds to the one with an even last bit.
    if ((bits & 0x7fffU) < 0x7bffU) {
      const long double next = f16_value(static_cast<std::uint16_t>(bits + 1));
      const long double mid = (v + next) / 2;
      ASSERT_EQ(f16_bits(mid), (bits & 1U) == 0 ? bits : bits + 1) << bits;
      ASSERT_EQ(round_down(mid, kF16), v < next ? v : next);
      ASSERT_EQ(round_up(mid, kF16), v < next ? next : v);
    }
  }
  EXPECT_EQ(round_to(65519.99L, kF16), 65504.0L);
  EXPECT_EQ(round_to(65520.0L, kF16), kInf);  // half an ULP above the largest finite value
  EXPECT_EQ(round_to(0x1p-25L, kF16), 0.0L);  // half the smallest subnormal: ties to even (0)
  EXPECT_EQ(round_to(0x1.8p-25L, kF16), 0x1p-24L);
  EXPECT_TRUE(std::signbit(round_to(-0x1p-26L, kF16)));  // rounds to -0
  EXPECT_EQ(round_down(70000.0L, kF16), 65504.0L);
  EXPECT_EQ(round_up(70000.0L, kF16), kInf);
}

TEST(AccuracyUlp, RoundingToF32MatchesTheHardware) {
  // The CPU rounds double to float correctly (IEEE 754): every double, normal or subnormal in f32,
  // must round the same way here, and its neighbours must bracket it.
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200000; ++i) {
    const int e = static_cast<int>(rng() % 290) - 160;  // f32 subnormals to beyond the largest finite
    const double x = std::ldexp(1.0 + static_cast<double>(rng() >> 11) * 0x1p-53, e) * ((rng() & 1) ? -1 : 1);
    const long double r = round_to(x, kF32);
    ASSERT_EQ(r, static_cast<long double>(static_cast<float>(x))) << x;
    const long double lo = round_down(x, kF32), hi = round_up(x, kF32);
    ASSERT_LE(lo, x);
    ASSERT_GE(hi, x);
    if (std::isfinite(lo) && std::isfinite(hi)) {
      ASSERT_LE(*ulp_distance_f32(f32_bits(static_cast<float>(lo)), f32_bits(static_cast<float>(hi))), 1u) << x;
    }
  }
}

}  // namespace
}  // namespace wgb::catalog::accuracy
