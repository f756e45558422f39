// The WGSL specification's accuracy requirements and the intervals they accept (spec.hpp).
#include "catalog/accuracy/spec.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

namespace wgb::catalog::accuracy {

namespace {


// The WGSL specification, section "Floating Point Accuracy", table "Accuracy of Concrete Floating
// Point Expressions": the rows of the builtins the speed probes time, and of log2 and exp2, which
// pow's bound inherits. docs/method.md#accuracy carries the same table. The conversions' rows are
// from the section "Floating Point Conversion" (a value between two adjacent values of the
// destination type converts to either of them).
const Requirement kRequirements[] = {
    {Builtin::Div, "x / y", "2.5 ULP for |y| in [2^-126, 2^126]", "2.5 ULP for |y| in [2^-14, 2^14]", 2.5, 2.5},
    {Builtin::Sqrt, "sqrt(x)", "inherited from 1.0 / inverseSqrt(x)", "inherited from 1.0 / inverseSqrt(x)"},
    {Builtin::InverseSqrt, "inverseSqrt(x)", "2 ULP", "2 ULP", 2, 2},
    {Builtin::Log, "log(x)", "absolute error <= 2^-21 inside [0.5, 2.0]; 3 ULP outside",
     "absolute error <= 2^-7 inside [0.5, 2.0]; 3 ULP outside", 3, 3, 0x1p-21, 0x1p-7},
    {Builtin::Log2, "log2(x)", "absolute error <= 2^-21 inside [0.5, 2.0]; 3 ULP outside",
     "absolute error <= 2^-7 inside [0.5, 2.0]; 3 ULP outside", 3, 3, 0x1p-21, 0x1p-7},
    {Builtin::Exp2, "exp2(x)", "3 + 2 * |x| ULP", "1 + 2 * |x| ULP", 3, 1},
    {Builtin::Pow, "pow(x, y)", "inherited from exp2(y * log2(x))", "inherited from exp2(y * log2(x))"},
    {Builtin::Sin, "sin(x)", "absolute error <= 2^-11 inside [-pi, pi]", "absolute error <= 2^-7 inside [-pi, pi]", 0, 0,
     0x1p-11, 0x1p-7},
    {Builtin::Cos, "cos(x)", "absolute error <= 2^-11 inside [-pi, pi]", "absolute error <= 2^-7 inside [-pi, pi]", 0, 0,
     0x1p-11, 0x1p-7},
    {Builtin::ToF16, "f16(x)", "",
     "the value itself when representable; otherwise either of the two adjacent f16 values (finite range only)"},
    {Builtin::ToF32, "f32(x)", "exact: every f16 value is an f32 value", ""},
};
constexpr double kExp2PerUnit = 2;  // exp2's bound grows by 2 ULP per unit of |x|, in f32 and f16

bool is_f16(const Format& f) { return f.precision == kF16.precision; }
double ulps(Builtin b, const Format& f) { return is_f16(f) ? requirement(b).ulps16 : requirement(b).ulps32; }
double absolute(Builtin b, const Format& f) {
  return is_f16(f) ? requirement(b).absolute16 : requirement(b).absolute32;
}

Interval around(long double r, long double e) { return {r - e, r + e}; }

// The union over q in [a, b] of [q - n ULP(q), q + n ULP(q)]. ULP(q) steps at powers of two, so
// besides the ends, every power of two between them and the points just beside it are candidates
// (just above one in magnitude, ULP is twice what it is at the power itself).
Interval widen(long double a, long double b, long double n, const Format& f) {
  std::vector<long double> points = {a, b};
  const long double lo_mag = (a <= 0 && b >= 0) ? 0 : std::min(std::fabs(a), std::fabs(b));
  const long double hi_mag = std::max(std::fabs(a), std::fabs(b));
  if (lo_mag > 0 && std::isfinite(hi_mag)) {
    for (int e = std::ilogb(lo_mag) + 1, k = 0; e <= std::ilogb(hi_mag) && k < 8; ++e, ++k) {
      for (const long double s : {1.0L, -1.0L}) {
        const long double p = s * std::ldexp(1.0L, e);
        for (const long double q : {p, std::nextafter(p, -kInf), std::nextafter(p, kInf)}) {
          if (q >= a && q <= b) points.push_back(q);
        }
      }
    }
  }
  Interval out{kInf, -kInf};
  for (const long double q : points) {
    if (!std::isfinite(q)) {
      out.lo = std::min(out.lo, q);
      out.hi = std::max(out.hi, q);
      continue;
    }
    const long double u = ulp(q, f);
    out.lo = std::min(out.lo, q - n * u);
    out.hi = std::max(out.hi, q + n * u);
  }
  return out;
}

// log and log2: absolute inside [0.5, 2], N ULP outside; the exact infinity at 0.
std::optional<Interval> logarithm(Builtin b, long double x, const Format& f) {
  if (std::isnan(x) || x < 0) return std::nullopt;
  const long double r = exact(b, x);
  if (x == 0) return Interval{r, r};
  if (x >= 0.5L && x <= 2.0L) return around(r, absolute(b, f));
  return widen(r, r, ulps(b, f), f);
}

}  // namespace

const Requirement& requirement(Builtin b) {
  for (const auto& r : kRequirements) {
    if (r.builtin == b) return r;
  }
  return kRequirements[0];  // unreachable: every Builtin has a row
}

const char* requirement_text(Builtin b, const Format& f) { return is_f16(f) ? requirement(b).f16 : requirement(b).f32; }

long double exact(Builtin b, long double x, long double y) {
  switch (b) {
    case Builtin::Div: return x / y;
    case Builtin::Sqrt: return std::sqrt(x);
    case Builtin::InverseSqrt: return 1.0L / std::sqrt(x);
    case Builtin::Log: return std::log(x);
    case Builtin::Log2: return std::log2(x);
    case Builtin::Exp2: return std::exp2(x);
    case Builtin::Pow: return std::pow(x, y);
    case Builtin::Sin: return std::sin(x);
    case Builtin::Cos: return std::cos(x);
    case Builtin::ToF16:
    case Builtin::ToF32: return x;
  }
  return std::numeric_limits<long double>::quiet_NaN();
}

long double pi_in(const Format& f) { return round_down(std::numbers::pi_v<long double>, f); }

std::optional<Interval> accepted(Builtin b, long double x, long double y, const Format& f) {
  if (std::isnan(x) || std::isnan(y)) return std::nullopt;
  const long double r = exact(b, x, y);
  switch (b) {
    case Builtin::Div: {
      const long double ay = std::fabs(y);
      if (ay < f.min_normal() || ay > std::ldexp(1.0L, f.max_exponent - 1)) return std::nullopt;
      if (!std::isfinite(r) || std::fabs(r) > f.max_finite()) return std::nullopt;
      return widen(r, r, ulps(b, f), f);
    }
    case Builtin::InverseSqrt:
      if (x < 0) return std::nullopt;
      if (x == 0) return Interval{r, r};
      return widen(r, r, ulps(b, f), f);
    case Builtin::Sqrt: {
      if (x < 0) return std::nullopt;
      if (x == 0) return Interval{r, r};
      // 1.0 / inverseSqrt(x): the reciprocal of inverseSqrt's interval, then division's bound.
      const auto inv = *accepted(Builtin::InverseSqrt, x, 0, f);
      return widen(1.0L / inv.hi, 1.0L / inv.lo, ulps(Builtin::Div, f), f);
    }
    case Builtin::Log:
    case Builtin::Log2: return logarithm(b, x, f);
    case Builtin::Exp2:
      if (!std::isfinite(r) || r > f.max_finite()) return std::nullopt;
      return widen(r, r, ulps(b, f) + kExp2PerUnit * std::fabs(x), f);
    case Builtin::Pow: {
      if (x < 0) return std::nullopt;
      if (x == 0) return Interval{r, r};
      if (!std::isfinite(r) || r > f.max_finite()) return std::nullopt;
      // exp2(y * log2(x)): log2's interval, times y correctly rounded (either neighbour), then
      // exp2 over that interval with its bound at the larger |argument|.
      const auto l = *logarithm(Builtin::Log2, x, f);
      const long double p0 = std::min(y * l.lo, y * l.hi), p1 = std::max(y * l.lo, y * l.hi);
      const long double t0 = round_down(p0, f), t1 = round_up(p1, f);
      const long double n = ulps(Builtin::Exp2, f) + kExp2PerUnit * std::max(std::fabs(t0), std::fabs(t1));
      Interval out = widen(std::exp2(t0), std::exp2(t1), n, f);
      if (std::exp2(t1) > f.max_finite()) out.hi = kInf;
      return out;
    }
    case Builtin::Sin:
    case Builtin::Cos:
      if (std::fabs(x) > pi_in(f)) return std::nullopt;
      return around(r, absolute(b, f));
    case Builtin::ToF16:
      if (std::fabs(x) > f.max_finite()) return std::nullopt;
      return Interval{round_down(x, f), round_up(x, f)};
    case Builtin::ToF32: return Interval{x, x};
  }
  return std::nullopt;
}

}  // namespace wgb::catalog::accuracy
