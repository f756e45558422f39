// Best-run sampler of the main suite (docs/method.md#sampling): a pure state machine that
// calibrates the work knob and batch size, warms up, then takes timed rounds until the best
// per-repetition time converges, discarding throttled rounds and asking for thermal cooldowns.
// The driver executes the returned Actions and feeds back measured durations; nothing here reads
// a clock, so every decision is reproducible from a scripted list of durations.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "measure/record.hpp"
#include "measure/stats.hpp"
#include "webgpu_bench/vocabulary.hpp"

namespace wgb::measure {

struct SamplerConfig {               // defaults from the reference implementation
  double target_dispatch_ms = 10;    // calibrate the work knob so one repetition takes ~this
  double measurement_ms = 100;       // size batches so one timed measurement takes ~this
  double idle_gap_ms = 100;          // idle between timed measurements
  int min_rounds = 3;
  int stable_rounds = 2;             // converged once the best has not improved (by > tolerance)
                                     // for this many consecutive kept rounds, and rounds >= min
  double improvement_tolerance = 0.01;
  int max_rounds = 10;               // cap on timed rounds (kept + discarded + invalid)
  double throttle_ratio = 1.20;      // a run > 20% slower than the current best is thermal noise
  int discards_before_cooldown = 2;  // consecutive discards -> cooldown
  double cooldown_ms = 3000;
  int max_calibration_steps = 12;    // per calibration stage (knob, then batch)
  std::uint32_t max_batch = 1u << 20;  // repetitions cap per measurement
  // The untimed warm-up lasts at least this long (its batches summed; at least one batch). The
  // run's first row sets it so that an idle device's clocks are up before anything is timed.
  // Where a warmed dispatch then takes under half of target_dispatch_ms, the knob was calibrated
  // on a slower device (clocks still ramping): it is calibrated once more, from the warm dispatch.
  double min_warmup_ms = 0;
};

struct KnobRange {
  std::uint64_t min = 1, max = 1, initial = 1;
  bool enabled() const { return max > min; }
};

struct CooldownBudget {  // suite-wide, shared across samplers (SuiteOptions.maxCooldowns)
  int remaining = 3;
};

// The public vocabulary (webgpu_bench/vocabulary.hpp): this sampler stops Converged, MaxRounds or
// Throttled.
using wgb::StopReason;
using wgb::to_string;

struct Action {
  enum class Kind { Run, Sleep, Done } kind = Kind::Done;
  // Run: execute `repetitions` repetitions of the workload at work knob `knob` as ONE timed batch
  // and call add() with the batch's duration in ms.  `recorded` = false for calibration/warm-up.
  std::uint64_t knob = 1;
  std::uint32_t repetitions = 1;
  bool recorded = false;
  // Sleep: stay idle for `sleep_ms`; `cooldown` marks a thermal cooldown (progress shows a pause).
  double sleep_ms = 0;
  bool cooldown = false;
  enum class Stage { Calibrate, WarmUp, Sample, Idle, Cooldown, Done } stage = Stage::Done;

  // A Run at `stage` (Calibrate, WarmUp or Sample); only a Sample batch is recorded.
  static Action run(std::uint64_t knob, std::uint32_t repetitions, Stage stage) {
    Action a;
    a.kind = Kind::Run;
    a.knob = knob;
    a.repetitions = repetitions;
    a.recorded = stage == Stage::Sample;
    a.stage = stage;
    return a;
  }
};
const char* to_string(Action::Stage);  // "calibrate", "warm-up", "sample", "idle", "cooldown", "done"

// One step of sizing a batch toward `target_ms` (the best-run sampler's repetitions per batch, the
// phase sampler's dispatches per pass) from the time `batch_ms` of a batch of `count`: below a
// quarter of the target it grows 4x (up to `cap`), since fixed per-batch overhead is too large a
// share there for extrapolation to be trusted; a longer batch, one at the cap, or the `last` step
// allowed is scaled linearly to the target, and sizing is `done`.
struct BatchStep {
  std::uint32_t count = 1;
  bool done = false;
};
BatchStep size_batch(std::uint32_t count, double batch_ms, double target_ms, std::uint32_t cap, bool last);

// One calibration step's bookkeeping, shared by the samplers' calibration stages: counts the step
// against `max_steps`; an unusable duration is recorded by `invalid` and, once the steps are spent,
// `give_up` ends the stage with what it has. Returns whether the steps are spent, or nullopt when
// the duration was unusable (the caller returns; the step is retried while steps remain).
template <class Invalid, class GiveUp>
std::optional<bool> count_calibration_step(int& steps, int max_steps, bool valid, Invalid invalid, GiveUp give_up) {
  const bool out_of_steps = ++steps >= max_steps;
  if (valid) return out_of_steps;
  invalid();
  if (out_of_steps) give_up();
  return std::nullopt;
}

// Every batch the sampler was fed during timed sampling, and every unusable one at any stage, ends
// up kept, throttled or discarded (webgpu_bench/vocabulary.hpp): nothing measured disappears
// silently (docs/method.md#record).
using wgb::DiscardedSample;

// A sampling protocol: a state machine fed with durations that decides what to run next and fills
// the one Record. The best-run Sampler, the memory suite's PhaseSampler and the host protocol are
// protocols; the timed loop (suite/runner.hpp) drives any of them the same way.
class Protocol {
 public:
  virtual ~Protocol() = default;
  // What to do now. A Run is repeated by every next() until add() or reject() delivers its result.
  virtual Action next() = 0;
  // Duration (ms) of the last Run's batch; non-finite or <= 0 is recorded as unusable.
  virtual void add(double batch_ms) = 0;
  // The last Run was measured but its reading cannot be used (e.g. only another clock's reading
  // exists): recorded as discarded with `reason` and `note`.
  virtual void reject(double batch_ms, std::string reason, std::string note) = 0;
  virtual bool done() const = 0;
  virtual Record record() const = 0;
  virtual double estimate_remaining_ms() const = 0;
};

// The best-run sampler's record (knob, batch, kept, throttled, discarded, notes, stop reason,
// cooldowns, calibration), and what only it tracks.
struct SamplerReport : Record {
  std::vector<double> invalid_ms;   // raw batch values rejected as unusable (<= 0, NaN, inf)
  Stats stats;                      // over kept_ms
  double best_ms = 0;               // fastest kept per-repetition time; 0 when nothing was kept
  int rounds = 0;                   // timed rounds taken (kept + discarded + invalid)
  int batch_resizes = 0;            // times sampling restarted with a longer batch (see add_round)

  bool valid() const { return !kept_ms.empty(); }  // false: no usable timed measurement at all
};

class Sampler final : public Protocol {
 public:
  Sampler(SamplerConfig cfg, KnobRange knob, CooldownBudget& budget);

  // What to do now.  A Run is repeated by every next() until add() delivers its result; a Sleep is
  // handed out once and is considered done by the following next().  Done once finished.
  Action next() override;
  // Result of the last Run (batch total, ms).  Non-finite or <= 0 values are recorded as invalid
  // (see SamplerReport::invalid_ms) instead of failing.  Throws std::logic_error without a pending Run.
  void add(double batch_ms) override;
  // Result of the last Run that the caller measured but cannot use (e.g. its timestamp failed the
  // cross-check and only another clock's reading exists): recorded as discarded with `reason` and
  // `note`, and otherwise treated like an unusable duration (a calibration step is retried, a
  // timed round counts toward max_rounds). Throws std::logic_error without a pending Run.
  void reject(double batch_ms, std::string reason, std::string note) override;
  bool done() const override { return phase_ == Phase::Done; }
  SamplerReport report() const;
  Record record() const override;
  // Rough upper estimate of the remaining time (ms) if things go as configured: every stage runs
  // at its configured duration and the timed rounds run to max_rounds.  Cooldowns are only
  // included once scheduled (they are unpredictable).  Used for the progress ETA.
  double estimate_remaining_ms() const override;

 private:
  enum class Phase { CalibrateKnob, CalibrateBatch, WarmUp, Sample, Done };

  Action run_action() const;
  void record_invalid(double batch_ms, const char* stage);
  void record_discarded(double batch_ms, const char* stage, std::string reason, std::string note);
  const char* stage_name() const;
  void dispatch(double batch_ms, bool valid);
  void add_knob_step(double batch_ms, bool valid);
  void add_batch_step(double batch_ms, bool valid);
  void add_round(double batch_ms, bool valid);
  void finish_knob_calibration();
  bool recalibrate_after_warmup(double per_rep_ms);
  void finish(StopReason reason);

  SamplerConfig cfg_;
  KnobRange range_;
  CooldownBudget* budget_;
  Phase phase_;
  std::uint64_t knob_;
  std::uint32_t reps_ = 1;
  bool awaiting_result_ = false;  // a Run was handed out, add() not yet called
  bool sleep_pending_ = false;
  Action pending_sleep_;

  double warmup_spent_ms_ = 0;  // warm-up batches so far
  int knob_steps_ = 0;
  bool knob_retry_used_ = false;
  bool knob_recalibrated_ = false;  // the knob was calibrated again after the warm-up (at most once)
  int batch_steps_ = 0;
  double per_rep_estimate_ms_ = 0;  // latest per-repetition estimate, for the ETA

  int rounds_ = 0;
  int stable_ = 0;
  int consecutive_discards_ = 0;
  bool last_round_discarded_ = false;
  bool have_best_ = false;
  double best_ms_ = 0;
  int cooldowns_taken_ = 0;
  int batch_resizes_ = 0;
  bool flagged_throttled_ = false;
  StopReason stop_reason_ = StopReason::None;
  std::vector<double> kept_ms_, throttled_ms_, invalid_ms_;
  std::vector<DiscardedSample> discarded_;
  bool rejecting_ = false;  // inside reject(): the invalid value is recorded by reject() itself
  std::vector<std::string> notes_;
  std::vector<std::pair<std::uint64_t, double>> calibration_trace_;
};

// Estimate (ms) of one whole sampler run under `cfg`, before anything is measured; the budget-based
// initial estimate the progress display starts from.
double estimate_total_ms(const SamplerConfig& cfg, const KnobRange& knob);

}  // namespace wgb::measure
