// Text forms of a host-suite result document: the machine summary (what the document records of the
// host, as lines) and every curve as a markdown table, so a run's output pastes into results/
// as it is. Pure functions of the document JSON, so they also render a loaded or second-process
// document.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

namespace wgb::host {

void write_host_summary(std::ostream& out, const nlohmann::json& doc);
void write_host_curves(std::ostream& out, const nlohmann::json& doc);

}  // namespace wgb::host
