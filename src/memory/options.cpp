// Phase names, option checks, up-front estimates and the scope statement of the memory suite.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "measure/phase_sampler.hpp"
#include "memory/memory.hpp"
#include "memory/phases.hpp"

namespace wgb::memory {

const char* phase_name(Phase p) noexcept { return definition(p).name; }

std::string phase_id(Phase p) { return fmt::format("memory-{}", phase_name(p)); }

Expected<std::vector<Phase>> parse_phases(std::string_view text) {
  std::string s;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isspace(u) == 0) s += static_cast<char>(std::tolower(u));
  }
  if (s.empty() || s == "all") return std::vector<Phase>(kAllPhases.begin(), kAllPhases.end());
  std::vector<bool> want(kAllPhases.size(), false);
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t comma = std::min(s.find(',', start), s.size());
    const std::string name = s.substr(start, comma - start);
    bool found = false;
    for (std::size_t i = 0; i < kAllPhases.size(); ++i) {
      if (name == phase_name(kAllPhases[i])) {
        want[i] = true;
        found = true;
      }
    }
    if (!found) {
      return make_error(ErrorKind::Usage,
                        fmt::format("unknown phase '{}' (phases: read, write, copy, random, latency, sustain, "
                                    "all)",
                                    name));
    }
    start = comma + 1;
  }
  std::vector<Phase> out;
  for (std::size_t i = 0; i < kAllPhases.size(); ++i) {
    if (want[i]) out.push_back(kAllPhases[i]);
  }
  return out;
}

Status validate_options(const MemoryOptions& o) {
  auto bad = [](std::string what) { return make_error(ErrorKind::Usage, std::move(what)); };
  if (!is_power_of_two(o.working_set_mib) || o.working_set_mib < kMinWorkingSetMiB ||
      o.working_set_mib > kMaxWorkingSetMiB) {
    return bad(fmt::format("--working-set {} is not a power of two from {} to {} MiB", o.working_set_mib,
                           kMinWorkingSetMiB, kMaxWorkingSetMiB));
  }
  if (!is_power_of_two(o.min_working_set_mib) || o.min_working_set_mib > kMaxWorkingSetMiB) {
    return bad(fmt::format("--min-working-set {} is not a power of two from 1 to {} MiB", o.min_working_set_mib,
                           kMaxWorkingSetMiB));
  }
  if (o.phases.empty()) return bad("no phase selected");
  auto positive = [](double x) { return std::isfinite(x) && x > 0; };
  auto non_negative = [](double x) { return std::isfinite(x) && x >= 0; };
  if (!positive(o.sample_ms)) return bad("--sample-ms must be > 0");
  if (!positive(o.latency_sample_ms)) return bad("--latency-sample-ms must be > 0");
  if (!positive(o.budget_ms)) return bad("--budget-ms must be > 0");
  if (!positive(o.latency_budget_ms)) return bad("--latency-budget-ms must be > 0");
  if (!positive(o.sustain_ms)) return bad("--sustain-ms must be > 0");
  if (!non_negative(o.warmup_ms)) return bad("--warmup-ms must be >= 0");
  if (!non_negative(o.transition_ms)) return bad("--transition-ms must be >= 0");
  if (o.min_samples < 1 || o.min_samples > 100000) return bad("--min-samples must be from 1 to 100000");
  if (!(std::isfinite(o.hard_stop_factor) && o.hard_stop_factor >= 1)) return bad("the hard stop factor must be >= 1");
  return ok();
}

std::string MemoryRun::end_state() const { return fatal ? to_string(fatal->kind) : "complete"; }

std::vector<double> estimate_phase_seconds(const MemoryOptions& o, bool timestamps) {
  std::vector<double> out;
  for (std::size_t i = 0; i < o.phases.size(); ++i) {
    const measure::PhaseConfig cfg = phase_config(definition(o.phases[i]), o, !timestamps);
    const measure::PhaseSampler scratch(cfg);
    // Plus a little per pass for submission and timestamp read-back, and the validation.
    const double ms = scratch.estimate_remaining_ms() * 1.05 + 100 + (i > 0 ? o.transition_ms : 0);
    out.push_back(ms / 1000.0);
  }
  return out;
}

std::vector<ScopeLine> scope_statement(const MemoryOptions& o) {
  // The scope table (docs/method.md#memory-workload), said of a native program: "this browser" becomes this process on Dawn, and
  // the sustain length is the one configured.
  return {
      {"Effective throughput that WebGPU compute moves through GPU-visible memory, from this process "
       "(native Dawn)",
       "Manufacturer peak bandwidth. A result shows it only as a published reference."},
      {"Scattered-access throughput and a dependent-load latency proxy",
       "Memory capacity. WebGPU does not expose VRAM size."},
      {fmt::format("How much throughput holds across {:g} s of continuous load", o.sustain_ms / 1000.0),
       "Who made the memory chips. webgpu-bench never infers a memory vendor."},
  };
}

}  // namespace wgb::memory
