// Sustain (seed 002): the copy kernel for 18 s; the result is the median of the last 60 % of the
// samples, and retention is that median divided by the median of the first 20 %. Also the
// per-sample rejection flags (seed 001's modified z-score) so a timeline can show which samples
// were dropped. Pure functions: unit-tested in tests/unit/memory_sustain_test.cpp.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace wgb::memory {

// rejected[i] = 0.6745 * |x_i - median| / MAD > threshold, as measure::reject_outliers_mad
// decides it (MAD == 0 rejects nothing), but per position so a time series keeps its order.
std::vector<bool> rejection_mask(std::span<const double> xs, double threshold = 3.5);

struct SustainSummary {
  double first_median = 0;   // median rate of the kept samples among the first 20 %
  double last_median = 0;    // median rate of the kept samples among the last 60 %
  double retention = 0;      // last_median / first_median (0 when first_median is 0)
  std::size_t first_count = 0, last_count = 0;  // kept samples in each window
};

// rates: throughput per sample in time order; rejected: same length (may be empty = none).
// Windows are by sample count (samples carry equal work): the first ceil(20 %) and the last
// ceil(60 %) of all samples, so at least one sample falls in each when there is one at all.
SustainSummary summarize_sustain(std::span<const double> rates, const std::vector<bool>& rejected);

}  // namespace wgb::memory
