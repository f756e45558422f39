// SamplingOptions: the tunables of the best-run sampler (docs/method.md#sampling), each also an
// option of `webgpu-bench run`. Standard library only.
#pragma once

namespace wgb {

struct SamplingOptions {
  double target_dispatch_ms = 10;     // calibrate each kernel's work knob toward this per dispatch
  double measurement_ms = 100;        // batch repetitions toward this per timed measurement
  double idle_gap_ms = 100;           // idle between timed measurements
  int min_rounds = 3;
  int stable_rounds = 2;
  double improvement_tolerance = 0.01;
  int max_rounds = 10;
  double throttle_ratio = 1.20;       // runs > 20% slower than the best are discarded as thermal noise
  double cooldown_ms = 3000;          // pause after two consecutive discards
  int max_cooldowns = 3;              // suite-wide cooldown budget
};

}  // namespace wgb
