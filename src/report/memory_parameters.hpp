// The memory suite's records in a document, typed: its working set (`working_set`), its scope
// statement (`scope`) and what each phase's row records in its parameters. The memory suite writes
// them through `to_json`; the readers of a row's parameters read them through RowFacts (facts.hpp)
// (docs/results-schema.md "Rows", docs/memory.md).
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace wgb::report {

// `working_set`: the buffers every phase ran on, and whether the run ranks.
struct MemoryWorkingSetRecord {
  std::uint64_t requested_bytes = 0, bytes = 0, floor_bytes = 0;
  std::uint64_t buffers = 2;
  std::string element = "vec4<u32>";
  std::uint64_t invocations = 0, workgroups = 0, workgroup_size = 0, latency_slots = 0;
  std::vector<std::string> reductions;
  bool ranked = false;
  std::string unranked_reason;  // written when not ranked
};

// One line of `scope`: what the suite measures and what it does not.
struct MemoryScopeLine {
  std::string measured, not_measured;
};

// One pass of memory-sustain's timeline.
struct MemoryTimelinePoint {
  double t_s = 0, gbps = 0, ms = 0;
  bool rejected = false;
};

// A phase row's parameters: what every phase records (the working set and its sampling), then what
// the dispatched phases, latency, random and sustain add (each written where present).
struct MemoryPhaseParameters {
  std::uint64_t working_set_bytes = 0, requested_working_set_bytes = 0;
  bool ranked = false;
  std::optional<std::string> unranked_reason;
  std::uint64_t buffers = 2;
  std::string element = "vec4<u32>";
  std::string clock;
  std::optional<double> empty_submit_ms;  // wall-clock samples: the round trip minus this
  double target_sample_ms = 0, budget_ms = 0, warmup_ms = 0, sampled_ms = 0;
  std::uint64_t samples = 0, kept_samples = 0, rejected_samples = 0, invalid_samples = 0;
  std::vector<double> rejected_ms, pass_ms;  // whole passes; pass_ms: every recorded pass in time order
  double cv = 0, median_pass_ms = 0;
  int phase_restarts = 0;
  // The dispatched phases (read, write, copy, random, sustain's copy), and latency's single invocation.
  std::optional<std::uint64_t> workgroup_size, workgroups, invocations, dispatches_per_sample;
  std::optional<double> bytes_per_dispatch;
  std::optional<std::string> alternation;
  std::optional<double> median_gbps;
  // latency
  std::optional<std::uint64_t> slots, slot_bytes, chain_bytes, cycle_seed, total_hops;
  std::optional<std::string> cycle;
  std::optional<double> hops_per_sample, ns_per_load;
  // random
  std::optional<std::uint64_t> gathers_per_invocation, bytes_per_gather;
  std::optional<double> g_accesses_per_s;
  // sustain
  std::optional<double> sustain_ms, retention, first20_median_gbps, last60_median_gbps;
  std::optional<std::string> retention_reading;
  std::optional<std::uint64_t> first20_samples, last60_samples;
  std::optional<std::vector<MemoryTimelinePoint>> timeline;
};

nlohmann::json to_json(const MemoryWorkingSetRecord& w);
nlohmann::json to_json(const std::vector<MemoryScopeLine>& scope);
nlohmann::json to_json(const MemoryPhaseParameters& p);

}  // namespace wgb::report
