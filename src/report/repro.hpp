// The reproducibility check (docs/method.md#reproducibility): the whole procedure is run again in a
// second process, and every row where the two runs disagree beyond their noise is flagged. The
// command line starts that process (cli/session.hpp) with second_run_arguments; every suite's rows,
// and the host suite's curve points, are compared by the same rule.
//
// Rows are matched by key (id, plus the sweep point) and occurrence, and judged by the one rule of
// report/noise.hpp (docs/method.md#differ): a = the first run's headline rate with its reported
// relative dispersion (IQR / median for median rows, CV for best-run rows: the table's dispersion
// column), b = the second run's; they agree unless b differs from a. Rates, not raw times, so a
// different calibrated loop count does not matter. The floor is kNoiseFloor, or the sampler's
// improvement tolerance when that is larger (the engine resolves nothing finer).
// A row measured in one run and not the other (error, skipped, cancelled) disagrees; a row measured
// in neither is "not-compared". A measured row that disagrees becomes "suspect", the reason in its
// message. The document verdict is "pass" when no row disagrees, "fail" otherwise, and
// "incomplete" when the second process produced no usable document.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "report/model.hpp"
#include "report/noise.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::report {

ReproCheck compare_repro(const BenchmarkResult& first, const BenchmarkResult& second, double tolerance);

struct ReproSummary {
  std::string verdict;  // "pass", "fail", "incomplete"
  double tolerance = 0.01;
  std::vector<std::string> disagreeing;  // row keys
  std::string reason;                    // for "incomplete"; empty otherwise
};

// The second process of --repro as the document records it (`repro.second_run`).
struct ReproSecondRun {
  std::vector<std::string> command;  // its arguments after the program's name
  std::vector<std::string> exec;     // as started: the loader and its options included
  std::string started_at, finished_at;
  std::optional<int> exit_code;  // none: it could not be started
  // What its document said, when it left one.
  std::optional<std::string> state, test_perturbation;
  std::optional<std::size_t> rows;
  // The curves' points compared between the two, when there were any.
  std::optional<std::size_t> points_compared, points_disagreeing;
};
nlohmann::json to_json(const ReproSecondRun& r);

// Fills first[i].repro for every row of the first run; rows missing from the second run disagree,
// and a measured row that disagrees becomes suspect.
ReproSummary apply_repro(std::vector<ReportRow>& first, const std::vector<ReportRow>& second, double tolerance);
// A repro whose second process failed: every row is "not-compared" with `reason`.
ReproSummary repro_incomplete(std::vector<ReportRow>& first, const std::string& reason, double tolerance);

// Curves (row.parameters.series, the host suite's points over threads or sizes): each point of the
// first run matched by series name and x value in the same row of the second is marked with
// "repro_second_ms" and "repro_agree" by the same rule (its value and iqr_relative as the estimate).
struct PointsCompared {
  int compared = 0;
  int disagreeing = 0;
};
PointsCompared compare_points(std::vector<ReportRow>& first, const std::vector<ReportRow>& second, double tolerance);

nlohmann::json repro_summary_json(const ReproSummary& s);
extern const char* const kReproRule;  // the rule above, one line, for documents and reports

// The second process's arguments: `args` (the command line after the program name) without
// --repro, --json/--csv and their values, and -q/--quiet; then --json <json_path> --quiet
// --repro-second-run. Handles "--opt value" and "--opt=value". The one argument rewrite of the
// program.
std::vector<std::string> second_run_arguments(const std::vector<std::string>& args, const std::string& json_path);
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
