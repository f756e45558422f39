// One benchmark over a parameter range as a front-end Job (frontend.hpp): `webgpu-bench sweep`. Each
// row is one point of the series (suite/sweep.hpp SweepRun: run_suite at the point's value);
// the document carries the series' "sweep" object, rewritten with every point; under the rows, the
// series table and its notes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frontend/frontend.hpp"
#include "suite/sweep.hpp"

namespace wgb::frontend {

struct SweepJobOptions {
  BenchmarkDefinition benchmark;
  SweepSpec spec;              // points (the adapter's limits already applied)
  SuiteOptions base;           // its context is the device every point runs on
  bool estimate = true;        // budget-based estimates for the progress bar (costs one preparation)
  std::vector<std::string> command;
  report::MachineRecord machine;
};

class SweepJob final : public Job {
 public:
  explicit SweepJob(SweepJobOptions options);
  ~SweepJob() override;

  const gpu::Context* device() const override { return o_.base.context; }
  Status start(const JobContext& context) override;
  report::ResultDocument& document() override { return *doc_; }
  std::vector<BenchmarkResult> planned() const override;
  std::vector<double> estimates_s() const override;
  std::optional<BenchmarkResult> next() override { return run_->next(); }
  std::optional<Error> fatal() const override { return run_ ? run_->fatal() : std::nullopt; }
  void record(BenchmarkResult& row) override;
  std::string progress_line(const BenchmarkResult& row) const override;
  void finish(const Outcome& outcome) override;
  std::string summary(std::size_t width) const override;

 private:
  SweepJobOptions o_;
  std::optional<report::ResultDocument> doc_;
  std::optional<SweepRun> run_;
};

}  // namespace wgb::frontend
