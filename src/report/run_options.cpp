// Each suite's `options` section, written and compared with its defaults (run_options.hpp).
#include "report/run_options.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "report/field_reader.hpp"
#include "report/host_section.hpp"

namespace wgb::report {

namespace {

using json = nlohmann::json;

// The fields of each record, named once (field_reader.hpp). The `ranked` lists are the fields a
// stored run must leave at their defaults to be ranked.
// clang-format off
template <class S, class F> void sampling_fields(S& s, F&& f) {
  f("target_dispatch_ms", s.target_dispatch_ms), f("measurement_ms", s.measurement_ms);
  f("idle_gap_ms", s.idle_gap_ms), f("min_rounds", s.min_rounds), f("stable_rounds", s.stable_rounds);
  f("improvement_tolerance", s.improvement_tolerance), f("max_rounds", s.max_rounds);
  f("throttle_ratio", s.throttle_ratio), f("cooldown_ms", s.cooldown_ms), f("max_cooldowns", s.max_cooldowns);
}
template <class S, class F> void default_ranked(S& o, F&& f) {
  f("bandwidth_bytes", o.bandwidth_bytes), f("compute_threads", o.compute_threads);
}
template <class S, class F> void default_fields(S& o, F&& f) {
  default_ranked(o, f);
  f("filter", o.filter), f("repro", o.repro), f("ceilings", o.ceilings), f("accuracy", o.accuracy);
}
template <class S, class F> void sweep_fields(S& o, F&& f) { f("benchmark", o.benchmark), f("parameter", o.parameter); }
template <class S, class F> void hierarchy_fields(S& o, F&& f) {
  f("latency_benchmark", o.latency_benchmark), f("bandwidth_benchmark", o.bandwidth_benchmark);
  f("spread_benchmark", o.spread_benchmark), f("footprints_bytes", o.footprints_bytes), f("per_octave", o.per_octave);
  f("budget_s", o.budget_s);
}
template <class S, class F> void memory_option_ranked(S& o, F&& f) {
  f("working_set_mib", o.working_set_mib), f("min_working_set_mib", o.min_working_set_mib);
  f("sample_ms", o.sample_ms), f("latency_sample_ms", o.latency_sample_ms), f("budget_ms", o.budget_ms);
  f("latency_budget_ms", o.latency_budget_ms), f("sustain_ms", o.sustain_ms), f("warmup_ms", o.warmup_ms);
  f("transition_ms", o.transition_ms), f("min_samples", o.min_samples);
  f("hard_stop_factor", o.hard_stop_factor), f("cycle_seed", o.cycle_seed);
}
template <class S, class F> void memory_option_fields(S& o, F&& f) {
  memory_option_ranked(o, f);
  f("phases", o.phases), f("wall_clock_sample_ms", o.wall_clock_sample_ms), f("rejection", o.rejection);
}
// The host's fields that do not depend on the machine (threads, array sizes and the ISA do: the
// store checks them against what machine.host records).
template <class S, class F> void host_ranked(S& o, F&& f) {
  f("sweep_min_bytes", o.sweep_min_bytes), f("points_per_octave", o.points_per_octave);
  f("repetitions", o.repetitions), f("warmup_ms", o.warmup_ms), f("min_region_ms", o.min_region_ms);
  f("huge_pages", o.huge_pages), f("affinity", o.affinity), f("size_sweep", o.size_sweep);
}
// clang-format on

HostOptionsRecord host_defaults() {
  namespace h = defaults::host;
  HostOptionsRecord o;
  o.sweep_min_bytes = h::kSweepMinBytes;
  o.points_per_octave = h::kPointsPerOctave;
  o.repetitions = h::kRepetitions;
  o.warmup_ms = h::kWarmupMs;
  o.min_region_ms = h::kMinRegionMs;
  o.huge_pages = h::kHugePages;
  o.affinity = h::kPinToCores ? "cores" : "none";
  o.size_sweep = h::kSizeSweep;
  return o;
}

bool same_option(const json& a, const json& b) {
  if (a.is_number() && b.is_number()) {
    const double x = a.get<double>(), y = b.get<double>();
    return x == y || std::fabs(x - y) <= 1e-9 * std::max(std::fabs(x), std::fabs(y));
  }
  return a == b;
}

std::string option_text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// Every field of `defaults` (written through its ranked field list) that `options` records with
// another value.
void compare_options(const json& options, const json& defaults, const std::string& prefix,
                     std::vector<OptionChange>& out) {
  if (!options.is_object()) return;
  for (auto it = defaults.begin(); it != defaults.end(); ++it) {
    const auto v = options.find(it.key());
    if (v == options.end() || v->is_null() || same_option(*v, *it)) continue;
    out.push_back({prefix + it.key(), option_text(*v), option_text(*it),
                   v->is_number() ? std::optional<double>(v->get<double>()) : std::nullopt});
  }
}

json suite_defaults_json(std::string_view suite) {
  if (suite == "default") return to_json(DefaultRunOptions{});
  if (suite == "memory") return written(MemoryRunOptions{}, WGB_FIELDS(memory_option_ranked));
  if (suite == "host") return written(host_defaults(), WGB_FIELDS(host_ranked));
  return nullptr;
}

}  // namespace

json to_json(const SamplingOptions& s) { return written(s, WGB_FIELDS(sampling_fields)); }

json to_json(const DefaultRunOptions& o) {
  json j = written(o, WGB_FIELDS(default_fields));
  j["sampling"] = to_json(o.sampling);
  if (o.order) j["order"] = *o.order;
  return j;
}

json to_json(const SweepRunOptions& o) {
  json j = written(o, WGB_FIELDS(sweep_fields));
  j["sampling"] = to_json(o.sampling);
  return j;
}

json to_json(const HierarchyRunOptions& o) {
  json j = written(o, WGB_FIELDS(hierarchy_fields));
  j["sampling"] = to_json(o.sampling);
  return j;
}

HierarchyRunOptions read_hierarchy_options(const json& options) {
  std::string error;  // tolerant: a field of another type keeps its default
  const FieldReader f(object_or_empty(options), "options", &error);
  HierarchyRunOptions o;
  o.latency_benchmark = "read-latency";
  o.bandwidth_benchmark = "read-linear";
  hierarchy_fields(o, field_reader(f));
  o.sampling = SamplingOptions{};
  sampling_fields(o.sampling, field_reader(f.child("sampling")));
  return o;
}

json to_json(const MemoryRunOptions& o) {
  json j = written(o, WGB_FIELDS(memory_option_fields));
  if (!o.clock.empty()) j["clock"] = o.clock;
  return j;
}

std::vector<OptionChange> option_changes(std::string_view suite, const json& options) {
  std::vector<OptionChange> out;
  if (suite == "default") {
    const auto sampling = options.is_object() ? options.find("sampling") : options.end();
    if (sampling != options.end()) compare_options(*sampling, to_json(SamplingOptions{}), "sampling.", out);
    compare_options(options, written(DefaultRunOptions{}, WGB_FIELDS(default_ranked)), "", out);
  } else if (suite == "memory" || suite == "host") {
    compare_options(options, suite_defaults_json(suite), "", out);
  }
  return out;
}

const json& default_options(std::string_view suite) {
  static const json by_suite = {{"default", suite_defaults_json("default")},
                                {"memory", suite_defaults_json("memory")},
                                {"host", suite_defaults_json("host")}};
  static const json none;
  const auto it = by_suite.find(std::string(suite));
  return it == by_suite.end() ? none : *it;
}

}  // namespace wgb::report
