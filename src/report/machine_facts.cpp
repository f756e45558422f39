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

AdapterFacts adapter_from(const Json& a) {
  AdapterFacts f;
  f.vendor = text(a, "vendor");
  f.vendor_id = text(a, "vendor_id");
  f.architecture = text(a, "architecture");
  f.device = text(a, "device");
  f.description = text(a, "description");
  f.backend = text(a, "backend");
  f.adapter_type = text(a, "adapter_type");
  f.driver = text(a, "driver");
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
  f.version = text(d, "version");
  f.robustness = text(d, "robustness");
  f.timestamps = text(d, "timestamps");
  f.timestamp_quantization = text(d, "timestamp_quantization");
  if (d.contains("empty_submit_ms")) f.empty_submit_ms = text(d, "empty_submit_ms");
  f.device_toggles = names(d, "device_toggles");
  return f;
}

HostFacts host_from(const Json& h) {
  HostFacts f;
  f.cpu_model = text(h, "cpu_model");
  f.logical_cpus = text(h, "logical_cpus");
  f.cores_per_socket = text(h, "cores_per_socket");
  f.sockets = text(h, "sockets");
  f.numa_nodes = text(h, "numa_nodes");
  f.hostname = text(h, "hostname");
  f.distribution = text(h, "distribution");
  f.os = text(h, "os");
  f.kernel = text(h, "kernel");
  f.arch = text(h, "arch");
  f.vector_isa = names(h, "vector_isa");
  f.memory_bytes = number(h, "memory_bytes");
  if (h.contains("roofline") && h.at("roofline").is_object()) {
    const auto& r = h.at("roofline");
    f.has_roofline = true;
    f.bandwidth_Bps = number(r, "bandwidth_Bps");
    f.peak_flops_f32 = number(r, "peak_flops_f32");
    f.peak_flops_f64 = number(r, "peak_flops_f64");
  }
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
