// What the WGSL specification requires of each floating-point builtin the speed probes time
// (docs/method.md#accuracy): the requirements as the specification words them, with their numbers
// (one table, in spec.cpp) and, per input, the interval of results each one accepts. Intervals
// follow the specification's rules: an "N ULP" bound accepts [r - N ULP(r), r + N ULP(r)] around
// the exact result r; an absolute bound e accepts [r - e, r + e]; "correctly rounded" accepts
// either representable neighbour of r; an "inherited" bound is the interval of the expression it
// names, evaluated step by step with each step's own bound.
#pragma once

#include <optional>

#include "catalog/accuracy/ulp.hpp"

namespace wgb::catalog::accuracy {

// The builtins measured. Log2 and Exp2 appear only inside pow's inherited bound.
enum class Builtin { Div, Sqrt, InverseSqrt, Log, Log2, Exp2, Pow, Sin, Cos, ToF16, ToF32 };

// Results accepted for one input: lo <= y <= hi (an infinite end accepts everything beyond it).
struct Interval {
  long double lo = 0, hi = 0;
  bool contains(long double y) const { return y >= lo && y <= hi; }
};

// One row of the specification's table: the builtin as WGSL writes it, its requirement for f32 and
// for f16 in the specification's words, and the numbers in them.
struct Requirement {
  Builtin builtin;
  const char* expression;
  const char* f32;
  const char* f16;
  double ulps32 = 0, ulps16 = 0;          // an N ULP bound (exp2: its constant term; log: outside [0.5, 2])
  double absolute32 = 0, absolute16 = 0;  // an absolute bound (log: inside [0.5, 2]; sin, cos: in [-pi, pi])
};
const Requirement& requirement(Builtin b);
// The requirement's words for operands of `f` (f32 or f16).
const char* requirement_text(Builtin b, const Format& f);

// The exact result of the builtin (long double; NaN outside its domain, an infinity at a pole).
// Conversions return their argument (the exact value before rounding).
long double exact(Builtin b, long double x, long double y = 0);

// The interval the specification accepts for `f` results of the builtin on (x, y), or nothing where
// it states no bound: sin and cos outside [-pi, pi], division by |y| outside the range it names, a
// result beyond the largest finite value, a conversion from outside the destination's finite range.
// At a zero argument outside the domain (log(0), inverseSqrt(0), pow(0, y)), and for sqrt(0), whose
// inherited bound would pass through inverseSqrt(0), only the exact function's value there is
// accepted: it is where a subnormal argument read as zero leads.
std::optional<Interval> accepted(Builtin b, long double x, long double y, const Format& f);

// Where sin and cos are bounded, |x| <= pi: the largest value of the format not above pi (pi is no
// f32 or f16 value; f32's nearest lies above it, outside the range).
long double pi_in(const Format& f);

}  // namespace wgb::catalog::accuracy
