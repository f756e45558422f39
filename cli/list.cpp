// `webgpu-bench list`: the catalog, with category, metric and description.
#include <fmt/format.h>

#include <iostream>

#include "cli/common.hpp"
#include "catalog/select.hpp"
#include "cli/terminal.hpp"
#include "report/table.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb::cli {

void register_list(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("list", "List the benchmark catalog (id, category, metric, description)");
  static std::string filter;
  static bool as_json = false;
  static bool verbose = false;
  cmd->add_option("--filter", filter, "Only ids matching these comma-separated globs");
  cmd->add_flag("--json", as_json, "Print JSON");
  cmd->add_flag("-v,--verbose", verbose, "Print each description in full (without: its first sentence)");
  cmd->callback([&exit_code] {
    auto chosen = catalog::select_benchmarks(builtin_benchmarks(), filter, /*default_only=*/false);
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
    // Laid out for the terminal: each description wrapped under its own column (or, where the
    // terminal is too narrow for that, on the lines below its id), never cut. Without -v, the first
    // sentence; with -v, all of it.
    const std::size_t width = terminal_width();
    std::size_t w = 2;
    for (const auto& d : *chosen) w = std::max(w, d.id.size());
    const std::size_t desc_col = w + 2 + 10 + 2 + 14 + 2;
    const bool beside = width >= desc_col + 50;
    if (beside) {
      std::cout << fmt::format("{:<{}}  {:<10}  {:<14}  {}\n", "id", w, "category", "metric", "description");
    } else {
      std::cout << fmt::format("{:<{}}  {:<10}  {}\n    description\n", "id", w, "category", "metric");
    }
    for (const auto& d : *chosen) {
      std::string desc = d.description;
      if (!verbose) {
        const auto end = desc.find(". ");
        if (end != std::string::npos) desc = desc.substr(0, end + 1);
      }
      std::string head = fmt::format("{:<{}}  {:<10}  {:<14}", d.id, w, d.category, d.metric.unit + "/s");
      if (beside) {
        std::string text = report::wrap_text(desc, width, desc_col, desc_col);
        std::cout << head << "  " << text.substr(desc_col) << '\n';
      } else {
        while (!head.empty() && head.back() == ' ') head.pop_back();
        std::cout << head << '\n' << report::wrap_text(desc, width, 4, 4) << '\n';
      }
    }
  });
}

}  // namespace wgb::cli
