// Phase engine of the memory suite (docs/method.md#phases): calibrate the dispatch count per pass,
// warm up, record passes until the phase budget is spent (with a minimum count and a hard stop),
// then reject outliers by modified z-score and report the median.  Same Action protocol as
// Sampler; the driver executes passes and feeds back their durations, nothing here reads a clock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "measure/sampler.hpp"
#include "measure/stats.hpp"

namespace wgb::measure {

struct PhaseConfig {
  double target_sample_ms = 40;    // ~80 when only the wall clock exists (caller passes it)
  double budget_ms = 2000;         // sampling budget for the phase
  double warmup_max_ms = 500;      // warm-up for up to 500 ms, at most a tenth of the budget
  std::size_t min_samples = 8;
  double hard_stop_factor = 2.5;   // hard stop at 2.5x budget
  double z_threshold = 3.5;
  std::uint32_t max_dispatches = 1u << 20;
  int max_calibration_steps = 16;
};

// Budgets are accounted as the sum of the pass durations fed to add(), not host wall time: the
// driver's per-pass overhead (readback, acknowledgement waits) is outside the budget.  This keeps
// the engine clock-free; the phase's real duration is therefore somewhat longer than budget_ms.
class PhaseSampler final : public Protocol {  // Action.repetitions = dispatches per pass; Action.knob is 1
 public:
  explicit PhaseSampler(PhaseConfig cfg);

  // A Run is repeated by every next() until add() delivers its result.  Done once finished.
  Action next() override;
  // Duration of the last pass (ms).  Non-finite or <= 0 values are recorded as invalid and, so
  // the phase still terminates, charged at the nominal target_sample_ms against the budget.
  // Throws std::logic_error without a pending Run.
  void add(double pass_ms) override;
  // A pass measured but unusable (its timestamp failed the cross-check): recorded as discarded with
  // `reason` and charged like an unusable duration. Throws std::logic_error without a pending Run.
  void reject(double pass_ms, std::string reason, std::string note) override;
  bool done() const override { return phase_ == Phase::Done; }

  struct Report {
    std::uint32_t dispatches = 1;     // calibrated dispatches per sample
    std::vector<double> samples_ms;   // every recorded pass (ms per pass), valid ones only
    std::vector<double> kept_ms, rejected_ms;
    std::vector<double> invalid_ms;   // unusable values fed to add() (<= 0, NaN, inf)
    std::vector<std::string> notes;
    double median_ms = 0;             // median of kept
    double cv = 0;                    // coefficient of variation of kept
    Stats stats;                      // of kept
    double warmup_ms_spent = 0;
    double sampled_ms = 0;            // accumulated recorded pass time
    bool hit_hard_stop = false;
  };
  Report report() const;
  // Per dispatch: kept passes after outlier rejection; the outliers, unusable and rejected passes
  // as discarded entries; stop reason Budget or HardStop.
  Record record() const override;
  double estimate_remaining_ms() const override;

 private:
  enum class Phase { Calibrate, WarmUp, Sample, Done };

  void record_invalid(double pass_ms, const char* stage);
  const char* stage_name() const;
  void add_calibration(double pass_ms, bool valid);
  void add_sample(double pass_ms, bool valid);
  void start_warmup();
  double warmup_limit_ms() const;
  double typical_pass_ms() const;

  PhaseConfig cfg_;
  Phase phase_ = Phase::Calibrate;
  std::uint32_t dispatches_ = 1;
  bool awaiting_result_ = false;
  int calibration_steps_ = 0;
  double last_pass_ms_ = 0;
  double warmup_ms_ = 0;
  double sampled_ms_ = 0;
  bool hit_hard_stop_ = false;
  std::vector<double> samples_ms_, invalid_ms_;
  std::vector<std::string> notes_;
  std::vector<DiscardedSample> discarded_;
  std::vector<std::pair<std::uint64_t, double>> calibration_trace_;  // (dispatches, ms per dispatch)
  bool rejecting_ = false;  // inside reject(): the discarded entry is written by reject() itself
};

}  // namespace wgb::measure
