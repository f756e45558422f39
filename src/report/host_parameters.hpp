// The host suite's objects in a row's parameters, typed both ways: how the row was timed (`timing`),
// on which threads (`threads`) and at which clock (`frequency`). The host suite writes them through
// `to_json`; the readers (the row's facts, its warm-up in `procedure.warm_up`) read them back through
// `read_host_parameters` (docs/results-schema.md "Rows", docs/host.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wgb::report {

// What the host protocol did at a point: in every curve point and in the row's `timing`.
struct HostProtocolRecord {
  std::uint64_t repeat = 0;  // passes per timed region
  std::size_t repetitions = 0;
  double region_ms_min = 0;
  std::size_t short_regions = 0;
  double cpu_share = 0;  // CPU time / (timed wall time x threads): 1 = the threads held their CPUs
  std::uint64_t involuntary_switches = 0;
  int recalibrations = 0;
  double scaling = 0;
  int scaling_steps = 0;
};

// `parameters.timing`: the host protocol at the row's headline point.
struct HostTimingRecord {
  HostProtocolRecord protocol;
  // The clock and the rules.
  double clock_resolution_ns = 0, clock_overhead_ns = 0;
  double min_region_ms = 0;
  // The untimed warm-up.
  int warmup_runs = 0;
  double warmup_ms = 0;
  bool warmup_steady = false;
  std::string warmup_rule;
  std::string statistic, regime;
  // Dispersion of the headline point's times.
  double iqr_ms = 0, iqr_relative = 0, cv = 0, min_ms = 0, max_ms = 0;
};

// `parameters.threads`: the team that ran the row.
struct HostThreadsRecord {
  unsigned count = 0;
  std::string affinity, how;
  std::optional<std::string> cpus;  // the pinned CPUs; none when not pinned
  std::vector<int> numa_nodes;
};

// `parameters.frequency`: the clocks read during the row's points.
struct HostFrequencyRecord {
  std::string method;  // how the clock was read
  std::optional<double> sustained_mhz_median, sustained_mhz_min, os_reported_mhz_median;
  std::optional<std::string> os_reported_source;
};

struct HostParameters {
  std::optional<HostTimingRecord> timing;
  std::optional<HostThreadsRecord> threads;
  std::optional<HostFrequencyRecord> frequency;
};

// Where a host point stands (the coordinates of its curves), and what its definition derived
// from it (latency: the time per load).
struct HostPointAt {
  std::optional<std::uint64_t> threads, array_bytes, working_set_bytes, nodes;
  std::optional<std::int64_t> anon_huge_pages_kib;  // with huge pages: the process's AnonHugePages
  std::optional<double> ns_per_load, cycles_per_load;
};

// One point of a host curve (`parameters.series[].points[]`).
struct HostPointRecord {
  HostPointAt at;
  HostProtocolRecord protocol;
  double value = 0;
  std::string value_unit;
  std::pair<double, double> value_iqr{0, 0};  // the rate at q3 and q1 of the times
  double time_ms = 0, median_ms = 0, min_ms = 0, q1_ms = 0, q3_ms = 0, iqr_relative = 0;
  int warmup_runs = 0;
  double warmup_ms = 0;
  bool warmup_steady = false;
  double clock_mhz = 0;
  std::vector<double> clock_mhz_members;
  std::vector<int> cpus_seen;
  std::vector<std::optional<double>> os_mhz;  // per member; none where the OS gave no clock
  bool valid = true;
  std::string validation;
};

// A cache level the threads of a size curve can use.
struct HostCacheBoundaryRecord {
  int level = 0;
  std::string type;
  std::uint64_t bytes_per_instance = 0, instances_used = 0, total_bytes = 0;
};

// One curve of a host row (`parameters.series[]`).
struct HostCurveRecord {
  std::string name, x, description, statistic, value_unit;
  std::optional<std::uint64_t> threads;                                  // a size curve's thread count
  std::optional<std::vector<HostCacheBoundaryRecord>> cache_boundaries;  // and its cache levels
  std::vector<HostPointRecord> points;
};

// `parameters.derived`: a row against the roofline measured on the same run.
struct HostDerivedRecord {
  double flops_per_second = 0, bytes_per_second = 0;
  std::optional<double> arithmetic_intensity;  // null without bytes
  double fraction_of_roofline = 0;
  std::string roofline;  // which peaks, from which rows
};

// A host row's parameters: what its definition ran on (`input`, in the definition's own words),
// a note, the curves and the host protocol's objects.
struct HostRowParameters {
  nlohmann::json input;
  std::optional<std::string> note;
  std::optional<double> ns_per_load;  // latency: at the headline point
  std::vector<HostCurveRecord> series;
  HostTimingRecord timing;
  HostThreadsRecord threads;
  HostFrequencyRecord frequency;
};

nlohmann::json to_json(const HostProtocolRecord& p);
nlohmann::json to_json(const HostTimingRecord& t);
nlohmann::json to_json(const HostThreadsRecord& t);
nlohmann::json to_json(const HostFrequencyRecord& f);
nlohmann::json to_json(const HostPointRecord& p);
nlohmann::json to_json(const HostCurveRecord& c);
nlohmann::json to_json(const HostRowParameters& p);
// Written after the run, once its roofline is known.
void set_derived(nlohmann::json& parameters, const HostDerivedRecord& d);
// The three objects of a row's parameters, each where it is an object (another suite's `threads` is
// not); a field missing or of another type reads as its default, and with `error` the first field of
// another type is named there ("\"parameters.timing.cpu_share\" is a string, expected a number").
HostParameters read_host_parameters(const nlohmann::json& parameters, std::string* error = nullptr);

}  // namespace wgb::report
