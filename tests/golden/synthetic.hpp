// Fixed synthetic rows and documents for the reporters' tests (golden files, HTML, roofline,
// compare). Every number is derived from the fixed inputs below, never from a machine, so the
// golden files are the same everywhere.
#pragma once

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "host/machine.hpp"
#include "report/document.hpp"
#include "report/run_options.hpp"
#include "webgpu_bench/result.hpp"

namespace wgb::test {

// Type-7 quantile, as src/measure/stats.cpp computes it.
inline double quantile7(std::vector<double> xs, double q) {
  std::sort(xs.begin(), xs.end());
  const double h = (static_cast<double>(xs.size()) - 1) * q;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const auto hi = std::min(lo + 1, xs.size() - 1);
  return xs[lo] + (h - static_cast<double>(lo)) * (xs[hi] - xs[lo]);
}

// A measured row: samples are `time_ms` times the fixed relative offsets below.
inline BenchmarkResult measured_row(std::size_t index, const std::string& id, const std::string& category, Metric metric,
                                    Statistic statistic, double time_ms, WorkModel work, std::string family = {},
                                    std::vector<double> spread = {1.00, 1.01, 0.995, 1.02, 1.005}) {
  BenchmarkResult r;
  r.index = index;
  r.id = id;
  r.label = id;
  r.description = "synthetic " + id;
  r.category = category;
  r.family = std::move(family);
  r.metric = std::move(metric);
  r.statistic = statistic;
  r.statistic_reason = statistic == Statistic::Median ? "median with IQR (synthetic)" : "best run (synthetic)";
  for (double s : spread) r.samples_ms.push_back(time_ms * s);
  auto& st = r.stats;
  st.count = r.samples_ms.size();
  st.min = *std::min_element(r.samples_ms.begin(), r.samples_ms.end());
  st.max = *std::max_element(r.samples_ms.begin(), r.samples_ms.end());
  double sum = 0;
  for (double x : r.samples_ms) sum += x;
  st.mean = sum / static_cast<double>(st.count);
  double ss = 0;
  for (double x : r.samples_ms) ss += (x - st.mean) * (x - st.mean);
  st.stddev = std::sqrt(ss / static_cast<double>(st.count - 1));
  st.cv = st.stddev / st.mean;
  st.ci95 = 2.776 * st.stddev / std::sqrt(static_cast<double>(st.count));
  st.median = quantile7(r.samples_ms, 0.5);
  st.q1 = quantile7(r.samples_ms, 0.25);
  st.q3 = quantile7(r.samples_ms, 0.75);
  st.iqr = st.q3 - st.q1;
  r.time_ms = statistic == Statistic::Best ? st.min : st.median;
  r.work = work;
  const double units = work.count(r.metric);
  r.value = units / (r.time_ms / 1000.0);
  r.value_low = units / (st.q3 / 1000.0);
  r.value_high = units / (st.q1 / 1000.0);
  r.timing_method = TimingMethod::GpuTimestamp;
  r.knob_name = "iterations";
  r.knob = 64;
  r.repetitions = 8;
  r.calibration = {{1, time_ms / 64}, {64, time_ms}};
  r.stop_reason = StopReason::Converged;
  r.wgsl_hash = "0123456789abcdef";
  r.validation = "checked against a host reference (synthetic)";
  r.parameters = {{"buffer_bytes", work.bytes_read}, {"workgroup_size", 256}};
  r.duration_s = 1.5;
  return r;
}

inline BenchmarkResult unmeasured_row(std::size_t index, const std::string& id, RowStatus status, std::string message,
                                      Metric metric) {
  BenchmarkResult r;
  r.index = index;
  r.id = id;
  r.label = id;
  r.category = "compute";
  r.metric = std::move(metric);
  r.status = status;
  r.message = std::move(message);
  r.wgsl_hash = "fedcba9876543210";
  return r;
}

inline const Metric kBytes{"bytes", "B", "Bytes moved"};
inline const Metric kFlops{"flops", "FLOP", "Floating-point ops (an FMA counts 2)"};
inline const Metric kElements{"elements", "element", "Elements processed"};
inline const Metric kHops{"hops", "hop", "Dependent loads"};

// The rows every golden file is made of: ceilings (memory-read, read-linear, f32-fma-vec4), a
// FLOP row with memory traffic, a row far below its roof, a latency row (no ceiling), a technique
// family, a skipped row, an error row whose message needs CSV quoting, and the sustain timeline.
inline std::vector<BenchmarkResult> synthetic_rows() {
  std::vector<BenchmarkResult> v;
  constexpr double kMiB = 1 << 20;
  // 256 MiB in 0.3 ms: 894.8 GB/s.
  v.push_back(measured_row(0, "memory-read", "bandwidth", kBytes, Statistic::Median, 0.3, {256 * kMiB, 0, 0}));
  v.push_back(measured_row(1, "read-linear", "bandwidth", kBytes, Statistic::Median, 0.1, {64 * kMiB, 0, 0}));
  // 2^34 FLOP in 0.4 ms: 42.9 TFLOP/s, no bytes (intensity infinite).
  v.push_back(measured_row(2, "f32-fma-vec4", "compute", kFlops, Statistic::Best, 0.4, {0, 0, 17179869184.0}));
  // 2^32 FLOP and 64 MiB: intensity 64 FLOP/B, 0.15 ms: compute bound, about 0.67 of the roof.
  v.push_back(measured_row(3, "f32-fma-matvec", "compute", kFlops, Statistic::Best, 0.15, {64 * kMiB, 0, 4294967296.0}));
  // 16 MiB gathered in 0.2 ms: 83.9 GB/s, about 0.09 of the memory roof.
  v.push_back(measured_row(4, "read-gather-64mb", "bandwidth", kBytes, Statistic::Median, 0.2, {16 * kMiB, 0, 0}));
  v.push_back(measured_row(5, "read-dependent-chain", "latency", kHops, Statistic::Median, 2.0, {4 * kMiB, 0, 4096}));
  v.push_back(measured_row(6, "workgroup-64", "technique", kElements, Statistic::Median, 0.05, {524288, 524288, 65536},
                           "workgroup", {1.0, 1.03, 0.99, 1.05, 1.01}));
  v.push_back(measured_row(7, "workgroup-128", "technique", kElements, Statistic::Median, 0.04, {524288, 524288, 65536},
                           "workgroup"));
  v.push_back(measured_row(8, "workgroup-256", "technique", kElements, Statistic::Median, 0.045, {524288, 524288, 65536},
                           "workgroup"));
  v.push_back(unmeasured_row(9, "f16-fma-vec4", RowStatus::Skipped, "the adapter lacks shader-f16", kFlops));
  v.push_back(unmeasured_row(10, "broken-kernel", RowStatus::Error, "validation failed: \"sink\" word 3, expected 7",
                             kFlops));
  auto sustain = measured_row(11, "memory-sustain", "bandwidth", kBytes, Statistic::Median, 0.6, {256 * kMiB, 256 * kMiB, 0});
  nlohmann::json timeline = nlohmann::json::array();
  for (int i = 0; i < 18; ++i) timeline.push_back({{"t_s", i + 0.5}, {"gbps", 880.0 - (i > 10 ? 40.0 : 0.0) + (i % 3)}});
  sustain.parameters["timeline"] = timeline;
  sustain.parameters["retention"] = 0.955;
  v.push_back(sustain);
  return v;
}

inline gpu::AdapterDescription synthetic_adapter() {
  gpu::AdapterDescription a;
  a.vendor = "synthetic";
  a.architecture = "test";
  a.device = "Synthetic GPU";
  a.description = "Synthetic GPU for golden tests";
  a.backend = "vulkan";
  a.adapter_type = "discrete-gpu";
  a.driver = "driver 1.0";
  a.vendor_id = 0x1234;
  a.device_id = 0x5678;
  a.subgroup_min_size = 32;
  a.subgroup_max_size = 32;
  a.limits = {{"maxBufferSize", 1ull << 32}, {"maxStorageBufferBindingSize", (1ull << 32) - 1}};
  a.features = {"shader-f16", "timestamp-query"};
  a.wgsl_features = {"packed_4x8_integer_dot_product"};
  a.adapter_toggles = {"use_vulkan_memory_model"};
  return a;
}

inline nlohmann::json synthetic_dawn() {
  return {{"version", "0.0~test"}, {"configuration", "shipped"}, {"device_toggles", {"lazy_clear_resource_on_first_use", "use_spirv_1_4"}},
          {"timestamp_quantization", false}, {"robustness", true}, {"experimental", false},
          {"timestamps", true}, {"empty_submit_ms", 0.02}};
}

// A whole document made of synthetic_rows(), as `run` would write it.
inline report::ResultDocument synthetic_document() {
  report::ResultDocument doc("default", {"webgpu-bench", "run", "--json", "out.json"}, host::native_machine());
  doc.set_adapter(synthetic_adapter(), synthetic_dawn());
  doc.set_options({{"sampling", report::to_json(SamplingOptions{})}, {"bandwidth_bytes", 67108864}, {"filter", ""}});
  for (const auto& r : synthetic_rows()) doc.add_row(r);
  doc.finish("complete");
  return doc;
}

// A host-suite document (suite "host") as `webgpu-bench host` writes it: FMA peaks, STREAM triad
// (the host's stream bandwidth) with its thread and working-set curves, and the load-latency curve.
inline report::ResultDocument synthetic_host_document() {
  report::ResultDocument doc("host", {"webgpu-bench", "host", "--quick"}, host::native_machine());
  const Metric loads{"loads", "load", "Dependent loads (one per 64-byte node)"};
  auto host_row = [](BenchmarkResult r, const std::string& family) {
    r.category = "host";
    r.family = family;
    r.timing_method = TimingMethod::HostSteadyClock;
    return r;
  };
  // 2^30 FLOP in 10 ms: 107 GFLOP/s (f32); f64 half of it. 96 MiB in 10 ms: 10 GB/s.
  auto f32 =
      host_row(measured_row(0, "host-fma-f32", "host", kFlops, Statistic::Best, 10, {0, 0, 1073741824.0}), "fma");
  auto f64 =
      host_row(measured_row(1, "host-fma-f64", "host", kFlops, Statistic::Best, 20, {0, 0, 1073741824.0}), "fma");
  auto triad = host_row(
      measured_row(2, "host-stream-triad", "host", kBytes, Statistic::Median, 10, {64 * 1048576.0, 32 * 1048576.0, 0}),
      "stream");
  auto latency =
      host_row(measured_row(3, "host-load-latency", "host", loads, Statistic::Median, 1, {0, 0, 10000}), "latency");
  auto series = [](const std::string& name, const std::string& x, const std::vector<std::pair<double, double>>& pts) {
    nlohmann::json points = nlohmann::json::array();
    for (const auto& [xv, v] : pts) points.push_back({{x, xv}, {"value", v}, {"value_iqr", {v * 0.98, v * 1.01}}});
    return nlohmann::json{{"name", name}, {"x", x}, {"points", points}};
  };
  f32.parameters["series"] = {series("threads", "threads", {{1, 54e9}, {2, 107e9}})};
  triad.parameters["series"] = {
      series("threads", "threads", {{1, 8e9}, {2, 10e9}}),
      series("working_set", "working_set_bytes", {{16384, 60e9}, {262144, 40e9}, {4194304, 20e9}, {100663296, 10e9}})};
  latency.parameters["series"] = {
      series("working_set", "working_set_bytes", {{16384, 1e9}, {262144, 2.5e8}, {4194304, 1e8}})};
  for (const auto& r : {f32, f64, triad, latency}) doc.add_row(r);
  auto& host = doc.json()["machine"]["host"];
  host["cpu_model"] = "Synthetic CPU 9000";
  host["roofline"] = {{"peak_flops_f32", f32.value}, {"peak_flops_f64", f64.value}, {"bandwidth_Bps", triad.value}};
  host["clock"] = {{"base", {{"tsc_mhz", 2100.0}}}, {"sustained_add_chain_mhz", {{"median", 2900.0}}}};
  doc.finish("complete");
  return doc;
}

}  // namespace wgb::test
