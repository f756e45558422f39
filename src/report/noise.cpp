// The one rule for whether two measurements differ (see noise.hpp).
#include "report/noise.hpp"

#include <algorithm>
#include <cmath>

namespace wgb::report {

namespace {

bool usable(const Estimate& e) {
  const auto non_negative = [](double x) { return std::isfinite(x) && x >= 0; };
  return std::isfinite(e.value) && e.value > 0 && non_negative(e.dispersion) && non_negative(e.standard_error) &&
         e.rounds >= 1;
}

}  // namespace

Significance compare_estimates(const Estimate& a, const Estimate& b, double floor) {
  Significance d;
  d.floor = floor;
  if (!usable(a) || !usable(b) || !std::isfinite(floor) || floor < 0) return d;
  d.ratio = b.value / a.value;
  d.change = std::fabs(d.ratio - 1);
  d.dispersion = std::sqrt(a.dispersion * a.dispersion / static_cast<double>(a.rounds) +
                           b.dispersion * b.dispersion / static_cast<double>(b.rounds));
  d.spread = 2 * std::hypot(a.standard_error, b.standard_error);
  d.allowance = std::max({floor, d.dispersion, d.spread});
  // A ratio that overflows or underflows (rates 1e300 apart) is still a difference, not "the same".
  if (!std::isfinite(d.ratio) || !(d.ratio > 0)) {
    d.verdict = b.value > a.value ? Verdict::Higher : Verdict::Lower;
    return d;
  }
  d.verdict = !(d.change > d.allowance) ? Verdict::Same : d.ratio > 1 ? Verdict::Higher : Verdict::Lower;
  return d;
}

Estimate pooled_ratio(std::span<const double> ratios, double dispersion) {
  Estimate e;
  e.dispersion = dispersion;
  e.rounds = ratios.size();
  if (ratios.empty()) return e;
  double mean = 0;
  for (const double r : ratios) {
    if (!std::isfinite(r) || !(r > 0)) return e;
    mean += std::log(r);
  }
  const double n = static_cast<double>(ratios.size());
  mean /= n;
  double var = 0;
  for (const double r : ratios) var += (std::log(r) - mean) * (std::log(r) - mean);
  // One round has no spread to estimate from: its standard error is unknown, not zero, and the
  // dispersion term carries the allowance alone.
  const double sd = ratios.size() > 1 ? std::sqrt(var / (n - 1)) : 0;
  e.value = std::exp(mean);
  e.standard_error = sd / std::sqrt(n);
  return e;
}

std::string verdict_word(const Significance& d, const char* same) {
  switch (d.verdict) {
    case Verdict::Same:
      return same;
    case Verdict::Higher:
      return "faster";
    case Verdict::Lower:
      return "slower";
    case Verdict::NotComparable:
      break;
  }
  return "-";
}

}  // namespace wgb::report
