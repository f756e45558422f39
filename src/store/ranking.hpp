// Which runs the leaderboard ranks: a run measured with options other than its suite's defaults
// (smaller buffers, shortened sampling, robustness off, unsafe APIs, replaced kernels, a host run
// at --quick sizes, a sweep) is kept and shown, but never ranked, and says why. The rules are in
// docs/store.md ("Ranking"); they read only what the result document records.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "report/run_options.hpp"

namespace wgb::report {
struct Document;
}  // namespace wgb::report

namespace wgb::store {

// "" when the document was measured with its suite's default options; else the reasons, joined
// with "; ", e.g. "sampling shortened: max_rounds 4 (default 10), measurement_ms 10 (default 100)".
std::string unranked_reason(const report::Document& document);

// The default options the rules compare against, as the documents record them
// (report/run_options.hpp): null for a suite without ranking.
using report::default_options;

}  // namespace wgb::store
