// The default suite (or a filter of the catalog) on a GPU as a front-end Job (frontend.hpp): the
// command line's `run` and the browser engine's run of the catalog are this one job with different
// machine records and options. Selection by globs, the adapter's own subgroup-matrix shapes with
// the experimental features, the ceilings of an earlier document, the suite through the one driver,
// the result document and what is printed under the table.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend/frontend.hpp"
#include "report/repro.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb::frontend {

struct DefaultJobOptions {
  SuiteOptions suite;        // device, sampling, sizes, order (benchmarks: chosen by `filter`)
  gpu::Context* context = nullptr;  // measure on this device instead of opening one (the browser's)
  std::string filter;        // globs over the catalog's ids; empty: the default suite
  // Ceilings measured earlier on this adapter (plausibility) and the document they came from.
  std::optional<MeasuredCeilings> ceilings;
  std::string ceilings_path;
  bool repro = false;        // recorded in the document's options (the front end runs the second process)
  std::vector<std::string> command;
  report::MachineRecord machine;
  // Test-only: one row's times scaled after measurement (the second process of a --repro test).
  std::optional<report::TestPerturbation> perturbation;
  // What only this front end knows, added to the document when it starts and when it finishes
  // (the browser: its runtime and the timestamp quantization seen over the run).
  std::function<void(report::ResultDocument&)> annotate;
  // After the rows, the accuracy of every floating-point builtin the run timed, on the same device
  // (docs/method.md#accuracy). `on_accuracy` hears each probe when its entries are attached (the
  // document then holds them) and, once, a note when no row times a builtin.
  bool accuracy = false;
  std::function<void(const report::ResultDocument& doc, const std::string& line, bool note)> on_accuracy;
};

class DefaultJob final : public Job {
 public:
  explicit DefaultJob(DefaultJobOptions options);
  ~DefaultJob() override;

  Status start(const JobContext& context) override;
  report::ResultDocument& document() override { return *doc_; }
  std::vector<BenchmarkResult> planned() const override;
  std::vector<double> estimates_s() const override;
  std::optional<BenchmarkResult> next() override;
  std::optional<Error> fatal() const override;
  void record(BenchmarkResult& row) override;
  std::string progress_line(const BenchmarkResult& row) const override;
  void finish(const Outcome& outcome) override;
  std::string summary(std::size_t width) const override;
  // The technique families' verdicts alone (the browser shows them under its table).
  std::string verdicts(std::size_t width) const;
  const gpu::Context* device() const override;

 private:
  DefaultJobOptions o_;
  std::unique_ptr<gpu::Context> owned_;
  gpu::Context* device_ = nullptr;  // the suite's, while it is open
  std::optional<SuiteRun> suite_;
  std::optional<report::ResultDocument> doc_;
  std::optional<Error> fatal_after_finish_;
  CancelToken cancel_;
  // The accuracy pass (DefaultJobOptions::accuracy); false when an interrupt stopped it.
  bool add_accuracy();
};

// A row's one-line summary: its rate, statistic and dispersion, or its status and why.
std::string row_line(const BenchmarkResult& r);

}  // namespace wgb::frontend
