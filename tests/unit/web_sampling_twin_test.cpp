// The native twin of the browser engine's sampling test (tests/web/engine_test.js): the same
// scripted durations (tests/web/sampling_script.json) fed to the native best-run sampler through the
// one timed loop. It writes what it decided (kept samples, discarded ones, stop reason, headline
// time) for the engine's test, which fails when the WebAssembly engine decides anything else.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "measure/clocked_sampler.hpp"
#include "suite/row.hpp"
#include "suite/runner.hpp"
#include "webgpu_bench/options.hpp"

namespace wgb {
namespace {

nlohmann::json load_script() {
  std::ifstream in(WGB_WEB_SCRIPT);
  return nlohmann::json::parse(in);
}

// Pass i of the row: every repetition is one dispatch of the fixed-work kernel.
class ScriptedHost final : public PassHost {
 public:
  explicit ScriptedHost(const nlohmann::json& script) : script_(script) {}
  Expected<measure::RawTiming> time_pass(const measure::Action& a) override {
    const auto& f = script_["factors"];
    const double gpu = script_["per_dispatch_ms"].get<double>() * a.repetitions * f[calls_ % f.size()].get<double>();
    ++calls_;
    return measure::RawTiming{gpu, gpu + script_["wall_extra_ms"].get<double>()};
  }

 private:
  const nlohmann::json& script_;
  std::size_t calls_ = 0;
};

TEST(WebSamplingTwin, NativeSamplerOnTheScriptedDurations) {
  const nlohmann::json script = load_script();
  const SamplingOptions s;  // the engine runs with the default sampling options
  measure::SamplerConfig c;
  c.target_dispatch_ms = s.target_dispatch_ms;
  c.measurement_ms = s.measurement_ms;
  c.idle_gap_ms = 0;  // no real idling here; gaps decide nothing
  c.min_rounds = s.min_rounds;
  c.stable_rounds = s.stable_rounds;
  c.improvement_tolerance = s.improvement_tolerance;
  c.max_rounds = s.max_rounds;
  c.throttle_ratio = s.throttle_ratio;
  c.cooldown_ms = 0;
  // The engine's row is its run's first: it warms up as the suite's first row does.
  c.min_warmup_ms = defaults::run::first_row_warmup_ms(c.measurement_ms);
  measure::CooldownBudget budget{s.max_cooldowns};
  // A fixed-work technique kernel: no work knob, only batching calibrates.
  measure::ClockedSampler sampler(c, measure::KnobRange{1, 1, 1}, budget,
                                  measure::TimingArbiter(true, script["empty_submit_ms"].get<double>()));
  ScriptedHost host(script);
  auto record = run_timed(sampler, host, TimedLoop{});
  ASSERT_TRUE(record) << record.error().message;
  BenchmarkResult row;
  row.metric = Metric{"ops", "element", "elements"};
  row.statistic = Statistic::Median;
  ASSERT_TRUE(apply_record(row, *record, WorkModel{0, 0, 1}));
  EXPECT_FALSE(row.samples_ms.empty());
  EXPECT_EQ(row.throttled_ms.size(), 1u) << "the 1.6x pass is discarded as thermal noise";

  nlohmann::json out = {{"benchmark", script["benchmark"]},
                        {"samples_ms", row.samples_ms},
                        {"throttled_ms", row.throttled_ms},
                        {"repetitions", row.repetitions},
                        {"stop_reason", to_string(row.stop_reason)},
                        {"time_ms", row.time_ms}};
  // Atomically: CTest may run this test's discovered twin while the engine's test reads the file.
  const std::string tmp = std::string(WGB_WEB_TWIN_OUT) + ".tmp-" + std::to_string(::getpid());
  std::ofstream(tmp) << out.dump(2) << "\n";
  ASSERT_EQ(std::rename(tmp.c_str(), WGB_WEB_TWIN_OUT), 0);
}

}  // namespace
}  // namespace wgb
