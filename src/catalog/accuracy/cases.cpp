// The accuracy cases and their input sets (cases.hpp; docs/method.md#accuracy lists the same sets).
// f16 sets hold every value of their range (two-argument builtins: every value of the argument the
// bound depends on, each with 16 partners); f32 sets hold about kF32Values values by binade, plus
// evenly spread values where the bound is absolute and the neighbours of the points where the
// bound's range ends or an implementation's approximation changes (0, pi/2, pi, 0.5, 1, 2).
#include "catalog/accuracy/cases.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "gpu/hash.hpp"

namespace wgb::catalog::accuracy {

namespace {

using Values = std::vector<long double>;
constexpr std::size_t kN = kF32Values;
constexpr std::size_t kPartners = 16;  // second arguments per first (f16 two-argument builtins)

std::uint64_t seed_of(const std::string& name) { return gpu::fnv1a64(name); }

Values join(std::initializer_list<Values> parts) {
  Values out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}
Values only(Values v, const std::function<bool(long double)>& keep) {
  v.erase(std::remove_if(v.begin(), v.end(), [&](long double x) { return !keep(x); }), v.end());
  return v;
}
std::vector<Arguments> unary(const Values& v) {
  std::vector<Arguments> out;
  out.reserve(v.size());
  for (const long double x : v) out.push_back({x, 0});
  return out;
}
Values with_random_signs(Values v, std::uint64_t seed) {
  Stream s(seed);
  for (auto& x : v) x = s.pick_sign(x);
  return v;
}
// The value of f just above x.
long double above(long double x, const Format& f) { return round_up(x + ulp(x, f) / 4, f); }

// x / y: for each y, `per_y` x values whose quotient's binade is spread over every binade of the
// result type, the subnormals included, with either sign.
std::vector<Arguments> quotients(const Values& ys, std::size_t per_y, const Format& f, std::uint64_t seed) {
  std::vector<Arguments> out;
  Stream s(seed);
  const int lowest = f.min_exponent - f.precision + 1;
  for (const long double y : ys) {
    for (std::size_t k = 0; k < per_y; ++k) {
      const int eq = lowest + static_cast<int>(s.uniform() * (f.max_exponent - lowest + 1));
      const int ex = std::clamp(std::ilogb(std::fabs(y)) + eq, lowest, f.max_exponent);
      out.push_back({s.pick_sign(in_binade(ex, s.uniform(), f)), y});
    }
  }
  return out;
}

// pow(x, y): for each x, `per_x` exponents: 0.75 (the speed probe's) where x is in [1, 4), small
// ones in [-4, 4], and ones that put the result in a random binade of the result type; only pairs
// with a finite result are kept.
std::vector<Arguments> powers(const Values& xs, std::size_t per_x, const Format& f, std::uint64_t seed) {
  std::vector<Arguments> out;
  Stream s(seed);
  const int lowest = f.min_exponent - f.precision + 1;
  for (const long double x : xs) {
    const long double l = std::log2(x);
    for (std::size_t k = 0; k < per_x; ++k) {
      long double y;
      if (k == 0 && x >= 1 && x < 4) {
        y = 0.75L;
      } else if (k % 2 == 0 || l == 0) {
        y = round_to(-4 + 8 * static_cast<long double>(s.uniform()), f);
      } else {
        const long double t = lowest + s.uniform() * (f.max_exponent - lowest + 1);
        y = round_to(t / l, f);
      }
      const long double r = std::pow(x, y);
      if (std::isfinite(y) && std::isfinite(r) && r <= f.max_finite()) out.push_back({x, y});
    }
  }
  return out;
}

Case make(const std::string& probe, Builtin b, const Format& operand, const std::string& kernel, std::string range,
          bool bounded, bool absolute, std::function<std::vector<Arguments>()> inputs) {
  return Case{probe, b, &operand, &operand, "accuracy/" + kernel, std::move(range), bounded, absolute,
              std::move(inputs)};
}

// Where division is bounded, "2^-126<=|y|<=2^126", and the rest, "|y|<2^-126 or >2^126".
std::string division_range(const Format& f, bool inside) {
  const std::string lo = "2^" + std::to_string(f.min_exponent), hi = "2^" + std::to_string(f.max_exponent - 1);
  return inside ? lo + "<=|y|<=" + hi : "|y|<" + lo + " or >" + hi;
}

void add_type(std::vector<Case>& v, const Format& f) {
  const std::string t = f.name;
  const bool h = half(f);
  const long double max = f.max_finite(), sub = f.min_subnormal(), top = std::ldexp(1.0L, f.max_exponent - 1);
  const auto positive = [](long double x) { return x > 0; };

  // Division: |y| in the range the bound names, and outside it (subnormal or above), no bound there.
  v.push_back(make(t + "-div", Builtin::Div, f, "div", division_range(f, true), true, false, [&f, h, t, top] {
    const Values ys = h ? all_f16([&](long double y) { return std::fabs(y) >= kF16.min_normal() && std::fabs(y) <= top; })
                        : with_random_signs(by_binade(f.min_normal(), top, kN / 16, f, seed_of(t + "div-y")), 1);
    return quotients(ys, h ? kPartners : 16, f, seed_of(t + "div-x"));
  }));
  v.push_back(make(t + "-div", Builtin::Div, f, "div", division_range(f, false), false, false, [&f, h, t, top, sub, max] {
    const Values ys =
        h ? all_f16([&](long double y) { return y != 0 && (std::fabs(y) < kF16.min_normal() || std::fabs(y) > top); })
          : with_random_signs(join({by_binade(sub, f.min_normal() - sub, kN / 64, f, seed_of(t + "div-ys")),
                                    by_binade(above(top, f), max, kN / 64, f, seed_of(t + "div-yb"))}),
                              2);
    return quotients(ys, h ? kPartners : 8, f, seed_of(t + "div-xo"));
  }));
  v.push_back(make(t + "-sqrt", Builtin::Sqrt, f, "sqrt", "x >= 0", true, false, [&f, h, t, sub, max] {
    return unary(h ? all_f16([](long double x) { return x >= 0; })
                   : join({{0.0L}, by_binade(sub, max, kN, f, seed_of(t + "sqrt"))}));
  }));
  v.push_back(make(t + "-rsqrt", Builtin::InverseSqrt, f, "inverse_sqrt", "x > 0", true, false, [&f, h, t, sub, max] {
    return unary(h ? all_f16([](long double x) { return x > 0; }) : by_binade(sub, max, kN, f, seed_of(t + "rsqrt")));
  }));
  // log: absolutely bounded inside [0.5, 2], in ULPs outside.
  const auto inside_log = [](long double x) { return x >= 0.5L && x <= 2.0L; };
  v.push_back(make(t + "-log", Builtin::Log, f, "log", "[0.5, 2]", true, true, [&f, h, t, inside_log] {
    if (h) return unary(all_f16(inside_log));
    return unary(only(join({by_value(0.5L, 2.0L, kN / 2, f, seed_of(t + "log-v")),
                            by_binade(0.5L, 2.0L, kN / 2, f, seed_of(t + "log-b")), neighbours(1, 64, f),
                            neighbours(0.5L, 16, f), neighbours(2, 16, f)}),
                      inside_log));
  }));
  v.push_back(make(t + "-log", Builtin::Log, f, "log", "x>0, not [0.5, 2]", true, false, [&f, h, t, sub, max, inside_log] {
    if (h) return unary(all_f16([&](long double x) { return x > 0 && !inside_log(x); }));
    return unary(join({by_binade(sub, round_down(0.5L - ulp(0.5L, f), f), kN / 2, f, seed_of(t + "log-lo")),
                       by_binade(above(2, f), max, kN / 2, f, seed_of(t + "log-hi"))}));
  }));
  v.push_back(make(t + "-pow", Builtin::Pow, f, "pow", "x > 0", true, false, [&f, h, t, sub, max, positive] {
    return h ? powers(all_f16(positive), kPartners, f, seed_of(t + "pow"))
             : powers(by_binade(sub, max, kN / 8, f, seed_of(t + "pow-x")), 8, f, seed_of(t + "pow"));
  }));
  // sin and cos: absolutely bounded on [-pi, pi]; outside, no bound (|x| up to 2^20 in f32).
  const long double pi = pi_in(f);
  for (const Builtin b : {Builtin::Sin, Builtin::Cos}) {
    const std::string name = b == Builtin::Sin ? "sin" : "cos";
    v.push_back(make(t + "-sincos", b, f, name, "[-pi, pi]", true, true, [&f, h, t, pi, sub] {
      const auto inside = [pi](long double x) { return std::fabs(x) <= pi; };
      if (h) return unary(all_f16(inside));
      const long double half_pi = std::numbers::pi_v<long double> / 2;
      return unary(only(join({by_value(-pi, pi, kN / 2, f, seed_of(t + "trig-v")),
                              both_signs(by_binade(sub, pi, kN / 4, f, seed_of(t + "trig-b"))),
                              both_signs(neighbours(pi, 16, f)), both_signs(neighbours(half_pi, 16, f)),
                              neighbours(0, 16, f)}),
                        inside));
    }));
    v.push_back(make(t + "-sincos", b, f, name, h ? "|x| > pi" : "pi < |x| <= 2^20", false, true, [&f, h, t, pi] {
      if (h) return unary(all_f16([pi](long double x) { return std::fabs(x) > pi; }));
      return unary(both_signs(by_binade(above(pi, f), 0x1p20L, kN / 8, f, seed_of(t + "trig-o"))));
    }));
  }
}

}  // namespace

const std::vector<Case>& cases() {
  static const std::vector<Case> all = [] {
    std::vector<Case> v;
    add_type(v, kF32);
    add_type(v, kF16);
    // f32 <-> f16: every f16 value, the midpoints between neighbours (ties) and values by binade
    // from below f16's smallest subnormal to its largest finite value; and back, every f16 value.
    Case to16 = make("f32-f16-convert", Builtin::ToF16, kF32, "convert", "|x| <= 65504", true, false, [] {
      Values mids;
      for (std::uint32_t bits = 0; bits < 0x7bffU; ++bits) {
        mids.push_back((f16_value(static_cast<std::uint16_t>(bits)) + f16_value(static_cast<std::uint16_t>(bits + 1))) / 2);
      }
      return unary(join({all_f16([](long double) { return true; }), both_signs(mids),
                         both_signs(by_binade(0x1p-30L, kF16.max_finite(), kN / 2, kF32, seed_of("to-f16")))}));
    });
    to16.result = &kF16;
    v.push_back(std::move(to16));
    Case to32 = make("f32-f16-convert", Builtin::ToF32, kF16, "convert", "every f16", true, false,
                     [] { return unary(all_f16([](long double) { return true; })); });
    to32.result = &kF32;
    v.push_back(std::move(to32));
    return v;
  }();
  return all;
}

std::vector<const Case*> cases_for(std::string_view probe_id) {
  std::vector<const Case*> out;
  for (const auto& c : cases()) {
    if (c.probe == probe_id) out.push_back(&c);
  }
  return out;
}

}  // namespace wgb::catalog::accuracy
