// The host CPU's fixed-repetition protocol (docs/method.md#host-protocol) as a sampling Protocol:
// a pure state machine fed region durations that decides the repeat count (kernel passes per timed
// region), warms up, and then times a fixed number of regions, each individually. It reads no
// clock: the timed loop (suite/runner.hpp) times the regions, so every decision is reproducible
// from a scripted list of durations.
//   1. calibration: grow the repeat count until one region lasts target_factor x min_region_ms,
//      each step the fastest of up to three regions; then the scaling check (doubling the count
//      must take >= min_scaling x as long, else the count grows),
//   2. untimed warm-up at the calibrated count until two consecutive regions agree,
//   3. `repetitions` timed regions; a set with a region not longer than min_region_ms is discarded
//      (kept in the record with its reason) and timed again with a larger count, at most 3 times.
// Every Run has repetitions = 1 and carries the repeat count as its knob.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "measure/record.hpp"
#include "measure/sampler.hpp"
#include "webgpu_bench/defaults.hpp"

namespace wgb::measure {

struct RepetitionConfig {
  int repetitions = defaults::host::kRepetitions;  // R timed regions
  double warmup_ms = defaults::host::kWarmupMs;    // untimed warm-up lasts at least this long ...
  int warmup_min_runs = 2;                         // ... and at least this many regions ...
  double steady_tolerance = 0.05;  // ... and until two consecutive regions agree within this
  double min_region_ms = defaults::host::kMinRegionMs;  // every timed region must last longer than this
  double target_factor = 2.0;      // calibrate regions to min_region_ms x this, so noise stays above
  std::uint64_t max_repeat = std::uint64_t{1} << 40;
  double min_scaling = 1.9;    // region(2R) / region(R) at the calibrated R (fixed cost <= 10%)
  int max_scaling_steps = 10;  // times the count may grow for want of scaling
};

// The protocol's record (knob = repeat, kept_ms = per-pass ms of the final timed set, calibration,
// re-timed sets in `discarded`), and what only this protocol tracks.
struct RepetitionReport : Record {
  std::vector<double> region_ms;  // the final set's R timed regions, in order
  double scaling = 0;     // best region(2R) / best region(R) at the calibrated R; 0: not checked
  int scaling_steps = 0;  // times the count grew because the region time did not scale with it
  int warmup_runs = 0;
  double warmup_ms = 0;
  bool warmup_steady = false;     // stopped because two regions agreed, not because of the cap
  std::size_t short_regions = 0;  // final-set regions not longer than min_region_ms
  int recalibrations = 0;         // timed sets discarded for a short region and redone
};

class RepetitionProtocol final : public Protocol {
 public:
  explicit RepetitionProtocol(RepetitionConfig cfg);

  Action next() override;
  // Duration (ms) of the last region. A non-finite or <= 0 one is discarded as "unusable" and the
  // region is run again (after 100 of them the protocol stops with what it has).
  void add(double region_ms) override;
  void reject(double region_ms, std::string reason, std::string note) override;
  bool done() const override { return stage_ == Stage::Done; }
  Record record() const override { return report(); }
  RepetitionReport report() const;
  double estimate_remaining_ms() const override;

 private:
  enum class Stage { Calibrate, WarmUp, Timed, Done };
  enum class Probe { Base, Twice };  // best of three at the count, or at twice the count

  void calibrate();  // advances calibration until a region must be timed, or calibration ends
  void begin_probe(std::uint64_t count, Probe kind);
  void probe_done(double best);
  void start_warmup();
  void start_set();
  void end_set();
  void discard(double region_ms, const char* reason, std::string note);
  double target() const { return cfg_.min_region_ms * cfg_.target_factor; }

  RepetitionConfig cfg_;
  Stage stage_ = Stage::Calibrate;
  bool pending_ = false;  // a Run was handed out, add() not yet called
  int unusable_ = 0;

  std::uint64_t repeat_ = 1;
  double best_t_ = -1;  // best region at repeat_; negative: not timed yet
  int step_ = 0;
  std::uint64_t count_ = 1;  // count the current probe times
  Probe probe_ = Probe::Base;
  int probe_k_ = 0;
  double probe_best_ = 0;
  std::uint64_t twice_ = 2;

  double previous_ = -1;  // warm-up: previous region
  int attempt_ = 0;       // timed sets so far
  RepetitionReport r_;
};

}  // namespace wgb::measure
