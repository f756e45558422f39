// The memory hierarchy as a front-end job (hierarchy_job.hpp, docs/method.md#hierarchy).
#include "frontend/hierarchy_job.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "report/facts.hpp"
#include "report/run_options.hpp"
#include "report/table.hpp"
#include "suite/row.hpp"

namespace wgb::frontend {

namespace hier = report::hierarchy;

namespace {

constexpr std::uint64_t kUnit = 128;  // two 64-byte nodes; two buffers of 16-byte multiples

std::uint64_t round_unit(double bytes) {
  return std::max<std::uint64_t>(kUnit, static_cast<std::uint64_t>(std::llround(bytes / kUnit)) * kUnit);
}

bool is_latency(const HierarchyJobOptions& o, const std::string& id) {
  return id == o.latency.id || (o.spread && id == o.spread->id);
}

}  // namespace

Expected<std::vector<std::uint64_t>> hierarchy_footprints(std::uint64_t from, std::uint64_t to, int per_octave) {
  if (per_octave < 1 || per_octave > 16) {
    return make_error(ErrorKind::Usage, fmt::format("--per-octave {}: expected 1 to 16", per_octave));
  }
  if (from < kUnit) return make_error(ErrorKind::Usage, fmt::format("--from {} bytes is below {} bytes", from, kUnit));
  if (from >= to) {
    return make_error(ErrorKind::Usage, fmt::format("--from {} is not below --to {}", report::format_bytes(static_cast<double>(from)),
                                                    report::format_bytes(static_cast<double>(to))));
  }
  std::vector<std::uint64_t> v;
  const double octaves = std::log2(static_cast<double>(to) / static_cast<double>(from));
  const int n = static_cast<int>(std::floor(octaves * per_octave + 1e-9));
  for (int k = 0; k <= n; ++k) {
    v.push_back(round_unit(static_cast<double>(from) * std::exp2(static_cast<double>(k) / per_octave)));
  }
  const std::uint64_t last = round_unit(static_cast<double>(to));
  if (v.back() < last) v.push_back(last);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  if (v.size() > 400) return make_error(ErrorKind::Usage, fmt::format("{} points: at most 400", v.size()));
  return v;
}

std::vector<std::uint64_t> hierarchy_run_order(const std::vector<std::uint64_t>& sorted) {
  const std::size_t n = sorted.size();
  std::size_t stride = std::max<std::size_t>(1, static_cast<std::size_t>(std::lround(0.381966 * static_cast<double>(n))));
  while (n > 1 && std::gcd(stride, n) != 1) ++stride;
  std::vector<std::uint64_t> order;
  for (std::size_t i = 0; i < n; ++i) order.push_back(sorted[(i * stride) % n]);
  return order;
}

SamplingOptions hierarchy_sampling(double budget_s, std::size_t points) {
  // Short batches, many of them: each point's value is its fastest batch (docs/method.md#hierarchy),
  // and a short batch is more likely to run undisturbed on a busy machine. The rounds take about a
  // third of the point's share of the budget; calibration, warm-up and the point's preparation
  // (filling its buffers, building the chain) the rest.
  const double share_ms = 1000 * budget_s / static_cast<double>(std::max<std::size_t>(points, 1));
  SamplingOptions s;
  s.target_dispatch_ms = 5;  // keeps a CPU adapter's launch cost under the launch-bound rule's 5 %
  s.measurement_ms = 10;
  s.idle_gap_ms = 2;
  s.min_rounds = static_cast<int>(std::clamp(share_ms / 3 / (s.measurement_ms + s.idle_gap_ms), 5.0, 15.0));
  s.stable_rounds = 3;
  s.max_rounds = 2 * s.min_rounds;
  // A slow batch here is another process's, not heat: kept in the dispersion, never a cooldown.
  s.throttle_ratio = 1000;
  s.cooldown_ms = 0;
  s.max_cooldowns = 0;
  return s;
}

HierarchyJob::HierarchyJob(HierarchyJobOptions options) : o_(std::move(options)) {}
HierarchyJob::~HierarchyJob() = default;

Status HierarchyJob::start(const JobContext& context) {
  if (o_.footprints.empty()) return make_error(ErrorKind::Usage, "no working sets to measure");
  const gpu::Context& ctx = *o_.base.context;
  const auto& limits = ctx.limits();
  const std::uint64_t limit = std::min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);
  std::size_t count = o_.curves == HierarchyCurves::Both ? 2 : 1;
  // The device-wide chase, with the latency curve: not on a CPU adapter unless asked for.
  std::vector<std::uint64_t> spread_footprints;
  if (o_.spread && o_.spread_curve != SpreadCurve::Off && o_.curves != HierarchyCurves::Bandwidth) {
    const bool cpu = ctx.adapter().adapter_type == "cpu";
    if (cpu && o_.spread_curve == SpreadCurve::Auto) {
      notes_.push_back(fmt::format("device-wide latency not measured: a CPU adapter runs {}'s walkers a few at a time, "
                                   "not at once (--spread on measures it anyway)",
                                   o_.spread->id));
    } else {
      for (auto f : o_.footprints) {
        if (f >= kSpreadFrom) spread_footprints.push_back(f);
      }
      if (cpu) notes_.push_back("device-wide latency on a CPU adapter: its walkers do not run at once, so its ns per "
                                "hop are not latencies; only where it steps means something");
      if (spread_footprints.empty()) {
        notes_.push_back(fmt::format("device-wide latency not measured: no working set of {} or more",
                                     report::format_bytes(static_cast<double>(kSpreadFrom))));
      }
    }
  }
  const std::size_t points = o_.footprints.size() * count + spread_footprints.size();
  o_.base.sampling = hierarchy_sampling(o_.budget_s, points);
  o_.base.cancel = context.cancel;
  o_.base.on_progress = context.progress;

  doc_.emplace("hierarchy", o_.command, o_.machine);
  doc_->set_device(gpu::device_record(ctx));
  doc_->set_options(report::to_json(
      report::HierarchyRunOptions{.sampling = o_.base.sampling,
                                  .latency_benchmark = o_.curves == HierarchyCurves::Bandwidth ? "" : o_.latency.id,
                                  .bandwidth_benchmark = o_.curves == HierarchyCurves::Latency ? "" : o_.bandwidth.id,
                                  .spread_benchmark = spread_footprints.empty() ? "" : o_.spread->id,
                                  .footprints_bytes = o_.footprints,
                                  .per_octave = o_.per_octave,
                                  .budget_s = o_.budget_s}));

  const auto order = hierarchy_run_order(o_.footprints);
  // Both sweeps are built before either runs: SweepRun keeps a reference to its spec.
  curves_.reserve(count + 1);
  for (const bool latency : {true, false}) {
    if ((latency && o_.curves == HierarchyCurves::Bandwidth) || (!latency && o_.curves == HierarchyCurves::Latency)) {
      continue;
    }
    Curve c;
    c.def = latency ? o_.latency : o_.bandwidth;
    c.spec.parameter = "size";
    // The sweep's value is what SuiteOptions takes: the chase's working set, or the size of each of
    // the stream's two buffers (half its footprint).
    for (auto f : order) c.spec.values.push_back(latency ? f : f / 2);
    limit_sweep(c.spec, limit, "largest storage binding");
    curves_.push_back(std::move(c));
  }
  if (!spread_footprints.empty()) {
    Curve c;
    c.def = *o_.spread;
    c.spec.parameter = "size";
    c.spec.values = hierarchy_run_order(spread_footprints);
    limit_sweep(c.spec, limit, "largest storage binding");
    curves_.push_back(std::move(c));
  }
  for (auto& c : curves_) c.run.emplace(c.def, o_.base, c.spec);
  update();
  return ok();
}

std::vector<BenchmarkResult> HierarchyJob::planned() const {
  std::vector<BenchmarkResult> rows;
  std::vector<std::size_t> left;
  for (const auto& c : curves_) left.push_back(c.spec.values.size());
  for (std::size_t turn = 0;; ++turn) {
    bool any = false;
    for (std::size_t k = 0; k < curves_.size(); ++k) any = any || left[k] > 0;
    if (!any) break;
    const std::size_t k = turn % curves_.size();
    if (left[k] == 0) continue;
    --left[k];
    rows.push_back(definition_row(curves_[k].def, rows.size()));
  }
  return rows;
}

std::vector<double> HierarchyJob::estimates_s() const {
  const std::size_t n = planned().size();
  return std::vector<double>(n, o_.budget_s / static_cast<double>(std::max<std::size_t>(n, 1)));
}

std::optional<BenchmarkResult> HierarchyJob::next() {
  if (fatal_) return std::nullopt;
  for (std::size_t tries = 0; tries < curves_.size(); ++tries) {
    Curve& c = curves_[turn_++ % curves_.size()];
    if (c.done) continue;
    auto row = c.run->next();
    if (c.run->fatal()) fatal_ = c.run->fatal();
    if (!row) {
      c.done = true;
      if (fatal_) return std::nullopt;
      continue;
    }
    if (!fatal_) again(c, *row);
    return row;
  }
  return std::nullopt;
}

std::optional<Error> HierarchyJob::fatal() const { return fatal_; }

void HierarchyJob::again(const Curve& c, BenchmarkResult& row) {
  // A dispatch under half the target means the calibration stopped early: one slow first dispatch
  // (another process ran) made the work knob look large enough, and the launch cost then weighs on
  // every batch. The point runs once more, quietly, and the one whose dispatches came closer to
  // the target is kept.
  if (!report::has_rate(row) || row.time_ms >= o_.base.sampling.target_dispatch_ms / 2) return;
  const auto sweep = report::sweep_point(row.parameters);
  if (!sweep) return;
  SweepSpec one;
  one.parameter = "size";
  one.values = {sweep->value};
  SuiteOptions quiet = o_.base;
  quiet.on_progress = nullptr;
  SweepRun run(c.def, quiet, one);
  auto second = run.next();
  if (run.fatal() || !second || !report::has_rate(*second) || second->time_ms <= row.time_ms) return;
  const double first_ms = row.time_ms;
  second->index = row.index;
  report::set_sweep_point(*second, *sweep);
  second->notes.push_back(fmt::format("measured twice: the first calibration gave {:.3g} ms dispatches against a "
                                      "target of {:.3g} ms (docs/method.md#hierarchy)",
                                      first_ms, o_.base.sampling.target_dispatch_ms));
  row = std::move(*second);
}

void HierarchyJob::update() {
  const auto& rows = doc_->rows();
  inference_ = hier::infer_rows(rows, o_.latency.id, o_.bandwidth.id, o_.spread ? o_.spread->id : "");
  inference_.notes.insert(inference_.notes.begin(), notes_.begin(), notes_.end());
  doc_->set_hierarchy(hier::to_json(inference_));
}

void HierarchyJob::record(BenchmarkResult& row) {
  doc_->add_row(row);
  update();
}

std::string HierarchyJob::progress_line(const BenchmarkResult& row) const {
  const bool latency = is_latency(o_, row.id);
  const report::RowFacts facts = report::row_facts(row);
  const double footprint = (latency ? facts.working_set_bytes : facts.footprint_bytes).value_or(0.0);
  const std::string where = footprint > 0 ? report::format_bytes(footprint) : std::string("?");
  if (!report::has_rate(row)) return fmt::format("  {} {}: {}: {}", row.id, where, to_string(row.status), row.message);
  return fmt::format("  {} {}: {}", row.id, where,
                     latency ? fmt::format("{:.3g} ns per load", 1e9 / row.value) : report::format_rate(row.value, "B"));
}

void HierarchyJob::finish(const Outcome& outcome) {
  doc_->finish(outcome.cancelled ? "cancelled" : outcome.fatal ? to_string(outcome.fatal->kind) : "complete");
  update();
}

std::string HierarchyJob::summary(std::size_t width) const {
  std::ostringstream out;
  out << report::wrap_text(fmt::format("Memory levels inferred from {} ({} per octave; docs/method.md#hierarchy)",
                                       hier::points_text(inference_), o_.per_octave),
                           width, 0, 2)
      << '\n';
  hier::write_table(out, inference_.levels, inference_.notes, width);
  std::vector<std::string> missing;
  for (const auto& rr : doc_->rows()) {
    if (report::has_rate(rr.result)) continue;
    const auto sweep = report::sweep_point(rr.result.parameters);
    const double v = sweep ? static_cast<double>(sweep->value) : 0.0;
    missing.push_back(fmt::format("{} {}: {}{}", rr.result.id, report::format_bytes(is_latency(o_, rr.result.id) ? v : 2 * v),
                                  to_string(rr.result.status), rr.result.message.empty() ? "" : " (" + rr.result.message + ")"));
  }
  for (const auto& m : missing) out << report::wrap_text("not measured: " + m, width, 0, 2) << '\n';
  return out.str();
}

}  // namespace wgb::frontend
