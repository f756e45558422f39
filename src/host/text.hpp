// Text forms of a host-suite result document: the machine summary (what the document records of the
// host, as lines) and every curve as a markdown table, so a run's output pastes into results/
// as it is. Pure functions of the document JSON, so they also render a loaded or second-process
// document.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "report/model.hpp"

namespace wgb::host {

void write_host_summary(std::ostream& out, const nlohmann::json& doc);
// The curves of the rows, read through report/facts.hpp.
void write_host_curves(std::ostream& out, const std::vector<report::ReportRow>& rows);

}  // namespace wgb::host
