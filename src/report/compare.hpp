// Comparing two result documents (`webgpu-bench compare a.json b.json`): per row (matched by id,
// plus the sweep point), the ratio b/a of the headline rates, whether the change exceeds its
// noise, and everything that differs between the two machines, builds and options.
//
// Significance: the one rule of report/noise.hpp (docs/method.md#differ) on the two rows, each a
// single measurement with its reported relative dispersion (IQR/median for median rows, CV for
// best-run rows); a change within the allowance (the "noise" column) is "unchanged".
// The summary: the geometric mean of b/a over the rows measured in both, and how many of them are
// significantly faster, slower, or unchanged.
// Regression (for --fail-on-regression P): a row measured in both with b/a < 1 - P/100, or a row
// measured in a that is an error in b. Rates are "more is better" for every metric.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "report/document.hpp"
#include "report/files.hpp"
#include "report/noise.hpp"

namespace wgb::report {

struct CompareRow {
  std::string key;
  std::string unit;  // rate unit, "B/s"
  std::string status_a, status_b;
  double a = 0, b = 0;          // headline rates (0 when not measured)
  bool measured_both = false;
  double ratio = 0;             // b / a
  double dispersion_a = 0, dispersion_b = 0, combined = 0;  // combined: the rule's dispersion term
  double noise = 0;                                         // the rule's allowance: the change must exceed it
  bool significant = false;
  std::vector<std::string> differences;  // what differs for this row: WGSL hash, parameters, statistic
  std::size_t details = 0;               // how many of them are kernel hashes or parameters (shown with -v)
};

struct CompareSummary {
  std::size_t in_both = 0, measured_both = 0, faster = 0, slower = 0, unchanged = 0;
  double geomean = 0;  // of b/a over the rows measured in both (0 when none)
};

struct Difference {
  std::string what;  // "machine.adapter.driver", "build.flags", ...
  std::string a, b;  // the values ("(absent)" where a document lacks the field); sets: "only a: x, y"
  std::vector<std::string> removed, added;  // sets of strings (features, toggles): members in a only / b only
  bool is_set = false;
};

// One host clock figure in both documents: a frequency difference between baseline and variant
// changes what a kernel does per second, so it is reported. 0 MHz: the document does not state it.
// Nominal figures (base, max, the TSC rate) are fixed per machine and must agree within
// kClockTolerance; observed and sustained clocks move from one minute to the next on the same
// machine (turbo, load, power state) and differ only beyond kObservedClockTolerance.
struct ClockFigure {
  std::string what;  // "base", "max", "observed at start", "sustained at finish", ...
  double a_mhz = 0, b_mhz = 0;
  std::string source_a, source_b;
  double tolerance = 0;  // kClockTolerance or kObservedClockTolerance
  bool differs = false;  // both stated and |b/a - 1| > tolerance, or stated in one only
};
inline constexpr double kClockTolerance = 0.02;
inline constexpr double kObservedClockTolerance = 0.05;

// The host clock figures a document states, with their sources: machine.host.clocks (base, max,
// observed and sustained at start and finish), the older cpufreq/proc fields where that is absent,
// and the host suite's measured clocks (machine.host.clock).
std::vector<ClockFigure> clock_figures(const Document& doc);

struct Comparison {
  std::vector<CompareRow> rows;  // rows present in both, in a's order
  std::vector<std::string> only_a, only_b;
  std::vector<Difference> differences;
  std::vector<ClockFigure> clocks;  // every clock figure stated by either document
};

Comparison compare_documents(const Document& a, const Document& b);
CompareSummary summarize(const Comparison& c);

struct CompareStyle {
  bool verbose = false;     // kernel hashes, parameter differences, every field name, clock sources
  std::size_t width = 100;  // columns the text is wrapped to
};
// Row keys that regressed by more than pct percent (see above), with the reason.
std::vector<std::string> regressions(const Comparison& c, double pct);
// The text: a summary first, then the rows, what differs, the host clocks; lines fit style.width
// (a benchmark id longer than its column gets a line of its own).
void write_comparison(std::ostream& out, const Comparison& c, const Document& a, const Document& b,
                      std::optional<double> fail_pct, const CompareStyle& style = {});
nlohmann::json comparison_json(const Comparison& c, std::optional<double> fail_pct);

}  // namespace wgb::report
