// The catalog on a GPU as a front-end job (default_job.hpp).
#include "frontend/default_job.hpp"

#include <fmt/format.h>

#include <chrono>
#include <sstream>

#include "catalog/accuracy/accuracy.hpp"
#include "catalog/select.hpp"
#include "catalog/subgroup_matrix/subgroup_matrix.hpp"
#include "report/accuracy.hpp"
#include "report/run_options.hpp"
#include "report/table.hpp"
#include "report/verdict.hpp"
#include "suite/plausibility.hpp"
#include "suite/row.hpp"

namespace wgb::frontend {

std::string row_line(const BenchmarkResult& r) {
  if (r.value > 0) {
    return fmt::format("  {:<28} {:>14}  ({} {})", r.id, report::format_rate(r.value, r.metric.unit),
                       to_string(r.statistic), report::dispersion_text(r));
  }
  return fmt::format("  {:<28} {}: {}", r.id, to_string(r.status), r.message);
}

DefaultJob::DefaultJob(DefaultJobOptions options) : o_(std::move(options)) {}
DefaultJob::~DefaultJob() = default;

const gpu::Context* DefaultJob::device() const { return device_; }

Status DefaultJob::start(const JobContext& context) {
  gpu::Context* ctx = o_.context;
  // With the experimental features the device is opened first, so the subgroup-matrix
  // configurations the adapter reports beyond the built-in ones become benchmarks too.
  std::vector<BenchmarkDefinition> catalog = builtin_benchmarks();
  if (o_.suite.device.experimental) {
    if (ctx == nullptr) {
      auto created = gpu::Context::create(o_.suite.device);
      if (!created) return std::move(created).error();
      owned_ = std::move(*created);
      ctx = owned_.get();
    }
    catalog = catalog::subgroup_matrix::with_adapter_shapes(std::move(catalog), ctx->adapter());
  }
  auto chosen = catalog::select_benchmarks(catalog, o_.filter, /*default_only=*/catalog::split_globs(o_.filter).empty());
  if (!chosen) return std::move(chosen).error();
  const std::optional<MeasuredCeilings>& ceilings = o_.ceilings;
  SuiteOptions s = o_.suite;
  s.context = ctx;
  s.benchmarks = std::move(*chosen);
  s.measured_ceilings = ceilings;
  s.cancel = context.cancel;
  cancel_ = context.cancel;
  s.on_progress = context.progress;
  suite_.emplace(run_suite(std::move(s)));
  if (auto st = suite_->start(); !st) {
    if (context.cancel.cancelled()) return make_error(ErrorKind::Cancelled, "interrupted before any benchmark ran");
    return st;
  }
  device_ = suite_->context();
  if (ceilings) {
    if (auto st = check_same_adapter(*ceilings, device_->adapter()); !st) return st;
  }
  doc_.emplace("default", o_.command, o_.machine);
  doc_->set_device(gpu::device_record(*suite_->context()));
  report::DefaultRunOptions options{.sampling = o_.suite.sampling,
                                    .bandwidth_bytes = o_.suite.bandwidth_bytes,
                                    .compute_threads = o_.suite.compute_threads,
                                    .filter = o_.filter,
                                    .repro = o_.repro,
                                    .ceilings = o_.ceilings_path,
                                    .accuracy = o_.accuracy};
  if (o_.suite.reverse) options.order = "reverse";
  doc_->set_options(report::to_json(options));
  if (o_.perturbation) {
    doc_->set_test_perturbation(fmt::format("TEST-ONLY: {}'s times multiplied by {} after measurement",
                                            o_.perturbation->id, o_.perturbation->factor));
  }
  if (o_.annotate) o_.annotate(*doc_);
  return ok();
}

std::vector<BenchmarkResult> DefaultJob::planned() const {
  std::vector<BenchmarkResult> rows;
  for (const auto& d : suite_->benchmarks()) rows.push_back(definition_row(d, rows.size()));
  return rows;
}

std::vector<double> DefaultJob::estimates_s() const { return suite_->initial_estimates_s(); }

std::optional<BenchmarkResult> DefaultJob::next() {
  auto row = suite_->next();
  // Outside the measured path: the row is complete; only its reported times are scaled.
  if (row && o_.perturbation) report::apply_test_perturbation(*row, *o_.perturbation);
  return row;
}

std::optional<Error> DefaultJob::fatal() const {
  if (fatal_after_finish_) return fatal_after_finish_;
  return suite_ ? suite_->fatal_error() : std::nullopt;
}

void DefaultJob::record(BenchmarkResult& row) {
  report::annotate_technique_row(row);  // derived numbers (ns/hop) before the row is recorded
  doc_->add_row(row);
}

std::string DefaultJob::progress_line(const BenchmarkResult& row) const { return row_line(row); }

bool DefaultJob::add_accuracy() {
  bool any = false;
  for (auto& row : doc_->rows()) {
    if (cancel_.cancelled()) return false;
    const auto cases = catalog::accuracy::cases_for(row.result.id);
    if (cases.empty()) continue;
    any = true;
    const auto started = std::chrono::steady_clock::now();
    row.result.accuracy = catalog::accuracy::measure_probe(*device_, row.result.id);
    doc_->refresh();
    if (o_.on_accuracy) {
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      o_.on_accuracy(*doc_, fmt::format("accuracy: {} ({} entr{}, {:.1f} s)", row.result.id, cases.size(),
                                 cases.size() == 1 ? "y" : "ies", s),
                     false);
    }
  }
  if (!any && o_.on_accuracy) o_.on_accuracy(*doc_, "accuracy: none of the rows run times a floating-point builtin", true);
  return true;
}

void DefaultJob::finish(const Outcome& outcome) {
  fatal_after_finish_ = suite_->fatal_error();
  bool cancelled = outcome.cancelled;
  if (o_.accuracy && !outcome.cancelled && !outcome.fatal && !fatal_after_finish_ && device_ != nullptr) {
    cancelled = !add_accuracy();
  }
  if (o_.annotate) o_.annotate(*doc_);
  suite_.reset();  // release the device before a second process needs one
  owned_.reset();
  device_ = nullptr;
  doc_->finish(cancelled ? "cancelled" : outcome.fatal ? to_string(outcome.fatal->kind) : "complete");
}

std::string DefaultJob::verdicts(std::size_t width) const {
  std::vector<BenchmarkResult> results;
  for (const auto& r : doc_->rows()) results.push_back(r.result);
  std::ostringstream v;
  report::write_verdicts(v, report::family_verdicts(results));  // technique rows only; else nothing
  return report::wrap_block(v.str(), width);
}

std::string DefaultJob::summary(std::size_t width) const {
  std::ostringstream out;
  report::write_roofline_table(out, doc_->rows());
  report::write_accuracy_table(out, doc_->rows(), width);
  report::write_repro_table(out, doc_->rows());
  report::write_summary(out, doc_->rows(), doc_->repro(), width, /*streamed=*/true);
  out << verdicts(width);
  return out.str();
}

}  // namespace wgb::frontend
