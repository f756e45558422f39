// Ceilings and per-row roofline placement (docs/method.md#validation: the measured ceilings).
#include "report/roofline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "measure/units.hpp"
#include "report/facts.hpp"

namespace wgb::report {

const std::vector<std::string>& bandwidth_ceiling_ids() {
  // The memory suite's phases use 256 MiB buffers alternated so no cache holds them; the streaming
  // rows (64 MiB by default, passes alternated the same way) stand in when it is not in the
  // document. Only an ok row gives a ceiling: never a suspect one (launch-bound, above a ceiling,
  // disagreeing with its second process) or a throttled one.
  static const std::vector<std::string> ids{"memory-read", "memory-write", "memory-copy", "read-linear",
                                            "write-linear"};
  return ids;
}

const std::map<std::string, std::string>& host_flops_ceiling_ids() {
  static const std::map<std::string, std::string> ids{{"f32", "host-fma-f32"}, {"f64", "host-fma-f64"}};
  return ids;
}

const std::map<std::string, std::string>& flops_ceiling_ids() {
  static const std::map<std::string, std::string> ids{{"f32", "f32-fma-vec4"}, {"f16", "f16-fma-vec4"}};
  return ids;
}

namespace {

bool is_flop_metric(const BenchmarkResult& r) { return r.metric.unit == "FLOP" || r.metric.key == "flops"; }

std::optional<Ceiling> best_of(const std::vector<ReportRow>& rows, const std::vector<std::string>& ids) {
  std::optional<Ceiling> best;
  for (const auto& row : rows) {
    const auto& r = row.result;
    if (r.status != RowStatus::Ok || !(r.value > 0)) continue;
    if (std::find(ids.begin(), ids.end(), r.id) == ids.end()) continue;
    if (!best || r.value > best->value) best = Ceiling{r.value, row_key(r)};
  }
  return best;
}

// "read-linear is throttled": the first of `ids` in the rows that could not give a ceiling.
std::string unusable(const std::vector<ReportRow>& rows, const std::vector<std::string>& ids) {
  for (const auto& id : ids) {
    for (const auto& row : rows) {
      const auto& r = row.result;
      if (r.id == id && (r.status != RowStatus::Ok || !(r.value > 0))) {
        return fmt::format("{} is {}", row_key(r), to_string(r.status));
      }
    }
  }
  return {};
}

// The note of a row above its ceiling (over_ceiling): a gather or scatter window may sit in a cache
// that the ceiling's streams were built to defeat; any other row above the DRAM ceiling means the
// row or the ceiling is wrong.
void note_over_ceiling(const BenchmarkResult& r, Roofline& out) {
  const std::string kind = over_ceiling(r, out);
  if (kind == "cache-window") {
    const double window = row_facts(r).window_bytes.value_or(0);
    out.note += fmt::format("; {:.2f} of the DRAM ceiling: its {} window may sit in a cache, so it belongs "
                            "against a cache ceiling, not DRAM's",
                            out.fraction, window > 0 ? measure::format_bytes(window) : std::string("small"));
  } else if (kind == "flagged") {
    out.note += fmt::format("; ABOVE THE CEILING ({:.2f}): this row or the ceiling's row is wrong (a cache "
                            "holding the footprint, a work model that overcounts, or a ceiling row that "
                            "understates the device)",
                            out.fraction);
  }
}

}  // namespace

namespace {

Ceilings gpu_ceilings(const std::vector<ReportRow>& rows) {
  Ceilings c;
  // Memory-suite rows win over the streaming rows when present: they are the designed DRAM
  // measurement. Either way the best of the group: the device streams at least that fast.
  c.bandwidth = best_of(rows, {"memory-read", "memory-write", "memory-copy"});
  if (!c.bandwidth) c.bandwidth = best_of(rows, {"read-linear", "write-linear"});
  if (!c.bandwidth) c.bandwidth_unusable = unusable(rows, bandwidth_ceiling_ids());
  for (const auto& [precision, id] : flops_ceiling_ids()) {
    if (auto best = best_of(rows, {id})) {
      c.flops[precision] = *best;
    } else if (auto why = unusable(rows, {id}); !why.empty()) {
      c.flops_unusable[precision] = why;
    }
  }
  return c;
}

}  // namespace

Ceilings find_host_ceilings(const std::vector<ReportRow>& rows) {
  Ceilings c;
  // As the host suite's machine.host.roofline: STREAM triad is the host's stream bandwidth, the
  // other STREAM kernels stand in when triad did not run.
  c.bandwidth = best_of(rows, {"host-stream-triad"});
  if (!c.bandwidth) c.bandwidth = best_of(rows, {"host-stream-copy", "host-stream-scale", "host-stream-add"});
  for (const auto& [precision, id] : host_flops_ceiling_ids()) {
    if (auto best = best_of(rows, {id})) c.flops[precision] = *best;
  }
  return c;
}

Ceilings find_ceilings(const std::vector<ReportRow>& rows) {
  Ceilings c = gpu_ceilings(rows);
  if (c.bandwidth || !c.flops.empty()) return c;
  Ceilings host = find_host_ceilings(rows);                 // a host document: the host CPU's ceilings
  return host.bandwidth || !host.flops.empty() ? host : c;  // none: the GPU's, with why they are missing
}

bool is_host_row(const BenchmarkResult& r) { return r.category == "host" || r.id.rfind("host-", 0) == 0; }

std::string flop_precision(const BenchmarkResult& r) {
  if (std::string p = row_facts(r).precision; !p.empty()) return p;
  if (r.id.rfind("host-fma-", 0) == 0) return r.id.substr(9);  // host-fma-f32, host-fma-f64
  const auto dash = r.id.find('-');
  if (dash != std::string::npos) {
    const auto prefix = r.id.substr(0, dash);
    if (prefix == "f16" || prefix == "f32" || prefix == "f64") return prefix;
  }
  return "f32";
}

Roofline roofline_for(const BenchmarkResult& r, const Ceilings& c) {
  Roofline out;
  out.bytes = r.work.bytes_read + r.work.bytes_written;
  const bool flop_metric = is_flop_metric(r);
  out.flops = flop_metric ? r.work.operations : 0.0;
  if (!has_rate(r) || !(r.time_ms > 0)) {
    out.note = "no rate measured";
    return out;
  }
  const double seconds = r.time_ms / 1000.0;
  out.flops_per_second = out.flops / seconds;
  out.bytes_per_second = out.bytes / seconds;
  if (!flop_metric && r.metric.key != "bytes") {
    out.note = fmt::format("no ceiling: the metric counts {}, and only bytes and FLOP have measured ceilings",
                           r.metric.unit.empty() ? r.metric.key : r.metric.unit);
    return out;
  }
  if (!(out.bytes > 0) && !(out.flops > 0)) {
    out.note = "no ceiling: the cost model reports no bytes and no FLOP";
    return out;
  }
  out.arithmetic_intensity = out.bytes > 0 ? out.flops / out.bytes : std::numeric_limits<double>::infinity();
  double peak_flops = 0, peak_bw = 0;
  std::vector<std::string> from;
  if (out.bytes > 0) {
    if (!c.bandwidth) {
      out.note = c.bandwidth_unusable.empty()
                     ? "no ceiling: peak bandwidth not measured in this document (run read-linear or the memory suite)"
                     : fmt::format("no ceiling: {}, and a ceiling comes only from an ok row", c.bandwidth_unusable);
      return out;
    }
    peak_bw = c.bandwidth->value;
    from.push_back(fmt::format("bandwidth from {}", c.bandwidth->from));
  }
  if (out.flops > 0) {
    out.precision = flop_precision(r);
    const auto it = c.flops.find(out.precision);
    if (it == c.flops.end()) {
      const auto id = flops_ceiling_ids().find(out.precision);
      const auto why = c.flops_unusable.find(out.precision);
      out.note = why != c.flops_unusable.end()
                     ? fmt::format("no ceiling: {}, and a ceiling comes only from an ok row", why->second)
                     : fmt::format("no ceiling: peak {} FLOP rate not measured in this document{}", out.precision,
                                   id == flops_ceiling_ids().end() ? "" : fmt::format(" (run {})", id->second));
      return out;
    }
    peak_flops = it->second.value;
    from.push_back(fmt::format("{} peak from {}", out.precision, it->second.from));
  }
  out.applies = true;
  out.fraction = roofline_fraction(seconds, out.flops, out.bytes, peak_flops, peak_bw);
  const double t_mem = out.bytes > 0 ? out.bytes / peak_bw : 0.0;
  const double t_alu = out.flops > 0 ? out.flops / peak_flops : 0.0;
  out.bound = t_mem >= t_alu ? "memory" : "compute";
  out.note = fmt::format("{}", fmt::join(from, "; "));
  note_over_ceiling(r, out);
  const bool defines = (c.bandwidth && c.bandwidth->from == row_key(r) && out.bound == "memory") ||
                       (!out.precision.empty() && c.flops.count(out.precision) != 0 &&
                        c.flops.at(out.precision).from == row_key(r));
  if (defines) out.note += " (this benchmark defines the ceiling)";
  return out;
}

std::string over_ceiling(const BenchmarkResult& r, const Roofline& roof) {
  if (!roof.applies || roof.bound != "memory" || !(roof.fraction > 1.0)) return {};
  const std::string access = row_facts(r).access;
  return access == "gather" || access == "scatter" ? "cache-window" : "flagged";
}

std::string over_ceiling(const ReportRow& row) {
  return row.roofline ? over_ceiling(row.result, *row.roofline) : std::string();
}

Ceilings apply_roofline(std::vector<ReportRow>& rows) {
  // Each device's rows sit under that device's ceilings: host rows under the host CPU's, the rest
  // under the GPU's.
  const Ceilings gpu = gpu_ceilings(rows), host = find_host_ceilings(rows);
  for (auto& row : rows) row.roofline = roofline_for(row.result, is_host_row(row.result) ? host : gpu);
  return find_ceilings(rows);
}

nlohmann::json roofline_summary_json(const std::vector<ReportRow>& rows, const Ceilings& c) {
  nlohmann::json j;
  if (c.bandwidth) {
    j["peak_bandwidth"] = {{"value", c.bandwidth->value}, {"unit", "B/s"}, {"from", c.bandwidth->from}};
  } else {
    j["peak_bandwidth"] = nullptr;
  }
  nlohmann::json flops = nlohmann::json::object();
  for (const auto& [precision, ceiling] : c.flops) {
    flops[precision] = {{"value", ceiling.value}, {"unit", "FLOP/s"}, {"from", ceiling.from}};
  }
  j["peak_flops"] = flops;
  j["low_fraction_threshold"] = kRooflineLowFraction;
  nlohmann::json below = nlohmann::json::array();
  nlohmann::json without = nlohmann::json::array();
  for (const auto& row : rows) {
    if (!row.roofline || !has_rate(row.result)) continue;
    if (row.roofline->applies) {
      if (row.roofline->fraction < kRooflineLowFraction) {
        below.push_back({{"id", row_key(row.result)}, {"fraction_of_roofline", row.roofline->fraction}});
      }
    } else {
      without.push_back({{"id", row_key(row.result)}, {"reason", row.roofline->note}});
    }
  }
  j["below_threshold"] = below;
  j["without_ceiling"] = without;
  nlohmann::json over = nlohmann::json::array();
  for (const auto& row : rows) {
    const std::string kind = over_ceiling(row);
    if (kind.empty() || !has_rate(row.result)) continue;
    over.push_back({{"id", row_key(row.result)}, {"fraction_of_roofline", row.roofline->fraction}, {"over_ceiling", kind}});
  }
  j["above_ceiling"] = over;
  return j;
}

}  // namespace wgb::report
