// CSV of a document's rows (RFC 4180: comma-separated, fields with a comma, quote or line break are
// quoted and inner quotes doubled), one header line, one line per row. Numbers are written in the
// shortest form that reads back to the same double; an absent value is an empty field. The column
// set is fixed (docs/results-schema.md) and pinned by a golden test.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "report/model.hpp"

namespace wgb::report {

const std::vector<std::string>& csv_columns();
std::string csv_field(std::string_view s);
void write_csv(std::ostream& out, const std::vector<ReportRow>& rows);

}  // namespace wgb::report
