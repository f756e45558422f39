// The HTML report (`webgpu-bench report results.json [more.json ...] -o report.html`): ONE
// self-contained file: inline CSS, inline SVG charts drawn here, no script, no external reference.
// Sections: the machine card, the repro verdict, the results table, the roofline plot with every
// kernel, the latency / rate vs working-set curves of sweep rows, per-family bars with dispersion
// whiskers, and the memory suite's sustain timeline. Every string from a document is escaped.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "report/document.hpp"
#include "report/files.hpp"

namespace wgb::report {

// Every document gets a section of its own: its machine card, its rows tabled and charted, and its
// device's roofline under that device's ceilings (a host document, suite "host", draws the host
// CPU's). Element ids are unique across the page.
// Documents measured on the same machine and build share one machine card: the later ones link
// to it. machine_identity is what decides "the same" (adapter, driver, host, Dawn, build and
// toggles; not clocks or anything else measured per run).
void write_html(std::ostream& out, const std::vector<Document>& docs);
std::string machine_identity(const Document& doc);

// "26 rows: 20 ok, 6 skipped; the run is complete." (the report's summary line of one document).
std::string rows_summary(const Document& doc);

}  // namespace wgb::report
