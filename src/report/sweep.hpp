// The series table of a sweep (src/suite/sweep.hpp runs the sweep): the parameter value, status,
// rate, statistic, dispersion, the clock of each point, and the time per unit (latency) for
// dependent-load rows. Skipped points stay in the series with their reason.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "report/model.hpp"
#include "report/table.hpp"

namespace wgb::report {

// The table, laid out for `width` columns (notes under their row when the line would be wider).
void write_sweep_table(std::ostream& out, const std::vector<ReportRow>& rows, const std::string& parameter,
                       std::size_t width = kDefaultTableWidth);

}  // namespace wgb::report
