// Sustain windows and per-sample rejection (sustain.hpp).
#include "memory/sustain.hpp"

#include <fmt/format.h>

#include <cmath>

#include "measure/stats.hpp"

namespace wgb::memory {

std::vector<bool> rejection_mask(std::span<const double> xs, double threshold) {
  std::vector<bool> out(xs.size(), false);
  const double med = measure::median(xs);
  const double m = measure::mad(xs);
  if (!(m > 0)) return out;
  for (std::size_t i = 0; i < xs.size(); ++i) out[i] = 0.6745 * std::abs(xs[i] - med) / m > threshold;
  return out;
}

namespace {
// The kept samples of rates[begin, end), rejected within that range alone; marks the decisions into
// mask[begin, end).
std::vector<double> kept_in_window(std::span<const double> rates, std::size_t begin, std::size_t end, double threshold,
                                   std::vector<bool>& mask) {
  const std::span<const double> window = rates.subspan(begin, end - begin);
  const std::vector<bool> rejected = rejection_mask(window, threshold);
  std::vector<double> kept;
  for (std::size_t i = 0; i < window.size(); ++i) {
    if (!rejected[i]) kept.push_back(window[i]);
    mask[begin + i] = rejected[i];
  }
  return kept;
}
}  // namespace

SustainSummary summarize_sustain(std::span<const double> rates, double threshold) {
  SustainSummary s;
  const std::size_t n = rates.size();
  s.rejected.assign(n, false);
  if (n == 0) return s;
  const auto first_n = static_cast<std::size_t>(std::ceil(0.2 * static_cast<double>(n)));
  const auto last_n = static_cast<std::size_t>(std::ceil(0.6 * static_cast<double>(n)));
  const std::vector<double> first = kept_in_window(rates, 0, first_n, threshold, s.rejected);
  if (first_n < n - last_n) kept_in_window(rates, first_n, n - last_n, threshold, s.rejected);  // timeline only
  const std::vector<double> last = kept_in_window(rates, n - last_n, n, threshold, s.rejected);
  s.first_count = first.size();
  s.last_count = last.size();
  s.first_median = measure::median(first);
  s.last_median = measure::median(last);
  s.last_q1 = measure::quantile(last, 0.25);
  s.last_q3 = measure::quantile(last, 0.75);
  s.retention = s.first_median > 0 ? s.last_median / s.first_median : 0;
  return s;
}

std::string retention_reading(double retention) {
  if (!(retention > 0) || !std::isfinite(retention)) return "retention not measured: no sustain samples";
  const double change = 100 * std::abs(1 - retention);
  if (retention < 1 - kRetentionTolerance) {
    return fmt::format("throughput fell {:.1f}% under sustained load: the device slowed down (thermal or power "
                       "limits) or something else shared it",
                       change);
  }
  if (retention > 1 + kRetentionTolerance) {
    return fmt::format("throughput rose {:.1f}% after the first 20%: the device was still raising its clocks "
                       "when the run started, or something else shared it then",
                       change);
  }
  return fmt::format("throughput held within {:.0f}% for the whole run", 100 * kRetentionTolerance);
}

}  // namespace wgb::memory
