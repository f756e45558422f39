// Seed 004 "Protocol" step 5: re-run the whole procedure in a second process and reject the result
// if the two disagree by more than the reported dispersion. The second process is this program
// again (/proc/self/exe, fork + exec) with the same arguments; its result document is compared
// here, row by row and point by point.
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

// The second process's arguments: the same, without --repro, --json, --csv and --submit/--submit-token/--token
// (it never submits), then --json <path> -q.
std::vector<std::string> repro_arguments(const std::vector<std::string>& argv, const std::string& json_path);

// Runs /proc/self/exe with `argv` (argv[0] included) and waits. When this process was started
// through an explicit dynamic loader (ld-linux ... --library-path ... program), the loader is
// started again with the library directories this process has loaded. Its stdout is discarded.
// Returns the child's exit status; `executed` (when given) receives the exact argv that was exec'd.
Expected<int> run_self(const std::vector<std::string>& argv, std::vector<std::string>* executed = nullptr);

}  // namespace wgb::host
