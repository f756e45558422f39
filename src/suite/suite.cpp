// The scheduler that joins catalog, measure and gpu (docs/method.md#sampling): prepares
// every benchmark up front, then measures one at a time in catalog order: measure_one() runs it
// through the one timed loop (runner.hpp) with a Dawn pass host, turns the record into the row
// (row.hpp), then validates and checks plausibility.
#include "webgpu_bench/suite.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <exception>

#include "gpu/hash.hpp"
#include "measure/clocked_sampler.hpp"
#include "measure/progress.hpp"
#include "measure/sampler.hpp"
#include "measure/stats.hpp"
#include "measure/timing.hpp"
#include "suite/plausibility.hpp"
#include "suite/row.hpp"
#include "suite/runner.hpp"

namespace wgb {

namespace {

using Clock = std::chrono::steady_clock;

// `floor_ms`: the device's measured empty-submit cost; batches are sized to at least ten times it
// (measure::floor_sized_ms, docs/method.md#clocks).
measure::SamplerConfig sampler_config(const SamplingOptions& s, double floor_ms) {
  measure::SamplerConfig c;
  c.target_dispatch_ms = s.target_dispatch_ms;
  c.measurement_ms = measure::floor_sized_ms(s.measurement_ms, floor_ms);
  c.idle_gap_ms = s.idle_gap_ms;
  c.min_rounds = s.min_rounds;
  c.stable_rounds = s.stable_rounds;
  c.improvement_tolerance = s.improvement_tolerance;
  c.max_rounds = s.max_rounds;
  c.throttle_ratio = s.throttle_ratio;
  c.cooldown_ms = s.cooldown_ms;
  return c;
}

measure::KnobRange knob_range(const KnobSpec& k) { return {k.min, k.max, k.initial}; }

Status validate_sampling(const SamplingOptions& s) {
  auto bad = [](const std::string& what) { return make_error(ErrorKind::Usage, what); };
  if (!(s.target_dispatch_ms > 0)) return bad("target-dispatch-ms must be > 0");
  if (!(s.measurement_ms > 0)) return bad("measurement-ms must be > 0");
  if (!(s.idle_gap_ms >= 0)) return bad("idle-gap-ms must be >= 0");
  if (s.min_rounds < 1) return bad("min-rounds must be >= 1");
  if (s.stable_rounds < 1) return bad("stable-rounds must be >= 1");
  if (s.max_rounds < s.min_rounds) return bad("max-rounds must be >= min-rounds");
  if (!(s.throttle_ratio > 1)) return bad("throttle-ratio must be > 1");
  if (!(s.cooldown_ms >= 0)) return bad("cooldown-ms must be >= 0");
  if (s.max_cooldowns < 0) return bad("max-cooldowns must be >= 0");
  if (!(s.improvement_tolerance >= 0 && s.improvement_tolerance < 1)) return bad("tolerance must be in [0,1)");
  return ok();
}

// A prepare step that throws (a user's definition) fails its own row, not the suite. A build
// without exceptions (the browser engine) has nothing to catch.
Expected<std::unique_ptr<Workload>> call_prepare(const BenchmarkDefinition& def, PrepareContext& pc) {
#if defined(__cpp_exceptions)
  try {
    return def.prepare(pc);
  } catch (const std::exception& e) {
    return make_error(ErrorKind::Failed, fmt::format("prepare threw: {}", e.what()));
  }
#else
  return def.prepare(pc);
#endif
}

RowStatus status_for(ErrorKind k) {
  switch (k) {
    case ErrorKind::Skipped: return RowStatus::Skipped;
    case ErrorKind::Cancelled: return RowStatus::Cancelled;
    default: return RowStatus::Error;
  }
}

}  // namespace

struct SuiteRun::Impl {
  SuiteOptions options;
  std::unique_ptr<gpu::Context> owned;
  gpu::Context* ctx = nullptr;
  std::vector<BenchmarkDefinition> defs;
  std::vector<std::unique_ptr<Workload>> workloads;
  std::vector<std::optional<Error>> prepare_errors;
  std::size_t next_index = 0;
  bool started = false;
  std::optional<Error> fatal;
  measure::CooldownBudget budget;
  Clock::time_point t0 = Clock::now();

  double now_s() const { return std::chrono::duration<double>(Clock::now() - t0).count(); }

  void emit(measure::ProgressEvent::Kind kind, std::size_t index, std::string stage = {}, double expected = 0) {
    if (!options.on_progress) return;
    measure::ProgressEvent e;
    e.kind = kind;
    e.now_s = now_s();
    e.index = index;
    if (index < defs.size()) e.id = defs[index].id;
    e.expected_s = expected;
    e.stage = std::move(stage);
    options.on_progress(e);
  }

  bool cancelled() const { return options.cancel.cancelled(); }

  Status start() {
    if (started) return fatal ? Status(*fatal) : ok();
    started = true;
    if (auto st = validate_sampling(options.sampling); !st) {
      fatal = st.error();
      return st;
    }
    budget.remaining = options.sampling.max_cooldowns;
    defs = options.benchmarks.empty() ? default_suite() : options.benchmarks;
    if (options.context != nullptr) {
      ctx = options.context;
    } else {
      auto created = gpu::Context::create(options.device);
      if (!created) {
        fatal = created.error();
        return std::move(created).error();
      }
      owned = std::move(*created);
      ctx = owned.get();
    }
    // Prepare everything up front: unsupported benchmarks resolve as skipped before any timing.
    workloads.resize(defs.size());
    prepare_errors.resize(defs.size());
    for (std::size_t i = 0; i < defs.size(); ++i) {
      if (cancelled()) break;
      emit(measure::ProgressEvent::Kind::Stage, i, "prepare");
      PrepareContext pc{*ctx, options};
      if (!defs[i].prepare) {
        prepare_errors[i] = make_error(ErrorKind::Failed, "the definition has no prepare step");
        continue;
      }
      auto w = call_prepare(defs[i], pc);
      if (w && *w) {
        workloads[i] = std::move(*w);
      } else if (w) {
        prepare_errors[i] = make_error(ErrorKind::Failed, "prepare returned no workload");
      } else {
        prepare_errors[i] = w.error();
      }
      if (auto st = ctx->check_errors(); !st) {
        if (st.error().kind == ErrorKind::DeviceLost) {
          fatal = st.error();
          return std::move(st).error();
        }
        // An error outside any scope during preparation belongs to this benchmark.
        prepare_errors[i] = st.error();
        workloads[i].reset();
      }
    }
    t0 = Clock::now();
    emit(measure::ProgressEvent::Kind::SuiteStart, 0);
    // Tell the estimator at once which benchmarks will cost nothing (resolved while preparing).
    for (std::size_t i = 0; i < defs.size(); ++i) {
      if (!workloads[i]) emit(measure::ProgressEvent::Kind::Resolved, i, "resolved", 0);
    }
    return ok();
  }

  // The round-trip floor a workload's batches are sized against: the empty-submit cost, except for
  // an API operation timed whole, whose round trip is part of what it measures.
  double floor_ms(const Workload& w) const {
    return w.clock() == BatchClock::WholeOperation ? 0.0 : ctx->empty_submit_ms();
  }

  // 0 for a benchmark resolved at prepare time: known to cost nothing (not unknown).
  double estimate_s(std::size_t i) const {
    if (i >= defs.size() || !workloads[i]) return 0;
    measure::CooldownBudget scratch{0};
    measure::Sampler s(sampler_config(options.sampling, floor_ms(*workloads[i])), knob_range(workloads[i]->knob()),
                       scratch);
    return s.estimate_remaining_ms() / 1000.0;
  }

  BenchmarkResult measure_one(std::size_t i);
};

BenchmarkResult SuiteRun::Impl::measure_one(std::size_t i) {
  const auto& def = defs[i];
  BenchmarkResult row = definition_row(def, i);
  const auto started_at = Clock::now();
  auto finish_row = [&](BenchmarkResult& r) {
    r.duration_s = std::chrono::duration<double>(Clock::now() - started_at).count();
    emit(measure::ProgressEvent::Kind::BenchmarkEnd, i);
    return r;
  };
  emit(measure::ProgressEvent::Kind::BenchmarkStart, i, "start", estimate_s(i));
  if (fatal || cancelled()) {
    row.status = RowStatus::Cancelled;
    row.message = fatal ? fmt::format("not run: {}", fatal->message) : "not run: cancelled";
    return finish_row(row);
  }
  if (prepare_errors[i]) {
    row.status = status_for(prepare_errors[i]->kind);
    row.message = prepare_errors[i]->message;
    return finish_row(row);
  }
  Workload& w = *workloads[i];
  const KnobSpec knob = w.knob();
  row.knob_name = knob.name;
  // Every kept sample comes from the clock the row names: a demotion to the wall clock restarts
  // the sampling there (clocked_sampler.hpp).
  const measure::SamplerConfig config = sampler_config(options.sampling, floor_ms(w));
  measure::ClockedSampler sampler(config, knob_range(knob), budget, workload_arbiter(w, *ctx));
  WorkloadHost host(*ctx, w);
  TimedLoop loop;
  loop.cancel = options.cancel;
  loop.on_run = [&](const measure::Action& a, int recorded) {
    emit(measure::ProgressEvent::Kind::Stage, i,
         a.recorded ? fmt::format("sample {}/{}", recorded + 1, options.sampling.max_rounds)
                    : std::string(measure::to_string(a.stage)));
  };
  loop.on_cooldown_start = [&](double ms) {
    emit(measure::ProgressEvent::Kind::CooldownStart, i, "cooldown", ms / 1000.0);
  };
  loop.on_cooldown_end = [&] { emit(measure::ProgressEvent::Kind::CooldownEnd, i, "cooldown"); };
  auto record = run_timed(sampler, host, loop);
  if (!record) {
    if (record.error().kind == ErrorKind::Cancelled) {
      row.status = RowStatus::Cancelled;
      row.message = "cancelled while measuring";
    } else {
      if (record.error().kind == ErrorKind::DeviceLost) fatal = record.error();
      row.status = RowStatus::Error;
      row.message = record.error().message;
    }
    return finish_row(row);
  }
  if (config.measurement_ms > options.sampling.measurement_ms) {
    record->notes.push_back(fmt::format("batches sized to {:.0f} ms, ten times the {:.1f} ms round trip of an empty "
                                        "submit on this device (docs/method.md#clocks)",
                                        config.measurement_ms, ctx->empty_submit_ms()));
  }
  w.set_knob(record->knob);
  const bool measured = apply_record(row, *record, w.work());
  row.parameters = w.parameters();
  row.parameters["repetitions_per_batch"] = record->repetitions;
  if (!measured) return finish_row(row);

  // Validation after timing (BabelStream): a wrong result makes the row an error, never a number.
  auto checked = w.validate(*ctx);
  if (!checked) {
    if (checked.error().kind == ErrorKind::DeviceLost) fatal = checked.error();
    row.status = RowStatus::Error;
    row.message = fmt::format("validation failed: {}", checked.error().message);
    return finish_row(row);
  }
  row.validation = *checked;
  apply_plausibility(row, *ctx, options.measured_ceilings);
  if (record->flagged_throttled) {
    row.status = RowStatus::Throttled;
    row.message = throttle_message(row, options.sampling.throttle_ratio, ctx->adapter().adapter_type == "cpu");
  }
  return finish_row(row);
}

SuiteRun::SuiteRun(SuiteOptions options) : impl_(std::make_unique<Impl>()) { impl_->options = std::move(options); }
SuiteRun::~SuiteRun() = default;
SuiteRun::SuiteRun(SuiteRun&&) noexcept = default;
SuiteRun& SuiteRun::operator=(SuiteRun&&) noexcept = default;

Status SuiteRun::start() { return impl_->start(); }

std::optional<BenchmarkResult> SuiteRun::next() {
  if (!impl_->started) {
    if (auto st = impl_->start(); !st) return std::nullopt;
  } else if (impl_->ctx == nullptr) {
    return std::nullopt;
  }
  if (impl_->next_index >= impl_->defs.size()) return std::nullopt;
  return impl_->measure_one(impl_->next_index++);
}

const std::optional<Error>& SuiteRun::fatal_error() const { return impl_->fatal; }
gpu::Context* SuiteRun::context() { return impl_->ctx; }
std::size_t SuiteRun::benchmark_count() const {
  return impl_->started ? impl_->defs.size()
                        : (impl_->options.benchmarks.empty() ? default_suite().size() : impl_->options.benchmarks.size());
}
const std::vector<BenchmarkDefinition>& SuiteRun::benchmarks() const { return impl_->defs; }

std::vector<double> SuiteRun::initial_estimates_s() const {
  std::vector<double> out;
  for (std::size_t i = 0; i < impl_->defs.size(); ++i) out.push_back(impl_->estimate_s(i));
  return out;
}

SuiteRun run_suite(SuiteOptions options) { return SuiteRun(std::move(options)); }

Status run_suite(SuiteOptions options, const std::function<void(const BenchmarkResult&)>& on_result) {
  SuiteRun run(std::move(options));
  if (auto st = run.start(); !st) return st;
  while (auto row = run.next()) on_result(*row);
  if (run.fatal_error()) return *run.fatal_error();
  return ok();
}

}  // namespace wgb
