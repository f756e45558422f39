// Counting the error of a float result in units in the last place (docs/method.md#accuracy), for
// f32 and f16: the WGSL definition of ULP(x), the error of a result against an exact value, the
// distance in representable steps between two floats, rounding to either format, and f16's bits.
// Values are carried as long double (x86-64: a 64-bit significand and a 15-bit exponent): every f32
// and f16 value exactly, and a reference result to 2^-64 relative, 40 bits below f32's last place.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

namespace wgb::catalog::accuracy {

// A binary floating-point format with subnormals.
struct Format {
  int precision = 24;      // significand bits, the implicit one included: 24 (f32), 11 (f16)
  int min_exponent = -126;  // exponent of the smallest normal: 2^-126 (f32), 2^-14 (f16)
  int max_exponent = 127;   // exponent of the largest finite: (2 - 2^-23) 2^127, (2 - 2^-10) 2^15
  const char* name = "f32";

  long double max_finite() const;
  long double min_normal() const;
  long double min_subnormal() const;
  // True for a nonzero value below the smallest normal (in magnitude).
  bool subnormal(long double x) const;
};
inline constexpr Format kF32{24, -126, 127, "f32"};
inline constexpr Format kF16{11, -14, 15, "f16"};
inline constexpr long double kInf = std::numeric_limits<long double>::infinity();
inline bool half(const Format& f) { return f.precision == kF16.precision; }

// ULP(x) as WGSL defines it: the smallest distance b - a between two distinct finite values a <= x
// <= b of the format. Between two representable neighbours that is their spacing; at a power of two
// it is the spacing below; for |x| below the smallest normal the subnormal spacing; beyond the
// largest finite value (and for infinities and NaN), ULP of the largest finite value.
long double ulp(long double x, const Format& f);

// |y - exact| / ULP(exact), the error of a result y in ULPs of the format. Equal values (-0 and +0
// included) give 0; infinities of the same sign give 0; a NaN y, or an infinite y where `exact` is
// finite (or of the other sign), gives +inf. `exact` must not be NaN.
long double ulp_error(long double y, long double exact, const Format& f);

// The value of the format nearest to x, ties to even; an infinity from half an ULP above the largest
// finite value on, as IEEE 754 rounds. Zeros, infinities and NaN are returned unchanged.
long double round_to(long double x, const Format& f);
// The representable neighbours of x: the largest value <= x and the smallest >= x (x itself when
// representable); beyond the largest finite value, that value and infinity.
long double round_down(long double x, const Format& f);
long double round_up(long double x, const Format& f);

// Representable values between a and b, counted in steps of the format (adjacent values are 1
// apart, -0 and +0 are 0 apart, the largest finite value and infinity 1 apart); nothing when either
// is NaN.
std::optional<std::uint64_t> ulp_distance_f32(std::uint32_t a_bits, std::uint32_t b_bits);
std::optional<std::uint64_t> ulp_distance_f16(std::uint16_t a_bits, std::uint16_t b_bits);

// f16 (IEEE binary16) bits to their exact value and back. f16_bits rounds to nearest, ties to even.
long double f16_value(std::uint16_t bits);
std::uint16_t f16_bits(long double x);
long double f32_value(std::uint32_t bits);
std::uint32_t f32_bits(float x);

}  // namespace wgb::catalog::accuracy
