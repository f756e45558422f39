// The host suite's reproducibility rule (docs/method.md#reproducibility): the whole procedure is run
// again in a second process (started by the command line, cli/session.hpp) and the result is
// rejected where the two disagree by more than the reported dispersion; its result document is
// compared here, row by row and point by point.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "webgpu_bench/expected.hpp"

namespace wgb::host {

// Two timings agree when they differ by no more than the larger of their two interquartile
// ranges (the dispersion each process reported for the same statistic).
bool timings_agree(double a_ms, double b_ms, double iqr_a_ms, double iqr_b_ms) noexcept;

struct ReproOutcome {
  int rows_compared = 0;
  int rows_rejected = 0;
  int points_compared = 0;
  int points_disagreeing = 0;
  std::vector<std::string> rejected_ids;
  nlohmann::json json;  // goes into the document as "repro"
};

// Compares `second` against `first` (both host-suite result documents), and marks `first`:
// every compared row gets "repro" {second_ms, dispersion_ms, agree}; a row whose headline disagrees
// becomes status "suspect" with the reason in its message; each series point gets "repro_agree".
ReproOutcome compare_and_mark(nlohmann::json& first, const nlohmann::json& second);

// The second process's arguments: argv[0], then report::second_run_arguments of the rest (without
// --repro, --json, --csv, --quiet and --submit/--submit-token/--token: it never submits), then --json
// <path> --quiet.
std::vector<std::string> repro_arguments(const std::vector<std::string>& argv, const std::string& json_path);

}  // namespace wgb::host
