// memory-sustain: the copy kernel continuously for --sustain-ms. Its statistic is its own
// (docs/method.md#memory-workload): the median rate of the last 60 % of the samples, and retention,
// that median divided by the median of the first 20 %, with outliers rejected inside each window.
#include <fmt/format.h>

#include <vector>

#include "memory/phases.hpp"
#include "memory/sustain.hpp"

namespace wgb::memory {

namespace {

class SustainWorkload final : public PhaseWorkload {
 public:
  SustainWorkload(Fixture& f, std::unique_ptr<PhaseWorkload> copy) : f_(f), copy_(std::move(copy)) {}
  void encode(wgpu::ComputePassEncoder& pass, std::uint32_t units) override { copy_->encode(pass, units); }
  void after_timing() override { copy_->after_timing(); }
  Expected<std::string> validate() override { return copy_->validate(); }

  // The windows decide what is kept, not the rule over the whole run: its kept and rejected samples
  // are the windows' decisions, so that the row's statistics, its counts and its timeline say the
  // same thing.
  void choose_kept(PhaseOutcome& o) override {
    const auto& passes = o.report.samples_ms;
    rates_.clear();
    for (double ms : passes) rates_.push_back(o.units * o.per_pass / (ms / 1000.0));
    summary_ = summarize_sustain(rates_);
    auto& rec = o.record;
    rec.kept_ms.clear();
    o.rejected_ms.clear();
    std::erase_if(rec.discarded, [](const DiscardedSample& d) { return d.reason == "outlier"; });
    for (std::size_t i = 0; i < passes.size(); ++i) {
      if (summary_.rejected[i]) {
        o.rejected_ms.push_back(passes[i]);
        rec.discarded.push_back({passes[i] / o.per_pass, rec.repetitions, 1, "sample", "outlier",
                                 "outside its sustain window's spread (docs/method.md#memory-workload)"});
      } else {
        rec.kept_ms.push_back(passes[i] / o.per_pass);
      }
    }
  }

  void describe(BenchmarkResult& row, const PhaseOutcome& o, report::MemoryPhaseParameters& p) const override {
    copy_->describe(row, o, p);
    const SustainSummary& s = summary_;
    const auto& passes = o.report.samples_ms;
    const auto& end_s = o.record.recorded_end_s;
    auto& timeline = p.timeline.emplace();
    for (std::size_t i = 0; i < rates_.size(); ++i) {
      timeline.push_back({.t_s = i < end_s.size() ? end_s[i] : 0.0,
                          .gbps = rates_[i] / 1e9,
                          .ms = passes[i],
                          .rejected = static_cast<bool>(s.rejected[i])});
    }
    p.sustain_ms = f_.options().sustain_ms;
    p.retention = s.retention;
    p.retention_reading = retention_reading(s.retention);
    p.first20_median_gbps = s.first_median / 1e9;
    p.last60_median_gbps = s.last_median / 1e9;
    p.first20_samples = s.first_count;
    p.last60_samples = s.last_count;
    if (s.last_median > 0) {
      row.value = s.last_median;
      row.time_ms = o.units / s.last_median * 1000.0;
      row.value_low = s.last_q1;
      row.value_high = s.last_q3;
      p.median_gbps = row.value / 1e9;
    }
  }

 private:
  Fixture& f_;
  std::unique_ptr<PhaseWorkload> copy_;
  std::vector<double> rates_;  // bytes/s of every pass in time order
  SustainSummary summary_;
};

}  // namespace

PhaseDefinition sustain_phase() {
  PhaseDefinition d = copy_phase();
  d.phase = Phase::Sustain;
  d.name = "sustain";
  d.label = "Sustained copy";
  d.description =
      "The copy kernel continuously; median of the last 60 % of samples, and retention: that median divided by "
      "the median of the first 20 %.";
  d.budget_ms = [](const MemoryOptions& o) { return o.sustain_ms; };
  d.prepare = [](Fixture& f) -> Expected<std::unique_ptr<PhaseWorkload>> {
    auto copy = prepare_copy(f);
    if (!copy) return std::move(copy).error();
    return std::unique_ptr<PhaseWorkload>(std::make_unique<SustainWorkload>(f, std::move(*copy)));
  };
  return d;
}

}  // namespace wgb::memory
