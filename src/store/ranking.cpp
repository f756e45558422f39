// Ranking rules: is a document measured with its suite's default options (docs/store.md, "Ranking").
#include "store/ranking.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "report/document.hpp"
#include "report/files.hpp"
#include "report/host_section.hpp"
#include "report/machine_facts.hpp"
#include "report/run_options.hpp"
#include "report/table.hpp"
#include "webgpu_bench/defaults.hpp"

namespace wgb::store {

namespace {

using nlohmann::json;

// "key value (default d)" for each option changed.
std::vector<std::string> shown(const std::vector<report::OptionChange>& changes) {
  std::vector<std::string> out;
  for (const auto& c : changes) out.push_back(fmt::format("{} {} (default {})", c.key, c.recorded, c.default_));
  return out;
}

std::string joined(const std::vector<std::string>& parts, std::string_view sep) {
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : std::string(sep)) + p;
  return s;
}

// Host runs: the fixed defaults, then what depends on the machine: one thread per physical core,
// arrays and the latency sweep at least 4x the last-level cache (and 64 MiB), the widest FMA ISA.
void host_reasons(const report::Document& doc, const json& options, std::vector<std::string>& reasons) {
  auto diff = shown(report::option_changes("host", options));
  const report::HostDescriptionRecord host = report::read_host_description(doc.machine);
  if (doc.host_recorded) {
    const std::uint64_t sockets = host.sockets;
    const std::uint64_t per_socket = host.cores_per_socket.value_or(0);
    const report::HostOptionsRecord asked = report::read_host_options(options);
    const std::uint64_t threads = asked.threads;
    if (sockets > 0 && per_socket > 0 && threads > 0 && threads != sockets * per_socket) {
      diff.push_back(fmt::format("threads {} (default {}, one per core)", threads, sockets * per_socket));
    }
    std::uint64_t llc = 0;
    for (const auto& c : host.caches) llc = std::max(llc, c.size_bytes);
    const std::uint64_t floor = std::max<std::uint64_t>(defaults::host::kMinArrayBytes, 4 * llc);
    for (const auto& [key, v] :
         {std::pair{"array_bytes", asked.array_bytes}, std::pair{"sweep_max_bytes", asked.sweep_max_bytes},
          std::pair{"latency_max_bytes", asked.latency_max_bytes}}) {
      if (v > 0 && v < floor) {
        diff.push_back(fmt::format("{} {} (below 4x the last-level cache and 64 MiB: {})", key, report::format_bytes(v),
                                   report::format_bytes(floor)));
      }
    }
    const std::vector<std::string>& available = report::read_host_suite_record(doc.machine).kernel_isa.fma_available;
    if (!asked.isa.empty() && !available.empty() && asked.isa != available.front()) {
      diff.push_back(fmt::format("isa {} (default {})", asked.isa, available.front()));
    }
  }
  if (!diff.empty()) reasons.push_back("host options changed: " + joined(diff, ", "));
}

}  // namespace

std::string unranked_reason(const report::Document& doc) {
  std::vector<std::string> reasons;
  const std::string& suite = doc.suite;
  if (suite == "sweep" || doc.sweep) reasons.push_back("a sweep (sizes or threads varied)");
  if (doc.kernels_replaced) reasons.push_back("kernels replaced (--kernel-dir)");
  if (doc.adapter.recorded) {
    const report::DawnFacts dawn = report::machine_facts(doc.machine, doc.build).dawn;
    if (!dawn.robustness_on) {
      reasons.push_back("robustness not recorded (machine.dawn.robustness)");
    } else if (!*dawn.robustness_on) {
      reasons.push_back("robustness off (--no-robustness)");
    }
    if (dawn.experimental.value_or(false)) reasons.push_back("unsafe APIs allowed (--experimental)");
  }
  // The options as the run records them, compared field by field with the suite's defaults.
  const json& options = doc.options;
  const bool known_suite = suite == "default" || suite == "memory" || suite == "host";
  if (known_suite && options.empty()) {
    reasons.push_back("options not recorded");
  } else if (suite == "default") {
    // The sampling's fields in one reason, then each size (option_changes lists the sampling first).
    std::vector<report::OptionChange> sampling, sizes;
    for (auto& c : report::option_changes("default", options)) {
      const bool of_sampling = c.key.starts_with("sampling.");
      if (of_sampling) c.key.erase(0, std::string_view("sampling.").size());
      (of_sampling ? sampling : sizes).push_back(std::move(c));
    }
    if (!sampling.empty()) reasons.push_back("sampling changed: " + joined(shown(sampling), ", "));
    for (const auto& c : sizes) {
      if (c.key == "bandwidth_bytes") {
        reasons.push_back(fmt::format("bandwidth buffers of {} MiB (default {}; --bandwidth-mib)",
                                      c.number ? *c.number / (1 << 20) : -1.0, defaults::run::kBandwidthBytes >> 20));
      } else {
        reasons.push_back(fmt::format("--compute-threads {}", c.recorded));
      }
    }
  } else if (suite == "memory") {
    auto diff = shown(report::option_changes("memory", options));
    if (!diff.empty()) reasons.push_back("memory options changed: " + joined(diff, ", "));
  } else if (suite == "host") {
    host_reasons(doc, options, reasons);
  }
  return joined(reasons, "; ");
}

}  // namespace wgb::store
