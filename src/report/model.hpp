// The report's typed view of one result row: the measured row (BenchmarkResult) plus what the
// report derives from it (its place under the roofline) and what the reproducibility check found.
// Table, CSV and HTML writers take these; document.cpp converts them to and from JSON.
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "webgpu_bench/result.hpp"

namespace wgb::report {

// The derived quantities of one row (arithmetic intensity, fraction of the roofline), against the
// ceilings measured in the same document.
struct Roofline {
  bool applies = false;  // false: no ceiling for this row; `note` says why
  double flops = 0;      // per repetition, from the cost model (0 unless the metric counts FLOP)
  double bytes = 0;      // per repetition, bytes read + written by the cost model
  double flops_per_second = 0, bytes_per_second = 0;
  // FLOP per byte. 0 for pure memory kernels, +inf when the cost model moves no bytes, NaN when
  // the metric does not count FLOP (intensity is undefined for "elements", "hops", ...).
  double arithmetic_intensity = std::numeric_limits<double>::quiet_NaN();
  double fraction = 0;   // fraction_of_roofline; meaningful only when `applies`
  std::string bound;     // "memory" or "compute": which roof is the lower one at this intensity
  std::string precision; // "f32", "f16", ... for FLOP rows
  std::string note;      // why there is no ceiling, or what the fraction is relative to
};

// The second-process comparison of one row (docs/method.md#reproducibility).
struct ReproCheck {
  std::string verdict;  // "agree", "disagree", "not-compared"
  std::string second_status;
  double second_value = 0;    // the second run's headline rate
  double second_time_ms = 0;  // its per-repetition time
  double ratio = 0;           // second / first rate (0 when not compared)
  double difference = 0;      // |ratio - 1|: the change the rule judges (docs/method.md#differ)
  double allowed = 0;         // the rule's allowance: the noise the change must exceed
  double dispersion_first = 0, dispersion_second = 0;
  std::string reason;         // one line: why it agrees / disagrees / was not compared
};

struct ReportRow {
  BenchmarkResult result;
  std::optional<Roofline> roofline;
  std::optional<ReproCheck> repro;
};

// The reported dispersion of a row, relative to its headline time: the IQR over the median for
// median rows, the coefficient of variation for best-run rows (what the table prints).
struct Dispersion {
  const char* kind = "iqr";  // "iqr" or "cv"
  double relative = 0;
};
Dispersion row_dispersion(const BenchmarkResult& r);

// True when the row carries a rate (ok, throttled or suspect with a positive value).
bool has_rate(const BenchmarkResult& r);

std::vector<ReportRow> to_report_rows(const std::vector<BenchmarkResult>& rows);

// The row's key for matching across documents: its id, plus "@<parameter>=<value>" for sweep rows.
std::string row_key(const BenchmarkResult& r);

}  // namespace wgb::report
