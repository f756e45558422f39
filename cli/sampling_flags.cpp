// The sampling options shared by `run` and `sweep`.
#include "cli/sampling_flags.hpp"

#include "cli/common.hpp"

namespace wgb::cli {

void add_sampling_flags(CLI::App& cmd, SamplingOptions& s) {
  cmd.add_option("--target-dispatch-ms", s.target_dispatch_ms, "Calibrate work per dispatch toward this, > 0 (10)")
      ->type_name("MS")
      ->check(in_range(1e-9, 1e9));
  cmd.add_option("--measurement-ms", s.measurement_ms, "Batch repetitions toward this per measurement, > 0 (100)")
      ->type_name("MS")
      ->check(in_range(1e-9, 1e9));
  cmd.add_option("--idle-gap-ms", s.idle_gap_ms, "Idle gap between measurements (100)")
      ->type_name("MS")
      ->check(in_range(0.0, 1e9));
  cmd.add_option("--min-rounds", s.min_rounds, "Minimum timed rounds, 1 to 10000 (3)")
      ->type_name("N")
      ->check(in_range(1, 10000));
  cmd.add_option("--stable-rounds", s.stable_rounds, "Rounds without improvement to converge, 1 to 10000 (2)")
      ->type_name("N")
      ->check(in_range(1, 10000));
  cmd.add_option("--tolerance", s.improvement_tolerance, "Improvement tolerance, 0 to 0.99 (0.01)")
      ->type_name("FRACTION")
      ->check(in_range(0.0, 0.99));
  cmd.add_option("--max-rounds", s.max_rounds, "Cap on timed rounds, 1 to 100000 (10)")
      ->type_name("N")
      ->check(in_range(1, 100000));
  cmd.add_option("--throttle-ratio", s.throttle_ratio, "Discard runs slower than best x this, above 1 to 100 (1.2)")
      ->type_name("RATIO")
      ->check(in_range(1.0001, 100.0));
  cmd.add_option("--cooldown-ms", s.cooldown_ms, "Cooldown after two discards (3000)")
      ->type_name("MS")
      ->check(in_range(0.0, 1e9));
  cmd.add_option("--max-cooldowns", s.max_cooldowns, "Suite-wide cooldown budget, 0 to 1000 (3)")
      ->type_name("N")
      ->check(in_range(0, 1000));
}

}  // namespace wgb::cli
