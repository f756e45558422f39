// The reproducibility check (docs/method.md#reproducibility): the whole procedure is run again in a
// second process, and every row where the two runs disagree by more than the reported dispersion
// is flagged. The command line starts that process (cli/session.hpp) with second_run_arguments; the
// host suite's documents are compared by host/repro.hpp's rule, which also compares curve points.
//
// The rule, per row matched by key (id, plus the sweep point) and occurrence:
//   d1, d2   = each run's reported relative dispersion (IQR / median for median rows, CV for
//              best-run rows: the table's dispersion column)
//   diff     = | v1 / v2 - 1 |, the relative change of time per unit of work (v = headline rate;
//              comparing rates, not raw times, is immune to a different calibrated loop count)
//   allowed  = max(d1, d2, tolerance), tolerance = the sampler's improvement tolerance (1% by
//              default): the engine itself does not resolve differences below it
//   disagree <=> diff > allowed
// A row measured in one run and not the other (error, skipped, cancelled) disagrees; a row measured
// in neither is "not-compared". The document verdict is "pass" when no row disagrees, "fail"
// otherwise, and "incomplete" when the second process produced no usable document.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "report/model.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::report {

ReproCheck compare_repro(const BenchmarkResult& first, const BenchmarkResult& second, double tolerance);

struct ReproSummary {
  std::string verdict;  // "pass", "fail", "incomplete"
  double tolerance = 0.01;
  std::vector<std::string> disagreeing;  // row keys
  std::string reason;                    // for "incomplete"; empty otherwise
};

// Fills first[i].repro for every row of the first run; rows missing from the second run disagree.
ReproSummary apply_repro(std::vector<ReportRow>& first, const std::vector<ReportRow>& second, double tolerance);
// A repro whose second process failed: every row is "not-compared" with `reason`.
ReproSummary repro_incomplete(std::vector<ReportRow>& first, const std::string& reason, double tolerance);

nlohmann::json repro_summary_json(const ReproSummary& s);
extern const char* const kReproRule;  // the rule above, one line, for documents and reports

// The second process's arguments: `args` (the command line after the program name) without
// --repro, --json/--csv and their values, and -q/--quiet; then --json <json_path> --quiet
// --repro-second-run (unless `mark` is false). Handles "--opt value" and "--opt=value". The one
// argument rewrite of the program (the host's repro_arguments uses it too).
std::vector<std::string> second_run_arguments(const std::vector<std::string>& args, const std::string& json_path,
                                              bool mark = true);
inline constexpr const char* kSecondRunFlag = "--repro-second-run";

// ---- test-only perturbation --------------------------------------------------------------------
// WGB_TEST_REPRO_PERTURB="<benchmark id>=<factor>" makes the SECOND process of `run --repro`
// multiply that row's times by <factor> after it was measured (the rate divides by it). It exists
// only so tests can prove that --repro flags a disagreement; it is applied where rows are built,
// never inside the timed loop, and a perturbed row and document say so.
inline constexpr const char* kPerturbEnv = "WGB_TEST_REPRO_PERTURB";
struct TestPerturbation {
  std::string id;
  double factor = 1;
};
// nullopt when the variable is unset; an Error (Usage) when it is malformed.
Expected<std::optional<TestPerturbation>> test_perturbation_from_env();
// Scales the row's times (samples, statistics, headline) by p.factor when p.id matches.
bool apply_test_perturbation(BenchmarkResult& row, const TestPerturbation& p);

}  // namespace wgb::report
