// The machine a document was measured on, read into types: what the HTML report's machine card
// shows and what tells two documents' machines apart. A document's `machine` (adapter, dawn, host)
// and `build` sections are free-form where the program found them free-form (limits, toggles, the
// host's caches), so each field is kept as the text the card prints: a string as it is, a number or
// a boolean as JSON writes it, a missing or null field as empty.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wgb::report {

struct AdapterFacts {
  std::string vendor, vendor_id, architecture, device, description, backend, adapter_type, driver;
  bool has_subgroups = false;  // subgroup_max_size recorded
  std::string subgroup_min_size, subgroup_max_size;
  std::vector<std::string> features, wgsl_language_features, adapter_toggles;
  bool has_limits = false;                                  // a limits object was recorded (possibly empty)
  std::vector<std::pair<std::string, std::string>> limits;  // name -> value, as recorded
};

struct DawnFacts {
  std::string version, robustness, timestamps, timestamp_quantization;
  // The two switches that change what a run measures, as recorded (none when not a boolean).
  std::optional<bool> robustness_on, experimental;
  std::optional<std::string> empty_submit_ms;  // recorded (possibly empty)
  std::vector<std::string> device_toggles;
};

struct HostCache {
  std::string level, type, size, ways, line, shared_cpus;
};

struct HostFacts {
  std::string cpu_model, logical_cpus, cores_per_socket, sockets, numa_nodes, hostname;
  std::string distribution, os, kernel, arch;
  std::vector<std::string> vector_isa;
  std::optional<double> memory_bytes;
  // The host suite's measured ceilings (machine.host.roofline), where recorded.
  bool has_roofline = false;
  std::optional<double> bandwidth_Bps, peak_flops_f32, peak_flops_f64;
  std::vector<HostCache> caches;
};

struct BuildFacts {
  std::string dawn_version, compiler, flags, build_type, git_revision, version, dawn_source;
};

struct MachineFacts {
  bool has_adapter = false, has_dawn = false;  // the sections exist and are not empty
  AdapterFacts adapter;
  DawnFacts dawn;
  HostFacts host;
  BuildFacts build;
};

// Reads a document's `machine` and `build` sections; fields of an unexpected type read as their
// JSON text, sections that are not objects as absent.
MachineFacts machine_facts(const nlohmann::json& machine, const nlohmann::json& build);

// A key that is equal for two documents exactly when they were measured on the same machine and
// build: adapter, Dawn, host and build as recorded.
std::string machine_key(const MachineFacts& m, const nlohmann::json& build);

}  // namespace wgb::report
