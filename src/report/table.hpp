// The console table: aligned, SI-scaled rates, the statistic used and its dispersion per row.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "webgpu_bench/result.hpp"

namespace wgb::report {

// "4.56 TB/s", "123 GFLOP/s", "950 kOP/s"; unit is the thing counted per second.
std::string format_rate(double value, const std::string& unit);
std::string scaled_value(double value, int significant = 3);
// Dispersion of a row as text: "IQR ±1.2%" for median rows, "CV 0.4%" for best-run rows.
std::string dispersion_text(const BenchmarkResult& r);

void write_table(std::ostream& out, const std::vector<BenchmarkResult>& rows);

}  // namespace wgb::report
