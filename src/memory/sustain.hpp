// Sustain (docs/method.md#memory-workload): the copy kernel for 18 s; the result is the median of
// the last 60 % of the samples, and retention is that median divided by the median of the first
// 20 %. Also the per-sample rejection flags (the modified z-score of docs/method.md#phases, applied
// inside each window) so a timeline can show which samples were dropped. Pure functions:
// unit-tested in tests/unit/memory_sustain_test.cpp.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace wgb::memory {

// rejected[i] = 0.6745 * |x_i - median| / MAD > threshold, as measure::reject_outliers_mad
// decides it (MAD == 0 rejects nothing), but per position so a time series keeps its order.
std::vector<bool> rejection_mask(std::span<const double> xs, double threshold = 3.5);

struct SustainSummary {
  double first_median = 0;   // median rate of the kept samples among the first 20 %
  double last_median = 0;    // median rate of the kept samples among the last 60 %
  double retention = 0;      // last_median / first_median (0 only when there are no samples)
  double last_q1 = 0, last_q3 = 0;              // quartiles of the kept samples among the last 60 %
  std::size_t first_count = 0, last_count = 0;  // kept samples in each window
  std::vector<bool> rejected;                   // per sample, as its window decided
};

// rates: throughput per sample in time order. Windows are by sample count (samples carry equal
// work): the first ceil(20 %) and the last ceil(60 %) of all samples, so at least one sample falls in
// each when there is one at all. Outliers are rejected inside each window (first, middle, last), never
// across the whole run: a card that throttles runs fast at first and slow later, and a rule over all
// samples would throw away the fast start as outliers and hide exactly what sustain is there to show
// (or empty the first window and report a retention of 0). A window keeps at least its median sample.
// A sample in both windows (runs shorter than five samples) is flagged as the last window decides.
SustainSummary summarize_sustain(std::span<const double> rates, double threshold = 3.5);

// What a retention says, in one sentence for the console and the document: within 5 % of 100 % the
// device held its throughput (a desktop card usually holds 100 %); below, it slowed under
// sustained load (a laptop that throttles after ten seconds shows it); above, it was still ramping up
// its clocks when the run started. 0 (no samples) says that retention was not measured.
inline constexpr double kRetentionTolerance = 0.05;
std::string retention_reading(double retention);

}  // namespace wgb::memory
