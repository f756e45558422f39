// Which runs the leaderboard ranks: a run measured with options other than its suite's defaults
// (smaller buffers, shortened sampling, robustness off, unsafe APIs, replaced kernels, a host run
// at --quick sizes, a sweep) is kept and shown, but never ranked, and says why. The rules are in
// docs/store.md ("Ranking"); they read only what the result document records.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace wgb::report {
struct Document;
}  // namespace wgb::report

namespace wgb::store {

// "" when the document was measured with its suite's default options; else the reasons, joined
// with "; ", e.g. "sampling shortened: max_rounds 4 (default 10), measurement_ms 10 (default 100)".
std::string unranked_reason(const report::Document& document);

// The default options the rules compare against, as the documents record them: "default" (run:
// options.sampling.* and options.bandwidth_bytes / compute_threads), "memory" (options.*) and
// "host" (the options that do not depend on the machine). Null for other suites. The values come
// from where the program's options take theirs (webgpu_bench/defaults.hpp, SamplingOptions).
const nlohmann::json& default_options(std::string_view suite);

}  // namespace wgb::store
