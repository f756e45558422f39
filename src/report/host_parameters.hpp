// The host suite's objects in a row's parameters, typed both ways: how the row was timed (`timing`),
// on which threads (`threads`) and at which clock (`frequency`). The host suite writes them through
// `to_json`; the readers (the row's facts, its warm-up in `procedure.warm_up`) read them back through
// `read_host_parameters` (docs/results-schema.md "Rows", docs/host.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
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

nlohmann::json to_json(const HostProtocolRecord& p);
nlohmann::json to_json(const HostTimingRecord& t);
nlohmann::json to_json(const HostThreadsRecord& t);
nlohmann::json to_json(const HostFrequencyRecord& f);
// The three objects of a row's parameters, each where it is an object (another suite's `threads` is
// not); a field missing or of another type reads as its default, and with `error` the first field of
// another type is named there ("\"parameters.timing.cpu_share\" is a string, expected a number").
HostParameters read_host_parameters(const nlohmann::json& parameters, std::string* error = nullptr);

}  // namespace wgb::report
