// Comparing two result documents (`webgpu-bench compare a.json b.json`): per row (matched by id,
// plus the sweep point), the ratio b/a of the headline rates, whether the change exceeds the
// combined dispersion, and everything that differs between the two machines, builds and options.
//
// Significance: with d_a, d_b the rows' reported relative dispersions (IQR/median for median rows,
// CV for best-run rows), the combined dispersion is sqrt(d_a^2 + d_b^2) (independent runs), and
// the change is significant when |b/a - 1| exceeds it.
// Regression (for --fail-on-regression P): a row measured in both with b/a < 1 - P/100, or a row
// measured in a that is an error in b. Rates are "more is better" for every metric.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "report/document.hpp"

namespace wgb::report {

struct CompareRow {
  std::string key;
  std::string unit;  // rate unit, "B/s"
  std::string status_a, status_b;
  double a = 0, b = 0;          // headline rates (0 when not measured)
  bool measured_both = false;
  double ratio = 0;             // b / a
  double dispersion_a = 0, dispersion_b = 0, combined = 0;
  bool significant = false;
  std::vector<std::string> differences;  // what differs for this row: WGSL hash, parameters, statistic
};

struct Difference {
  std::string what;  // "machine.adapter.driver", "build.flags", ...
  std::string a, b;
};

// One host clock figure in both documents (seed 004 "Frequency": a frequency difference between
// baseline and variant must be reported). 0 MHz: the document does not state it.
struct ClockFigure {
  std::string what;  // "base", "max", "observed at start", "sustained at finish", ...
  double a_mhz = 0, b_mhz = 0;
  std::string source_a, source_b;
  bool differs = false;  // both stated and |b/a - 1| > kClockTolerance, or stated in one only
};
inline constexpr double kClockTolerance = 0.02;

// The host clock figures a document states, with their sources: machine.host.clocks (base, max,
// observed and sustained at start and finish), the older cpufreq/proc fields where that is absent,
// and the host suite's measured clocks (machine.host.clock).
std::vector<ClockFigure> clock_figures(const nlohmann::json& doc);

struct Comparison {
  std::vector<CompareRow> rows;  // rows present in both, in a's order
  std::vector<std::string> only_a, only_b;
  std::vector<Difference> differences;
  std::vector<ClockFigure> clocks;  // every clock figure stated by either document
};

Comparison compare_documents(const LoadedDocument& a, const LoadedDocument& b);
// Row keys that regressed by more than pct percent (see above), with the reason.
std::vector<std::string> regressions(const Comparison& c, double pct);
void write_comparison(std::ostream& out, const Comparison& c, const LoadedDocument& a, const LoadedDocument& b,
                      std::optional<double> fail_pct);
nlohmann::json comparison_json(const Comparison& c, std::optional<double> fail_pct);

}  // namespace wgb::report
