// ULPs, rounding and f16 bits (ulp.hpp). Everything is exact in long double: scaling by powers of
// two, nearbyintl/floorl on a value scaled to the format's last place, and the differences of a
// format's values with a reference.
#include "catalog/accuracy/ulp.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace wgb::catalog::accuracy {

namespace {


// The spacing of the format's values in the binade of |x| (the subnormal spacing below the normals).
long double quantum(long double x, const Format& f) {
  int e = std::ilogb(std::fabs(x));
  if (e < f.min_exponent) e = f.min_exponent;
  return std::ldexp(1.0L, e - f.precision + 1);
}

// Bits in an order where adjacent values are adjacent integers and both zeros are 0.
std::int64_t ordered(std::uint32_t bits, std::uint32_t sign_bit) {
  const std::int64_t magnitude = bits & (sign_bit - 1);
  return (bits & sign_bit) != 0 ? -magnitude : magnitude;
}

}  // namespace

long double Format::max_finite() const { return std::ldexp(2.0L - std::ldexp(1.0L, 1 - precision), max_exponent); }
long double Format::min_normal() const { return std::ldexp(1.0L, min_exponent); }
long double Format::min_subnormal() const { return std::ldexp(1.0L, min_exponent - precision + 1); }
bool Format::subnormal(long double x) const { return x != 0 && std::fabs(x) < min_normal(); }

long double ulp(long double x, const Format& f) {
  if (!std::isfinite(x) || std::fabs(x) > f.max_finite()) return std::ldexp(1.0L, f.max_exponent - f.precision + 1);
  const long double ax = std::fabs(x);
  if (ax < f.min_normal()) return f.min_subnormal();
  const int e = std::ilogb(ax);
  // At a power of two the nearer neighbour is below, half the spacing above (the smallest b - a).
  if (ax == std::ldexp(1.0L, e) && e > f.min_exponent) return std::ldexp(1.0L, e - f.precision);
  return std::ldexp(1.0L, e - f.precision + 1);
}

long double ulp_error(long double y, long double exact, const Format& f) {
  if (std::isnan(y)) return kInf;
  if (y == exact) return 0;  // -0 == +0, and equal infinities
  if (std::isinf(y) || std::isinf(exact)) return kInf;
  return std::fabs(y - exact) / ulp(exact, f);
}

long double round_to(long double x, const Format& f) {
  if (x == 0 || !std::isfinite(x)) return x;
  const long double q = quantum(x, f);
  // x / q is exact (a power of two); nearbyintl rounds to nearest, ties to even (the default mode).
  const long double r = std::nearbyint(x / q) * q;
  if (std::fabs(r) > f.max_finite()) return std::copysign(kInf, x);
  return r == 0 ? std::copysign(0.0L, x) : r;
}

long double round_down(long double x, const Format& f) {
  if (x == 0 || std::isnan(x)) return x;
  if (x > f.max_finite()) return f.max_finite();
  if (x < -f.max_finite()) return -kInf;
  const long double q = quantum(x, f);
  const long double r = std::floor(x / q) * q;
  return r == 0 ? 0.0L : r;
}

long double round_up(long double x, const Format& f) {
  if (x == 0 || std::isnan(x)) return x;
  return -round_down(-x, f);
}

std::optional<std::uint64_t> ulp_distance_f32(std::uint32_t a, std::uint32_t b) {
  if ((a & 0x7fffffffU) > 0x7f800000U || (b & 0x7fffffffU) > 0x7f800000U) return std::nullopt;
  return static_cast<std::uint64_t>(std::llabs(ordered(a, 0x80000000U) - ordered(b, 0x80000000U)));
}

std::optional<std::uint64_t> ulp_distance_f16(std::uint16_t a, std::uint16_t b) {
  if ((a & 0x7fffU) > 0x7c00U || (b & 0x7fffU) > 0x7c00U) return std::nullopt;
  return static_cast<std::uint64_t>(std::llabs(ordered(a, 0x8000U) - ordered(b, 0x8000U)));
}

long double f16_value(std::uint16_t bits) {
  const long double sign = (bits & 0x8000U) != 0 ? -1.0L : 1.0L;
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  if (exponent == 0x1f) return mantissa != 0 ? std::numeric_limits<long double>::quiet_NaN() : sign * kInf;
  if (exponent == 0) return sign * std::ldexp(static_cast<long double>(mantissa), -24);
  return sign * std::ldexp(static_cast<long double>(1024 + mantissa), exponent - 25);
}

std::uint16_t f16_bits(long double x) {
  if (std::isnan(x)) return 0x7e00U;
  const std::uint16_t sign = std::signbit(x) ? 0x8000U : 0;
  const long double r = std::fabs(round_to(x, kF16));
  if (std::isinf(r)) return sign | 0x7c00U;
  if (r < kF16.min_normal()) return sign | static_cast<std::uint16_t>(std::ldexp(r, 24));  // subnormal or 0
  const int e = std::ilogb(r);
  const auto mantissa = static_cast<std::uint16_t>(std::ldexp(r, 10 - e) - 1024);
  return sign | static_cast<std::uint16_t>((e + 15) << 10) | mantissa;
}

long double f32_value(std::uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

std::uint32_t f32_bits(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

}  // namespace wgb::catalog::accuracy
