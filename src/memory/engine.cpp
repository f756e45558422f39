// The memory suite on a GPU (docs/method.md#memory-workload, #phases): sets up the fixture (the
// working set, halving on adapter caps and out of memory, the fills, the latency cycle), then gives
// each selected phase definition (phases.hpp), bound to the fixture, to the one driver
// (suite/driver.hpp), which runs it through the one timed loop on the phase sampler (calibrate, warm
// up, sample, reject outliers), turns its record into the row and validates it. Failures end as
// values: a device loss or an uncaptured GPU error aborts the run, a cancel stops before the next
// submission, and the rows completed so far stay valid.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "gpu/hash.hpp"
#include "measure/phase_sampler.hpp"
#include "measure/progress.hpp"
#include "memory/fixture.hpp"
#include "memory/memory.hpp"
#include "memory/phases.hpp"
#include "suite/row.hpp"
#include "suite/driver.hpp"
#include "suite/runner.hpp"

namespace wgb::memory {

namespace {

using Clock = std::chrono::steady_clock;
using ProgressKind = measure::ProgressEvent::Kind;

constexpr const char* kStatisticReason =
    "median of the samples kept after modified z-score rejection (docs/method.md#phases): memory traffic depends "
    "on the memory system's state and scheduling, and the median ignores what rejection missed";

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

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
    return measure::RawTiming{raw->gpu_ms, raw->wall_ms, raw->submit_ms};
  }

 private:
  gpu::Context& gpu_;
  const MemoryOptions& o_;
  Phase p_;
  PhaseWorkload& w_;
  std::uint64_t passes_ = 0;
};

// One phase bound to the fixture: set up at its turn (the GPU idles between phases, the buffers are
// made to differ where validation needs it, the workload is prepared and primed), timed by the phase
// sampler, its record turned into the row.
class PhaseEntry final : public Entry {
 public:
  PhaseEntry(gpu::Context& gpu, const MemoryOptions& o, Fixture& f, const PhaseDefinition& d, std::size_t index,
             double estimate_s, const std::optional<Error>& setup_error)
      : gpu_(gpu), o_(o), f_(f), d_(d), index_(index), estimate_s_(estimate_s), setup_error_(setup_error) {}

  BenchmarkResult identity(std::size_t) const override {
    BenchmarkResult r;
    r.index = index_;
    r.id = phase_id(d_.phase);
    r.category = "memory";
    r.statistic = Statistic::Median;
    r.statistic_reason = kStatisticReason;
    r.wgsl_hash = gpu::source_hash(kernel_source(d_.kernel));
    r.label = d_.label;
    r.description = d_.description;
    r.metric = d_.metric;
    return r;
  }
  // The fixture failed (no memory even at the floor, a lost device): no phase can run.
  Status prepare() override { return setup_error_ ? Status(*setup_error_) : ok(); }
  double estimate_s() const override { return estimate_s_; }
  // The phases share one fixture: whatever stops one phase leaves the others nothing to run on,
  // except a wrong result (the next phase refills what it needs).
  bool ends_run(Step step, const Error& e) const override {
    return step != Step::Validation || e.kind == ErrorKind::DeviceLost || e.kind == ErrorKind::GpuError;
  }

  Status set_up(std::size_t, const std::function<void(std::string)>& stage) override {
    // Transitions (docs/method.md#phases): the GPU idles between phases.
    if (index_ > 0 && o_.transition_ms > 0) {
      stage("transition");
      if (!idle_for(o_.transition_ms, o_.cancel)) return make_error(ErrorKind::Cancelled, "cancelled");
    }
    if (o_.cancel.cancelled()) return make_error(ErrorKind::Cancelled, "cancelled");
    if (d_.needs_distinct_buffers && f_.content_a == f_.content_b) {
      stage("refill");
      if (auto st = f_.make_buffers_differ(); !st) return st;
    }
    auto workload = d_.prepare(f_);
    if (!workload) return std::move(workload).error();
    w_ = std::move(*workload);
    f_.alternation = 0;
    // One untimed dispatch first: some drivers compile a pipeline or fault pages in on first use, and
    // a one-off cost in the first calibration pass would stop the 4x growth far short of the target.
    stage("prime");
    w_->before_pass(1);
    return gpu_.run_pass([&](wgpu::ComputePassEncoder& pass) { w_->encode(pass, 1); });
  }

  // The phase sampler (docs/method.md#phases). A timestamp that fails the cross-check is discarded,
  // never replaced by the wall clock, so a phase never mixes clocks; repeated failures demote the
  // timer and the phase starts again on the wall clock with its longer samples (#clocks). One arbiter
  // per phase: each phase records its own clock, and a timer that misbehaved in one phase is given
  // its chance again in the next.
  Expected<TimedPoint> timing(std::size_t, std::size_t) override {
    auto make = [this](measure::ClockKind clock) {
      const measure::PhaseConfig cfg = phase_config(d_, o_, clock == measure::ClockKind::WallClock, gpu_.empty_submit_ms());
      target_ms_ = cfg.target_sample_ms;
      budget_ms_ = cfg.budget_ms;
      auto sampler = std::make_unique<measure::PhaseSampler>(cfg);
      current_ = sampler.get();
      return sampler;
    };
    sampler_.emplace(make, measure::TimingArbiter(gpu_.has_timestamps(), gpu_.empty_submit_ms()));
    host_.emplace(gpu_, o_, d_.phase, *w_);
    return TimedPoint{&*sampler_, &*host_, [](const measure::Action& a, int recorded) {
                        return a.stage == measure::Action::Stage::Sample ? fmt::format("sample {}", recorded + 1)
                                                                         : std::string(measure::to_string(a.stage));
                      }};
  }
  void record(std::size_t, std::size_t, measure::Record r) override {
    record_ = std::move(r);
    report_ = current_->report();
  }
  bool fill(std::size_t, BenchmarkResult& row) override;
  Expected<std::string> validate(std::size_t) override { return w_->validate(); }

 private:
  gpu::Context& gpu_;
  const MemoryOptions& o_;
  Fixture& f_;
  const PhaseDefinition& d_;
  std::size_t index_;
  double estimate_s_;
  const std::optional<Error>& setup_error_;
  std::unique_ptr<PhaseWorkload> w_;
  std::optional<measure::ClockedSampler> sampler_;
  std::optional<PhaseHost> host_;
  measure::PhaseSampler* current_ = nullptr;
  measure::Record record_;
  measure::PhaseSampler::Report report_;
  double target_ms_ = 0, budget_ms_ = 0;
};

bool PhaseEntry::fill(std::size_t, BenchmarkResult& row) {
  w_->after_timing();
  const auto& rep = report_;
  const Geometry& g = f_.geometry();
  const WorkModel work = d_.work(g);
  // A repetition is one dispatch (latency: one hop); a sample is one pass of `per_pass` of them.
  PhaseOutcome o{rep, record_, static_cast<double>(rep.dispatches) * d_.units_per_repetition, work.count(row.metric),
                 rep.rejected_ms};
  record_ = measure::per_unit(std::move(record_), d_.units_per_repetition);
  w_->choose_kept(o);
  const bool measured = apply_record(row, record_, work);
  if (!measured) row.message = "no usable sample";
  row.knob_name = d_.knob_name;
  row.knob = static_cast<std::uint64_t>(o.per_pass);
  const auto& rec = record_;
  const WorkingSet& ws = f_.working_set();
  report::MemoryPhaseParameters p{.working_set_bytes = g.bytes,
                                  .requested_working_set_bytes = ws.requested_bytes,
                                  .ranked = ws.ranked,
                                  .clock = to_string(rec.clock),
                                  .target_sample_ms = target_ms_,
                                  .budget_ms = budget_ms_,
                                  .warmup_ms = rep.warmup_ms_spent,
                                  .sampled_ms = rep.sampled_ms,
                                  .samples = rep.samples_ms.size(),
                                  .kept_samples = rec.kept_ms.size(),
                                  .rejected_samples = o.rejected_ms.size(),
                                  .invalid_samples = rep.invalid_ms.size(),
                                  .rejected_ms = o.rejected_ms,  // whole passes, like pass_ms
                                  .pass_ms = rep.samples_ms,     // every recorded pass in time order, before rejection
                                  .cv = rep.cv,
                                  .median_pass_ms = rep.median_ms,
                                  .phase_restarts = rec.restarts};
  if (!ws.ranked) p.unranked_reason = ws.unranked_reason;
  // docs/method.md#clocks: wall-clock samples are the round trip minus this (the median empty
  // submit at start-up).
  if (rec.clock == measure::ClockKind::WallClock) p.empty_submit_ms = gpu_.empty_submit_ms();
  w_->describe(row, o, p);
  row.parameters.update(report::to_json(p));
  return measured;
}

}  // namespace

struct MemorySuite::Impl {
  gpu::Context& gpu;
  MemoryOptions o;
  std::optional<Fixture> fixture;
  std::optional<Error> setup_error;
  std::optional<Driver> driver;
  MemoryRun run;
  bool started = false;
  bool fixture_ready = false;

  Impl(gpu::Context& g, MemoryOptions options) : gpu(g), o(std::move(options)) {}

  // Checks the options and builds the phases' entries; the fixture is set up on the first next(), so
  // a front end can write its document (and fail on an unwritable file) before any work.
  Status start() {
    if (started) return ok();
    started = true;
    if (auto st = validate_options(o); !st) {
      run.fatal = st.error();
      return st;
    }
    fixture.emplace(gpu, o);
    const std::vector<double> estimates = estimate_phase_seconds(o, gpu.has_timestamps());
    std::vector<std::unique_ptr<Entry>> entries;
    for (std::size_t i = 0; i < o.phases.size(); ++i) {
      entries.push_back(
          std::make_unique<PhaseEntry>(gpu, o, *fixture, definition(o.phases[i]), i, estimates[i], setup_error));
    }
    DriverOptions dopt;
    dopt.cancel = o.cancel;
    dopt.on_progress = o.on_progress;
    driver.emplace(std::move(entries), std::move(dopt));
    return ok();
  }

  // The fixture every phase shares: the working set (halving on caps and out of memory), the fills,
  // the latency cycle. A fixture that cannot be set up makes every row "not run", with the reason.
  void set_up() {
    const auto t0 = Clock::now();
    auto progress = [&](std::string stage) {
      if (!o.on_progress) return;
      ProgressEvent e;
      e.kind = ProgressKind::Stage;
      e.now_s = seconds(Clock::now() - t0);
      e.id = o.phases.empty() ? std::string() : phase_id(o.phases.front());
      e.stage = std::move(stage);
      o.on_progress(e);
    };
    std::vector<std::string> kernels;
    bool chain = false;
    for (Phase p : o.phases) {
      const auto& d = definition(p);
      kernels.insert(kernels.end(), d.kernels.begin(), d.kernels.end());
      chain = chain || d.needs_chain;
    }
    if (auto st = fixture->set_up(kernels, chain, progress); !st) {
      setup_error = st.error();
      fixture->release();
    } else {
      run.working_set = fixture->working_set();
      if (o.on_working_set) o.on_working_set(fixture->working_set());
    }
    (void)driver->start();
    fixture_ready = true;
  }

  std::optional<BenchmarkResult> next() {
    if (!started) {
      if (auto st = start(); !st) return std::nullopt;
    }
    if (!driver) return std::nullopt;
    if (!fixture_ready) set_up();
    auto row = driver->next();
    if (row) {
      run.rows.push_back(*row);
      if (o.on_row) o.on_row(run.rows.back());
    }
    run.fatal = driver->fatal_error();
    const bool cancelled = std::any_of(run.rows.begin(), run.rows.end(),
                                       [](const BenchmarkResult& r) { return r.status == RowStatus::Cancelled; });
    if (!run.fatal && cancelled) run.fatal = make_error(ErrorKind::Cancelled, "cancelled");
    return row;
  }
};

MemorySuite::MemorySuite(gpu::Context& gpu, MemoryOptions options)
    : impl_(std::make_unique<Impl>(gpu, std::move(options))) {}
MemorySuite::~MemorySuite() = default;
Status MemorySuite::start() { return impl_->start(); }
std::optional<BenchmarkResult> MemorySuite::next() { return impl_->next(); }
const MemoryRun& MemorySuite::result() const { return impl_->run; }
const MemoryOptions& MemorySuite::options() const { return impl_->o; }

std::vector<BenchmarkResult> MemorySuite::planned() const {
  return impl_->driver ? impl_->driver->identities() : std::vector<BenchmarkResult>{};
}

std::vector<double> MemorySuite::estimates_s() const {
  return impl_->driver ? impl_->driver->estimates_s() : std::vector<double>{};
}

MemoryRun run_memory(gpu::Context& gpu, const MemoryOptions& o) {
  MemorySuite suite(gpu, o);
  if (auto st = suite.start(); !st) return suite.result();
  while (suite.next()) {
  }
  return suite.result();
}

}  // namespace wgb::memory
