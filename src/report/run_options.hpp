// A run's `options` section, typed both ways: each suite's front end writes the record of what the
// run was asked for, and the results store reads it back to compare it with the suite's defaults
// (docs/results-schema.md "Options", docs/store.md "Ranking"). The host suite's record is
// HostOptionsRecord (host_section.hpp).
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "webgpu_bench/defaults.hpp"
#include "webgpu_bench/sampling.hpp"

namespace wgb::report {

// The default suite (`run`), and what `--repro` and `--ceilings` add.
struct DefaultRunOptions {
  SamplingOptions sampling;
  std::uint64_t bandwidth_bytes = defaults::run::kBandwidthBytes;
  std::uint32_t compute_threads = defaults::run::kComputeThreads;
  std::string filter;  // the globs over the catalog's ids; empty: the default suite
  bool repro = false;
  std::string ceilings;  // the --ceilings file, where one was given
  bool accuracy = false;
  std::optional<std::string> order;  // "reverse" where the order was reversed
};

// `sweep`: one benchmark over one parameter.
struct SweepRunOptions {
  SamplingOptions sampling;
  std::string benchmark, parameter;
};

// `hierarchy`: the curves' benchmarks (empty where that curve was not run) and its working sets.
struct HierarchyRunOptions {
  SamplingOptions sampling;
  std::string latency_benchmark, bandwidth_benchmark, spread_benchmark;
  std::vector<std::uint64_t> footprints_bytes;
  int per_octave = 0;
  double budget_s = 0;
};

// The memory suite: its phases, sampling and working set.
struct MemoryRunOptions {
  std::uint64_t working_set_mib = defaults::memory::kWorkingSetMiB;
  std::uint64_t min_working_set_mib = defaults::memory::kMinWorkingSetMiB;
  std::vector<std::string> phases;
  double sample_ms = defaults::memory::kSampleMs, wall_clock_sample_ms = 2 * defaults::memory::kSampleMs;
  double latency_sample_ms = defaults::memory::kLatencySampleMs;
  double budget_ms = defaults::memory::kBudgetMs, latency_budget_ms = defaults::memory::kLatencyBudgetMs;
  double sustain_ms = defaults::memory::kSustainMs, warmup_ms = defaults::memory::kWarmupMs;
  double transition_ms = defaults::memory::kTransitionMs;
  std::uint64_t min_samples = defaults::memory::kMinSamples;
  double hard_stop_factor = defaults::memory::kHardStopFactor;
  std::string rejection;  // the outlier rule, in words
  std::uint64_t cycle_seed = defaults::memory::kCycleSeed;
  std::string clock;  // "wall" when timestamps were turned off, else "auto" (written when set)
};

nlohmann::json to_json(const SamplingOptions& s);
// A hierarchy document's options read back (`hierarchy --infer`): a benchmark it does not name is
// the one `hierarchy` runs by default (read-latency, read-linear, no spread).
HierarchyRunOptions read_hierarchy_options(const nlohmann::json& options);
nlohmann::json to_json(const DefaultRunOptions& o);
nlohmann::json to_json(const SweepRunOptions& o);
nlohmann::json to_json(const HierarchyRunOptions& o);
nlohmann::json to_json(const MemoryRunOptions& o);

// An option a stored run recorded with another value than its suite's default.
struct OptionChange {
  std::string key;               // "sample_ms", "sampling.min_rounds", ...
  std::string recorded;          // the value as the document wrote it
  std::string default_;          // the default, written the same way
  std::optional<double> number;  // the recorded value, where it is a number
};

// What a document's `options` record for `suite` that differs from the suite's defaults, field by
// field over the fields that rank a run ("default": its sampling, bandwidth_bytes and
// compute_threads; "memory": its sampling and working set; "host": the fields that do not depend
// on the machine). A field the document does not record (or records as null) is taken as the
// default: the option did not exist when it ran. None for another suite.
std::vector<OptionChange> option_changes(std::string_view suite, const nlohmann::json& options);

// The suite's default options as a document records them (nothing for a suite without ranking).
const nlohmann::json& default_options(std::string_view suite);

}  // namespace wgb::report
