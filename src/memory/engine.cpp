// The memory suite's engine (docs/method.md#memory-workload, #phases): sets up the fixture (the
// working set, halving on adapter caps and out of memory, the fills, the latency cycle), then runs
// each selected phase definition (phases.hpp) through the one timed loop (suite/runner.hpp) on the
// phase sampler: calibrate, warm up, sample, reject outliers, and validate; its record becomes a
// row through the one record -> row function (suite/row.hpp). Failures end as values: a device loss
// or an uncaptured GPU error aborts the run, a cancel stops before the next submission, and the rows
// completed so far stay valid.
#include <fmt/format.h>

#include <chrono>

#include "gpu/hash.hpp"
#include "measure/phase_sampler.hpp"
#include "measure/progress.hpp"
#include "memory/fixture.hpp"
#include "memory/memory.hpp"
#include "memory/phases.hpp"
#include "suite/row.hpp"
#include "suite/runner.hpp"

namespace wgb::memory {

namespace {

using Clock = std::chrono::steady_clock;
using ProgressKind = measure::ProgressEvent::Kind;

constexpr const char* kStatisticReason =
    "median of the samples kept after modified z-score rejection (docs/method.md#phases): memory traffic depends "
    "on the memory system's state and scheduling, and the median ignores what rejection missed";

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// What one phase's sampling produced, before it becomes a row: the record every protocol returns,
// and the phase sampler's own report (every pass in order, warm-up and budget accounting).
struct PhaseTiming {
  measure::Record record;
  measure::PhaseSampler::Report report;
  double target_ms = 0, budget_ms = 0;
};

// The memory suite's pass host: the phase's workload on the fixture, and the test seam before every pass.
class PhaseHost final : public PassHost {
 public:
  PhaseHost(gpu::Context& gpu, const MemoryOptions& o, Phase p, PhaseWorkload& w) : gpu_(gpu), o_(o), p_(p), w_(w) {}
  Expected<measure::RawTiming> time_pass(const measure::Action& a) override {
    if (o_.before_pass) o_.before_pass(p_, passes_);
    ++passes_;
    w_.before_pass(a.repetitions);
    auto raw = gpu_.time_pass([&](wgpu::ComputePassEncoder& pass) { w_.encode(pass, a.repetitions); });
    if (!raw) return std::move(raw).error();
    // time_pass checks for errors before its timestamp read-back; a loss during it lands here.
    if (auto st = gpu_.check_errors(); !st) return std::move(st).error();
    return measure::RawTiming{raw->gpu_ms, raw->wall_ms};
  }

 private:
  gpu::Context& gpu_;
  const MemoryOptions& o_;
  Phase p_;
  PhaseWorkload& w_;
  std::uint64_t passes_ = 0;
};

class Engine {
 public:
  Engine(gpu::Context& gpu, const MemoryOptions& o) : gpu_(gpu), o_(o), f_(gpu, o) {}
  MemoryRun run();

 private:
  void emit(ProgressKind kind, std::size_t index, std::string stage = {}, double expected_s = 0);
  Status setup();
  BenchmarkResult base_row(std::size_t index, const PhaseDefinition& d) const;
  BenchmarkResult run_phase(std::size_t index, const PhaseDefinition& d);
  Expected<PhaseTiming> measure(std::size_t index, const PhaseDefinition& d, PhaseWorkload& w);
  void fill_row(BenchmarkResult& row, const PhaseDefinition& d, PhaseTiming& t, PhaseWorkload& w) const;

  gpu::Context& gpu_;
  const MemoryOptions& o_;
  Fixture f_;
  MemoryRun run_;
  Clock::time_point t0_ = Clock::now();
  std::optional<Error> fatal_;
};

void Engine::emit(ProgressKind kind, std::size_t index, std::string stage, double expected_s) {
  if (!o_.on_progress) return;
  measure::ProgressEvent e;
  e.kind = kind;
  e.now_s = seconds(Clock::now() - t0_);
  e.index = index;
  if (index < o_.phases.size()) e.id = phase_id(o_.phases[index]);
  e.expected_s = expected_s;
  e.stage = std::move(stage);
  o_.on_progress(e);
}

Status Engine::setup() {
  std::vector<std::string> kernels;
  bool chain = false;
  for (Phase p : o_.phases) {
    const auto& d = definition(p);
    kernels.insert(kernels.end(), d.kernels.begin(), d.kernels.end());
    chain = chain || d.needs_chain;
  }
  return f_.set_up(kernels, chain, [&](std::string stage) { emit(ProgressKind::Stage, 0, std::move(stage)); });
}

BenchmarkResult Engine::base_row(std::size_t index, const PhaseDefinition& d) const {
  BenchmarkResult r;
  r.index = index;
  r.id = phase_id(d.phase);
  r.category = "memory";
  r.statistic = Statistic::Median;
  r.statistic_reason = kStatisticReason;
  r.wgsl_hash = gpu::source_hash(kernel_source(d.kernel));
  r.label = d.label;
  r.description = d.description;
  r.metric = d.metric;
  return r;
}

BenchmarkResult Engine::run_phase(std::size_t index, const PhaseDefinition& d) {
  BenchmarkResult row = base_row(index, d);
  const auto started = Clock::now();
  auto finish = [&]() {
    row.duration_s = seconds(Clock::now() - started);
    return row;
  };
  auto fail = [&](const Error& e, std::string message) {
    row.status = RowStatus::Error;
    row.message = std::move(message);
    row.value = row.value_low = row.value_high = 0;
    if (e.kind == ErrorKind::DeviceLost || e.kind == ErrorKind::GpuError) fatal_ = e;
    return finish();
  };
  auto stop_cancelled = [&](const char* message) {
    fatal_ = make_error(ErrorKind::Cancelled, "cancelled");
    row.status = RowStatus::Cancelled;
    row.message = message;
    row.value = row.value_low = row.value_high = 0;  // unvalidated numbers are never reported
    return finish();
  };
  // Transitions (docs/method.md#phases): the GPU idles between phases.
  if (index > 0 && o_.transition_ms > 0) {
    emit(ProgressKind::Stage, index, "transition");
    if (!idle_for(o_.transition_ms, o_.cancel)) return stop_cancelled("cancelled before the phase started");
  }
  if (o_.cancel.cancelled()) return stop_cancelled("cancelled before the phase started");
  if (d.needs_distinct_buffers && f_.content_a == f_.content_b) {
    emit(ProgressKind::Stage, index, "refill");
    if (auto st = f_.make_buffers_differ(); !st) {
      fatal_ = st.error();
      return fail(st.error(), st.error().message);
    }
  }
  auto workload = d.prepare(f_);
  if (!workload) {
    fatal_ = workload.error();
    return fail(workload.error(), workload.error().message);
  }
  PhaseWorkload& w = **workload;
  f_.alternation = 0;
  // One untimed dispatch first: some drivers compile a pipeline or fault pages in on first use, and
  // a one-off cost in the first calibration pass would stop the 4x growth far short of the target.
  emit(ProgressKind::Stage, index, "prime");
  w.before_pass(1);
  if (auto st = gpu_.run_pass([&](wgpu::ComputePassEncoder& pass) { w.encode(pass, 1); }); !st) {
    fatal_ = st.error();
    return fail(st.error(), st.error().message);
  }
  auto timing = measure(index, d, w);
  if (!timing) {
    if (timing.error().kind == ErrorKind::Cancelled) {
      return stop_cancelled("cancelled while measuring; nothing further was submitted");
    }
    fatal_ = timing.error();
    return fail(timing.error(), timing.error().message);
  }
  w.after_timing();
  fill_row(row, d, *timing, w);
  if (o_.cancel.cancelled()) return stop_cancelled("cancelled before validation; nothing further was submitted");
  emit(ProgressKind::Stage, index, "validate");
  auto v = w.validate();
  if (!v) return fail(v.error(), fmt::format("validation failed: {}", v.error().message));
  row.validation = std::move(*v);
  return finish();
}

// One phase through the timed loop on the phase sampler (docs/method.md#phases). A timestamp that
// fails the cross-check is discarded, never replaced by the wall clock, so a phase never mixes
// clocks; repeated failures demote the timer and the phase starts again on the wall clock with its
// longer samples (docs/method.md#clocks).
Expected<PhaseTiming> Engine::measure(std::size_t index, const PhaseDefinition& d, PhaseWorkload& w) {
  PhaseTiming t;
  measure::PhaseSampler* current = nullptr;
  auto make = [&](measure::ClockKind clock) {
    const measure::PhaseConfig cfg =
        phase_config(d, o_, clock == measure::ClockKind::WallClock, gpu_.empty_submit_ms());
    t.target_ms = cfg.target_sample_ms;
    t.budget_ms = cfg.budget_ms;
    auto sampler = std::make_unique<measure::PhaseSampler>(cfg);
    current = sampler.get();
    return sampler;
  };
  // One arbiter per phase (as run_suite has one per benchmark): each phase records its own clock,
  // and a timer that misbehaved in one phase is given its chance again in the next.
  measure::ClockedSampler sampler(make, measure::TimingArbiter(gpu_.has_timestamps(), gpu_.empty_submit_ms()));
  PhaseHost host(gpu_, o_, d.phase, w);
  TimedLoop loop;
  loop.cancel = o_.cancel;
  std::string last_stage;
  loop.on_run = [&](const measure::Action& a, int recorded) {
    std::string stage = a.stage == measure::Action::Stage::Sample ? fmt::format("sample {}", recorded + 1)
                                                                   : measure::to_string(a.stage);
    if (stage != last_stage) {
      emit(ProgressKind::Stage, index, stage);
      last_stage = std::move(stage);
    }
  };
  auto record = run_timed(sampler, host, loop);
  if (!record) return std::move(record).error();
  t.record = std::move(*record);
  t.report = current->report();
  return t;
}

void Engine::fill_row(BenchmarkResult& row, const PhaseDefinition& d, PhaseTiming& t, PhaseWorkload& w) const {
  const auto& rep = t.report;
  const Geometry& g = f_.geometry();
  const WorkModel work = d.work(g);
  // A repetition is one dispatch (latency: one hop); a sample is one pass of `per_pass` of them.
  PhaseOutcome o{rep, t.record, static_cast<double>(rep.dispatches) * d.units_per_repetition, work.count(row.metric),
                 rep.rejected_ms};
  t.record = measure::per_unit(std::move(t.record), d.units_per_repetition);
  w.choose_kept(o);
  if (!apply_record(row, t.record, work)) row.message = "no usable sample";
  row.knob_name = d.knob_name;
  row.knob = static_cast<std::uint64_t>(o.per_pass);
  const auto& rec = t.record;
  const WorkingSet& ws = f_.working_set();
  nlohmann::json& j = row.parameters;
  j["working_set_bytes"] = g.bytes;
  j["requested_working_set_bytes"] = ws.requested_bytes;
  j["ranked"] = ws.ranked;
  j["unranked"] = !ws.ranked;
  if (!ws.ranked) j["unranked_reason"] = ws.unranked_reason;
  j["buffers"] = 2;
  j["element"] = "vec4<u32>";
  j["clock"] = to_string(rec.clock);
  // docs/method.md#clocks: wall-clock samples are the round trip minus this (the median empty
  // submit at start-up).
  if (rec.clock == measure::ClockKind::WallClock) j["empty_submit_ms"] = gpu_.empty_submit_ms();
  j["target_sample_ms"] = t.target_ms;
  j["budget_ms"] = t.budget_ms;
  j["warmup_ms"] = rep.warmup_ms_spent;
  j["sampled_ms"] = rep.sampled_ms;
  j["samples"] = rep.samples_ms.size();
  j["kept_samples"] = rec.kept_ms.size();
  j["rejected_samples"] = o.rejected_ms.size();
  j["rejected_ms"] = o.rejected_ms;  // whole passes, like pass_ms
  j["invalid_samples"] = rep.invalid_ms.size();
  j["pass_ms"] = rep.samples_ms;     // every recorded pass in time order, before rejection
  j["cv"] = rep.cv;
  j["median_pass_ms"] = rep.median_ms;
  j["phase_restarts"] = rec.restarts;
  w.describe(row, o);
}

MemoryRun Engine::run() {
  if (auto st = validate_options(o_); !st) {
    run_.fatal = st.error();
    return run_;
  }
  t0_ = Clock::now();
  if (auto st = setup(); !st) {
    fatal_ = st.error();
    f_.release();
  } else {
    run_.working_set = f_.working_set();
    if (o_.on_working_set) o_.on_working_set(f_.working_set());
  }
  const std::vector<double> estimates = estimate_phase_seconds(o_, gpu_.has_timestamps());
  emit(ProgressKind::SuiteStart, 0);
  for (std::size_t i = 0; i < o_.phases.size(); ++i) {
    const PhaseDefinition& d = definition(o_.phases[i]);
    emit(ProgressKind::BenchmarkStart, i, "start", estimates[i]);
    BenchmarkResult row;
    if (fatal_) {
      row = base_row(i, d);
      row.status = RowStatus::Cancelled;
      row.message = fmt::format("not run: {}", fatal_->message);
    } else {
      row = run_phase(i, d);
    }
    emit(ProgressKind::BenchmarkEnd, i);
    run_.rows.push_back(row);
    if (o_.on_row) o_.on_row(run_.rows.back());
  }
  run_.fatal = fatal_;
  return run_;
}

}  // namespace

MemoryRun run_memory(gpu::Context& gpu, const MemoryOptions& options) {
  Engine engine(gpu, options);
  return engine.run();
}

}  // namespace wgb::memory
