// Implementation of the PhaseSampler (phase_sampler.hpp).
#include "measure/phase_sampler.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include "measure/contract.hpp"

namespace wgb::measure {
PhaseSampler::PhaseSampler(PhaseConfig cfg) : cfg_(cfg) {
  cfg_.max_dispatches = std::max<std::uint32_t>(1, cfg_.max_dispatches);
  cfg_.max_calibration_steps = std::max(1, cfg_.max_calibration_steps);
  cfg_.hard_stop_factor = std::max(1.0, cfg_.hard_stop_factor);
}

Action PhaseSampler::next() {
  if (phase_ == Phase::Done) return Action{};
  awaiting_result_ = true;
  return Action::run(1, dispatches_,
                     phase_ == Phase::Sample   ? Action::Stage::Sample
                     : phase_ == Phase::WarmUp ? Action::Stage::WarmUp
                                               : Action::Stage::Calibrate);
}

double PhaseSampler::warmup_limit_ms() const {
  // Up to warmup_max_ms so clocks ramp, but never more than a tenth of the budget: a short phase
  // must not spend most of its time unrecorded.
  return std::max(0.0, std::min(cfg_.warmup_max_ms, cfg_.budget_ms / 10));
}

double PhaseSampler::typical_pass_ms() const {
  if (!samples_ms_.empty()) return median(samples_ms_);
  if (last_pass_ms_ > 0) return last_pass_ms_;
  return cfg_.target_sample_ms;
}

const char* PhaseSampler::stage_name() const {
  return phase_ == Phase::Sample ? "sample" : phase_ == Phase::WarmUp ? "warm-up" : "calibrate";
}

void PhaseSampler::record_invalid(double pass_ms, const char* stage) {
  invalid_ms_.push_back(pass_ms);
  if (rejecting_) return;
  discarded_.push_back({pass_ms / dispatches_, dispatches_, 1, stage, "unusable", ""});
  std::ostringstream os;
  os << stage << ": ignored unusable pass duration " << pass_ms << " ms (" << dispatches_
     << " dispatches)";
  notes_.push_back(os.str());
}

void PhaseSampler::start_warmup() {
  phase_ = warmup_limit_ms() > 0 ? Phase::WarmUp : Phase::Sample;
}

void PhaseSampler::add(double pass_ms) {
  if (!awaiting_result_) contract_violation("PhaseSampler::add() without a pending Run action");
  awaiting_result_ = false;
  const bool valid = std::isfinite(pass_ms) && pass_ms > 0;
  if (valid) last_pass_ms_ = pass_ms;
  if (phase_ == Phase::Calibrate && !rejecting_) calibration_trace_.emplace_back(dispatches_, pass_ms / dispatches_);
  switch (phase_) {
    case Phase::Calibrate: add_calibration(pass_ms, valid); break;
    case Phase::WarmUp:
      if (!valid) record_invalid(pass_ms, "warm-up");
      // An unusable reading is charged at the nominal pass length so warm-up stays bounded.
      warmup_ms_ += valid ? pass_ms : cfg_.target_sample_ms;
      if (warmup_ms_ >= warmup_limit_ms()) phase_ = Phase::Sample;
      break;
    case Phase::Sample: add_sample(pass_ms, valid); break;
    case Phase::Done: break;
  }
}

void PhaseSampler::reject(double pass_ms, std::string reason, std::string note) {
  if (!awaiting_result_) contract_violation("PhaseSampler::reject() without a pending Run action");
  discarded_.push_back({pass_ms / dispatches_, dispatches_, 1, stage_name(), std::move(reason), std::move(note)});
  rejecting_ = true;
  add(std::numeric_limits<double>::quiet_NaN());  // charged like an unusable pass: the phase still ends
  rejecting_ = false;
}

void PhaseSampler::add_calibration(double pass_ms, bool valid) {
  const auto counted = count_calibration_step(
      calibration_steps_, cfg_.max_calibration_steps, valid, [&] { record_invalid(pass_ms, "calibrate"); },
      [&] { start_warmup(); });
  if (!counted) return;
  const bool out_of_steps = *counted;
  // Per-pass overhead here is submit and timestamp writes (size_batch says why it grows first).
  const BatchStep step = size_batch(dispatches_, pass_ms, cfg_.target_sample_ms, cfg_.max_dispatches, out_of_steps);
  dispatches_ = step.count;
  if (step.done) start_warmup();
}

void PhaseSampler::add_sample(double pass_ms, bool valid) {
  if (valid) {
    samples_ms_.push_back(pass_ms);
    sampled_ms_ += pass_ms;
  } else {
    record_invalid(pass_ms, "sample");
    sampled_ms_ += cfg_.target_sample_ms;  // keeps a device returning garbage from looping forever
  }
  if (sampled_ms_ >= cfg_.budget_ms && samples_ms_.size() >= cfg_.min_samples) {
    phase_ = Phase::Done;
    return;
  }
  // Slow devices: keep going past the budget for min_samples, but stop before the next pass would
  // (judging by the median pass so far) take the phase past the hard stop.
  const double hard_stop = cfg_.hard_stop_factor * cfg_.budget_ms;
  if (sampled_ms_ >= hard_stop || sampled_ms_ + typical_pass_ms() > hard_stop) {
    hit_hard_stop_ = true;
    phase_ = Phase::Done;
  }
}

PhaseSampler::Report PhaseSampler::report() const {
  Report r;
  r.dispatches = dispatches_;
  r.samples_ms = samples_ms_;
  Rejection rej = reject_outliers_mad(samples_ms_, cfg_.z_threshold);
  r.kept_ms = std::move(rej.kept);
  r.rejected_ms = std::move(rej.rejected);
  r.invalid_ms = invalid_ms_;
  r.notes = notes_;
  r.stats = compute_stats(r.kept_ms);
  // The median, not the mean or best: memory passes have a symmetric-ish spread around a
  // sustained rate, and the median is insensitive to whatever rejection missed (docs/method.md#statistic).
  r.median_ms = r.stats.median;
  r.cv = r.stats.cv;
  r.warmup_ms_spent = warmup_ms_;
  r.sampled_ms = sampled_ms_;
  r.hit_hard_stop = hit_hard_stop_;
  return r;
}

Record PhaseSampler::record() const {
  const Report rep = report();
  Record r;
  r.knob = 1;
  r.repetitions = dispatches_;
  r.calibration_trace = calibration_trace_;
  const double n = dispatches_;
  for (double ms : rep.kept_ms) r.kept_ms.push_back(ms / n);
  r.discarded = discarded_;
  for (double ms : rep.rejected_ms) {
    r.discarded.push_back({ms / n, dispatches_, 1, "sample", "outlier",
                           "modified z-score above the threshold (docs/method.md#phases)"});
  }
  r.notes = notes_;
  r.stop_reason = hit_hard_stop_ ? StopReason::HardStop : StopReason::Budget;
  return r;
}

double PhaseSampler::estimate_remaining_ms() const {
  double ms = 0;
  switch (phase_) {
    case Phase::Calibrate:
      // 4x growth to a quarter of the target sums to under a third of it; round up to one target.
      ms += cfg_.target_sample_ms;
      [[fallthrough]];
    case Phase::WarmUp:
      ms += std::max(0.0, warmup_limit_ms() - warmup_ms_);
      [[fallthrough]];
    case Phase::Sample: {
      const double pass = phase_ == Phase::Sample ? typical_pass_ms() : cfg_.target_sample_ms;
      const double missing = static_cast<double>(
          cfg_.min_samples > samples_ms_.size() ? cfg_.min_samples - samples_ms_.size() : 0);
      const double need = std::max(cfg_.budget_ms - sampled_ms_, missing * pass);
      ms += std::clamp(need, 0.0,
                       std::max(0.0, cfg_.hard_stop_factor * cfg_.budget_ms - sampled_ms_));
      break;
    }
    case Phase::Done: break;
  }
  return ms;
}

}  // namespace wgb::measure
