// Implementation of SuiteProgress (progress.hpp).
//
// Model: remaining = (current benchmark's expected remainder, never below an overrun reserve)
//                  + (sum of unstarted benchmarks' estimates) * ratio
//                  + (rest of a scheduled cooldown),
// where ratio = sum(actual active durations) / sum(estimates) over benchmarks that really timed.
// Active durations exclude pauses and cooldowns: those are unscheduled events, and folding them into
// the ratio would inflate the estimate for every later benchmark.
#include "webgpu_bench/progress.hpp"

#include <algorithm>
#include <cmath>

namespace wgb {
namespace {

// Ratio spread assumed before anything was measured: budget-based estimates are typically off by
// less than 2x either way (convergence ends most samplers well before max_rounds).
constexpr double kPriorLowRatio = 0.5, kPriorHighRatio = 2.0;
// With fewer than kMinRatiosForSpread observations, min/max of the ratios understate the spread;
// widen the range around the mean by at least these factors.
constexpr std::size_t kMinRatiosForSpread = 3;
constexpr double kSmallSampleLow = 0.8, kSmallSampleHigh = 1.25;

bool positive(double x) { return std::isfinite(x) && x > 0; }

}  // namespace

SuiteProgress::SuiteProgress(std::size_t benchmark_count, std::vector<double> initial_estimates_s)
    : states_(benchmark_count) {
  for (std::size_t i = 0; i < benchmark_count && i < initial_estimates_s.size(); ++i) {
    const double e = initial_estimates_s[i];
    if (std::isfinite(e) && e >= 0) {  // 0 is known (costs nothing), not unknown
      states_[i].initial_s = e;
      states_[i].initial_known = true;
    }
  }
}

double SuiteProgress::estimate_for(std::size_t index) const {
  const BenchState& b = states_[index];
  if (b.initial_known) return b.initial_s;
  if (b.baseline_s > 0) return b.baseline_s;
  // Unknown: borrow the mean of what is known (initial estimates first, then start-time ones).
  // Benchmarks known to cost nothing say nothing about the ones that do: left out of the mean.
  double sum = 0;
  std::size_t n = 0;
  for (const BenchState& s : states_) {
    if (s.initial_s > 0) {
      sum += s.initial_s;
      ++n;
    }
  }
  if (n == 0) {
    for (const BenchState& s : states_) {
      if (s.baseline_s > 0) {
        sum += s.baseline_s;
        ++n;
      }
    }
  }
  return n > 0 ? sum / static_cast<double>(n) : kDefaultBenchmarkEstimateS;
}

double SuiteProgress::excluded_so_far(const BenchState& b) const {
  double x = b.excluded_s;
  if (paused_) x += std::max(0.0, now_s_ - pause_start_s_);
  if (in_cooldown_) x += std::max(0.0, std::min(now_s_, cooldown_end_s_) - cooldown_start_s_);
  return x;
}

void SuiteProgress::advance(double now_s) {
  if (!std::isfinite(now_s)) return;
  if (!suite_started_) {
    suite_started_ = true;
    suite_start_s_ = now_s;
    now_s_ = now_s;
  }
  // The scheduler clock is monotone; an out-of-order event must not move the countdown backwards.
  now_s_ = std::max(now_s_, now_s);
  if (in_cooldown_ && now_s_ >= cooldown_end_s_) {
    // A cooldown without CooldownEnd is over at its scheduled end.
    if (current_) states_[*current_].excluded_s += cooldown_end_s_ - cooldown_start_s_;
    in_cooldown_ = false;
  }
}

void SuiteProgress::close_pause(double now_s) {
  if (!paused_) return;
  if (current_) states_[*current_].excluded_s += std::max(0.0, now_s - pause_start_s_);
  paused_ = false;
}

void SuiteProgress::end_benchmark(std::size_t index, double now_s) {
  if (index >= states_.size()) return;
  BenchState& b = states_[index];
  if (b.ended) return;
  b.ended = true;
  if (!b.started) return;  // resolved without running (skipped up front)
  const bool is_current = current_ && *current_ == index;
  b.duration_s = std::max(0.0, now_s - b.start_s - (is_current ? excluded_so_far(b) : b.excluded_s));
  if (is_current) {
    in_cooldown_ = false;       // a cooldown belongs to its benchmark
    pause_start_s_ = now_s;     // any still-open pause is no longer charged to this benchmark
    current_.reset();
  }
  if (b.duration_s >= kMinTimedS && b.baseline_s > 0) {
    timed_actual_s_ += b.duration_s;
    timed_baseline_s_ += b.baseline_s;
    ratios_.push_back(b.duration_s / b.baseline_s);
  }
}

void SuiteProgress::on_progress(const ProgressEvent& e) {
  if (finished_) return;
  using K = ProgressEvent::Kind;
  switch (e.kind) {
    case K::SuiteStart:
      if (std::isfinite(e.now_s)) {
        suite_started_ = true;
        suite_start_s_ = e.now_s;
        now_s_ = std::max(now_s_, e.now_s);
      }
      break;
    case K::BenchmarkStart: {
      advance(e.now_s);
      if (e.index >= states_.size()) break;
      if (current_ && *current_ != e.index) end_benchmark(*current_, now_s_);
      BenchState& b = states_[e.index];
      // The ratio must compare like with like: prefer the constructor's (budget-based) estimate,
      // which is what unstarted benchmarks are estimated with.
      b.baseline_s = b.initial_known          ? b.initial_s
                     : positive(e.expected_s) ? e.expected_s
                                              : estimate_for(e.index);
      b.started = true;
      b.ended = false;
      b.start_s = now_s_;
      b.excluded_s = 0;
      current_ = e.index;
      break;
    }
    case K::Stage:
      advance(e.now_s);
      stage_ = e.stage;
      break;
    case K::BenchmarkEnd:
      advance(e.now_s);
      end_benchmark(e.index, now_s_);
      break;
    case K::PauseStart:
      advance(e.now_s);
      if (!paused_) {
        paused_ = true;
        pause_start_s_ = now_s_;
      }
      break;
    case K::PauseEnd:
      advance(e.now_s);
      close_pause(now_s_);
      break;
    case K::CooldownStart:
      advance(e.now_s);
      if (in_cooldown_ && current_) states_[*current_].excluded_s += now_s_ - cooldown_start_s_;
      in_cooldown_ = true;
      cooldown_start_s_ = now_s_;
      cooldown_end_s_ = now_s_ + (positive(e.expected_s) ? e.expected_s : 0.0);
      break;
    case K::CooldownEnd:
      advance(e.now_s);
      if (in_cooldown_) {
        if (current_) states_[*current_].excluded_s += now_s_ - cooldown_start_s_;
        in_cooldown_ = false;
      }
      break;
    case K::Resolved:
      advance(e.now_s);
      if (e.index < states_.size() && !states_[e.index].started) {
        states_[e.index].initial_s = 0;
        states_[e.index].initial_known = true;
      }
      break;
  }
  update_fraction();
}

void SuiteProgress::on_result(std::size_t index, double now_s) {
  if (finished_) return;
  advance(now_s);
  if (index < states_.size()) {
    end_benchmark(index, now_s_);
    if (!states_[index].completed) {
      states_[index].completed = true;
      ++completed_count_;
    }
  }
  update_fraction();
}

void SuiteProgress::tick(double now_s) {
  if (finished_) return;
  advance(now_s);
  update_fraction();
}

void SuiteProgress::finish() {
  finished_ = true;
  paused_ = false;
  in_cooldown_ = false;
  fraction_ = 1.0;
}

double SuiteProgress::ratio() const {
  return timed_baseline_s_ > 0 ? timed_actual_s_ / timed_baseline_s_ : 1.0;
}

double SuiteProgress::remaining_with_ratio(double r) const {
  double rem = 0;
  for (std::size_t i = 0; i < states_.size(); ++i) {
    const BenchState& b = states_[i];
    if (b.completed || b.ended) continue;
    if (current_ && *current_ == i) {
      const double expected = b.baseline_s * r;
      const double active = now_s_ - b.start_s - excluded_so_far(b);
      // An overrunning benchmark is not "about to finish": reserve a slice of its estimate so the
      // countdown does not sit at zero while unstarted benchmarks still wait.
      const double reserve = std::max(kMinOverrunReserveS, kOverrunReserveFraction * expected);
      rem += std::max(expected - active, reserve);
    } else {
      rem += estimate_for(i) * r;
    }
  }
  if (in_cooldown_) rem += std::max(0.0, cooldown_end_s_ - now_s_);
  return rem;
}

void SuiteProgress::update_fraction() {
  if (finished_ || paused_) return;
  const double elapsed = std::max(0.0, now_s_ - suite_start_s_);
  const double rem = remaining_with_ratio(ratio());
  if (elapsed + rem <= 0) return;
  // Monotone by construction: a refined (longer) estimate must never move the bar backwards.
  fraction_ = std::max(fraction_, std::min(elapsed / (elapsed + rem), kMaxFractionBeforeFinish));
}

double SuiteProgress::display_fraction() const { return fraction_; }

std::optional<double> SuiteProgress::remaining_seconds() const {
  if (finished_) return 0.0;
  if (paused_) return std::nullopt;  // unbounded: no honest number exists
  return remaining_with_ratio(ratio());
}

std::optional<std::pair<double, double>> SuiteProgress::remaining_seconds_range() const {
  if (finished_) return std::pair{0.0, 0.0};
  if (paused_) return std::nullopt;
  double lo = kPriorLowRatio, hi = kPriorHighRatio;
  if (!ratios_.empty()) {
    const auto [mn, mx] = std::minmax_element(ratios_.begin(), ratios_.end());
    lo = *mn;
    hi = *mx;
    if (ratios_.size() < kMinRatiosForSpread) {
      lo = std::min(lo, ratio() * kSmallSampleLow);
      hi = std::max(hi, ratio() * kSmallSampleHigh);
    }
  }
  // remaining_with_ratio is non-decreasing in the ratio, so the bounds bracket the point estimate.
  return std::pair{remaining_with_ratio(lo), remaining_with_ratio(hi)};
}

bool SuiteProgress::is_approximate() const { return !finished_ && ratios_.empty(); }

}  // namespace wgb
