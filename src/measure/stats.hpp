// Descriptive statistics for timing sample sets: summary (Stats), type-7 quantiles, MAD and the
// modified z-score outlier filter used by the memory suite (docs/method.md#phases).
// Pure functions over spans; no state, no clocks.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "webgpu_bench/vocabulary.hpp"

namespace wgb::measure {

struct Stats {  // of a sample set (any unit, usually ms)
  std::size_t count = 0;
  double min = 0, max = 0, mean = 0, median = 0;
  double stddev = 0;  // sample standard deviation (n-1 denominator); 0 when n < 2
  double ci95 = 0;    // half-width of the 95% CI of the mean (Student t; see t_critical_95)
  double cv = 0;      // stddev / mean; 0 when mean == 0
  double q1 = 0, q3 = 0, iqr = 0;  // quartiles by linear interpolation (type 7, numpy default)
};

// Empty input -> all fields zero, count 0.  Non-finite values are the caller's problem: the
// samplers never feed them in (they are diverted to an "invalid" list before reaching stats).
Stats compute_stats(std::span<const double> xs);

double median(std::span<const double> xs);               // empty -> 0
double quantile(std::span<const double> xs, double q);   // type 7; q clamped to [0,1]; empty -> 0
double mad(std::span<const double> xs);                  // median absolute deviation, unscaled

// Two-sided 95% Student-t critical value for `df` degrees of freedom (df >= 1; df 0 -> 0).
double t_critical_95(std::size_t df);

// Modified z-score filter (Iglewicz & Hoaglin): reject x when 0.6745*|x-median|/MAD > threshold.
// MAD == 0 -> nothing is rejected: more than half the samples are identical, the z-score is
// undefined, and "everything that differs from the mode is an outlier" would be absurd for timings
// quantised by a coarse clock.  Order of the input is preserved in both outputs.
struct Rejection {
  std::vector<double> kept;
  std::vector<double> rejected;
};
// The headline of a set of per-repetition times under a statistic (docs/method.md#statistic): the
// time (minimum for Best, median for Median), the rate work / time, and the dispersion as a rate
// range (work / q3 .. work / q1). Every suite's rows use this one computation.
struct Headline {
  Stats stats;              // of the times
  double time_ms = 0;       // min (Best) or median (Median); 0 when there are no times
  double value = 0;         // work / time, per second; 0 without a positive time
  double value_low = 0;     // work / q3
  double value_high = 0;    // work / q1
  double iqr_relative = 0;  // iqr / median
};
Headline headline(std::span<const double> ms, Statistic statistic, double work_per_repetition);

Rejection reject_outliers_mad(std::span<const double> xs, double threshold = 3.5);

}  // namespace wgb::measure
