// Progress of a suite run (docs/method.md#sampling): an event stream from the scheduler
// (ProgressEvent) and the SuiteProgress estimator that turns it into a completion fraction and an
// honest ETA with an empirical uncertainty range. The engine never prints; the CLI draws.
// All times are seconds on the scheduler's clock, fed in through events and tick(); nothing here
// reads a clock. Standard library only: part of the public API (include/webgpu_bench).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wgb {

struct ProgressEvent {  // emitted by the scheduler
  enum class Kind {
    SuiteStart, BenchmarkStart, Stage, BenchmarkEnd, PauseStart, PauseEnd, CooldownStart, CooldownEnd,
    // Right after SuiteStart, once per benchmark that preparation already resolved (skipped, or
    // failed to prepare): it will cost nothing, so the estimate counts it as zero from the start.
    Resolved
  } kind = Kind::Stage;
  double now_s = 0;          // scheduler clock
  std::size_t index = 0;     // benchmark index
  std::string id;
  double expected_s = 0;     // BenchmarkStart: initial estimate of this benchmark; CooldownStart: length
  std::string stage;         // free text ("calibrate", "sample 3/10", ...)
};

class SuiteProgress {
 public:
  // Estimate for a benchmark that has neither an initial estimate nor a BenchmarkStart estimate
  // and no other estimate to borrow from: about one default-config sampler run.
  static constexpr double kDefaultBenchmarkEstimateS = 2.0;
  // A benchmark that finishes faster than this was skipped or failed early; its duration says
  // nothing about how long timed benchmarks take, so it does not refine the ratio.
  static constexpr double kMinTimedS = 0.05;
  // While the current benchmark overruns its estimate, reserve this fraction of its estimate
  // (at least kMinOverrunReserveS) instead of counting down to zero and stalling there.
  static constexpr double kOverrunReserveFraction = 0.1;
  static constexpr double kMinOverrunReserveS = 0.1;
  // display_fraction stays below this until finish(): only finish() may show 100%.
  static constexpr double kMaxFractionBeforeFinish = 0.999;

  // initial_estimates_s: per-benchmark budget-based estimates (calibration + warm-up + rounds *
  // (measurement + gap)), one per benchmark. 0 is a benchmark known to cost nothing (resolved at
  // prepare time); missing, negative or non-finite entries are unknown and borrow the mean of the
  // known non-zero ones.
  explicit SuiteProgress(std::size_t benchmark_count, std::vector<double> initial_estimates_s = {});

  void on_progress(const ProgressEvent& e);
  void on_result(std::size_t index, double now_s);  // a benchmark finished (ok/skipped/error alike)
  // A benchmark finished, at the time of the latest event (the scheduler emits
  // BenchmarkEnd just before it yields the row), for callers that do not read its clock.
  void on_result(std::size_t index) { on_result(index, now_s_); }
  void tick(double now_s);                           // poll between events to advance the countdown
  void finish();

  double display_fraction() const;                     // in [0,1); 1.0 only after finish()
  std::optional<double> remaining_seconds() const;     // unrounded; nullopt during an unbounded pause
  std::optional<std::pair<double, double>> remaining_seconds_range() const;  // (low, high)
  bool is_approximate() const;      // true until one benchmark's duration has been measured
  bool paused() const { return paused_; }      // inside an unbounded pause (no ETA)
  bool finished() const { return finished_; }  // finish() was called
  std::size_t completed_benchmarks() const { return completed_count_; }
  std::size_t benchmark_count() const { return states_.size(); }
  const std::string& current_stage() const { return stage_; }

 private:
  struct BenchState {
    double initial_s = 0;       // from the constructor (or 0 once Resolved)
    bool initial_known = false; // initial_s is an estimate, 0 included; false: unknown
    double baseline_s = 0;      // estimate the ratio is measured against (set at start)
    bool started = false;
    bool ended = false;         // BenchmarkEnd or on_result seen: timing frozen
    bool completed = false;     // on_result seen
    double start_s = 0;
    double excluded_s = 0;      // pause + cooldown time inside this benchmark
    double duration_s = 0;      // active duration, valid once ended
  };

  void advance(double now_s);
  void end_benchmark(std::size_t index, double now_s);
  void close_pause(double now_s);
  double excluded_so_far(const BenchState& b) const;
  double estimate_for(std::size_t index) const;
  double ratio() const;
  double remaining_with_ratio(double r) const;
  void update_fraction();

  std::vector<BenchState> states_;
  std::size_t completed_count_ = 0;
  std::optional<std::size_t> current_;
  bool suite_started_ = false;
  double suite_start_s_ = 0;
  double now_s_ = 0;
  bool paused_ = false;
  double pause_start_s_ = 0;
  bool in_cooldown_ = false;
  double cooldown_start_s_ = 0;
  double cooldown_end_s_ = 0;
  double timed_actual_s_ = 0, timed_baseline_s_ = 0;  // sums over benchmarks used for the ratio
  std::vector<double> ratios_;                         // per-benchmark actual / baseline
  double fraction_ = 0;
  bool finished_ = false;
  std::string stage_;
};

}  // namespace wgb
