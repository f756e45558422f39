// Selection by globs (`--filter`, the page's filter): comma-separated fnmatch globs over benchmark
// ids, in catalog order. A glob that matches nothing is a usage error: an unknown id must never
// silently run nothing. The catalog's definitions, the host CPU's and any other list of ids select
// through the same functions.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "webgpu_bench/definition.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::catalog {

// The globs of a filter (comma-separated, blanks trimmed, empty ones dropped).
std::vector<std::string> split_globs(const std::string& filter);
// A filter that was given must name at least one glob: `--filter ''` is a usage error, never a
// silent run of the whole default suite.
Status require_globs(const std::string& filter);

// The positions in `ids` that the filter's globs match, in order; all of them for an empty filter.
// A glob that matches no id is a usage error, worded by `unmatched(glob)`.
Expected<std::vector<std::size_t>> match_ids(const std::vector<std::string>& ids, const std::string& filter,
                                             const std::function<std::string(const std::string&)>& unmatched);

// The catalog's definitions a filter selects; an empty filter selects the default suite when
// `default_only`, else everything.
Expected<std::vector<BenchmarkDefinition>> select_benchmarks(const std::vector<BenchmarkDefinition>& all,
                                                             const std::string& filter, bool default_only);

}  // namespace wgb::catalog
