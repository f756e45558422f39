// When two measurements differ (docs/method.md#differ): the one rule behind every "agree",
// "unchanged", "faster" or "slower" the program says: --repro (rows and curve points), `compare`,
// the browser-against-native pool and the results server's compare page.
//
// Each side is an Estimate: a rate v (more is better), the relative dispersion d of one measurement
// (the row's dispersion column: IQR/median for median rows, CV for best-run rows), the number n of
// independent rounds pooled into v, and for a pooled estimate the relative standard error s of v
// from the spread between those rounds. For b against a:
//   ratio      = v_b / v_a;  change = |ratio - 1|
//   dispersion = sqrt(d_a^2 / n_a + d_b^2 / n_b)  independent noises add in quadrature; n rounds
//                                                 average each side's down by sqrt(n)
//   spread     = 2 sqrt(s_a^2 + s_b^2)            the rounds' own evidence, about 95 % coverage
//   allowance  = max(floor, dispersion, spread)   the floor: kNoiseFloor, what separates two
//                                                 processes whose dispersion reads 0.00 %
//   b differs from a  <=>  change > allowance
// One row per side (n = 1, s = 0) is `compare`'s and --repro's case. Paired rounds (the browser
// against native, alternating) are b = pooled_ratio(b_i / a_i) against a = 1: drift common to both
// sides of a round cancels in its ratio, and the spread of the ratios is the standard error.
// A value that is not a positive finite number is never "the same": the verdict is NotComparable.
#pragma once

#include <cstddef>
#include <span>
#include <string>

namespace wgb::report {

// Two processes whose measurements report no dispersion at all still differ by about this much
// (placement, clock states, allocation), and the sampler resolves nothing finer by default.
inline constexpr double kNoiseFloor = 0.01;

struct Estimate {
  double value = 0;           // a rate (more is better); > 0 when measured
  double dispersion = 0;      // relative dispersion of one measurement
  std::size_t rounds = 1;     // independent measurements pooled into value
  double standard_error = 0;  // relative, from the spread between the rounds; 0 for one round
};

enum class Verdict { Same, Higher, Lower, NotComparable };

struct Significance {
  Verdict verdict = Verdict::NotComparable;
  double ratio = 0;       // b / a (0 when not comparable)
  double change = 0;      // |ratio - 1|
  double dispersion = 0;  // sqrt(d_a^2 / n_a + d_b^2 / n_b)
  double spread = 0;      // 2 sqrt(s_a^2 + s_b^2)
  double floor = 0;
  double allowance = 0;  // max(floor, dispersion, spread): what the change must exceed
  bool same() const { return verdict == Verdict::Same; }
  bool differs() const { return verdict == Verdict::Higher || verdict == Verdict::Lower; }
};

// b against a. NotComparable when a value is not positive and finite, a dispersion, standard error
// or the floor is negative or not finite, or an estimate pools no rounds.
Significance compare_estimates(const Estimate& a, const Estimate& b, double floor = kNoiseFloor);

// Paired rounds pooled: the geometric mean of the per-round ratios b_i / a_i (a ratio is
// multiplicative: 10 % fast and 10 % slow average to 1, not 1.005) with the relative standard error
// sd(ln ratio) / sqrt(n), carrying `dispersion` (b's typical dispersion per round). Compare it with
// compare_estimates(Estimate{1, a's dispersion, n}, pooled). Value 0 when `ratios` is empty or holds a
// ratio that is not a positive finite number.
Estimate pooled_ratio(std::span<const double> ratios, double dispersion);

// "faster" / "slower" / `same` / "-" for a verdict on rates (more is better).
std::string verdict_word(const Significance& d, const char* same = "unchanged");

}  // namespace wgb::report
