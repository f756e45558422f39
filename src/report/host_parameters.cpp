// The host suite's objects in a row's parameters, written and read (host_parameters.hpp).
#include "report/host_parameters.hpp"

#include <nlohmann/json.hpp>

#include "report/field_reader.hpp"

namespace wgb::report {

namespace {

using json = nlohmann::json;

// The plainly copied fields of each record, named once for writing and reading (field_reader.hpp).
// clang-format off
template <class S, class F> void protocol_fields(S& p, F&& f) {
  f("repeat", p.repeat), f("repetitions", p.repetitions), f("region_ms_min", p.region_ms_min);
  f("short_regions", p.short_regions), f("cpu_share", p.cpu_share);
  f("involuntary_switches", p.involuntary_switches), f("recalibrations", p.recalibrations);
  f("scaling", p.scaling), f("scaling_steps", p.scaling_steps);
}
template <class S, class F> void timing_fields(S& t, F&& f) {
  f("clock_resolution_ns", t.clock_resolution_ns), f("clock_overhead_ns", t.clock_overhead_ns);
  f("min_region_ms", t.min_region_ms), f("statistic", t.statistic), f("regime", t.regime);
}
template <class S, class F> void warmup_fields(S& t, F&& f) {
  f("runs", t.warmup_runs), f("ms", t.warmup_ms), f("steady", t.warmup_steady), f("rule", t.warmup_rule);
}
template <class S, class F> void dispersion_fields(S& t, F&& f) {
  f("iqr_ms", t.iqr_ms), f("iqr_relative", t.iqr_relative), f("cv", t.cv), f("min_ms", t.min_ms);
  f("max_ms", t.max_ms);
}
template <class S, class F> void threads_fields(S& t, F&& f) {
  f("count", t.count), f("affinity", t.affinity), f("how", t.how), f("cpus", t.cpus);
}
template <class S, class F> void frequency_fields(S& r, F&& f) {
  f("method", r.method), f("sustained_mhz_median", r.sustained_mhz_median);
  f("sustained_mhz_min", r.sustained_mhz_min), f("os_reported_mhz_median", r.os_reported_mhz_median);
  f("os_reported_source", r.os_reported_source);
}
template <class S, class F> void host_at_fields(S& a, F&& f) {
  f("threads", a.threads), f("array_bytes", a.array_bytes), f("nodes", a.nodes);
  f("working_set_bytes", a.working_set_bytes), f("anon_huge_pages_kib", a.anon_huge_pages_kib);
  f("ns_per_load", a.ns_per_load), f("cycles_per_load", a.cycles_per_load);
}
template <class S, class F> void host_point_fields(S& p, F&& f) {
  f("value", p.value), f("value_unit", p.value_unit), f("time_ms", p.time_ms), f("median_ms", p.median_ms);
  f("min_ms", p.min_ms), f("q1_ms", p.q1_ms), f("q3_ms", p.q3_ms), f("iqr_relative", p.iqr_relative);
  f("warmup_runs", p.warmup_runs), f("warmup_ms", p.warmup_ms), f("warmup_steady", p.warmup_steady);
  f("clock_mhz", p.clock_mhz), f("clock_mhz_members", p.clock_mhz_members), f("cpus_seen", p.cpus_seen);
  f("valid", p.valid), f("validation", p.validation);
}
template <class S, class F> void boundary_fields(S& c, F&& f) {
  f("level", c.level), f("type", c.type), f("bytes_per_instance", c.bytes_per_instance);
  f("instances_used", c.instances_used), f("total_bytes", c.total_bytes);
}
template <class S, class F> void host_curve_fields(S& c, F&& f) {
  f("name", c.name), f("x", c.x), f("description", c.description), f("statistic", c.statistic);
  f("value_unit", c.value_unit), f("threads", c.threads);
}
template <class S, class F> void host_derived_fields(S& d, F&& f) {
  f("flops_per_second", d.flops_per_second), f("bytes_per_second", d.bytes_per_second);
  f("arithmetic_intensity", d.arithmetic_intensity), f("fraction_of_roofline", d.fraction_of_roofline);
  f("roofline", d.roofline);
}
template <class S, class F> void host_row_fields(S& r, F&& f) { f("note", r.note), f("ns_per_load", r.ns_per_load); }
// clang-format on

}  // namespace

json to_json(const HostProtocolRecord& p) {
  json j = json::object();
  protocol_fields(p, field_writer(j));
  return j;
}

json to_json(const HostTimingRecord& t) {
  json j = to_json(t.protocol);
  timing_fields(t, field_writer(j));
  warmup_fields(t, field_writer(j["warmup"]));
  dispersion_fields(t, field_writer(j["dispersion"]));
  j["clock"] = "std::chrono::steady_clock";
  j["timed"] = "each repetition individually (one region = `repeat` back-to-back passes)";
  j["repeat_dependency"] =
      "each pass's inputs depend (asm barrier) on the previous pass's output; FMA chains and pointer chases carry "
      "their own dependency";
  j["cpu_share_rule"] =
      "getrusage CPU time of the process / (sum of timed regions x threads); 1 = the threads held their CPUs "
      "throughout (spinning members count as holding them)";
  j["scaling_rule"] =
      "calibration doubles the calibrated repeat count: the region must take >= 1.9x as long (fixed cost per "
      "region <= 10%), else the count grows; 0 = not checked (region >= 500 ms)";
  return j;
}

json to_json(const HostThreadsRecord& t) {
  json j = json::object();
  threads_fields(t, field_writer(j));
  j["numa_nodes"] = t.numa_nodes;
  j["first_touch"] = "each member initialises its own block, the same partition the kernel uses";
  return j;
}

json to_json(const HostFrequencyRecord& r) {
  json j = json::object();
  frequency_fields(r, field_writer(j));
  return j;
}

json to_json(const HostPointRecord& p) {
  json j = json::object();
  host_at_fields(p.at, present_writer(j));
  j.update(to_json(p.protocol));
  host_point_fields(p, field_writer(j));
  j["value_iqr"] = {p.value_iqr.first, p.value_iqr.second};
  json os = json::array();
  for (const auto& mhz : p.os_mhz) os.push_back(mhz ? json(*mhz) : json(nullptr));
  j["os_mhz"] = std::move(os);
  return j;
}

json to_json(const HostCurveRecord& c) {
  json j = json::object();
  host_curve_fields(c, present_writer(j));
  if (c.cache_boundaries) {
    json b = json::array();
    for (const auto& x : *c.cache_boundaries) b.push_back(written(x, WGB_FIELDS(boundary_fields)));
    j["cache_boundaries"] = std::move(b);
  }
  json points = json::array();
  for (const auto& p : c.points) points.push_back(to_json(p));
  j["points"] = std::move(points);
  return j;
}

json to_json(const HostRowParameters& p) {
  json j = json::object();
  if (!p.input.is_null()) j["input"] = p.input;
  host_row_fields(p, present_writer(j));
  json series = json::array();
  for (const auto& c : p.series) series.push_back(to_json(c));
  j["series"] = std::move(series);
  j["timing"] = to_json(p.timing);
  j["threads"] = to_json(p.threads);
  j["frequency"] = to_json(p.frequency);
  return j;
}

void set_derived(json& parameters, const HostDerivedRecord& d) {
  parameters["derived"] = written(d, WGB_FIELDS(host_derived_fields));
}

HostParameters read_host_parameters(const json& parameters, std::string* error) {
  static const json none = json::object();
  std::string first;  // the first field of another type
  const FieldReader f(parameters.is_object() ? parameters : none, "parameters", &first);
  // Only the host suite's objects: another suite may use the same key for something else.
  auto object = [&f](const char* key) { return f.has(key) && f.raw(key).is_object(); };
  HostParameters p;
  if (object("timing")) {
    const FieldReader t = f.child("timing");
    HostTimingRecord& r = p.timing.emplace();
    protocol_fields(r.protocol, field_reader(t));
    timing_fields(r, field_reader(t));
    warmup_fields(r, field_reader(t.child("warmup")));
    dispersion_fields(r, field_reader(t.child("dispersion")));
  }
  if (object("threads")) {
    const FieldReader t = f.child("threads");
    HostThreadsRecord& r = p.threads.emplace();
    threads_fields(r, field_reader(t));
    if (t.raw("numa_nodes").is_array()) {
      for (const auto& n : t.raw("numa_nodes")) {
        if (n.is_number_integer()) r.numa_nodes.push_back(n.get<int>());
      }
    }
  }
  if (object("frequency")) frequency_fields(p.frequency.emplace(), field_reader(f.child("frequency")));
  if (error != nullptr) *error = first;
  return p;
}

}  // namespace wgb::report
