// The host suite's record of the CPU and its options are read back into the types they are written
// from (report/host_section.hpp), and the host rows' facts read from their parameters.
#include "report/host_section.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "report/facts.hpp"

namespace wgb::report {
namespace {

using json = nlohmann::json;

HostSuiteRecord started() {
  HostSuiteRecord r;
  r.topology.allowed_cpus = "0-3";
  r.topology.allowed_cpu_count = 4;
  r.topology.physical_cores_allowed = 2;
  r.topology.one_per_core = "0,2";
  r.topology.smt_siblings = "1,3";
  r.topology.caches = {{1, "Data", 49152, 12, 64, "0-1", false, 2, 98304},
                       {3, "Unified", 33554432, 16, 64, "0-3", false, 1, 33554432}};
  r.topology.numa_node_count = 1;
  r.topology.numa_nodes = {{0, "0-3"}};
  r.topology.mempolicy = "default";
  r.topology.memory_total_bytes = 8589934592;
  r.topology.memory_available_bytes_at_start = 4294967296;
  r.topology.transparent_hugepages = "always [madvise] never";
  r.clock.tsc_mhz = 2100.5;
  r.clock.cpufreq = {{"base_frequency", "2100000"}, {"scaling_governor", "performance"}};
  r.clock.idle_add_chain_mhz = 2899.0;
  r.load_average_at_start = "0.10 0.20 0.30 1/100 42";
  r.timer = {20.0, 25.5};
  r.compiler = {"GNU 12.2.0", "g++ (Debian 12.2.0) 12.2.0", "-O3", "one function per ISA"};
  r.kernel_isa = {"avx2", "avx2", {"avx2", "scalar"}};
  return r;
}

HostSuiteRecord finished() {
  HostSuiteRecord r = started();
  r.clock.finished = true;
  r.clock.sustained_add_chain_mhz = ClockSpread{2900, 2850, 2950, std::size_t{12}, std::nullopt};
  r.clock.os_reported_mhz = ClockSpread{2800, 2700, 3000, std::nullopt, std::string("cpufreq scaling_cur_freq")};
  HostMemoryRecord m;
  m.capacity_bytes = 8589934592;
  m.stream_bandwidth_Bps = 2.5e10;
  m.stream_bandwidth_from = "host-stream-triad";
  m.stream_arrays_bytes = 268435456;
  m.stream_arrays_at_least_4x_llc = true;
  m.stream_threads = 2;
  m.stream = {{"copy", 2.4e10}, {"triad", 2.5e10}};
  r.memory_measured = m;
  r.roofline = HostRooflineRecord{1e11, 2e11, 2.5e10, 2};
  r.load_average_at_end = "1.00 0.50 0.40 2/100 43";
  return r;
}

json machine_of(const HostSuiteRecord& r) { return {{"host", to_json(r)}}; }

TEST(HostSection, AFinishedRecordReadsBackAsItWasWritten) {
  const HostSuiteRecord r = finished();
  const HostSuiteRecord back = read_host_suite_record(machine_of(r));
  // Every field: written again, the same JSON.
  EXPECT_EQ(to_json(back), to_json(r));
  EXPECT_EQ(back.topology.caches.size(), 2u);
  EXPECT_EQ(back.topology.caches[1].total_bytes, 33554432u);
  EXPECT_EQ(back.clock.cpufreq_value("base_frequency"), "2100000");
  EXPECT_FALSE(back.clock.cpufreq_value("boost"));
  ASSERT_TRUE(back.clock.sustained_add_chain_mhz);
  EXPECT_EQ(back.clock.sustained_add_chain_mhz->readings, 12u);
  ASSERT_TRUE(back.clock.os_reported_mhz);
  EXPECT_EQ(back.clock.os_reported_mhz->source, "cpufreq scaling_cur_freq");
  ASSERT_TRUE(back.memory_measured);
  EXPECT_EQ(back.memory_measured->stream.size(), 2u);
  ASSERT_TRUE(back.roofline);
  EXPECT_EQ(back.roofline->peak_flops_f32, 2e11);
  EXPECT_DOUBLE_EQ(to_json(r)["roofline"]["ridge_point_f64_flop_per_byte"].get<double>(), 4.0);
  EXPECT_EQ(back.load_average_at_end, "1.00 0.50 0.40 2/100 43");
}

TEST(HostSection, WhatIsMeasuredAfterTheRunIsWrittenOnlyOnceItIs) {
  const json started_json = to_json(started());
  for (const char* key : {"memory_measured", "roofline", "load_average_at_end"}) {
    EXPECT_FALSE(started_json.contains(key)) << key;
  }
  EXPECT_FALSE(started_json["clock"].contains("sustained_add_chain_mhz"));
  EXPECT_FALSE(read_host_suite_record(machine_of(started())).clock.finished);

  // Finished without a clock reading: the spreads are recorded as null, and read back as none.
  HostSuiteRecord none = finished();
  none.clock.sustained_add_chain_mhz.reset();
  none.clock.os_reported_mhz.reset();
  none.memory_measured->stream_bandwidth_Bps.reset();
  const json j = to_json(none);
  EXPECT_TRUE(j["clock"]["sustained_add_chain_mhz"].is_null());
  EXPECT_TRUE(j["memory_measured"]["stream_bandwidth_from"].is_null());
  const HostSuiteRecord back = read_host_suite_record(machine_of(none));
  EXPECT_TRUE(back.clock.finished);
  EXPECT_FALSE(back.clock.sustained_add_chain_mhz);
  EXPECT_EQ(to_json(back), j);
}

TEST(HostSection, AFieldOfAnotherTypeOrAnotherSuitesDocumentReadsAsDefaults) {
  json machine = machine_of(finished());
  machine["host"]["topology"]["allowed_cpu_count"] = "four";
  machine["host"]["clock"]["base"]["tsc_mhz"] = nullptr;
  const HostSuiteRecord r = read_host_suite_record(machine);
  EXPECT_EQ(r.topology.allowed_cpu_count, 0u);
  EXPECT_EQ(r.topology.physical_cores_allowed, 2u);  // the fields after it still read
  EXPECT_FALSE(r.clock.tsc_mhz);
  // A GPU document's machine: the host description only.
  const HostSuiteRecord gpu = read_host_suite_record(json{{"host", {{"cpu_model", "x"}}}, {"adapter", json::object()}});
  EXPECT_TRUE(gpu.topology.caches.empty());
  EXPECT_FALSE(gpu.memory_measured);
  EXPECT_FALSE(gpu.clock.finished);
  EXPECT_FALSE(read_host_suite_record(json("not an object")).roofline);
}

TEST(HostSection, OptionsReadBackAsTheyWereWritten) {
  HostOptionsRecord o;
  o.benchmarks = {"host-stream-triad", "host-fma-f64"};
  o.threads = 2;
  o.thread_list = std::vector<unsigned>{1, 2};
  o.affinity = "cores";
  o.cpus = "0,2";
  o.array_bytes = 1 << 26;
  o.sweep_min_bytes = 4096;
  o.sweep_max_bytes = 1 << 26;
  o.latency_max_bytes = 1 << 27;
  o.size_sweep = true;
  o.points_per_octave = 2;
  o.repetitions = 10;
  o.warmup_ms = 200;
  o.min_region_ms = 0.5;
  o.isa = "avx2";
  o.seed = 0x5eedc0de;
  const json j = to_json(o);
  EXPECT_EQ(j["suite"], "host");
  EXPECT_EQ(to_json(read_host_options(j)), j);
  o.cpus.reset();
  EXPECT_TRUE(to_json(o)["cpus"].is_null());
  EXPECT_FALSE(read_host_options(to_json(o)).cpus);
  EXPECT_FALSE(read_host_options(json::object()).thread_list);
}

TEST(HostSection, HostRowFactsReadFromTheirObjects) {
  const json parameters = {{"threads", {{"count", 4}, {"affinity", "cores"}}},
                           {"frequency", {{"sustained_mhz_median", 2950.5}}},
                           {"timing", {{"cpu_share", 0.97}}}};
  auto f = read_row_facts(parameters);
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->host_threads, 4.0);
  EXPECT_EQ(f->sustained_mhz_median, 2950.5);
  EXPECT_EQ(f->cpu_share, 0.97);
  // Another suite's `threads` (a number) is not the host suite's object.
  auto gpu = read_row_facts(json{{"threads", 256}});
  ASSERT_TRUE(gpu) << gpu.error().message;
  EXPECT_FALSE(gpu->host_threads);
  // The host's object with a field of the wrong type is refused with its path.
  auto bad = read_row_facts(json{{"timing", {{"cpu_share", "most"}}}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("timing.cpu_share"), std::string::npos) << bad.error().message;
}

HostDescriptionRecord described() {
  HostDescriptionRecord h;
  h.cpu_model = "Example CPU";
  h.logical_cpus = 4;
  h.cores_per_socket = 2;
  h.sockets = 1;
  h.max_khz = 3500000;  // base_khz unknown: written as null
  h.scaling_governor = "performance";
  h.observed_mhz = 2600.5;
  h.clocks = {{"base", {2100.0, "cpufreq base_frequency"}}, {"max", {std::nullopt, "unknown"}}};
  h.vector_isa = {"avx2", "fma"};
  h.caches = {{1, 12, 64, "Data", "48K", "0-1", 49152, true},
              {std::nullopt, std::nullopt, std::nullopt, "Unified", "", "", 0, false}};
  h.memory_bytes = 8589934592;
  h.numa_nodes = 1;
  h.numa_placement = "not set";
  h.os = "Linux";
  h.distribution = "Debian GNU/Linux 12 (bookworm)";
  return h;
}

TEST(HostSection, TheHostDescriptionReadsBackAsItWasWritten) {
  const HostDescriptionRecord h = described();
  const json j = to_json(h);
  EXPECT_TRUE(j["base_khz"].is_null());
  EXPECT_TRUE(j["clocks"]["max"]["mhz"].is_null());
  EXPECT_TRUE(j["caches"][1]["level"].is_null());
  EXPECT_EQ(j["os"], "Linux");
  EXPECT_FALSE(j.contains("kernel"));  // uname's fields only when it answered
  EXPECT_FALSE(j.contains("observed_mhz_at_finish"));
  const HostDescriptionRecord back = read_host_description(json{{"host", j}});
  EXPECT_EQ(to_json(back), j);
  EXPECT_EQ(back.cores_per_socket, 2u);
  EXPECT_FALSE(back.base_khz);
  ASSERT_EQ(back.clocks.size(), 2u);
  EXPECT_EQ(back.clocks[0].second.mhz, 2100.0);
  EXPECT_EQ(back.caches[0].size_bytes, 49152u);
  EXPECT_FALSE(back.kernel);

  // The end of the run adds its clocks and the observed clock; both read back.
  json finished = j;
  const json at_finish = to_json(HostFinishRecord{2500, {{"observed_at_finish", {2500.0, "/proc/cpuinfo"}}}});
  for (const auto& [k, v] : at_finish.items()) {  // a local: items() must not outlive it
    if (v.is_object()) {
      for (const auto& [kk, vv] : v.items()) finished[k][kk] = vv;
    } else {
      finished[k] = v;
    }
  }
  const HostDescriptionRecord end = read_host_description(json{{"host", finished}});
  EXPECT_EQ(end.observed_mhz_at_finish, 2500.0);
  EXPECT_EQ(end.clocks.size(), 3u);
  // A browser's host section: what a page knows, the rest empty.
  const HostDescriptionRecord page =
      read_host_description(json{{"host", {{"runtime", "browser"}, {"logical_cpus", 8}}}});
  EXPECT_EQ(page.logical_cpus, 8u);
  EXPECT_TRUE(page.cpu_model.empty());
  EXPECT_TRUE(page.clocks.empty());
}

}  // namespace
}  // namespace wgb::report
