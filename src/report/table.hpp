// The console table: aligned, SI-scaled rates, the statistic used and its dispersion per row, the
// row's place under the roofline and, after --repro, the second run's verdict. Pure: rows in, text
// out; pinned by golden tests.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "report/model.hpp"
#include "webgpu_bench/result.hpp"

namespace wgb::report {

// "4.56 TB/s", "123 GFLOP/s", "950 kOP/s"; unit is the thing counted per second.
std::string format_rate(double value, const std::string& unit);
// Three significant digits with an SI prefix and a trailing space: "3.25 G", "950 k", "12.0 ".
std::string scaled_value(double value, int significant = 3);
// Binary sizes: "16 KiB", "1 GiB", "1.5 MiB", "100 B".
std::string format_bytes(double bytes);
// Dispersion of a row as text: "IQR 1.20%" for median rows, "CV 0.40%" for best-run rows.
std::string dispersion_text(const BenchmarkResult& r);
// Arithmetic intensity as text: "-" (undefined), "0", "inf", "12.5".
std::string intensity_text(double flop_per_byte);
// "0.85 memory", "-" without a ceiling.
std::string roofline_text(const ReportRow& row);
// "agree 0.80% <= 4.80%", "DISAGREE 50.0% > 4.80%", "not compared", "" without a check.
std::string repro_text(const ReportRow& row);

void write_table(std::ostream& out, const std::vector<ReportRow>& rows);
// Plain rows (no repro); their roofline is derived from the rows themselves.
void write_table(std::ostream& out, const std::vector<BenchmarkResult>& rows);

// The lines under the table: which statistic means what, the ceilings, the rows below 0.2 of their
// roofline and those without a ceiling, and the repro verdict when the document has one.
void write_summary(std::ostream& out, const std::vector<ReportRow>& rows, const nlohmann::json& document);

}  // namespace wgb::report
