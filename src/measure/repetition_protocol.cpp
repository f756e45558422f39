// Implementation of RepetitionProtocol (repetition_protocol.hpp).
#include "measure/repetition_protocol.hpp"

#include "measure/contract.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace wgb::measure {

namespace {
constexpr int kMaxUnusable = 100;
constexpr double kOnceMs = 50.0;       // a calibration region this long is timed once
constexpr double kNoScalingMs = 500.0;  // a region this long is not checked for scaling

std::uint32_t reps_of(std::uint64_t repeat) {
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(repeat, std::numeric_limits<std::uint32_t>::max()));
}
}  // namespace

RepetitionProtocol::RepetitionProtocol(RepetitionConfig cfg) : cfg_(cfg) {
  r_.stop_reason = StopReason::FixedRepetitions;
  calibrate();
}

Action RepetitionProtocol::next() {
  Action a;
  if (stage_ == Stage::Done) return a;
  a.kind = Action::Kind::Run;
  a.repetitions = 1;
  a.knob = stage_ == Stage::Calibrate ? count_ : repeat_;
  a.recorded = stage_ == Stage::Timed;
  a.stage = stage_ == Stage::Calibrate ? Action::Stage::Calibrate
            : stage_ == Stage::WarmUp  ? Action::Stage::WarmUp
                                       : Action::Stage::Sample;
  pending_ = true;
  return a;
}

// Calibration (docs/method.md#host-protocol): grow the repeat count until one region lasts
// target_factor x min_region_ms. Each step keeps the fastest of up to three regions (interference
// only adds time), so a region stretched by a preemption or a late thread wake-up cannot end the
// growth early; a region already longer than 50 ms is timed once.
// Linearity: a region long enough is not yet a region of kernel work. Its fixed cost (waking a
// thread team, a member that waits a whole scheduler slice for its CPU on a loaded machine) can
// exceed the target by itself, and then every timed region measures that cost, not the kernel. So
// once a count reaches the target, doubling it must take at least min_scaling times as long (1.9:
// the fixed part is at most 10% of a region). Otherwise the count grows by what the two points
// predict makes the fixed part small (o = t(R) - R p, p = (t(2R) - t(R)) / R, R' = 9 o / p), at
// least x2, and is checked again; after max_scaling_steps, or once a region lasts 500 ms, the count
// stands as it is and `scaling` is 0 (not checked).
void RepetitionProtocol::calibrate() {
  for (; step_ < 128; ++step_) {
    if (best_t_ < 0) return begin_probe(repeat_, Probe::Base);
    if (repeat_ >= cfg_.max_repeat) break;
    if (best_t_ < target()) {
      // Aim a little past the target; at most x1000 per step in case the first region was noise.
      const double factor = best_t_ > 0 ? std::min(1000.0, 1.1 * target() / best_t_) : 1000.0;
      const auto next = static_cast<std::uint64_t>(std::ceil(static_cast<double>(repeat_) * std::max(2.0, factor)));
      repeat_ = std::min(cfg_.max_repeat, std::max(repeat_ + 1, next));
      best_t_ = -1;
      continue;
    }
    if (r_.scaling_steps >= cfg_.max_scaling_steps || best_t_ >= kNoScalingMs) {
      r_.scaling = 0;
      break;
    }
    twice_ = std::min(cfg_.max_repeat, 2 * repeat_);
    return begin_probe(twice_, Probe::Twice);
  }
  start_warmup();
}

void RepetitionProtocol::begin_probe(std::uint64_t count, Probe kind) {
  count_ = count;
  probe_ = kind;
  probe_k_ = 0;
  probe_best_ = 0;
}

void RepetitionProtocol::probe_done(double best) {
  if (probe_ == Probe::Base) {
    best_t_ = best;
    return calibrate();  // the same step goes on with the count timed
  }
  const double t2 = best;
  r_.scaling = t2 / best_t_;
  if (r_.scaling >= cfg_.min_scaling) return start_warmup();
  ++r_.scaling_steps;
  const double per_pass = (t2 - best_t_) / static_cast<double>(twice_ - repeat_);
  double grow = 2.0;
  if (per_pass > 0) {
    const double fixed = std::max(0.0, best_t_ - per_pass * static_cast<double>(repeat_));
    grow = std::min(1000.0, std::max(2.0, 9.0 * fixed / per_pass / static_cast<double>(repeat_)));
  }
  const auto next = static_cast<std::uint64_t>(std::ceil(static_cast<double>(repeat_) * grow));
  repeat_ = std::min(cfg_.max_repeat, std::max(twice_, next));
  best_t_ = repeat_ == twice_ ? t2 : -1;
  ++step_;
  calibrate();
}

// Warm-up at the calibrated count until steady (caches, TLB, page tables, clock ramps).
void RepetitionProtocol::start_warmup() {
  stage_ = Stage::WarmUp;
  previous_ = -1;
}

// The timed set. Should any region come out at or below the floor (the kernel got faster after
// warm-up, or calibration was fooled by preempted regions), the set is discarded and timed again
// with the repeat count scaled so the shortest region would reach the target (at least x2), at
// most three times; short_regions reports what remains.
void RepetitionProtocol::start_set() {
  stage_ = Stage::Timed;
  r_.region_ms.clear();
  r_.kept_ms.clear();
  r_.short_regions = 0;
}

void RepetitionProtocol::end_set() {
  if (r_.short_regions == 0 || attempt_ == 3 || repeat_ >= cfg_.max_repeat) {
    stage_ = Stage::Done;
    return;
  }
  const std::string note = std::to_string(r_.short_regions) + " of " + std::to_string(r_.region_ms.size()) +
                           " timed regions were not longer than the minimum region; the set was timed again "
                           "with more passes per region";
  for (const double t : r_.region_ms) {
    r_.discarded.push_back({t / static_cast<double>(repeat_), reps_of(repeat_), repeat_, "sample", "batch-resized", note});
  }
  const double shortest = std::max(1e-9, *std::min_element(r_.region_ms.begin(), r_.region_ms.end()));
  const double factor = std::min(1e6, std::max(2.0, std::ceil(1.1 * target() / shortest)));
  repeat_ = std::min(cfg_.max_repeat, static_cast<std::uint64_t>(static_cast<double>(repeat_) * factor));
  ++r_.recalibrations;
  ++attempt_;
  start_set();
}

void RepetitionProtocol::discard(double region_ms, const char* reason, std::string note) {
  const std::uint64_t count = stage_ == Stage::Calibrate ? count_ : repeat_;
  const char* stage = stage_ == Stage::Calibrate ? "calibrate" : stage_ == Stage::WarmUp ? "warm-up" : "sample";
  r_.discarded.push_back({region_ms / static_cast<double>(count), reps_of(count), count, stage, reason, std::move(note)});
  pending_ = false;
  // The region is run again; a reading that never becomes usable ends the protocol.
  if (++unusable_ >= kMaxUnusable) stage_ = Stage::Done;
}

void RepetitionProtocol::reject(double region_ms, std::string reason, std::string note) {
  if (!pending_) contract_violation("RepetitionProtocol::reject() without a pending Run action");
  discard(region_ms, reason.c_str(), std::move(note));
}

void RepetitionProtocol::add(double t) {
  if (!pending_) contract_violation("RepetitionProtocol::add() without a pending Run action");
  if (!std::isfinite(t) || t <= 0) return discard(t, "unusable", "region time not finite or not positive");
  pending_ = false;
  switch (stage_) {
    case Stage::Calibrate: {
      r_.calibration_trace.emplace_back(count_, t / static_cast<double>(count_));
      probe_best_ = probe_k_ == 0 ? t : std::min(probe_best_, t);
      ++probe_k_;
      const bool enough = probe_ == Probe::Base ? t > kOnceMs || probe_best_ < target()
                                                : t > kOnceMs && probe_best_ >= cfg_.min_scaling * best_t_;
      if (enough || probe_k_ == 3) probe_done(probe_best_);
      return;
    }
    case Stage::WarmUp: {
      r_.warmup_ms += t;
      ++r_.warmup_runs;
      const bool steady = previous_ > 0 && std::fabs(t - previous_) <= cfg_.steady_tolerance * previous_;
      previous_ = t;
      const int cap_runs = std::max(cfg_.warmup_min_runs, 4) * 25;
      if (r_.warmup_runs >= cfg_.warmup_min_runs && r_.warmup_ms >= cfg_.warmup_ms && steady) {
        r_.warmup_steady = true;
        start_set();
      } else if (r_.warmup_runs >= cfg_.warmup_min_runs &&
                 (r_.warmup_ms >= 4 * cfg_.warmup_ms || r_.warmup_runs >= cap_runs)) {
        start_set();
      }
      return;
    }
    case Stage::Timed: {
      r_.region_ms.push_back(t);
      r_.kept_ms.push_back(t / static_cast<double>(repeat_));
      if (t <= cfg_.min_region_ms) ++r_.short_regions;
      if (r_.region_ms.size() >= static_cast<std::size_t>(std::max(1, cfg_.repetitions))) end_set();
      return;
    }
    case Stage::Done: return;
  }
}

RepetitionReport RepetitionProtocol::report() const {
  RepetitionReport r = r_;
  r.knob = repeat_;
  r.repetitions = reps_of(repeat_);
  return r;
}

double RepetitionProtocol::estimate_remaining_ms() const {
  const double region = std::max(target(), best_t_);
  const auto reps = static_cast<double>(std::max(1, cfg_.repetitions));
  switch (stage_) {
    case Stage::Calibrate: return 6 * region + cfg_.warmup_ms + reps * region;
    case Stage::WarmUp: return std::max(0.0, cfg_.warmup_ms - r_.warmup_ms) + reps * region;
    case Stage::Timed: return (reps - static_cast<double>(r_.region_ms.size())) * region;
    case Stage::Done: return 0;
  }
  return 0;
}

}  // namespace wgb::measure
