// The inputs an accuracy kernel evaluates (docs/method.md#accuracy): dense, reproducible sets of
// values of a format. Binade sampling gives every power-of-two range, the subnormals included, the
// same share, spread evenly over its values with a hashed offset (each binade's first and last
// values always in); value sampling spreads evenly over a range in value, where an absolute bound
// makes every part of the range count alike; neighbourhoods add the values right beside a point
// where an implementation's approximation or range reduction changes. f16 sets list every value.
// Every set is a function of its seed alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "catalog/accuracy/ulp.hpp"

namespace wgb::catalog::accuracy {

struct Arguments {
  long double x = 0, y = 0;  // values of the operand format (y unused by one-argument builtins)
};

// A reproducible stream of uniform numbers (splitmix64).
class Stream {
 public:
  explicit Stream(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  double uniform();  // in [0, 1), 53 bits
  long double pick_sign(long double x) { return (next() & 1) != 0 ? -x : x; }

 private:
  std::uint64_t state_;
};

// About `count` values of f in [lo, hi] (0 < lo <= hi), every binade (the subnormals as one) with
// the same share, in increasing order.
std::vector<long double> by_binade(long double lo, long double hi, std::size_t count, const Format& f,
                                   std::uint64_t seed);
// `count` values of f spread evenly in value over [lo, hi], each rounded to nearest.
std::vector<long double> by_value(long double lo, long double hi, std::size_t count, const Format& f,
                                  std::uint64_t seed);
// The value of f nearest to x and its `k` neighbours on each side (finite ones only).
std::vector<long double> neighbours(long double x, int k, const Format& f);
// A value of f in the binade [2^e, 2^(e+1)) at fraction u in [0, 1) of it (below the normals the
// subnormal of that magnitude; e at least the smallest subnormal's exponent).
long double in_binade(int e, double u, const Format& f);
// Every finite f16 value for which keep(x) holds, in bit order (the positives from +0, then the negatives).
std::vector<long double> all_f16(const std::function<bool(long double)>& keep);
// Each value twice: with its sign and negated (sets symmetric about 0).
std::vector<long double> both_signs(const std::vector<long double>& v);

}  // namespace wgb::catalog::accuracy
