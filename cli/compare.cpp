// `webgpu-bench compare a.json b.json`: a summary, per benchmark the ratio b/a and whether the change
// exceeds the noise, and what differs between the two machines/builds/options (details with -v). With
// --fail-on-regression P the exit code is 1 when any common row regressed by more than P percent.
#include <fmt/format.h>

#include <iostream>
#include <optional>

#include "cli/common.hpp"
#include "report/compare.hpp"
#include "report/files.hpp"

namespace wgb::cli {

namespace {

struct CompareFlags {
  std::string a, b;
  double fail_pct = -1;
  std::string json_path;
  bool verbose = false;
};

int compare_command(const CompareFlags& f) {
  auto a = report::load_document(f.a);
  if (!a) return fail(a.error());
  auto b = report::load_document(f.b);
  if (!b) return fail(b.error());
  const auto c = report::compare_documents(*a, *b);
  const std::optional<double> pct = f.fail_pct >= 0 ? std::optional<double>(f.fail_pct) : std::nullopt;
  report::CompareStyle style;
  style.verbose = f.verbose;
  report::write_comparison(std::cout, c, *a, *b, pct, style);
  if (!f.json_path.empty()) {
    if (auto st = report::write_json_atomic(f.json_path, report::comparison_json(c, pct)); !st) return fail(st.error());
  }
  if (pct && !report::regressions(c, *pct).empty()) {
    std::cerr << fmt::format("webgpu-bench: {} row(s) regressed by more than {}%\n", report::regressions(c, *pct).size(), *pct);
    return kExitBenchmarkFailed;
  }
  return kExitOk;
}

}  // namespace

void register_compare(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("compare", "Compare two result documents: ratios, significance, what differs");
  static CompareFlags f;
  cmd->add_option("a", f.a, "The baseline result document")->required();
  cmd->add_option("b", f.b, "The result document compared with it")->required();
  cmd->add_option("--fail-on-regression", f.fail_pct,
                  "Exit with code 1 when a common row's rate dropped by more than this percentage (or became an error)")
      ->check(CLI::Range(0.0, 100.0));
  cmd->add_option("--json", f.json_path, "Write the comparison as JSON here");
  cmd->add_flag("-v,--verbose", f.verbose,
                "Also show kernel hashes, parameter differences, every field only one document has, clock sources");
  cmd->callback([&exit_code] { exit_code = compare_command(f); });
}

}  // namespace wgb::cli
