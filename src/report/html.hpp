// The HTML report (`webgpu-bench report results.json [more.json ...] -o report.html`): ONE
// self-contained file: inline CSS, inline SVG charts drawn here, no script, no external reference.
// Sections: the machine card, the repro verdict, the results table, the roofline plot with every
// kernel, the latency / rate vs working-set curves of sweep rows, per-family bars with dispersion
// whiskers, and the memory suite's sustain timeline. Every string from a document is escaped.
#pragma once

#include <ostream>
#include <vector>

#include "report/document.hpp"

namespace wgb::report {

// Every document gets a section of its own: its machine card, its rows tabled and charted, and its
// device's roofline under that device's ceilings (a host document, suite "host", draws the host
// CPU's). Element ids are unique across the page.
void write_html(std::ostream& out, const std::vector<LoadedDocument>& docs);

}  // namespace wgb::report
