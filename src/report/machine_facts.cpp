// The machine section of a document, read into types (machine_facts.hpp).
#include "report/machine_facts.hpp"

#include <nlohmann/json.hpp>

namespace wgb::report {

namespace {

using Json = nlohmann::json;

// A field as the card prints it: a string as it is, null or missing as empty, anything else as JSON.
std::string text(const Json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) return {};
  const auto& v = j.at(key);
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return {};
  return v.dump();
}

const Json& section(const Json& j, const char* key) {
  static const Json empty = Json::object();
  return j.is_object() && j.contains(key) && j.at(key).is_object() ? j.at(key) : empty;
}

// An array of names (features, toggles): each element's text; anything but an array reads as none.
std::vector<std::string> names(const Json& j, const char* key) {
  std::vector<std::string> out;
  if (!j.is_object() || !j.contains(key) || !j.at(key).is_array()) return out;
  for (const auto& v : j.at(key)) out.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  return out;
}

std::optional<double> number(const Json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j.at(key).is_number()) return std::nullopt;
  return j.at(key).get<double>();
}

// Reads each text field `list(facts, visit)` names from `j`.
template <class Facts, class List>
void read_texts(const Json& j, Facts& facts, List list) {
  list(facts, [&j](const char* key, std::string& out) { out = text(j, key); });
}

AdapterFacts adapter_from(const Json& a) {
  AdapterFacts f;
  read_texts(a, f, [](AdapterFacts& x, auto&& v) {
    v("vendor", x.vendor), v("vendor_id", x.vendor_id), v("architecture", x.architecture), v("device", x.device);
    v("description", x.description), v("backend", x.backend), v("adapter_type", x.adapter_type);
    v("driver", x.driver);
  });
  f.has_subgroups = a.contains("subgroup_max_size");
  f.subgroup_min_size = text(a, "subgroup_min_size");
  f.subgroup_max_size = text(a, "subgroup_max_size");
  f.features = names(a, "features");
  f.wgsl_language_features = names(a, "wgsl_language_features");
  f.adapter_toggles = names(a, "adapter_toggles");
  if (a.contains("limits") && a.at("limits").is_object()) {
    f.has_limits = true;
    for (const auto& [k, v] : a.at("limits").items())
      f.limits.emplace_back(k, v.is_string() ? v.get<std::string>() : v.dump());
  }
  return f;
}

DawnFacts dawn_from(const Json& d) {
  DawnFacts f;
  read_texts(d, f, [](DawnFacts& x, auto&& v) {
    v("version", x.version), v("robustness", x.robustness), v("timestamps", x.timestamps);
    v("timestamp_quantization", x.timestamp_quantization);
  });
  if (d.contains("empty_submit_ms")) f.empty_submit_ms = text(d, "empty_submit_ms");
  f.device_toggles = names(d, "device_toggles");
  for (const auto& [key, out] :
       {std::pair{"robustness", &f.robustness_on}, std::pair{"experimental", &f.experimental}}) {
    if (const auto it = d.find(key); it != d.end() && it->is_boolean()) *out = it->get<bool>();
  }
  return f;
}

HostFacts host_from(const Json& h) {
  HostFacts f;
  read_texts(h, f, [](HostFacts& x, auto&& v) {
    v("cpu_model", x.cpu_model), v("logical_cpus", x.logical_cpus), v("cores_per_socket", x.cores_per_socket);
    v("sockets", x.sockets), v("numa_nodes", x.numa_nodes), v("hostname", x.hostname);
    v("distribution", x.distribution), v("os", x.os), v("kernel", x.kernel), v("arch", x.arch);
  });
  f.vector_isa = names(h, "vector_isa");
  f.memory_bytes = number(h, "memory_bytes");
  if (h.contains("caches") && h.at("caches").is_array()) {
    for (const auto& c : h.at("caches")) {
      f.caches.push_back({text(c, "level"), text(c, "type"), text(c, "size"), text(c, "ways_of_associativity"),
                          text(c, "line_size"), text(c, "shared_cpu_list")});
    }
  }
  return f;
}

}  // namespace

MachineFacts machine_facts(const Json& machine, const Json& build) {
  MachineFacts m;
  const Json& a = section(machine, "adapter");
  const Json& d = section(machine, "dawn");
  m.has_adapter = !a.empty();
  m.has_dawn = !d.empty();
  m.adapter = adapter_from(a);
  m.dawn = dawn_from(d);
  m.host = host_from(section(machine, "host"));
  if (const HostSuiteRecord suite = read_host_suite_record(machine); suite.roofline) {
    m.host.has_roofline = true;
    m.host.bandwidth_Bps = suite.roofline->bandwidth_Bps;
    m.host.peak_flops_f32 = suite.roofline->peak_flops_f32;
    m.host.peak_flops_f64 = suite.roofline->peak_flops_f64;
  }
  m.build = {text(build, "dawn_version"), text(build, "compiler"), text(build, "flags"),      text(build, "build_type"),
             text(build, "git_revision"), text(build, "version"),  text(build, "dawn_source")};
  return m;
}

std::string machine_key(const MachineFacts& m, const Json& build) {
  const auto& a = m.adapter;
  const auto& h = m.host;
  const auto& d = m.dawn;
  Json key = Json::array({a.vendor, a.vendor_id, a.architecture, a.device, a.description, a.backend, a.adapter_type,
                          a.driver, h.cpu_model, h.logical_cpus, h.cores_per_socket, h.sockets, h.kernel,
                          h.distribution, h.hostname, d.version, d.robustness, d.timestamps, d.device_toggles});
  key.push_back(build);
  return key.dump();
}

}  // namespace wgb::report
