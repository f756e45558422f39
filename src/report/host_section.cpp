// The document's `machine.host` section, written and read (host_section.hpp).
#include "report/host_section.hpp"

#include <nlohmann/json.hpp>

#include "report/field_reader.hpp"

namespace wgb::report {

namespace {

using json = nlohmann::json;

// The plainly copied fields of each record, named once for writing and reading (field_reader.hpp).
// clang-format off
template <class S, class F> void cache_fields(S& c, F&& f) {
  f("level", c.level), f("type", c.type), f("bytes", c.bytes), f("ways", c.ways), f("line_bytes", c.line_bytes);
  f("shared_cpu_list", c.shared_cpu_list), f("private", c.is_private), f("instances", c.instances);
  f("total_bytes", c.total_bytes);
}
template <class S, class F> void numa_node_fields(S& n, F&& f) { f("node", n.node), f("cpus", n.cpus); }
template <class S, class F> void topology_fields(S& t, F&& f) {
  f("allowed_cpus", t.allowed_cpus), f("allowed_cpu_count", t.allowed_cpu_count);
  f("physical_cores_allowed", t.physical_cores_allowed), f("one_per_core", t.one_per_core);
  f("smt_siblings", t.smt_siblings), f("transparent_hugepages", t.transparent_hugepages);
}
template <class S, class F> void numa_fields(S& t, F&& f) { f("node_count", t.numa_node_count), f("mempolicy", t.mempolicy); }
template <class S, class F> void memory_size_fields(S& t, F&& f) {
  f("total_bytes", t.memory_total_bytes), f("available_bytes_at_start", t.memory_available_bytes_at_start);
}
template <class S, class F> void spread_fields(S& s, F&& f) {
  f("median", s.median), f("min", s.min), f("max", s.max);
}
template <class S, class F> void timer_fields(S& t, F&& f) {
  f("resolution_ns", t.resolution_ns), f("overhead_ns", t.overhead_ns);
}
template <class S, class F> void compiler_fields(S& c, F&& f) {
  f("vendor_version", c.vendor_version), f("version_string", c.version_string), f("command", c.command);
  f("multiversioning", c.multiversioning);
}
template <class S, class F> void kernel_isa_fields(S& k, F&& f) {
  f("stream", k.stream), f("fma", k.fma), f("fma_available", k.fma_available);
}
template <class S, class F> void memory_fields(S& m, F&& f) {
  f("capacity_bytes", m.capacity_bytes), f("stream_bandwidth_Bps", m.stream_bandwidth_Bps);
  f("stream_arrays_bytes", m.stream_arrays_bytes), f("stream_arrays_at_least_4x_llc", m.stream_arrays_at_least_4x_llc);
  f("stream_threads", m.stream_threads);
}
template <class S, class F> void roofline_fields(S& r, F&& f) {
  f("peak_flops_f64", r.peak_flops_f64), f("peak_flops_f32", r.peak_flops_f32), f("bandwidth_Bps", r.bandwidth_Bps);
  f("threads", r.threads);
}
template <class S, class F> void cpu_cache_fields(S& c, F&& f) {
  f("level", c.level), f("type", c.type), f("size", c.size), f("size_bytes", c.size_bytes);
  f("ways_of_associativity", c.ways_of_associativity), f("line_size", c.line_size);
  f("shared_cpu_list", c.shared_cpu_list), f("shared", c.shared);
}
template <class S, class F> void description_fields(S& h, F&& f) {
  f("cpu_model", h.cpu_model), f("logical_cpus", h.logical_cpus), f("cores_per_socket", h.cores_per_socket);
  f("sockets", h.sockets), f("base_khz", h.base_khz), f("max_khz", h.max_khz);
  f("scaling_governor", h.scaling_governor), f("observed_mhz", h.observed_mhz), f("vector_isa", h.vector_isa);
  f("memory_bytes", h.memory_bytes), f("numa_nodes", h.numa_nodes), f("numa_placement", h.numa_placement);
  f("distribution", h.distribution);
}
template <class S, class F> void options_fields(S& o, F&& f) {
  f("benchmarks", o.benchmarks), f("threads", o.threads), f("affinity", o.affinity), f("cpus", o.cpus);
  f("array_bytes", o.array_bytes), f("size_sweep", o.size_sweep), f("sweep_min_bytes", o.sweep_min_bytes);
  f("sweep_max_bytes", o.sweep_max_bytes), f("latency_max_bytes", o.latency_max_bytes);
  f("points_per_octave", o.points_per_octave), f("repetitions", o.repetitions), f("warmup_ms", o.warmup_ms);
  f("min_region_ms", o.min_region_ms), f("huge_pages", o.huge_pages), f("isa", o.isa), f("seed", o.seed);
}
// clang-format on

HostClocks clocks_from(const FieldReader& f, std::string* error) {
  HostClocks out;
  if (!f.is_object("clocks")) return out;
  for (const auto& [name, figure] : f.raw("clocks").items()) {
    HostClockFigure c;
    const FieldReader each(figure, name, error);
    field_reader(each)("mhz", c.mhz);
    field_reader(each)("source", c.source);
    out.emplace_back(name, std::move(c));
  }
  return out;
}

json to_json(const HostTopologyRecord& t) {
  json j = written(t, WGB_FIELDS(topology_fields));
  j["caches_over_allowed_cpus"] = json::array();
  for (const auto& c : t.caches) j["caches_over_allowed_cpus"].push_back(written(c, WGB_FIELDS(cache_fields)));
  j["numa"] = written(t, WGB_FIELDS(numa_fields));
  j["numa"]["nodes"] = json::array();
  for (const auto& n : t.numa_nodes) j["numa"]["nodes"].push_back(written(n, WGB_FIELDS(numa_node_fields)));
  j["memory"] = written(t, WGB_FIELDS(memory_size_fields));
  return j;
}

HostTopologyRecord topology_from(const FieldReader& f, std::string* error) {
  HostTopologyRecord t;
  topology_fields(t, field_reader(f));
  t.caches = read_objects<HostCacheRecord>(f, "caches_over_allowed_cpus", error, WGB_FIELDS(cache_fields));
  const FieldReader numa = f.child("numa");
  numa_fields(t, field_reader(numa));
  t.numa_nodes = read_objects<HostNumaRecord>(numa, "nodes", error, WGB_FIELDS(numa_node_fields));
  memory_size_fields(t, field_reader(f.child("memory")));
  return t;
}

json to_json(const std::optional<ClockSpread>& s) {
  if (!s) return nullptr;
  json j = written(*s, WGB_FIELDS(spread_fields));
  if (s->readings) j["readings"] = *s->readings;
  if (s->source) j["source"] = *s->source;
  return j;
}

std::optional<ClockSpread> spread_from(const FieldReader& f, const char* key) {
  if (!f.has(key) || !f.raw(key).is_object()) return std::nullopt;
  const FieldReader s = f.child(key);
  ClockSpread c;
  spread_fields(c, field_reader(s));
  if (s.has("readings")) s.get_uint("readings", c.readings.emplace());
  field_reader(s)("source", c.source);
  return c;
}

json to_json(const HostClockRecord& c) {
  json cpufreq = json::object();
  for (const auto& [name, value] : c.cpufreq) cpufreq[name] = value;
  json j = {{"base",
             {{"tsc_mhz", c.tsc_mhz ? json(*c.tsc_mhz) : json(nullptr)},
              {"tsc_note",
               "TSC ticks per second against steady_clock over 20 ms; on constant_tsc CPUs the TSC runs at the "
               "nominal (base) clock"},
              {"cpufreq", cpufreq}}},
            {"method",
             "sustained clock = dependent add chain (100 register-register adds per iteration; one add per cycle) "
             "on each member right after its timed regions; the OS-reported clock (cpufreq scaling_cur_freq, else "
             "/proc/cpuinfo) is read at the same moment"}};
  field_writer(j)("idle_add_chain_mhz", c.idle_add_chain_mhz);
  if (c.finished) {
    j["sustained_add_chain_mhz"] = to_json(c.sustained_add_chain_mhz);
    j["os_reported_mhz"] = to_json(c.os_reported_mhz);
  }
  return j;
}

HostClockRecord clock_from(const FieldReader& f, const json& recorded) {
  HostClockRecord c;
  const FieldReader base = f.child("base");
  field_reader(base)("tsc_mhz", c.tsc_mhz);
  for (const auto& [name, value] : object_or_empty(base.raw("cpufreq")).items()) {
    c.cpufreq.emplace_back(name, value.is_string() ? value.get<std::string>() : value.dump());
  }
  field_reader(f)("idle_add_chain_mhz", c.idle_add_chain_mhz);
  // Recorded after the run, null when no reading was taken.
  c.finished =
      recorded.is_object() && (recorded.contains("sustained_add_chain_mhz") || recorded.contains("os_reported_mhz"));
  c.sustained_add_chain_mhz = spread_from(f, "sustained_add_chain_mhz");
  c.os_reported_mhz = spread_from(f, "os_reported_mhz");
  return c;
}

json to_json(const HostMemoryRecord& m) {
  json j = written(m, WGB_FIELDS(memory_fields));
  j["channels"] = nullptr;
  j["channels_note"] = "not readable without root (DMI tables via dmidecode); not reported";
  j["stream_bandwidth_from"] = m.stream_bandwidth_Bps ? json(m.stream_bandwidth_from) : json(nullptr);
  for (const auto& [kernel, rate] : m.stream) j["stream"][kernel] = rate;
  return j;
}

HostMemoryRecord memory_from(const FieldReader& f) {
  HostMemoryRecord m;
  memory_fields(m, field_reader(f));
  f.get("stream_bandwidth_from", m.stream_bandwidth_from);
  for (const auto& [kernel, rate] : object_or_empty(f.raw("stream")).items()) {
    if (rate.is_number()) m.stream.emplace_back(kernel, rate.get<double>());
  }
  return m;
}

json to_json(const HostRooflineRecord& r) {
  json j = written(r, WGB_FIELDS(roofline_fields));
  const bool ridge = r.peak_flops_f64 && r.bandwidth_Bps;
  j["ridge_point_f64_flop_per_byte"] = ridge ? json(*r.peak_flops_f64 / *r.bandwidth_Bps) : json(nullptr);
  j["note"] = "measured on this run: FMA peaks and STREAM bandwidth at the headline thread count";
  return j;
}

}  // namespace

std::optional<std::string> HostClockRecord::cpufreq_value(const std::string& name) const {
  for (const auto& [key, value] : cpufreq) {
    if (key == name) return value;
  }
  return std::nullopt;
}

const HostClockFigure* find_clock(const HostClocks& clocks, const std::string& name) {
  for (const auto& [key, figure] : clocks) {
    if (key == name) return &figure;
  }
  return nullptr;
}

json to_json(const HostClocks& clocks) {
  json j = json::object();
  for (const auto& [name, c] : clocks) j[name] = {{"mhz", c.mhz ? json(*c.mhz) : json(nullptr)}, {"source", c.source}};
  return j;
}

json to_json(const HostDescriptionRecord& r) {
  json j = written(r, WGB_FIELDS(description_fields));
  j["clocks"] = to_json(r.clocks);
  j["caches"] = json::array();
  for (const auto& c : r.caches) j["caches"].push_back(written(c, WGB_FIELDS(cpu_cache_fields)));
  for (const auto& [key, value] :
       {std::pair{"os", &r.os}, std::pair{"kernel", &r.kernel}, std::pair{"arch", &r.arch}}) {
    if (*value) j[key] = **value;
  }
  if (r.observed_mhz_at_finish) j["observed_mhz_at_finish"] = *r.observed_mhz_at_finish;
  return j;
}

json to_json(const HostFinishRecord& r) {
  return {{"observed_mhz_at_finish", r.observed_mhz_at_finish}, {"clocks", to_json(r.clocks)}};
}

HostDescriptionRecord read_host_description(const json& machine) {
  std::string error;  // tolerant, as below
  const FieldReader f = FieldReader(object_or_empty(machine), "machine", &error).child("host");
  HostDescriptionRecord r;
  description_fields(r, field_reader(f));
  r.clocks = clocks_from(f, &error);
  r.caches = read_objects<HostCpuCacheRecord>(f, "caches", &error, WGB_FIELDS(cpu_cache_fields));
  for (auto [key, member] :
       {std::pair{"os", &HostDescriptionRecord::os}, std::pair{"kernel", &HostDescriptionRecord::kernel},
        std::pair{"arch", &HostDescriptionRecord::arch}}) {
    field_reader(f)(key, r.*member);
  }
  field_reader(f)("observed_mhz_at_finish", r.observed_mhz_at_finish);
  return r;
}

json to_json(const HostSuiteRecord& r) {
  json j = {{"topology", to_json(r.topology)},
            {"clock", to_json(r.clock)},
            {"load_average_at_start", r.load_average_at_start},
            {"timer", written(r.timer, WGB_FIELDS(timer_fields))},
            {"compiler", written(r.compiler, WGB_FIELDS(compiler_fields))},
            {"kernel_isa", written(r.kernel_isa, WGB_FIELDS(kernel_isa_fields))}};
  j["timer"]["clock"] = "std::chrono::steady_clock";
  if (r.memory_measured) j["memory_measured"] = to_json(*r.memory_measured);
  if (r.roofline) j["roofline"] = to_json(*r.roofline);
  if (r.memory_measured || r.roofline) j["load_average_at_end"] = r.load_average_at_end;
  return j;
}

HostSuiteRecord read_host_suite_record(const json& machine) {
  std::string error;  // tolerant: a field of another type reads as its default
  const FieldReader f = FieldReader(object_or_empty(machine), "machine", &error).child("host");
  HostSuiteRecord r;
  r.topology = topology_from(f.child("topology"), &error);
  r.clock = clock_from(f.child("clock"), f.raw("clock"));
  f.get("load_average_at_start", r.load_average_at_start);
  timer_fields(r.timer, field_reader(f.child("timer")));
  compiler_fields(r.compiler, field_reader(f.child("compiler")));
  kernel_isa_fields(r.kernel_isa, field_reader(f.child("kernel_isa")));
  if (f.is_object("memory_measured")) r.memory_measured = memory_from(f.child("memory_measured"));
  if (f.is_object("roofline")) roofline_fields(r.roofline.emplace(), field_reader(f.child("roofline")));
  f.get("load_average_at_end", r.load_average_at_end);
  return r;
}

json to_json(const HostOptionsRecord& o) {
  json j = written(o, WGB_FIELDS(options_fields));
  j["suite"] = "host";
  if (o.thread_list) j["thread_list"] = *o.thread_list;
  return j;
}

HostOptionsRecord read_host_options(const json& options) {
  std::string error;  // tolerant, as above
  const FieldReader f(object_or_empty(options), "options", &error);
  HostOptionsRecord o;
  options_fields(o, field_reader(f));
  if (f.raw("thread_list").is_array()) {
    auto& list = o.thread_list.emplace();
    for (const auto& t : f.raw("thread_list")) {
      if (t.is_number_unsigned()) list.push_back(t.get<unsigned>());
    }
  }
  return o;
}

}  // namespace wgb::report
