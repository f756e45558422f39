// The document's `machine.host` section, typed both ways: what every native run records of its host
// (model, cores, caches, clocks at the start and the end) and what the host suite adds of the CPUs it
// measured (topology, clocks during the run, timer, compiler, measured memory and roofline). The
// program fills these types and writes them through `to_json`; every reader (the machine card,
// `compare`'s clock lines, the host suite's text summary, the leaderboard's comparability check)
// reads them back through the readers below, so no other file picks these keys by hand
// (docs/results-schema.md "machine.host").
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wgb::report {

// One of the host's clock figures: MHz (none when unknown) and where it came from ("unknown" then).
struct HostClockFigure {
  std::optional<double> mhz;
  std::string source;
};
using HostClocks = std::vector<std::pair<std::string, HostClockFigure>>;  // "base", "observed_at_start", ...

// A cache of CPU 0 as sysfs describes it (`machine.host.caches[]`).
struct HostCpuCacheRecord {
  std::optional<std::uint64_t> level, ways_of_associativity, line_size;  // none where sysfs lacks the file
  std::string type, size, shared_cpu_list;                               // size as sysfs writes it ("48K")
  std::uint64_t size_bytes = 0;
  bool shared = false;  // more than one logical CPU uses it
};

// What every native run records of its host when it starts.
struct HostDescriptionRecord {
  std::string cpu_model;
  unsigned logical_cpus = 0;
  std::optional<std::uint64_t> cores_per_socket;
  std::uint64_t sockets = 0;
  std::optional<std::uint64_t> base_khz, max_khz;  // cpufreq, where the kernel exposes it
  std::string scaling_governor;
  double observed_mhz = 0;
  HostClocks clocks;  // at the start; the end's are added by HostFinishRecord
  std::vector<std::string> vector_isa;
  std::vector<HostCpuCacheRecord> caches;
  std::uint64_t memory_bytes = 0;
  int numa_nodes = 0;
  std::string numa_placement;
  std::optional<std::string> os, kernel, arch;  // uname(2), when it answered
  std::string distribution;
  std::optional<double> observed_mhz_at_finish;  // read back from a finished document
};

// What it measures again when the run ends, merged into the section.
struct HostFinishRecord {
  double observed_mhz_at_finish = 0;
  HostClocks clocks;  // "observed_at_finish", "sustained_at_finish"
};

nlohmann::json to_json(const HostClocks& clocks);  // {name: {mhz, source}}
// The figure named `name` ("base", "sustained_at_finish", ...), or none.
const HostClockFigure* find_clock(const HostClocks& clocks, const std::string& name);
nlohmann::json to_json(const HostDescriptionRecord& r);
nlohmann::json to_json(const HostFinishRecord& r);
// Reads the description back from a document's `machine` section, tolerantly as below.
HostDescriptionRecord read_host_description(const nlohmann::json& machine);

// One cache level over the CPUs this process may use (`topology.caches_over_allowed_cpus[]`).
struct HostCacheRecord {
  int level = 0;
  std::string type;         // "Data", "Unified"
  std::uint64_t bytes = 0;  // one instance
  int ways = 0, line_bytes = 0;
  std::string shared_cpu_list;  // CPUs sharing one instance
  bool is_private = false;      // one CPU per instance
  int instances = 0;
  std::uint64_t total_bytes = 0;  // all instances
};

struct HostNumaRecord {
  int node = 0;
  std::string cpus;
};

// `topology`: the CPUs allowed, one per physical core, the caches over them, NUMA and memory.
struct HostTopologyRecord {
  std::string allowed_cpus, one_per_core, smt_siblings;  // CPU lists ("0-3,8")
  std::size_t allowed_cpu_count = 0, physical_cores_allowed = 0;
  std::vector<HostCacheRecord> caches;
  std::size_t numa_node_count = 0;
  std::vector<HostNumaRecord> numa_nodes;
  std::string mempolicy;  // empty when not recorded
  std::uint64_t memory_total_bytes = 0, memory_available_bytes_at_start = 0;
  std::string transparent_hugepages;
};

// The median, minimum and maximum of a run's clock readings (MHz).
struct ClockSpread {
  double median = 0, min = 0, max = 0;
  std::optional<std::size_t> readings;  // the add chain's count
  std::optional<std::string> source;    // the OS clock's source
};

// `clock`: the nominal clock, the idle clock before the kernels, and the clocks during them.
struct HostClockRecord {
  std::optional<double> tsc_mhz;
  std::vector<std::pair<std::string, std::string>> cpufreq;  // cpufreq's limits as sysfs wrote them
  std::optional<double> idle_add_chain_mhz;
  // After the run (null in the document when no reading was taken).
  std::optional<ClockSpread> sustained_add_chain_mhz, os_reported_mhz;
  bool finished = false;  // the two spreads were recorded (possibly null)

  std::optional<std::string> cpufreq_value(const std::string& name) const;
};

struct HostTimerRecord {
  double resolution_ns = 0, overhead_ns = 0;  // of std::chrono::steady_clock
};

struct HostCompilerRecord {
  std::string vendor_version, version_string, command, multiversioning;
};

struct HostKernelIsaRecord {
  std::string stream, fma;
  std::vector<std::string> fma_available;  // the first is the default
};

// `memory_measured`: STREAM's bandwidth at the headline thread count, after the run.
struct HostMemoryRecord {
  std::uint64_t capacity_bytes = 0;
  std::optional<double> stream_bandwidth_Bps;
  std::string stream_bandwidth_from;  // the row it came from
  std::uint64_t stream_arrays_bytes = 0;
  bool stream_arrays_at_least_4x_llc = false;
  unsigned stream_threads = 0;
  std::vector<std::pair<std::string, double>> stream;  // "copy", "scale", "add", "triad" -> B/s
};

// `roofline`: the measured ceilings, after the run.
struct HostRooflineRecord {
  std::optional<double> peak_flops_f64, peak_flops_f32, bandwidth_Bps;
  unsigned threads = 0;
};

struct HostSuiteRecord {
  // When the suite starts.
  HostTopologyRecord topology;
  HostClockRecord clock;
  std::string load_average_at_start;  // /proc/loadavg as read; empty when not recorded
  HostTimerRecord timer;
  HostCompilerRecord compiler;
  HostKernelIsaRecord kernel_isa;
  // When it finishes.
  std::optional<HostMemoryRecord> memory_measured;
  std::optional<HostRooflineRecord> roofline;
  std::string load_average_at_end;
};

// The host suite's `options`: what the run was asked for.
struct HostOptionsRecord {
  std::vector<std::string> benchmarks;
  unsigned threads = 0;                              // the headline thread count
  std::optional<std::vector<unsigned>> thread_list;  // the thread-count sweep
  std::string affinity;                              // "cores" or "none"
  std::optional<std::string> cpus;                   // the pinned CPUs; none when not pinned
  std::uint64_t array_bytes = 0, sweep_min_bytes = 0, sweep_max_bytes = 0, latency_max_bytes = 0;
  bool size_sweep = false, huge_pages = false;
  int points_per_octave = 0, repetitions = 0;
  double warmup_ms = 0, min_region_ms = 0;
  std::string isa;
  std::uint64_t seed = 0;
};

nlohmann::json to_json(const HostOptionsRecord& o);
HostOptionsRecord read_host_options(const nlohmann::json& options);

// The section's host-suite fields, merged into `machine.host` (the fields recorded after the run
// only once they are).
nlohmann::json to_json(const HostSuiteRecord& r);
// Reads them back from a document's `machine` section; a field missing or of another type reads as
// its default (a document from another suite has none of them).
HostSuiteRecord read_host_suite_record(const nlohmann::json& machine);

}  // namespace wgb::report
