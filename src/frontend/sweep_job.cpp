// A sweep as a front-end job (sweep_job.hpp).
#include "frontend/sweep_job.hpp"

#include <fmt/format.h>

#include <sstream>

#include "report/facts.hpp"
#include "report/run_options.hpp"
#include "report/sweep.hpp"
#include "report/table.hpp"
#include "suite/row.hpp"

namespace wgb::frontend {

SweepJob::SweepJob(SweepJobOptions options) : o_(std::move(options)) {}
SweepJob::~SweepJob() = default;

Status SweepJob::start(const JobContext& context) {
  doc_.emplace("sweep", o_.command, o_.machine);
  doc_->set_device(gpu::device_record(*o_.base.context));
  doc_->set_options(report::to_json(report::SweepRunOptions{
      .sampling = o_.base.sampling, .benchmark = o_.benchmark.id, .parameter = o_.spec.parameter}));
  doc_->set_sweep(sweep_json(o_.benchmark.id, o_.spec));
  SuiteOptions base = o_.base;
  base.cancel = context.cancel;
  base.on_progress = context.progress;
  run_.emplace(o_.benchmark, std::move(base), o_.spec);
  return ok();
}

std::vector<BenchmarkResult> SweepJob::planned() const {
  std::vector<BenchmarkResult> rows;
  for (auto v : o_.spec.values) {
    BenchmarkResult r = definition_row(o_.benchmark, rows.size());
    r.id = sweep_value_text(o_.spec.parameter, v);
    rows.push_back(std::move(r));
  }
  return rows;
}

std::vector<double> SweepJob::estimates_s() const {
  return o_.estimate ? run_->estimates_s() : std::vector<double>(o_.spec.values.size(), -1.0);
}

void SweepJob::record(BenchmarkResult& row) {
  doc_->add_row(row);
  doc_->set_sweep(sweep_json(o_.benchmark.id, o_.spec));
}

std::string SweepJob::progress_line(const BenchmarkResult& row) const {
  const auto point = report::sweep_point(row.parameters);
  const std::uint64_t value = point ? point->value : 0;
  return fmt::format("  {} {}: {}", sweep_parameter_text(o_.spec.parameter), sweep_value_text(o_.spec.parameter, value),
                     report::has_rate(row) ? fmt::format("{} ({} clock)", report::format_rate(row.value, row.metric.unit),
                                                         report::clock_text(row.timing_method))
                                           : std::string(to_string(row.status)) + ": " + row.message);
}

void SweepJob::finish(const Outcome& outcome) {
  doc_->finish(outcome.cancelled ? "cancelled" : outcome.fatal ? to_string(outcome.fatal->kind) : "complete");
  doc_->set_sweep(sweep_json(o_.benchmark.id, o_.spec));
}

std::string SweepJob::summary(std::size_t width) const {
  std::ostringstream out;
  out << fmt::format("{} over the {}\n", o_.benchmark.id, sweep_parameter_text(o_.spec.parameter));
  report::write_sweep_table(out, doc_->rows(), o_.spec.parameter, width);
  for (const auto& n : o_.spec.notes) out << "note: " << n << '\n';
  return out.str();
}

}  // namespace wgb::frontend
