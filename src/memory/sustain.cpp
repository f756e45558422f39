// Sustain windows and per-sample rejection (sustain.hpp).
#include "memory/sustain.hpp"

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
double window_median(std::span<const double> rates, const std::vector<bool>& rejected, std::size_t begin,
                     std::size_t end, std::size_t& count) {
  std::vector<double> kept;
  for (std::size_t i = begin; i < end; ++i) {
    if (rejected.empty() || !rejected[i]) kept.push_back(rates[i]);
  }
  count = kept.size();
  return measure::median(kept);
}
}  // namespace

SustainSummary summarize_sustain(std::span<const double> rates, const std::vector<bool>& rejected) {
  SustainSummary s;
  const std::size_t n = rates.size();
  if (n == 0) return s;
  const auto first_n = static_cast<std::size_t>(std::ceil(0.2 * static_cast<double>(n)));
  const auto last_n = static_cast<std::size_t>(std::ceil(0.6 * static_cast<double>(n)));
  s.first_median = window_median(rates, rejected, 0, first_n, s.first_count);
  s.last_median = window_median(rates, rejected, n - last_n, n, s.last_count);
  s.retention = s.first_median > 0 ? s.last_median / s.first_median : 0;
  return s;
}

}  // namespace wgb::memory
