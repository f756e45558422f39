// Selection by globs (select.hpp).
#include "catalog/select.hpp"

#include <fmt/format.h>
#include <fnmatch.h>

#include <sstream>

namespace wgb::catalog {

std::vector<std::string> split_globs(const std::string& filter) {
  std::vector<std::string> globs;
  std::stringstream s(filter);
  std::string g;
  while (std::getline(s, g, ',')) {
    g.erase(0, g.find_first_not_of(" \t"));
    while (!g.empty() && (g.back() == ' ' || g.back() == '\t')) g.pop_back();
    if (!g.empty()) globs.push_back(g);
  }
  return globs;
}

Status require_globs(const std::string& filter) {
  if (!split_globs(filter).empty()) return ok();
  return make_error(ErrorKind::Usage, fmt::format("--filter '{}' names no benchmark: give at least one glob "
                                                  "(see 'webgpu-bench list'), or leave --filter out for the default suite",
                                                  filter));
}

Expected<std::vector<std::size_t>> match_ids(const std::vector<std::string>& ids, const std::string& filter,
                                             const std::function<std::string(const std::string&)>& unmatched) {
  const std::vector<std::string> globs = split_globs(filter);
  std::vector<std::size_t> out;
  std::vector<bool> used(globs.size(), false);
  for (std::size_t k = 0; k < ids.size(); ++k) {
    bool take = globs.empty();
    for (std::size_t i = 0; i < globs.size(); ++i) {
      if (fnmatch(globs[i].c_str(), ids[k].c_str(), 0) == 0) {
        take = true;
        used[i] = true;
      }
    }
    if (take) out.push_back(k);
  }
  for (std::size_t i = 0; i < globs.size(); ++i) {
    if (!used[i]) return make_error(ErrorKind::Usage, unmatched(globs[i]));
  }
  return out;
}

Expected<std::vector<BenchmarkDefinition>> select_benchmarks(const std::vector<BenchmarkDefinition>& all,
                                                             const std::string& filter, bool default_only) {
  std::vector<BenchmarkDefinition> out;
  if (split_globs(filter).empty()) {
    for (const auto& d : all) {
      if (!default_only || d.in_default_suite) out.push_back(d);
    }
    return out;
  }
  std::vector<std::string> ids;
  for (const auto& d : all) ids.push_back(d.id);
  auto matched = match_ids(ids, filter, [](const std::string& glob) {
    return fmt::format("no benchmark matches '{}' (see 'webgpu-bench list')", glob);
  });
  if (!matched) return std::move(matched).error();
  for (std::size_t k : *matched) out.push_back(all[k]);
  return out;
}

}  // namespace wgb::catalog
