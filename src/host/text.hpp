// Text forms of a host-suite result document: the machine summary (what the document records of the
// host, as lines) and every curve as a markdown table, so a run's output pastes into results/
// as it is. Pure functions of the document, so they also render a loaded or second-process
// document.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "report/model.hpp"

namespace wgb::host {

// The reporting table: what the document's `machine` section and `options` record of the host and
// the run (read through report/host_section.hpp), then a line per row.
void write_host_summary(std::ostream& out, const nlohmann::json& machine, const nlohmann::json& options,
                        const std::vector<report::ReportRow>& rows);
// The curves of the rows, read through report/facts.hpp.
void write_host_curves(std::ostream& out, const std::vector<report::ReportRow>& rows);

}  // namespace wgb::host
