// --filter: comma-separated globs over benchmark ids. A glob that matches nothing is a usage error
// (an unknown id must never silently run nothing).
#pragma once

#include <string>
#include <vector>

#include "webgpu_bench/definition.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::cli {

// The globs of a --filter value (comma-separated, blanks trimmed, empty ones dropped).
std::vector<std::string> split_globs(const std::string& filter);
// A --filter that was given must name at least one glob: `--filter ''` is a usage error, never a
// silent run of the whole default suite.
Status require_globs(const std::string& filter);

Expected<std::vector<BenchmarkDefinition>> select_benchmarks(const std::vector<BenchmarkDefinition>& all,
                                                             const std::string& filter, bool default_only);

}  // namespace wgb::cli
