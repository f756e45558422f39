// Implementation of the descriptive statistics in stats.hpp.
#include "measure/stats.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace wgb::measure {
namespace {

std::vector<double> sorted_copy(std::span<const double> xs) {
  std::vector<double> v(xs.begin(), xs.end());
  std::sort(v.begin(), v.end());
  return v;
}

// Type-7 quantile of an already sorted, non-empty vector: h = (n-1)q, interpolate between the
// neighbouring order statistics.  Same definition as numpy's default and R's type 7, so results
// can be cross-checked against either.
double quantile_sorted(const std::vector<double>& v, double q) {
  q = std::clamp(q, 0.0, 1.0);
  const double h = static_cast<double>(v.size() - 1) * q;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (h - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

// Two-sided 97.5th percentiles of Student's t for df = 1..30.
constexpr std::array<double, 30> kT95 = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};

}  // namespace

double t_critical_95(std::size_t df) {
  if (df == 0) return 0;
  if (df <= kT95.size()) return kT95[df - 1];
  // Between table rows use the value of the next *lower* tabulated df (a larger t), so the interval
  // errs on the wide side; beyond 120 the normal approximation is within 1% of the exact t.
  if (df < 40) return 2.042;
  if (df < 60) return 2.021;
  if (df < 120) return 2.000;
  return 1.96;
}

double median(std::span<const double> xs) {
  if (xs.empty()) return 0;
  return quantile_sorted(sorted_copy(xs), 0.5);
}

double quantile(std::span<const double> xs, double q) {
  if (xs.empty()) return 0;
  return quantile_sorted(sorted_copy(xs), q);
}

double mad(std::span<const double> xs) {
  if (xs.empty()) return 0;
  const double m = median(xs);
  std::vector<double> dev;
  dev.reserve(xs.size());
  for (double x : xs) dev.push_back(std::fabs(x - m));
  return median(dev);
}

Stats compute_stats(std::span<const double> xs) {
  Stats s;
  if (xs.empty()) return s;
  const std::vector<double> v = sorted_copy(xs);
  const auto n = static_cast<double>(v.size());
  s.count = v.size();
  s.min = v.front();
  s.max = v.back();
  s.mean = std::accumulate(v.begin(), v.end(), 0.0) / n;
  s.median = quantile_sorted(v, 0.5);
  s.q1 = quantile_sorted(v, 0.25);
  s.q3 = quantile_sorted(v, 0.75);
  s.iqr = s.q3 - s.q1;
  if (v.size() >= 2) {
    // Two-pass variance (deviations from the mean) avoids the cancellation of the sum-of-squares
    // formula: timing samples share a large common value and differ in the low digits.
    double ss = 0;
    for (double x : v) ss += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(ss / (n - 1));
    s.ci95 = t_critical_95(v.size() - 1) * s.stddev / std::sqrt(n);
  }
  s.cv = s.mean != 0 ? s.stddev / s.mean : 0;
  return s;
}

Rejection reject_outliers_mad(std::span<const double> xs, double threshold) {
  Rejection r;
  const double m = median(xs);
  const double d = mad(xs);
  // 0.6745 is the 75th percentile of the standard normal, making 0.6745*dev/MAD comparable to a
  // z-score for normally distributed data while staying robust to the outliers being removed.
  constexpr double kMadToSigma = 0.6745;
  for (double x : xs) {
    const bool outlier = d > 0 && kMadToSigma * std::fabs(x - m) / d > threshold;
    (outlier ? r.rejected : r.kept).push_back(x);
  }
  return r;
}

}  // namespace wgb::measure

namespace wgb::measure {

Headline headline(std::span<const double> ms, Statistic statistic, double work_per_repetition) {
  Headline h;
  h.stats = compute_stats(ms);
  if (h.stats.count == 0) return h;
  h.time_ms = statistic == Statistic::Best ? h.stats.min : h.stats.median;
  auto rate = [&](double t) { return t > 0 ? work_per_repetition / (t / 1000.0) : 0.0; };
  h.value = rate(h.time_ms);
  h.value_low = rate(h.stats.q3);
  h.value_high = rate(h.stats.q1);
  h.iqr_relative = h.stats.median > 0 ? h.stats.iqr / h.stats.median : 0;
  return h;
}

}  // namespace wgb::measure
