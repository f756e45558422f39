// Unit tests for host/definitions: the registry (ids, order, what each definition declares), and
// that a definition written here, a tiny kernel with its fixture, check and curve, runs through
// the generic loop of the host suite and gives a row: adding a host kernel is one definition.
#include "host/definitions.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <numeric>

#include "host/host.hpp"
#include "host/machine.hpp"
#include "report/document.hpp"

namespace wgb::host {
namespace {

TEST(HostDefinitions, RegistryKeepsIdsOrderAndFamilies) {
  std::vector<std::string> ids, families;
  for (const auto& d : host_benchmarks()) {
    ids.push_back(d.id);
    families.push_back(d.family);
    EXPECT_TRUE(d.curves && d.fixture && d.kernel && d.describe) << d.id;
    EXPECT_FALSE(d.label.empty());
    EXPECT_FALSE(d.description.empty());
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"host-fma-f32", "host-fma-f64", "host-stream-copy", "host-stream-scale",
                                           "host-stream-add", "host-stream-triad", "host-load-latency"}));
  EXPECT_EQ(families,
            (std::vector<std::string>{"fma", "fma", "stream", "stream", "stream", "stream", "latency"}));
  // The four STREAM kernels run on one set of arrays per point; the others have their own.
  for (const auto& d : host_benchmarks()) EXPECT_EQ(d.shares.empty(), d.family != "stream") << d.id;
}

TEST(HostDefinitions, SizePointsAreGeometricMultiplesOfTheGranule) {
  const auto p = size_points(4096, 65536, 1, 64);
  EXPECT_EQ(p, (std::vector<std::uint64_t>{4096, 8192, 16384, 32768, 65536}));
  EXPECT_EQ(round_up(65, 64), 128u);
}

// A tiny kernel: every member sums its own array of 1..n, `repeat` times.
struct SumFixture : HostFixture {
  std::vector<std::vector<std::uint64_t>> data;
  std::vector<std::uint64_t> sums;
};

HostDefinition sum_definition() {
  HostDefinition d;
  d.id = "host-test-sum";
  d.label = "Host test sum";
  d.description = "Sum of 1..n per member (a test kernel)";
  d.family = "test";
  d.regime = Regime::Memory;
  d.metric = Metric{"bytes", "B", "Bytes read"};
  d.curves = [](const HostEnv& env) {
    Curve c{"threads", "threads", "sum over thread count", false, {}};
    for (unsigned t : env.thread_list) c.points.push_back({t, 4096, "threads"});
    return std::vector<Curve>{c};
  };
  d.fixture = [](const HostEnv&, ThreadTeam& team, const PointSpec& at) -> Expected<std::unique_ptr<HostFixture>> {
    auto f = std::make_unique<SumFixture>();
    f->data.assign(team.size(), std::vector<std::uint64_t>(at.bytes / 8));
    for (auto& v : f->data) std::iota(v.begin(), v.end(), 1);
    f->sums.assign(team.size(), 0);
    return std::unique_ptr<HostFixture>(std::move(f));
  };
  d.kernel = [](HostFixture& fixture, const HostEnv&, ThreadTeam& team, const PointSpec& at) {
    auto& f = static_cast<SumFixture&>(fixture);
    HostKernel k;
    k.body = [&f](unsigned t, std::uint64_t repeat) {
      std::uint64_t s = 0;
      for (std::uint64_t r = 0; r < repeat; ++r) {
        s = 0;
        for (auto v : f.data[t]) s += v;
        keep(s);
      }
      f.sums[t] = s;
    };
    k.check = [&f] {
      const std::uint64_t n = f.data.front().size();
      const bool ok = std::all_of(f.sums.begin(), f.sums.end(), [&](std::uint64_t s) { return s == n * (n + 1) / 2; });
      return Check{ok, ok ? "sums equal n(n+1)/2" : "sums differ"};
    };
    k.work.bytes_read = static_cast<double>(at.bytes) * team.size();
    k.x.threads = team.size();
    return k;
  };
  d.describe = [](const HostEnv&, const Point&, std::vector<std::string>& notes, report::HostRowParameters& p) {
    notes.push_back("a test kernel");
    p.input = {{"element_type", "u64"}};
  };
  return d;
}

TEST(HostDefinitions, ANewDefinitionRunsThroughTheGenericLoopAndGivesARow) {
  const std::vector<HostDefinition> catalog{sum_definition()};
  HostOptions o = quick_options();
  o.threads = 1;
  o.thread_sweep = false;
  o.protocol.repetitions = 3;
  o.protocol.warmup_ms = 1;
  o.clock_probe_ms = 0.1;
  o.definitions = &catalog;
  std::vector<std::string> progress;
  o.on_progress = [&](const std::string& line) { progress.push_back(line); };
  report::ResultDocument doc("host", {"webgpu-bench", "host"}, native_machine());
  auto run = run_host(o, doc);
  ASSERT_TRUE(run) << run.error().message;
  ASSERT_EQ(run->rows.size(), 1u);
  const BenchmarkResult& r = run->rows.front();
  EXPECT_EQ(r.id, "host-test-sum");
  EXPECT_EQ(r.family, "test");
  EXPECT_EQ(r.category, "host");
  EXPECT_EQ(r.status, RowStatus::Ok) << r.message;
  EXPECT_EQ(r.validation, "sums equal n(n+1)/2");
  EXPECT_EQ(r.timing_method, TimingMethod::HostSteadyClock);
  EXPECT_EQ(r.stop_reason, StopReason::FixedRepetitions);
  EXPECT_EQ(r.samples_ms.size(), 3u);
  EXPECT_GT(r.value, 0);
  EXPECT_EQ(r.statistic, Statistic::Median);
  EXPECT_NE(std::find(r.notes.begin(), r.notes.end(), "a test kernel"), r.notes.end());
  EXPECT_EQ(r.parameters["input"]["element_type"], "u64");
  ASSERT_EQ(r.parameters["series"].size(), 1u);
  EXPECT_EQ(r.parameters["series"][0]["points"].size(), 1u);
  EXPECT_EQ(r.parameters["timing"]["clock"], "std::chrono::steady_clock");
  EXPECT_EQ(progress.size(), 1u);
  EXPECT_EQ(doc.rows().size(), 1u);
  // The filter selects over the catalog given.
  o.filter = "host-fma-*";
  auto bad = run_host(o, doc);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, ErrorKind::Usage);
}

TEST(HostDefinitions, ACancelKeepsTheRowsThatCompleted) {
  std::vector<HostDefinition> catalog{sum_definition(), sum_definition()};
  catalog[1].id = "host-test-sum-2";
  HostOptions o = quick_options();
  o.threads = 1;
  o.thread_sweep = false;
  o.protocol.repetitions = 3;
  o.protocol.warmup_ms = 1;
  o.clock_probe_ms = 0;
  o.definitions = &catalog;
  std::atomic<bool> stop{false};
  o.cancel = CancelToken{&stop};
  o.on_row = [&](const BenchmarkResult&) { stop = true; };  // Ctrl-C right after the first row
  report::ResultDocument doc("host", {"webgpu-bench", "host"}, native_machine());
  auto run = run_host(o, doc);
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_TRUE(run->cancelled);
  ASSERT_EQ(run->rows.size(), 1u);
  EXPECT_EQ(run->rows.front().id, "host-test-sum");
  EXPECT_EQ(doc.rows().size(), 1u);
}

}  // namespace
}  // namespace wgb::host
