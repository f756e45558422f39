// The sampling options shared by `run` and `sweep`.
#include "cli/sampling_flags.hpp"

#include "cli/common.hpp"

namespace wgb::cli {

namespace {

// A numeric option in [lo, hi], its value shown as `type` in the help.
template <class T>
void bounded(CLI::App& cmd, const char* flag, T& field, const char* help, const char* type, double lo, double hi) {
  cmd.add_option(flag, field, help)->type_name(type)->check(in_range(lo, hi));
}

}  // namespace

void add_sampling_flags(CLI::App& cmd, SamplingOptions& s) {
  bounded(cmd, "--target-dispatch-ms", s.target_dispatch_ms, "Calibrate work per dispatch toward this, > 0 (10)",
          "MS", 1e-9, 1e9);
  bounded(cmd, "--measurement-ms", s.measurement_ms, "Batch repetitions toward this per measurement, > 0 (100)",
          "MS", 1e-9, 1e9);
  bounded(cmd, "--idle-gap-ms", s.idle_gap_ms, "Idle gap between measurements (100)", "MS", 0.0, 1e9);
  bounded(cmd, "--min-rounds", s.min_rounds, "Minimum timed rounds, 1 to 10000 (3)", "N", 1, 10000);
  bounded(cmd, "--stable-rounds", s.stable_rounds, "Rounds without improvement to converge, 1 to 10000 (2)",
          "N", 1, 10000);
  bounded(cmd, "--tolerance", s.improvement_tolerance, "Improvement tolerance, 0 to 0.99 (0.01)",
          "FRACTION", 0.0, 0.99);
  bounded(cmd, "--max-rounds", s.max_rounds, "Cap on timed rounds, 1 to 100000 (10)", "N", 1, 100000);
  bounded(cmd, "--throttle-ratio", s.throttle_ratio, "Discard runs slower than best x this, above 1 to 100 (1.2)",
          "RATIO", 1.0001, 100.0);
  bounded(cmd, "--cooldown-ms", s.cooldown_ms, "Cooldown after two discards (3000)", "MS", 0.0, 1e9);
  bounded(cmd, "--max-cooldowns", s.max_cooldowns, "Suite-wide cooldown budget, 0 to 1000 (3)", "N", 0, 1000);
}

}  // namespace wgb::cli
