// `webgpu-bench list`: the catalog, with category, metric and description.
#include <fmt/format.h>

#include <iostream>

#include "cli/common.hpp"
#include "cli/filter.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb::cli {

void register_list(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("list", "List the benchmark catalog (id, category, metric, description)");
  static std::string filter;
  static bool as_json = false;
  static bool verbose = false;
  cmd->add_option("--filter", filter, "Only ids matching these comma-separated globs");
  cmd->add_flag("--json", as_json, "Print JSON");
  cmd->add_flag("-v,--verbose", verbose, "Print each description in full");
  cmd->callback([&exit_code] {
    auto chosen = select_benchmarks(builtin_benchmarks(), filter, /*default_only=*/false);
    if (!chosen) {
      exit_code = fail(chosen.error());
      return;
    }
    if (as_json) {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& d : *chosen) {
        out.push_back({{"id", d.id}, {"label", d.label}, {"category", d.category}, {"family", d.family},
                       {"metric", {{"key", d.metric.key}, {"unit", d.metric.unit}, {"name", d.metric.name}}},
                       {"statistic", to_string(d.statistic)}, {"default", d.in_default_suite},
                       {"requires", d.requires_features}, {"description", d.description}});
      }
      std::cout << out.dump(2) << '\n';
      return;
    }
    std::size_t w = 2;
    for (const auto& d : *chosen) w = std::max(w, d.id.size());
    std::cout << fmt::format("{:<{}}  {:<10}  {:<12}  {}\n", "id", w, "category", "metric", "description");
    for (const auto& d : *chosen) {
      std::string desc = d.description;
      if (!verbose && desc.size() > 90) desc = desc.substr(0, 87) + "...";
      std::cout << fmt::format("{:<{}}  {:<10}  {:<12}  {}\n", d.id, w, d.category, d.metric.unit + "/s", desc);
    }
  });
}

}  // namespace wgb::cli
