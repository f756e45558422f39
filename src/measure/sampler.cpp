// Implementation of the best-run Sampler (sampler.hpp; docs/method.md#sampling).
#include "measure/sampler.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include "measure/contract.hpp"

namespace wgb::measure {
namespace {

// Knob calibration never changes the knob by more than 4x per step: the per-rep time is not linear
// in the loop count for small counts (fixed dispatch overhead dominates), so a large extrapolated
// jump from a tiny measurement overshoots.  Growth is at least 1.25x so calibration always makes
// progress even when the measurement sits just under the acceptance window.
constexpr double kMaxKnobStep = 4.0;
constexpr double kMinKnobGrowth = 1.25;
// A timed batch far shorter than the measurement target means batch calibration was misled (it ran
// while clocks were still low, or paid a cold pipeline's first-use costs): sampling restarts with
// the batch re-sized from the timed rounds, at most this many times per benchmark.
constexpr int kMaxBatchResizes = 2;
// ETA guess for the number of knob-calibration steps still to come (typical runs take 2-5).
constexpr int kTypicalKnobSteps = 4;

std::uint64_t grow_knob(std::uint64_t k, double factor, std::uint64_t hi) {
  const double x = std::ceil(static_cast<double>(k) * factor);
  if (x >= static_cast<double>(hi)) return hi;
  return std::min(hi, std::max(k + 1, static_cast<std::uint64_t>(x)));
}

std::uint64_t shrink_knob(std::uint64_t k, double factor, std::uint64_t lo) {
  // ceil keeps the shrink within `factor` (never more than 4x); min(k-1) guarantees progress.
  const double x = std::ceil(static_cast<double>(k) * factor);
  const auto scaled = x <= static_cast<double>(lo) ? lo : static_cast<std::uint64_t>(x);
  return std::max(lo, std::min(k - 1, scaled));
}

std::uint32_t scale_reps(std::uint32_t reps, double batch_ms, double target_ms, std::uint32_t cap) {
  const double x = std::ceil(static_cast<double>(reps) * target_ms / batch_ms);
  if (!(x >= 1)) return 1;  // also catches NaN
  if (x >= static_cast<double>(cap)) return cap;
  return static_cast<std::uint32_t>(x);
}

}  // namespace

BatchStep size_batch(std::uint32_t count, double batch_ms, double target_ms, std::uint32_t cap, bool last) {
  if (batch_ms >= target_ms / 4 || count >= cap || last) return {scale_reps(count, batch_ms, target_ms, cap), true};
  return {static_cast<std::uint32_t>(std::min<std::uint64_t>(std::uint64_t{count} * 4, cap)), false};
}

const char* to_string(Action::Stage s) {
  switch (s) {
    case Action::Stage::Calibrate: return "calibrate";
    case Action::Stage::WarmUp: return "warm-up";
    case Action::Stage::Sample: return "sample";
    case Action::Stage::Idle: return "idle";
    case Action::Stage::Cooldown: return "cooldown";
    case Action::Stage::Done: return "done";
  }
  return "done";
}

Sampler::Sampler(SamplerConfig cfg, KnobRange knob, CooldownBudget& budget)
    : cfg_(cfg), range_(knob), budget_(&budget) {
  // Defensive normalisation: a zero cap would never terminate or never measure.
  cfg_.min_rounds = std::max(1, cfg_.min_rounds);
  cfg_.max_rounds = std::max(1, cfg_.max_rounds);
  cfg_.stable_rounds = std::max(0, cfg_.stable_rounds);
  cfg_.discards_before_cooldown = std::max(1, cfg_.discards_before_cooldown);
  cfg_.max_calibration_steps = std::max(1, cfg_.max_calibration_steps);
  cfg_.max_batch = std::max<std::uint32_t>(1, cfg_.max_batch);
  if (range_.enabled()) {
    knob_ = std::clamp(range_.initial, range_.min, range_.max);
    phase_ = Phase::CalibrateKnob;
  } else {
    knob_ = range_.initial;  // fixed-work: the logical problem is never resized
    phase_ = Phase::CalibrateBatch;
  }
}

Action Sampler::run_action() const {
  return Action::run(knob_, reps_,
                     phase_ == Phase::Sample   ? Action::Stage::Sample
                     : phase_ == Phase::WarmUp ? Action::Stage::WarmUp
                                               : Action::Stage::Calibrate);
}

Action Sampler::next() {
  if (phase_ == Phase::Done) return Action{};
  if (sleep_pending_) {
    sleep_pending_ = false;
    return pending_sleep_;
  }
  awaiting_result_ = true;
  return run_action();
}

void Sampler::record_discarded(double batch_ms, const char* stage, std::string reason, std::string note) {
  DiscardedSample d;
  d.ms = batch_ms / static_cast<double>(reps_);
  d.repetitions = reps_;
  d.knob = knob_;
  d.stage = stage;
  d.reason = std::move(reason);
  d.note = std::move(note);
  discarded_.push_back(std::move(d));
}

const char* Sampler::stage_name() const {
  switch (phase_) {
    case Phase::CalibrateKnob: return "calibrate-knob";
    case Phase::CalibrateBatch: return "calibrate-batch";
    case Phase::WarmUp: return "warm-up";
    case Phase::Sample: return "sample";
    case Phase::Done: break;
  }
  return "done";
}

void Sampler::record_invalid(double batch_ms, const char* stage) {
  if (rejecting_) return;  // reject() recorded it with its own reason
  invalid_ms_.push_back(batch_ms);
  record_discarded(batch_ms, stage, "unusable", {});
  std::ostringstream os;
  os << stage << ": ignored unusable batch duration " << batch_ms << " ms (knob " << knob_
     << ", " << reps_ << " reps)";
  notes_.push_back(os.str());
}

void Sampler::add(double batch_ms) {
  if (!awaiting_result_) contract_violation("Sampler::add() without a pending Run action");
  awaiting_result_ = false;
  dispatch(batch_ms, std::isfinite(batch_ms) && batch_ms > 0);
}

void Sampler::reject(double batch_ms, std::string reason, std::string note) {
  if (!awaiting_result_) contract_violation("Sampler::reject() without a pending Run action");
  awaiting_result_ = false;
  record_discarded(batch_ms, stage_name(), std::move(reason), std::move(note));
  rejecting_ = true;
  dispatch(batch_ms, false);
  rejecting_ = false;
}

void Sampler::dispatch(double batch_ms, bool valid) {
  switch (phase_) {
    case Phase::CalibrateKnob: add_knob_step(batch_ms, valid); break;
    case Phase::CalibrateBatch: add_batch_step(batch_ms, valid); break;
    case Phase::WarmUp:
      // The warm-up only exists to ramp clocks and fault in caches; its value is not used. It runs
      // batches until min_warmup_ms is spent (one batch by default); an unusable duration counts
      // as a nominal batch, so the warm-up always ends.
      if (!valid) record_invalid(batch_ms, "warm-up");
      warmup_spent_ms_ += valid ? batch_ms : cfg_.measurement_ms;
      if (warmup_spent_ms_ >= cfg_.min_warmup_ms) {
        if (valid && recalibrate_after_warmup(batch_ms / reps_)) break;
        phase_ = Phase::Sample;
      }
      break;
    case Phase::Sample: add_round(batch_ms, valid); break;
    case Phase::Done: break;
  }
}

// A long warm-up (the run's first row) brings an idle device's clocks up after the knob was
// calibrated: on an H200 the first row's dispatch took 2.3 ms warm, against its 10 ms target, as
// calibrated at idle clocks. Where the last warm-up dispatch is under half the target and the knob
// can grow, the knob is calibrated once more from there (the usual steps, no retry of the first),
// then the batch; the warm-up already spent is not repeated beyond one batch.
bool Sampler::recalibrate_after_warmup(double per_rep_ms) {
  const double target = cfg_.target_dispatch_ms;
  if (knob_recalibrated_ || !range_.enabled() || cfg_.min_warmup_ms <= 0 || knob_ >= range_.max ||
      !(per_rep_ms < target / 2)) {
    return false;
  }
  knob_recalibrated_ = true;
  std::ostringstream os;
  os << "warm-up: a dispatch took " << per_rep_ms << " ms at knob " << knob_ << ", under half the " << target
     << " ms target it was calibrated to before the clocks were up; the knob was calibrated again";
  notes_.push_back(os.str());
  knob_ = grow_knob(knob_, std::clamp(target / per_rep_ms, kMinKnobGrowth, kMaxKnobStep), range_.max);
  knob_steps_ = 0;
  knob_retry_used_ = true;
  batch_steps_ = 0;
  reps_ = 1;
  phase_ = Phase::CalibrateKnob;
  return true;
}

void Sampler::finish_knob_calibration() {
  phase_ = Phase::CalibrateBatch;
  reps_ = 1;
}

void Sampler::add_knob_step(double batch_ms, bool valid) {
  const auto counted = count_calibration_step(
      knob_steps_, cfg_.max_calibration_steps, valid, [&] { record_invalid(batch_ms, "calibrate-knob"); },
      [&] { finish_knob_calibration(); });
  if (!counted) return;  // unusable: the same knob is run again while steps remain
  const bool out_of_steps = *counted;
  const double t = batch_ms;  // one repetition per knob-calibration run
  calibration_trace_.emplace_back(knob_, t);
  per_rep_estimate_ms_ = t;
  const double target = cfg_.target_dispatch_ms;
  const bool too_fast = t < target / 2 && knob_ < range_.max;
  const bool too_slow = t > 2 * target && knob_ > range_.min;
  if (out_of_steps) return finish_knob_calibration();
  // The very first run of a pipeline often pays one-off costs (shader module load, lazy allocation,
  // first touch of a large buffer's pages): unless it was already too fast, measure the same knob
  // again before trusting it. On an H200 a cold first dispatch of the 256 MiB chase took 5.6 ms at
  // 4096 hops, inside the window, where the warm one takes 1.4 ms.
  if (!too_fast && calibration_trace_.size() == 1 && !knob_retry_used_) {
    knob_retry_used_ = true;
    return;
  }
  // Within [target/2, 2*target] or pinned at a bound: keep the knob just measured (never an
  // extrapolated, unmeasured one).
  if (!too_fast && !too_slow) return finish_knob_calibration();
  if (too_fast) {
    knob_ = grow_knob(knob_, std::clamp(target / t, kMinKnobGrowth, kMaxKnobStep), range_.max);
  } else {
    knob_ = shrink_knob(knob_, std::max(1.0 / kMaxKnobStep, target / t), range_.min);
  }
}

void Sampler::add_batch_step(double batch_ms, bool valid) {
  const auto counted = count_calibration_step(
      batch_steps_, cfg_.max_calibration_steps, valid, [&] { record_invalid(batch_ms, "calibrate-batch"); },
      [&] { phase_ = Phase::WarmUp; });
  if (!counted) return;
  const bool out_of_steps = *counted;
  per_rep_estimate_ms_ = batch_ms / reps_;
  const BatchStep step = size_batch(reps_, batch_ms, cfg_.measurement_ms, cfg_.max_batch, out_of_steps);
  reps_ = step.count;
  if (step.done) phase_ = Phase::WarmUp;
}

void Sampler::add_round(double batch_ms, bool valid) {
  ++rounds_;
  bool want_cooldown = false;
  if (!valid) {
    // Counts toward max_rounds (so a broken timer cannot loop forever) but is neither kept nor a
    // thermal discard: it says nothing about the GPU's speed.
    record_invalid(batch_ms, "sample");
    last_round_discarded_ = false;
  } else {
    const double per_rep = batch_ms / reps_;
    if (!have_best_) {
      have_best_ = true;
      best_ms_ = per_rep;
      kept_ms_.push_back(per_rep);
      consecutive_discards_ = 0;
      last_round_discarded_ = false;
    } else if (per_rep > best_ms_ * cfg_.throttle_ratio) {
      // Noise only ever slows a run down; a run this much slower than the best is the GPU
      // throttling (or contention), not the kernel's cost.  Keep it out of the statistics.
      throttled_ms_.push_back(per_rep);
      ++consecutive_discards_;
      last_round_discarded_ = true;
      want_cooldown = consecutive_discards_ >= cfg_.discards_before_cooldown;
    } else {
      kept_ms_.push_back(per_rep);
      if (per_rep < best_ms_ * (1 - cfg_.improvement_tolerance)) {
        stable_ = 0;  // a real improvement: clocks were still ramping, keep looking
      } else {
        ++stable_;
      }
      best_ms_ = std::min(best_ms_, per_rep);
      consecutive_discards_ = 0;
      last_round_discarded_ = false;
    }
    per_rep_estimate_ms_ = best_ms_;
  }

  // A kept round whose whole batch lasted under a quarter of the measurement target: the batch was
  // sized from calibration runs slower than the GPU really is (clocks still ramping after an idle
  // period, a cold pipeline). Batches that short let the clocks fall again in every idle gap, and
  // the rounds then swing between clock states and read as throttling. Re-size the batch from the
  // fastest timed round and restart sampling (warm-up included) at that size; the rounds taken at
  // the old size are dropped, and a note says so.
  if (valid && !last_round_discarded_ && batch_resizes_ < kMaxBatchResizes && reps_ < cfg_.max_batch &&
      best_ms_ * reps_ < cfg_.measurement_ms / 4) {
    const std::uint32_t bigger = scale_reps(reps_, best_ms_ * reps_, cfg_.measurement_ms, cfg_.max_batch);
    if (bigger > reps_) {
      std::ostringstream os;
      os << "sample: batch re-sized from " << reps_ << " to " << bigger << " repetitions: a timed batch lasted "
         << best_ms_ * reps_ << " ms against the " << cfg_.measurement_ms
         << " ms target (calibration ran slower than the timed rounds); " << rounds_
         << " round(s) at the old size dropped";
      notes_.push_back(os.str());
      ++batch_resizes_;
      // The dropped rounds stay in the record (as discarded, at the batch size they ran at).
      for (const double ms : kept_ms_) {
        discarded_.push_back({ms, reps_, knob_, "sample", "batch-resized", "kept before the batch was re-sized"});
      }
      for (const double ms : throttled_ms_) {
        discarded_.push_back(
            {ms, reps_, knob_, "sample", "batch-resized", "thermal discard before the batch was re-sized"});
      }
      reps_ = bigger;
      kept_ms_.clear();
      throttled_ms_.clear();
      rounds_ = 0;
      stable_ = 0;
      consecutive_discards_ = 0;
      have_best_ = false;
      best_ms_ = 0;
      phase_ = Phase::WarmUp;
      return;
    }
  }
  if (static_cast<int>(kept_ms_.size()) >= cfg_.min_rounds && stable_ >= cfg_.stable_rounds) {
    return finish(StopReason::Converged);
  }
  if (want_cooldown && budget_->remaining <= 0) flagged_throttled_ = true;
  if (rounds_ >= cfg_.max_rounds) {
    return finish(flagged_throttled_ && last_round_discarded_ ? StopReason::Throttled
                                                              : StopReason::MaxRounds);
  }
  Action sleep;
  sleep.kind = Action::Kind::Sleep;
  sleep.knob = knob_;
  sleep.repetitions = reps_;
  if (want_cooldown && budget_->remaining > 0) {
    // Only spend the shared budget when another round follows: a cooldown after the last round
    // would cost wall time without improving any measurement.
    --budget_->remaining;
    ++cooldowns_taken_;
    consecutive_discards_ = 0;
    sleep.sleep_ms = cfg_.cooldown_ms;
    sleep.cooldown = true;
    sleep.stage = Action::Stage::Cooldown;
  } else if (cfg_.idle_gap_ms > 0) {
    // The idle gap lets boost clocks and power limits recover between measurements, so each
    // measurement starts from a comparable thermal state.
    sleep.sleep_ms = cfg_.idle_gap_ms;
    sleep.stage = Action::Stage::Idle;
  } else {
    return;
  }
  pending_sleep_ = sleep;
  sleep_pending_ = true;
}

void Sampler::finish(StopReason reason) {
  phase_ = Phase::Done;
  stop_reason_ = reason;
  awaiting_result_ = false;
  sleep_pending_ = false;
}

SamplerReport Sampler::report() const {
  SamplerReport r;
  static_cast<Record&>(r) = record();
  r.invalid_ms = invalid_ms_;
  r.stats = compute_stats(kept_ms_);
  r.best_ms = have_best_ ? best_ms_ : 0;
  r.rounds = rounds_;
  r.batch_resizes = batch_resizes_;
  return r;
}

Record Sampler::record() const {
  Record r;
  r.knob = knob_;
  r.repetitions = reps_;
  r.calibration_trace = calibration_trace_;
  r.kept_ms = kept_ms_;
  r.throttled_ms = throttled_ms_;
  r.discarded = discarded_;
  r.notes = notes_;
  r.stop_reason = stop_reason_;
  r.cooldowns_taken = cooldowns_taken_;
  r.flagged_throttled = flagged_throttled_;
  return r;
}

Record per_unit(Record r, double factor) {
  if (!(factor > 0) || factor == 1) return r;
  for (double& ms : r.kept_ms) ms /= factor;
  for (double& ms : r.throttled_ms) ms /= factor;
  for (auto& d : r.discarded) {
    d.ms /= factor;
    d.repetitions = static_cast<std::uint32_t>(d.repetitions * factor);
  }
  for (auto& [n, ms] : r.calibration_trace) {
    n = static_cast<std::uint64_t>(static_cast<double>(n) * factor);
    ms /= factor;
  }
  r.repetitions = static_cast<std::uint32_t>(r.repetitions * factor);
  return r;
}

double Sampler::estimate_remaining_ms() const {
  if (phase_ == Phase::Done) return 0;
  // Once the batch is calibrated, the predicted batch time beats the configured one: a fixed-work
  // benchmark whose single repetition takes 300 ms cannot hit a 100 ms measurement target.
  const bool calibrated = phase_ == Phase::WarmUp || phase_ == Phase::Sample;
  const double batch = calibrated && per_rep_estimate_ms_ > 0
                           ? std::max(cfg_.measurement_ms, per_rep_estimate_ms_ * reps_)
                           : cfg_.measurement_ms;
  double ms = 0;
  switch (phase_) {
    case Phase::CalibrateKnob:
      ms += std::max(1, kTypicalKnobSteps - knob_steps_) * 2 * cfg_.target_dispatch_ms;
      [[fallthrough]];
    case Phase::CalibrateBatch:
      // 4x geometric growth to a quarter of the target sums to under a third of the target;
      // a whole measurement is a safe upper bound including the odd retry.
      ms += cfg_.measurement_ms;
      [[fallthrough]];
    case Phase::WarmUp:
      ms += std::max(batch, cfg_.min_warmup_ms - warmup_spent_ms_);
      [[fallthrough]];
    case Phase::Sample: {
      const int left = std::max(0, cfg_.max_rounds - rounds_);
      ms += left * batch + std::max(0, left - 1) * std::max(0.0, cfg_.idle_gap_ms);
      if (sleep_pending_) ms += pending_sleep_.sleep_ms;
      break;
    }
    case Phase::Done: break;
  }
  return ms;
}

double estimate_total_ms(const SamplerConfig& cfg, const KnobRange& knob) {
  CooldownBudget scratch;
  return Sampler(cfg, knob, scratch).estimate_remaining_ms();
}

}  // namespace wgb::measure
