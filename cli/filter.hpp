// --filter: comma-separated globs over benchmark ids. A glob that matches nothing is a usage error
// (an unknown id must never silently run nothing).
#pragma once

#include <string>
#include <vector>

#include "webgpu_bench/definition.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::cli {

Expected<std::vector<BenchmarkDefinition>> select_benchmarks(const std::vector<BenchmarkDefinition>& all,
                                                             const std::string& filter, bool default_only);

}  // namespace wgb::cli
