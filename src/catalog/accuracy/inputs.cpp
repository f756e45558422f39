// Input sets of the accuracy kernels (inputs.hpp).
#include "catalog/accuracy/inputs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace wgb::catalog::accuracy {

std::uint64_t Stream::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double Stream::uniform() { return static_cast<double>(next() >> 11) * 0x1p-53; }

long double in_binade(int e, double u, const Format& f) {
  const int lowest = f.min_exponent - f.precision + 1;
  e = std::max(e, lowest);
  // The spacing of values in this binade: the subnormal spacing below the normals.
  const long double q = std::ldexp(1.0L, std::max(e, f.min_exponent) - f.precision + 1);
  const long double start = std::ldexp(1.0L, e);
  const long double steps = std::floor(static_cast<long double>(u) * start / q);
  return start + steps * q;
}

std::vector<long double> by_binade(long double lo, long double hi, std::size_t count, const Format& f,
                                   std::uint64_t seed) {
  std::vector<long double> out;
  if (!(lo > 0) || hi < lo) return out;
  lo = round_up(lo, f);
  hi = round_down(hi, f);
  // Binades [first, last] of the range; the subnormals form the one below the smallest normal.
  const int first = std::max(std::ilogb(lo), f.min_exponent - 1);
  const int last = std::max(std::ilogb(hi), f.min_exponent - 1);
  const auto share = std::max<std::size_t>(4, count / static_cast<std::size_t>(last - first + 1));
  Stream s(seed);
  for (int e = first; e <= last; ++e) {
    const bool sub = e < f.min_exponent;
    const long double q = sub ? f.min_subnormal() : std::ldexp(1.0L, e - f.precision + 1);
    const long double start = std::max(lo, sub ? f.min_subnormal() : std::ldexp(1.0L, e));
    const long double end = std::min(hi, (sub ? f.min_normal() : std::ldexp(1.0L, e + 1)) - q);
    if (end < start) continue;
    const auto values = static_cast<std::uint64_t>((end - start) / q) + 1;
    if (values <= share) {
      for (std::uint64_t i = 0; i < values; ++i) out.push_back(start + static_cast<long double>(i) * q);
      continue;
    }
    // Stratified: one value from each of share - 2 equal parts, plus both ends.
    out.push_back(start);
    const std::size_t inner = share - 2;
    for (std::size_t k = 0; k < inner; ++k) {
      const long double at = (static_cast<long double>(k) + s.uniform()) / static_cast<long double>(inner);
      const auto i = std::min<std::uint64_t>(values - 1, static_cast<std::uint64_t>(at * static_cast<long double>(values)));
      out.push_back(start + static_cast<long double>(i) * q);
    }
    out.push_back(end);
  }
  return out;
}

std::vector<long double> by_value(long double lo, long double hi, std::size_t count, const Format& f,
                                  std::uint64_t seed) {
  std::vector<long double> out;
  Stream s(seed);
  for (std::size_t k = 0; k < count; ++k) {
    const long double at = (static_cast<long double>(k) + s.uniform()) / static_cast<long double>(count);
    const long double x = round_to(lo + at * (hi - lo), f);
    if (x >= lo && x <= hi) out.push_back(x);
  }
  return out;
}

std::vector<long double> neighbours(long double x, int k, const Format& f) {
  std::vector<long double> out;
  const long double c = round_to(x, f);
  if (!std::isfinite(c)) return out;
  out.push_back(c);
  long double up = c, down = c;
  for (int i = 0; i < k; ++i) {
    // The next value of f above (below) the last one: round past it by a quarter of its spacing.
    up = round_up(up + ulp(up, f) / 4, f);
    down = round_down(down - ulp(down, f) / 4, f);
    if (std::isfinite(up)) out.push_back(up);
    if (std::isfinite(down)) out.push_back(down);
  }
  return out;
}

std::vector<long double> all_f16(const std::function<bool(long double)>& keep) {
  std::vector<long double> out;
  for (std::uint32_t bits = 0; bits <= 0xffffU; ++bits) {
    const long double x = f16_value(static_cast<std::uint16_t>(bits));
    if (std::isfinite(x) && keep(x)) out.push_back(x);
  }
  return out;
}

std::vector<long double> both_signs(const std::vector<long double>& v) {
  std::vector<long double> out;
  out.reserve(2 * v.size());
  for (const long double x : v) {
    out.push_back(x);
    out.push_back(-x);
  }
  return out;
}

}  // namespace wgb::catalog::accuracy
