// The sampling options shared by `run` and `sweep`.
#include "cli/sampling_flags.hpp"

namespace wgb::cli {

void add_sampling_flags(CLI::App& cmd, SamplingOptions& s) {
  cmd.add_option("--target-dispatch-ms", s.target_dispatch_ms, "Calibrate work per dispatch toward this (10)")
      ->check(CLI::PositiveNumber);
  cmd.add_option("--measurement-ms", s.measurement_ms, "Batch repetitions toward this per measurement (100)")
      ->check(CLI::PositiveNumber);
  cmd.add_option("--idle-gap-ms", s.idle_gap_ms, "Idle gap between measurements (100)")->check(CLI::NonNegativeNumber);
  cmd.add_option("--min-rounds", s.min_rounds, "Minimum timed rounds (3)")->check(CLI::Range(1, 10000));
  cmd.add_option("--stable-rounds", s.stable_rounds, "Rounds without improvement to converge (2)")
      ->check(CLI::Range(1, 10000));
  cmd.add_option("--tolerance", s.improvement_tolerance, "Improvement tolerance (0.01)")->check(CLI::Range(0.0, 0.99));
  cmd.add_option("--max-rounds", s.max_rounds, "Cap on timed rounds (10)")->check(CLI::Range(1, 100000));
  cmd.add_option("--throttle-ratio", s.throttle_ratio, "Discard runs slower than best x this (1.2)")
      ->check(CLI::Range(1.0001, 100.0));
  cmd.add_option("--cooldown-ms", s.cooldown_ms, "Cooldown after two discards (3000)")->check(CLI::NonNegativeNumber);
  cmd.add_option("--max-cooldowns", s.max_cooldowns, "Suite-wide cooldown budget (3)")->check(CLI::Range(0, 1000));
}

}  // namespace wgb::cli
