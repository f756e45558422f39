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
#include "report/table.hpp"
#include "webgpu_bench/defaults.hpp"
#include "webgpu_bench/sampling.hpp"

namespace wgb::store {

namespace {

using nlohmann::json;

// The defaults as the documents record them, by suite, from the values the program itself starts
// from (webgpu_bench/defaults.hpp, SamplingOptions), under the keys each suite writes. The host's
// are those that do not depend on the machine (threads, array sizes and the ISA do; they are
// checked against what machine.host records).
const json& suite_defaults() {
  namespace m = defaults::memory;
  namespace h = defaults::host;
  static const json d = {
      {"default",
       {{"sampling", report::sampling_json(SamplingOptions{})},
        {"bandwidth_bytes", defaults::run::kBandwidthBytes},
        {"compute_threads", defaults::run::kComputeThreads}}},
      {"memory",
       {{"working_set_mib", m::kWorkingSetMiB}, {"min_working_set_mib", m::kMinWorkingSetMiB},
        {"sample_ms", m::kSampleMs},            {"latency_sample_ms", m::kLatencySampleMs},
        {"budget_ms", m::kBudgetMs},            {"latency_budget_ms", m::kLatencyBudgetMs},
        {"sustain_ms", m::kSustainMs},          {"warmup_ms", m::kWarmupMs},
        {"transition_ms", m::kTransitionMs},    {"min_samples", m::kMinSamples},
        {"hard_stop_factor", m::kHardStopFactor}, {"cycle_seed", m::kCycleSeed}}},
      {"host",
       {{"sweep_min_bytes", h::kSweepMinBytes}, {"points_per_octave", h::kPointsPerOctave},
        {"repetitions", h::kRepetitions},         {"warmup_ms", h::kWarmupMs},
        {"min_region_ms", h::kMinRegionMs},       {"huge_pages", h::kHugePages},
        {"affinity", h::kPinToCores ? "cores" : "none"}, {"size_sweep", h::kSizeSweep}}}};
  return d;
}

bool same(const json& a, const json& b) {
  if (a.is_number() && b.is_number()) {
    const double x = a.get<double>(), y = b.get<double>();
    return x == y || std::fabs(x - y) <= 1e-9 * std::max(std::fabs(x), std::fabs(y));
  }
  return a == b;
}

std::string show(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// "key value (default d)" for every key of `defaults` that `options` records with another value. A
// key the document does not record is taken as the default: the option did not exist when it ran.
std::vector<std::string> differences(const json& options, const json& defaults) {
  std::vector<std::string> out;
  for (const auto& [key, d] : defaults.items()) {
    auto it = options.find(key);
    if (it == options.end() || it->is_null() || same(*it, d)) continue;
    out.push_back(fmt::format("{} {} (default {})", key, show(*it), show(d)));
  }
  return out;
}

std::string joined(const std::vector<std::string>& parts, std::string_view sep) {
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : std::string(sep)) + p;
  return s;
}

const json* member(const json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

// Host runs: the fixed defaults, then what depends on the machine: one thread per physical core,
// arrays and the latency sweep at least 4x the last-level cache (and 64 MiB), the widest FMA ISA.
void host_reasons(const report::Document& doc, const json& options, std::vector<std::string>& reasons) {
  auto diff = differences(options, default_options("host"));
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

const json& default_options(std::string_view suite) {
  static const json none;
  const json& all = suite_defaults();
  const auto it = all.find(std::string(suite));
  return it == all.end() ? none : *it;
}

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
    if (const json* s = member(options, "sampling"); s != nullptr && s->is_object()) {
      auto diff = differences(*s, default_options("default")["sampling"]);
      if (!diff.empty()) reasons.push_back("sampling changed: " + joined(diff, ", "));
    }
    auto it = default_options("default").find("bandwidth_bytes");
    if (auto v = options.find("bandwidth_bytes"); v != options.end() && !same(*v, *it)) {
      reasons.push_back(fmt::format("bandwidth buffers of {} MiB (default {}; --bandwidth-mib)",
                                    v->is_number() ? v->get<double>() / (1 << 20) : -1.0,
                                    defaults::run::kBandwidthBytes >> 20));
    }
    const json& threads = default_options("default").at("compute_threads");
    if (auto v = options.find("compute_threads"); v != options.end() && !same(*v, threads)) {
      reasons.push_back(fmt::format("--compute-threads {}", show(*v)));
    }
  } else if (suite == "memory") {
    auto diff = differences(options, default_options("memory"));
    if (!diff.empty()) reasons.push_back("memory options changed: " + joined(diff, ", "));
  } else if (suite == "host") {
    host_reasons(doc, options, reasons);
  }
  return joined(reasons, "; ");
}

}  // namespace wgb::store
