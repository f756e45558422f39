// The console table: aligned, SI-scaled rates, the statistic used and its dispersion per row, the
// row's place under the roofline and, after --repro, the second run's verdict. Pure: rows in, text
// out; pinned by golden tests.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "measure/units.hpp"
#include "report/model.hpp"
#include "report/repro.hpp"
#include "webgpu_bench/result.hpp"

namespace wgb::report {

// "4.56 TB/s", "123 GFLOP/s", "950 kOP/s"; unit is the thing counted per second.
std::string format_rate(double value, const std::string& unit);
// Three significant digits with an SI prefix and a trailing space: "3.25 G", "950 k", "12.0 ".
std::string scaled_value(double value, int significant = 3);
// Binary sizes: "16 KiB", "1 GiB", "1.50 MiB", "100 B" (the one formatter, shared with the suite).
using measure::format_bytes;
// Dispersion of a row as text: "IQR 1.20%" for median rows, "CV 0.40%" for best-run rows.
std::string dispersion_text(const BenchmarkResult& r);
// Arithmetic intensity as text: "-" (undefined), "0", "inf", "12.5".
std::string intensity_text(double flop_per_byte);
// "0.85 memory", "-" without a ceiling.
std::string roofline_text(const ReportRow& row);
// "agree 0.80% <= 4.80%", "DISAGREE 50.0% > 4.80%", "not compared", "" without a check.
std::string repro_text(const ReportRow& row);

// The width the console output is laid out for when nothing says otherwise (output to a pipe or a
// file): a common terminal. The command line passes the terminal's width (COLUMNS, else the tty's).
constexpr std::size_t kDefaultTableWidth = 100;

// The clock a row's kept samples came from, as tables show it: "gpu" (GPU timestamps), "wall" (the
// host's wall clock minus the submit cost), "host" (the host CPU's steady clock); the documents keep
// the documented values gpu-timestamp / wall-clock / host-steady-clock.
std::string clock_text(const std::string& timing_method);
inline std::string clock_text(TimingMethod m) { return clock_text(std::string(to_string(m))); }

// `text` word-wrapped to `width` columns: the first line indented by first_indent, the others by
// indent. A word is never cut; one longer than the line stands alone.
std::string wrap_text(std::string_view text, std::size_t width, std::size_t first_indent, std::size_t indent);

// Every line of `text` wrapped to `width`, keeping its indentation (continuations 2 deeper).
std::string wrap_block(std::string_view text, std::size_t width);

// Which columns of the table fit `width`: the arithmetic intensity, then the roofline fraction, then
// the clock are left out (in that order) while the table is wider; the others always stay.
struct TableFit {
  std::array<bool, 9> show{};
  std::array<std::size_t, 9> widths{};
  std::vector<std::string> left_out;  // header names of the columns left out
  std::size_t width = 0;              // of the table's columns, without notes
};
TableFit fit_columns(const std::vector<ReportRow>& rows, std::size_t width);

// The table, laid out for `width` columns: a row's note stays on its line when it fits, else it
// goes under the row, wrapped.
void write_table(std::ostream& out, const std::vector<ReportRow>& rows, std::size_t width = kDefaultTableWidth);
// Plain rows (no repro); their roofline is derived from the rows themselves.
void write_table(std::ostream& out, const std::vector<BenchmarkResult>& rows, std::size_t width = kDefaultTableWidth);

// The table printed one row at a time, as each completes (google/benchmark's habit): the columns
// are sized up front from what can be known before measuring (the ids and metric units that will
// run), so every row lines up with the header. The roofline and repro columns need every row and
// are printed afterwards (write_roofline_table, the repro lines of write_summary).
class TableStream {
 public:
  TableStream(const std::vector<std::string>& ids, const std::vector<std::string>& units, std::size_t width);
  std::string header() const;                        // the header line and the rule, with newlines
  std::string row(const BenchmarkResult& r) const;   // the row (its note under it when too wide), newline-terminated

 private:
  std::array<std::size_t, 6> widths_{};
  std::size_t width_;
};

// Rows with a roofline ceiling: their arithmetic intensity and fraction of the roofline, after a
// streamed table. Nothing when no row has a ceiling.
void write_roofline_table(std::ostream& out, const std::vector<ReportRow>& rows);
// After --repro: each row's verdict against the second process.
void write_repro_table(std::ostream& out, const std::vector<ReportRow>& rows);

// The lines under the table, wrapped to `width`: which statistic and clock mean what, the columns
// left out, the ceilings, the rows below 0.2 of their roofline and those without a ceiling (grouped
// by the reason, said once), and the repro verdict when the document has one.
// `streamed`: the rows were printed by a TableStream (no column was left out).
void write_summary(std::ostream& out, const std::vector<ReportRow>& rows, const std::optional<ReproSummary>& repro,
                   std::size_t width = kDefaultTableWidth, bool streamed = false);

}  // namespace wgb::report
