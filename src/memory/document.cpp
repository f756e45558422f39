// Result document and console summary of the memory suite (document.hpp).
#include "memory/document.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "measure/stats.hpp"
#include "memory/sustain.hpp"
#include "report/facts.hpp"
#include "report/memory_parameters.hpp"
#include "report/run_options.hpp"
#include "report/table.hpp"

namespace wgb::memory {

report::MemoryRunOptions options_record(const MemoryOptions& o) {
  report::MemoryRunOptions r{.working_set_mib = o.working_set_mib,
                             .min_working_set_mib = o.min_working_set_mib,
                             .phases = {},
                             .sample_ms = o.sample_ms,
                             .wall_clock_sample_ms = 2 * o.sample_ms,
                             .latency_sample_ms = o.latency_sample_ms,
                             .budget_ms = o.budget_ms,
                             .latency_budget_ms = o.latency_budget_ms,
                             .sustain_ms = o.sustain_ms,
                             .warmup_ms = o.warmup_ms,
                             .transition_ms = o.transition_ms,
                             .min_samples = o.min_samples,
                             .hard_stop_factor = o.hard_stop_factor,
                             .rejection = "modified z-score 0.6745*|x-median|/MAD > 3.5",
                             .cycle_seed = o.cycle_seed,
                             .clock = {}};
  for (Phase p : o.phases) r.phases.push_back(phase_name(p));
  return r;
}

nlohmann::json options_json(const MemoryOptions& o) { return report::to_json(options_record(o)); }

nlohmann::json working_set_json(const WorkingSet& ws) {
  return report::to_json(report::MemoryWorkingSetRecord{.requested_bytes = ws.requested_bytes,
                                                        .bytes = ws.bytes,
                                                        .floor_bytes = ws.floor_bytes,
                                                        .invocations = ws.geometry.invocations,
                                                        .workgroups = ws.geometry.workgroups,
                                                        .workgroup_size = kWorkgroupSize,
                                                        .latency_slots = ws.geometry.slots,
                                                        .reductions = ws.reductions,
                                                        .ranked = ws.ranked,
                                                        .unranked_reason = ws.unranked_reason});
}

nlohmann::json scope_json(const MemoryOptions& o) {
  std::vector<report::MemoryScopeLine> lines;
  for (const auto& l : scope_statement(o)) lines.push_back({l.measured, l.not_measured});
  return report::to_json(lines);
}

MemoryDocument::MemoryDocument(std::vector<std::string> command, gpu::Context& gpu, const MemoryOptions& options,
                               report::MachineRecord machine)
    : doc_("memory", std::move(command), std::move(machine)) {
  doc_.set_device(gpu::device_record(gpu));
  report::MemoryRunOptions asked = options_record(options);
  // --clock: "wall" when timestamps were turned off by the user (rows still say which clock each used).
  asked.clock = gpu.options().wall_clock ? "wall" : "auto";
  doc_.set_options(report::to_json(asked));
  doc_.set_scope(scope_json(options));
}

void MemoryDocument::set_working_set(const WorkingSet& ws) { doc_.set_working_set(working_set_json(ws)); }

void MemoryDocument::add_row(const BenchmarkResult& row) { doc_.add_row(row); }

void MemoryDocument::finish(const MemoryRun& run) {
  doc_.finish(run.end_state());
  if (run.fatal) doc_.set_stopped_because(run.fatal->message);
}

namespace {

std::string gbps(double bytes_per_s) { return report::format_rate(bytes_per_s, "B"); }

std::string headline(const BenchmarkResult& r) {
  if (r.status != RowStatus::Ok || r.value <= 0) return "-";
  const auto facts = report::row_facts(r);
  if (r.id == "memory-latency") return fmt::format("{:.1f} ns/load", facts.ns_per_load.value_or(0));
  if (r.id == "memory-random") {
    // Scaled like every rate: "41.1 G accesses/s", "17.6 M accesses/s", never "0.0176 G".
    std::string n = report::scaled_value(1e9 * facts.g_accesses_per_s.value_or(0));
    if (!n.empty() && n.back() == ' ') n.pop_back();
    return fmt::format("{}, {} accesses/s", gbps(r.value), n);
  }
  if (r.id == "memory-sustain") {
    return fmt::format("{}, retention {:.1f}%", gbps(r.value), 100 * facts.retention.value_or(0));
  }
  return gbps(r.value);
}

// The phase's dispersion as every median row of `run` states it (IQR / median); the recorded CV
// when the row carries no statistics (a document of an older version).
std::string dispersion(const BenchmarkResult& r) {
  if (r.stats.count > 0) return report::dispersion_text(r);
  return fmt::format("CV {:.2f}%", 100 * report::row_facts(r).cv.value_or(0));
}

std::string phase_of(const BenchmarkResult& r) {
  return r.id.rfind("memory-", 0) == 0 ? r.id.substr(7) : r.id;
}

}  // namespace

std::string phase_line(const BenchmarkResult& r) {
  if (r.status == RowStatus::Ok) {
    const auto facts = report::row_facts(r);
    return fmt::format("  {:<8} {:<32} {}  {} samples, {} rejected, {}", phase_of(r), headline(r), dispersion(r),
                       facts.samples, facts.rejected_samples, to_string(r.timing_method));
  }
  return fmt::format("  {:<8} {}: {}", phase_of(r), to_string(r.status), r.message);
}

void write_summary(std::ostream& out, const MemoryRun& run, const MemoryOptions& options,
                   const gpu::AdapterDescription& adapter, std::size_t width) {
  const std::string name = adapter.device.empty() ? adapter.description : adapter.device;
  out << fmt::format("Memory suite on {} ({}, {})\n", name, adapter.backend, adapter.adapter_type);
  if (run.working_set) {
    const auto& ws = *run.working_set;
    out << fmt::format("Working set: 2 x {} (requested {}), {} workgroups of {} per dispatch; {}\n",
                       format_mib(ws.bytes), format_mib(ws.requested_bytes), ws.geometry.workgroups, kWorkgroupSize,
                       ws.ranked ? "ranked" : "unranked: " + ws.unranked_reason);
  }
  out << '\n';
  struct Line {
    std::string phase, status, median, cv, samples, rejected, clock;
  };
  std::vector<Line> lines{{"phase", "status", "median", "dispersion", "samples", "rejected", "clock"}};
  for (const auto& r : run.rows) {
    const bool has = r.status == RowStatus::Ok && r.value > 0;
    const auto facts = report::row_facts(r);
    lines.push_back({phase_of(r), to_string(r.status), headline(r),
                     has ? dispersion(r) : "-",
                     has ? std::to_string(facts.samples) : "-",
                     has ? std::to_string(facts.rejected_samples) : "-",
                     r.timing_method == TimingMethod::None ? "-" : to_string(r.timing_method)});
  }
  std::size_t w[7] = {};
  for (const auto& l : lines) {
    const std::string* f[7] = {&l.phase, &l.status, &l.median, &l.cv, &l.samples, &l.rejected, &l.clock};
    for (int i = 0; i < 7; ++i) w[i] = std::max(w[i], f[i]->size());
  }
  for (const auto& l : lines) {
    out << fmt::format("  {:<{}}  {:<{}}  {:<{}}  {:>{}}  {:>{}}  {:>{}}  {}\n", l.phase, w[0], l.status, w[1],
                       l.median, w[2], l.cv, w[3], l.samples, w[4], l.rejected, w[5], l.clock);
  }
  for (const auto& r : run.rows) {
    if (r.status != RowStatus::Ok && !r.message.empty()) {
      out << report::wrap_text(fmt::format("{}: {}", r.id, r.message), width, 2, 4) << '\n';
    }
  }

  // Sustain: a coarse timeline, the median of each ninth of the run.
  for (const auto& r : run.rows) {
    if (r.id != "memory-sustain" || r.status != RowStatus::Ok) continue;
    const auto facts = report::row_facts(r);
    const auto& tl = facts.timeline;  // (s, B/s)
    if (tl.empty()) continue;
    const std::size_t buckets = std::min<std::size_t>(9, tl.size());
    out << '\n'
        << report::wrap_text(fmt::format("Sustain timeline: the median of each stretch, at its end (retention {:.1f}% = "
                                         "last 60% {:.2f} / first 20% {:.2f} GB/s)",
                                         100 * facts.retention.value_or(0), facts.last60_median_gbps.value_or(0),
                                         facts.first20_median_gbps.value_or(0)),
                             width, 0, 2)
        << '\n';
    std::vector<std::string> points;
    for (std::size_t b = 0; b < buckets; ++b) {
      const std::size_t lo = b * tl.size() / buckets, hi = (b + 1) * tl.size() / buckets;
      std::vector<double> v;
      for (std::size_t i = lo; i < hi; ++i) v.push_back(tl[i].second / 1e9);
      points.push_back(fmt::format("{:.1f} s {}", tl[hi - 1].first, gbps(1e9 * measure::median(v))));
    }
    // Whole items per line: a time and its rate never part.
    std::size_t used = 0;
    for (const auto& p : points) {
      if (used > 0 && used + 3 + p.size() > width) {
        out << '\n';
        used = 0;
      }
      out << (used > 0 ? " | " : "  ") << p;
      used += (used > 0 ? 3 : 2) + p.size();
    }
    out << '\n' << report::wrap_text(retention_reading(facts.retention.value_or(0)), width, 2, 4) << '\n';
  }

  // The scope as two lists, each item wrapped under its bullet: a two-column table of sentences
  // does not fit a terminal.
  out << "\nScope\n  Measured:\n";
  const auto scope = scope_statement(options);
  for (const auto& l : scope) out << report::wrap_text("- " + l.measured, width, 4, 6) << '\n';
  out << "  Not measured:\n";
  for (const auto& l : scope) out << report::wrap_text("- " + l.not_measured, width, 4, 6) << '\n';
  if (run.fatal) {
    out << '\n' << report::wrap_text(fmt::format("Stopped early ({}): {}", run.end_state(), run.fatal->message), width, 0, 2)
        << '\n';
  }
}

}  // namespace wgb::memory
