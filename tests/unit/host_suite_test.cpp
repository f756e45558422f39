// Unit tests of the host suite through the library API: a small `webgpu-bench host --quick`-style
// run (tiny sizes, few repetitions: about a second on two cores) must produce every row with its
// checks passed and every field recorded of the host present, in a document the common loader
// accepts; option errors are usage errors; the second-process comparison and its arguments.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <thread>

#include "host/host.hpp"
#include "report/repro.hpp"
#include "host/text.hpp"
#include "host/topology.hpp"
#include "report/document.hpp"
#include "report/files.hpp"
#include "host/machine.hpp"

namespace wgb::host {
namespace {

using json = nlohmann::json;

HostOptions tiny() {
  HostOptions o = quick_options();
  // At most two pinned threads, and never more than the cores this process may use (a cpuset can
  // allow fewer CPUs than are online).
  o.threads = static_cast<unsigned>(std::clamp<std::size_t>(read_topology().one_per_core.size(), 1, 2));
  o.array_bytes = 256 << 10;
  o.sweep_min_bytes = 16 << 10;
  o.sweep_max_bytes = 64 << 10;
  o.latency_max_bytes = 64 << 10;
  o.points_per_octave = 1;
  o.protocol.repetitions = 3;
  o.protocol.warmup_ms = 1;
  o.clock_probe_ms = 0.2;
  return o;
}

TEST(HostSuite, QuickRunHasEveryRowCheckAndReportingField) {
  report::ResultDocument doc("host", {"webgpu-bench", "host", "--quick"}, host::native_machine());
  int checkpoints = 0;
  std::vector<std::string> seen;
  HostOptions o = tiny();
  o.on_row = [&](const BenchmarkResult& r) { seen.push_back(r.id); };
  auto run = run_host(o, doc, [&]() -> Status {
    ++checkpoints;
    return ok();
  });
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_FALSE(run->cancelled);
  EXPECT_EQ(run->failed_rows, 0);
  ASSERT_EQ(run->rows.size(), host_benchmarks().size());
  EXPECT_EQ(seen.size(), run->rows.size());
  EXPECT_GE(checkpoints, static_cast<int>(run->rows.size()));
  doc.finish("complete");
  const json& d = doc.json();
  EXPECT_EQ(d["suite"], "host");

  // What the document records of the host machine.
  const json& h = d["machine"]["host"];
  EXPECT_FALSE(h["cpu_model"].get<std::string>().empty());
  EXPECT_GE(h["topology"]["physical_cores_allowed"].get<int>(), 1);
  EXPECT_TRUE(h["vector_isa"].is_array());
  EXPECT_TRUE(h["clock"]["base"].contains("tsc_mhz"));
  EXPECT_GT(h["clock"]["sustained_add_chain_mhz"]["median"].get<double>(), 0);
  EXPECT_FALSE(h["topology"]["caches_over_allowed_cpus"].empty());
  EXPECT_GT(h["topology"]["memory"]["total_bytes"].get<double>(), 0);
  EXPECT_GT(h["memory_measured"]["stream_bandwidth_Bps"].get<double>(), 0);
  EXPECT_FALSE(h["memory_measured"]["stream_arrays_at_least_4x_llc"].is_null());
  // One entry per NUMA node sysfs lists; a kernel without NUMA support lists none.
  const json& numa = h["topology"]["numa"];
  EXPECT_EQ(numa["node_count"].get<std::size_t>(), numa["nodes"].size());
  if (std::filesystem::exists("/sys/devices/system/node/node0")) {
    EXPECT_GE(numa["node_count"].get<int>(), 1);
  } else {
    EXPECT_EQ(numa["node_count"].get<int>(), 0);
  }
  EXPECT_FALSE(h["topology"]["numa"]["mempolicy"].get<std::string>().empty());
  EXPECT_FALSE(h["compiler"]["vendor_version"].get<std::string>().empty());
  EXPECT_NE(h["compiler"]["command"].get<std::string>().find("-O"), std::string::npos);
  EXPECT_GT(h["timer"]["resolution_ns"].get<double>(), 0);
  EXPECT_GT(h["roofline"]["peak_flops_f64"].get<double>(), 0);
  EXPECT_FALSE(d["build"]["flags"].is_null());

  // Row side: statistic per regime, dispersion, threads, input, timing, frequency, curves.
  for (const auto& r : d["rows"]) {
    SCOPED_TRACE(r["id"].get<std::string>());
    EXPECT_EQ(r["category"], "host");
    EXPECT_EQ(r["status"], "ok") << r["message"];
    EXPECT_GT(r["value"].get<double>(), 0);
    EXPECT_FALSE(r["validation"].get<std::string>().empty());
    const bool fma = r["family"] == "fma";
    EXPECT_EQ(r["statistic"], fma ? "best" : "median");
    EXPECT_FALSE(r["statistic_reason"].get<std::string>().empty());
    const json& p = r["parameters"];
    EXPECT_EQ(p["timing"]["clock"], "std::chrono::steady_clock");
    EXPECT_EQ(p["timing"]["repetitions"], 3);
    EXPECT_GE(p["timing"]["repeat"].get<double>(), 1);
    EXPECT_GT(p["timing"]["region_ms_min"].get<double>(), 1.0);  // every region > 1 ms
    EXPECT_TRUE(p["timing"]["warmup"].contains("runs"));
    EXPECT_TRUE(p["timing"]["dispersion"].contains("iqr_ms"));
    EXPECT_TRUE(p["threads"].contains("affinity"));
    EXPECT_TRUE(p["threads"].contains("count"));
    EXPECT_TRUE(p["input"].contains("shape"));
    EXPECT_TRUE(p["input"].contains("alignment"));
    EXPECT_TRUE(p["input"].contains("numerical_character"));
    EXPECT_TRUE(p["frequency"].contains("sustained_mhz_median"));
    ASSERT_TRUE(p["series"].is_array());
    EXPECT_FALSE(p["series"].empty());
    for (const auto& s : p["series"]) {
      EXPECT_FALSE(s["points"].empty());
      for (const auto& pt : s["points"]) EXPECT_TRUE(pt["valid"].get<bool>());
    }
    EXPECT_EQ(r["samples_ms"].size(), 3u);
  }
  // STREAM rows: curves over threads and over working set; triad has the derived quantities.
  const json* triad = nullptr;
  for (const auto& r : d["rows"]) {
    if (r["id"] == "host-stream-triad") triad = &r;
  }
  ASSERT_NE(triad, nullptr);
  ASSERT_EQ((*triad)["parameters"]["series"].size(), 2u);
  EXPECT_EQ((*triad)["parameters"]["series"][0]["name"], "threads");
  EXPECT_EQ((*triad)["parameters"]["series"][1]["name"], "working_set");
  EXPECT_TRUE((*triad)["parameters"]["series"][1].contains("cache_boundaries"));
  EXPECT_TRUE((*triad)["parameters"].contains("derived"));
  // Triad is the bandwidth roof itself: its fraction is 1 unless this machine's measured f64 peak
  // lies below triad's flop rate (AI 1/12), and then it is its flop rate over that peak.
  {
    const json& dv = (*triad)["parameters"]["derived"];
    const double bw = h["roofline"]["bandwidth_Bps"].get<double>();
    const double peak = h["roofline"]["peak_flops_f64"].get<double>();
    const double roof = std::min(bw * dv["arithmetic_intensity"].get<double>(), peak);
    EXPECT_NEAR(dv["fraction_of_roofline"].get<double>(), dv["flops_per_second"].get<double>() / roof, 1e-9)
        << "roofline " << h["roofline"].dump();
    // And the peak is a plausible FMA rate, not a fixed cost measured as one (>= 100 MFLOP/s on any
    // machine that runs this at all).
    EXPECT_GT(peak, 1e8) << "roofline " << h["roofline"].dump();
    if (bw * dv["arithmetic_intensity"].get<double>() <= peak) {
      EXPECT_NEAR(dv["fraction_of_roofline"].get<double>(), 1.0, 1e-9);
    }
  }
  EXPECT_FALSE((*triad)["notes"].empty());  // 256 KiB arrays: says it is not a DRAM figure

  // The document loads back through the common loader (so report/compare can read it).
  const auto path = std::filesystem::temp_directory_path() / ("wgb-host-test-" + std::to_string(getpid()) + ".json");
  ASSERT_TRUE(report::write_json_atomic(path, d));
  auto loaded = report::load_result_document(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(loaded) << loaded.error().message;

  // The text forms carry the reporting table and the curves.
  std::ostringstream text;
  write_host_summary(text, doc.machine(), doc.options(), doc.rows());
  write_host_curves(text, doc.rows());
  for (const char* item : {"| CPU |", "| Cache |", "| Memory |", "| NUMA |", "| Compiler |", "| Flags |", "| Threads |",
                           "| Frequency |", "| Input |", "| Timing |", "host-stream-triad over thread count",
                           "host-load-latency over working set", "ns per load"}) {
    EXPECT_NE(text.str().find(item), std::string::npos) << item;
  }

  // A second-process comparison of a document with itself agrees everywhere, curve points included
  // (report/repro.hpp: the rule every suite uses).
  auto copy = doc.rows();
  const auto same = report::apply_repro(copy, doc.rows(), 0.01);
  EXPECT_EQ(same.verdict, "pass");
  const auto points = report::compare_points(copy, doc.rows(), 0.01);
  EXPECT_GT(points.compared, 0);
  EXPECT_EQ(points.disagreeing, 0);
  report::ResultDocument marked_doc("host", {});
  for (const auto& r : copy) marked_doc.add_row(r.result);
  std::ostringstream marked;
  write_host_curves(marked, marked_doc.rows());
  EXPECT_NE(marked.str().find("2nd process"), std::string::npos);
  EXPECT_NE(marked.str().find("| yes |"), std::string::npos);
}

TEST(HostSuite, FilterSelectsAndUnknownIsUsageError) {
  auto s = select_host_benchmarks("host-stream-*");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->size(), 4u);
  s = select_host_benchmarks("host-fma-f64,host-load-latency");
  ASSERT_TRUE(s);
  EXPECT_EQ(*s, (std::vector<std::string>{"host-fma-f64", "host-load-latency"}));
  auto bad = select_host_benchmarks("host-nope");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, ErrorKind::Usage);
}

TEST(HostSuite, BadOptionsAreUsageErrors) {
  report::ResultDocument doc("host", {});
  HostOptions o = tiny();
  o.protocol.repetitions = 0;
  auto r = run_host(o, doc);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::Usage);
  o = tiny();
  o.threads = 100000;  // more pinned threads than CPUs
  r = run_host(o, doc);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::Usage);
  o = tiny();
  o.filter = "host-stream-triad";
  o.array_bytes = std::uint64_t{1} << 50;  // more than the machine has
  r = run_host(o, doc);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::Usage);
  o = tiny();
  o.isa = "neon-of-the-future";
  r = run_host(o, doc);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::Usage);
}

}  // namespace
}  // namespace wgb::host
