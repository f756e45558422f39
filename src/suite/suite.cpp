// The catalog on a GPU (docs/method.md#sampling): each BenchmarkDefinition becomes an Entry of the
// one driver (driver.hpp) bound to the suite's gpu::Context: prepared up front, timed by the
// best-run sampler through a WorkloadHost, its record turned into the row (row.hpp), validated and
// checked for plausibility. run_suite and SuiteRun are the public face of that.
#include "webgpu_bench/suite.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <optional>

#include "gpu/hash.hpp"
#include "measure/clocked_sampler.hpp"
#include "measure/progress.hpp"
#include "measure/sampler.hpp"
#include "measure/stats.hpp"
#include "measure/timing.hpp"
#include "report/facts.hpp"
#include "suite/driver.hpp"
#include "suite/plausibility.hpp"
#include "suite/row.hpp"
#include "suite/runner.hpp"

namespace wgb {

namespace {

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

// A catalog benchmark bound to its GPU: prepared up front, timed by the best-run sampler
// (docs/method.md#sampling) through a WorkloadHost, validated, and judged against the adapter's
// ceilings and the throttle rule.
class CatalogEntry final : public Entry {
 public:
  // `device_warm`: shared by the run's entries; the first to be timed warms the device up.
  CatalogEntry(const BenchmarkDefinition& def, gpu::Context& ctx, const SuiteOptions& options,
               measure::CooldownBudget& budget, bool& device_warm)
      : def_(def), ctx_(ctx), o_(options), budget_(budget), device_warm_(device_warm) {}

  BenchmarkResult identity(std::size_t) const override { return definition_row(def_, 0); }

  Status prepare() override {
    if (!def_.prepare) return make_error(ErrorKind::Failed, "the definition has no prepare step");
    PrepareContext pc{ctx_, o_};
    auto w = call_prepare(def_, pc);
    if (w && *w) {
      w_ = std::move(*w);
    } else if (w) {
      return make_error(ErrorKind::Failed, "prepare returned no workload");
    } else {
      return std::move(w).error();
    }
    // An error outside any scope during preparation belongs to this benchmark (a loss, to the run).
    if (auto st = ctx_.check_errors(); !st) {
      w_.reset();
      return st;
    }
    return ok();
  }

  // Only a lost device ends the run: any other error is this benchmark's.
  bool ends_run(Step, const Error& e) const override { return e.kind == ErrorKind::DeviceLost; }

  double estimate_s() const override {
    if (!w_) return 0;
    measure::CooldownBudget scratch{0};
    measure::Sampler s(sampler_config(o_.sampling, floor_ms()), knob_range(w_->knob()), scratch);
    return s.estimate_remaining_ms() / 1000.0;
  }

  Expected<TimedPoint> timing(std::size_t, std::size_t) override {
    // Every kept sample comes from the clock the row names: a demotion to the wall clock restarts
    // the sampling there (clocked_sampler.hpp).
    config_ = sampler_config(o_.sampling, floor_ms());
    if (!device_warm_) {
      // Two seconds at the default 100 ms batches; twenty batches where they are shorter (tests).
      config_.min_warmup_ms = defaults::run::first_row_warmup_ms(config_.measurement_ms);
      device_warm_ = true;
    }
    sampler_.emplace(config_, knob_range(w_->knob()), budget_, workload_arbiter(*w_, ctx_));
    host_.emplace(ctx_, *w_);
    const int max_rounds = o_.sampling.max_rounds;
    return TimedPoint{&*sampler_, &*host_, [max_rounds](const measure::Action& a, int recorded) {
                        return a.recorded ? fmt::format("sample {}/{}", recorded + 1, max_rounds)
                                          : std::string(measure::to_string(a.stage));
                      }};
  }
  void record(std::size_t, std::size_t, measure::Record r) override {
    record_ = std::move(r);
    if (config_.min_warmup_ms > 0) {
      record_.notes.push_back(fmt::format("the run's first timed row: warmed up for at least {:.0f} ms so that an "
                                          "idle device's clocks are up (docs/method.md#sampling)",
                                          config_.min_warmup_ms));
    }
    if (config_.measurement_ms > o_.sampling.measurement_ms) {
      record_.notes.push_back(fmt::format("batches sized to {:.0f} ms, ten times the {:.1f} ms round trip of an empty "
                                          "submit on this device (docs/method.md#clocks)",
                                          config_.measurement_ms, ctx_.empty_submit_ms()));
    }
  }

  bool fill(std::size_t, BenchmarkResult& row) override {
    row.knob_name = w_->knob().name;
    w_->set_knob(record_.knob);
    const bool measured = apply_record(row, record_, w_->work());
    row.parameters = w_->parameters();
    report::write_facts(row.parameters, {.repetitions_per_batch = record_.repetitions});
    if (const std::string compiled = w_->source(); !compiled.empty()) row.wgsl_hash = gpu::source_hash(compiled);
    return measured;
  }
  Expected<std::string> validate(std::size_t) override { return w_->validate(ctx_); }
  void judge(std::size_t, BenchmarkResult& row) override {
    apply_plausibility(row, ctx_, o_.measured_ceilings);
    apply_throttle_verdict(row, record_, o_.sampling.throttle_ratio, ctx_.adapter().adapter_type == "cpu");
  }

 private:
  // The round-trip floor the batches are sized against: the empty-submit cost, except for an API
  // operation timed whole, whose round trip is part of what it measures.
  double floor_ms() const { return w_->clock() == BatchClock::WholeOperation ? 0.0 : ctx_.empty_submit_ms(); }

  const BenchmarkDefinition def_;
  gpu::Context& ctx_;
  const SuiteOptions& o_;
  measure::CooldownBudget& budget_;
  bool& device_warm_;
  std::unique_ptr<Workload> w_;
  std::optional<measure::ClockedSampler> sampler_;
  std::optional<WorkloadHost> host_;
  measure::Record record_;
  measure::SamplerConfig config_;
};

}  // namespace

struct SuiteRun::Impl {
  SuiteOptions options;
  std::unique_ptr<gpu::Context> owned;
  gpu::Context* ctx = nullptr;
  std::vector<BenchmarkDefinition> defs;
  measure::CooldownBudget budget;  // suite-wide (docs/method.md#throttling)
  bool device_warm = false;        // the first timed row warms the device up
  std::optional<Driver> driver;
  bool started = false;
  std::optional<Error> fatal;

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
    std::vector<std::unique_ptr<Entry>> entries;
    for (const auto& d : defs) entries.push_back(std::make_unique<CatalogEntry>(d, *ctx, options, budget, device_warm));
    DriverOptions o;
    o.cancel = options.cancel;
    o.on_progress = options.on_progress;
    o.reverse = options.reverse;
    driver.emplace(std::move(entries), std::move(o));
    if (options.reverse) std::reverse(defs.begin(), defs.end());  // benchmarks() in run order
    if (auto st = driver->start(); !st) {
      fatal = st.error();
      return st;
    }
    return ok();
  }
};

SuiteRun::SuiteRun(SuiteOptions options) : impl_(std::make_unique<Impl>()) { impl_->options = std::move(options); }
SuiteRun::~SuiteRun() = default;
SuiteRun::SuiteRun(SuiteRun&&) noexcept = default;
SuiteRun& SuiteRun::operator=(SuiteRun&&) noexcept = default;

Status SuiteRun::start() { return impl_->start(); }

std::optional<BenchmarkResult> SuiteRun::next() {
  if (!impl_->started) {
    if (auto st = impl_->start(); !st) return std::nullopt;
  }
  if (!impl_->driver) return std::nullopt;
  return impl_->driver->next();
}

const std::optional<Error>& SuiteRun::fatal_error() const {
  return impl_->driver && impl_->driver->fatal_error() ? impl_->driver->fatal_error() : impl_->fatal;
}
gpu::Context* SuiteRun::context() { return impl_->ctx; }
std::size_t SuiteRun::benchmark_count() const {
  return impl_->started ? impl_->defs.size()
                        : (impl_->options.benchmarks.empty() ? default_suite().size() : impl_->options.benchmarks.size());
}
const std::vector<BenchmarkDefinition>& SuiteRun::benchmarks() const { return impl_->defs; }

std::vector<double> SuiteRun::initial_estimates_s() const {
  return impl_->driver ? impl_->driver->estimates_s() : std::vector<double>{};
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
