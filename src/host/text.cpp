// Markdown renderings of the host document: the reporting table, the rows, and the curves.
#include "host/text.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "report/facts.hpp"
#include "report/table.hpp"

namespace wgb::host {

namespace {

using json = nlohmann::json;

double num(const json& j, const char* key, double fallback = 0) {
  return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<double>() : fallback;
}

std::string str(const json& j, const char* key, const std::string& fallback = "") {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : fallback;
}

const json& at(const json& j, std::initializer_list<const char*> path) {
  static const json kNull;
  const json* p = &j;
  for (const char* k : path) {
    if (!p->is_object() || !p->contains(k)) return kNull;
    p = &(*p)[k];
  }
  return *p;
}

std::string time_text(double ms) {
  if (ms >= 1) return fmt::format("{:.4g} ms", ms);
  if (ms >= 1e-3) return fmt::format("{:.4g} us", ms * 1e3);
  return fmt::format("{:.4g} ns", ms * 1e6);
}

std::string mhz_text(const json& v) { return v.is_number() ? fmt::format("{:.0f} MHz", v.get<double>()) : "n/a"; }

// The smallest cache level whose capacity (over the members used) holds `bytes`, else DRAM.
std::string fits_in(double bytes, const json& boundaries) {
  if (!boundaries.is_array()) return "";
  for (const auto& b : boundaries) {
    if (bytes <= num(b, "total_bytes")) return fmt::format("L{}", b.value("level", 0));
  }
  return "DRAM";
}

}  // namespace

void write_host_summary(std::ostream& out, const json& doc) {
  const json& h = at(doc, {"machine", "host"});
  const json& topo = h.contains("topology") ? h["topology"] : json();
  std::string isa;
  if (h.contains("vector_isa")) {
    for (const auto& v : h["vector_isa"]) {
      if (!isa.empty()) isa += ' ';
      isa += v.get<std::string>();
    }
  }
  const json& clock = at(h, {"clock"});
  const json& sus = at(clock, {"sustained_add_chain_mhz"});
  const json& os = at(clock, {"os_reported_mhz"});
  std::string caches;
  for (const auto& c : at(topo, {"caches_over_allowed_cpus"})) {
    caches += fmt::format(
        "{}L{} {} {}: {} x {}, {}-way, {} B lines ({})", caches.empty() ? "" : "; ", c.value("level", 0),
        str(c, "type"), c.value("private", false) ? "private" : "shared", c.value("instances", 0),
        report::format_bytes(num(c, "bytes")), c.value("ways", 0), c.value("line_bytes", 0),
        c.value("private", false) ? std::string("per core") : fmt::format("cpus {}", str(c, "shared_cpu_list")));
  }
  const json& mem = at(h, {"memory_measured"});
  const json& opts = at(doc, {"options"});
  const double bw = num(mem, "stream_bandwidth_Bps");
  std::string stream = bw > 0 ? fmt::format("{} ({}, {} threads, arrays of {} each{})", report::format_rate(bw, "B"),
                                            str(mem, "stream_bandwidth_from"), num(mem, "stream_threads"),
                                            report::format_bytes(num(mem, "stream_arrays_bytes")),
                                            mem.value("stream_arrays_at_least_4x_llc", false)
                                                ? ", >= 4x the last-level cache"
                                                : ", BELOW 4x the last-level cache: not a DRAM figure")
                              : "not measured in this run";
  const json& timer = at(h, {"timer"});
  const json& comp = at(h, {"compiler"});
  const json& numa = at(topo, {"numa"});
  out << "| Item | Detail |\n|---|---|\n";
  out << fmt::format(
      "| CPU | {}; {} physical cores allowed ({} logical CPUs: {}); base clock: TSC {} "
      "(nominal on constant_tsc CPUs){}; vector ISA: {}; kernels dispatched: STREAM {}, FMA {} |\n",
      str(h, "cpu_model", "unknown"), num(topo, "physical_cores_allowed"), num(topo, "allowed_cpu_count"),
      str(topo, "allowed_cpus"), mhz_text(at(clock, {"base", "tsc_mhz"})),
      at(clock, {"base", "cpufreq"}).contains("base_frequency")
          ? fmt::format(", cpufreq base_frequency {} kHz", str(at(clock, {"base", "cpufreq"}), "base_frequency"))
          : std::string(),
      isa.empty() ? "unknown" : isa, str(at(h, {"kernel_isa"}), "stream"), str(at(h, {"kernel_isa"}), "fma"));
  out << fmt::format("| Cache | {} |\n", caches.empty() ? "not in sysfs" : caches);
  out << fmt::format(
      "| Memory | capacity {}; channels not reported (DMI tables need root); measured stream bandwidth "
      "{} |\n",
      report::format_bytes(num(at(topo, {"memory"}), "total_bytes")), stream);
  out << fmt::format(
      "| NUMA | {} node(s); placement: {} policy, pages first-touched by the thread that uses them "
      "(same partition as the kernel) |\n",
      num(numa, "node_count"), str(numa, "mempolicy", "unknown"));
  out << fmt::format("| Compiler | {} ({}) |\n", str(comp, "vendor_version"), str(comp, "version_string"));
  out << fmt::format("| Flags | `{}`; {} |\n", str(comp, "command"), str(comp, "multiversioning"));
  out << fmt::format("| Threads | {} (sweep {}), affinity {}: {} |\n", num(opts, "threads"),
                     opts.contains("thread_list") ? opts["thread_list"].dump() : "-", str(opts, "affinity"),
                     str(opts, "affinity") == "cores"
                         ? fmt::format("each thread pins itself with pthread_setaffinity_np, one per physical "
                                       "core, CPUs {}",
                                       str(opts, "cpus"))
                         : std::string("not pinned"));
  out << fmt::format(
      "| Frequency | not fixed by this program; sustained (dependent add chain on the used cores after "
      "every point): median {}, min {}, max {} over {} readings; OS-reported: {} ({}) |\n",
      mhz_text(at(sus, {"median"})), mhz_text(at(sus, {"min"})), mhz_text(at(sus, {"max"})), num(sus, "readings"),
      mhz_text(at(os, {"median"})), str(os, "source", "none"));
  out << "| Input | per row below (STREAM: three f64 arrays, 2 MiB-aligned, uniform exact values; FMA: register "
         "chains; "
         "latency: one Sattolo cycle of 64 B nodes) |\n";
  out << fmt::format(
      "| Timing | std::chrono::steady_clock (resolution {:.0f} ns, {:.0f} ns per call); {} repetitions "
      "timed individually, each region > {} ms; warm-up >= {} ms until steady; statistic per row; "
      "load average at start {}, at end {} |\n",
      num(timer, "resolution_ns"), num(timer, "overhead_ns"), num(opts, "repetitions"), num(opts, "min_region_ms"),
      num(opts, "warmup_ms"), str(h, "load_average_at_start", "?"), str(h, "load_average_at_end", "?"));
  out << '\n';
  out << "| benchmark | status | value | statistic | dispersion (IQR) | threads | repeat | sustained clock | CPU share "
         "| "
         "notes |\n"
         "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& r : at(doc, {"rows"})) {
    const double v = num(r, "value");
    const std::string unit = str(at(r, {"metric"}), "unit");
    std::string value = v > 0 ? report::format_rate(v, unit) : "-";
    if (str(r, "family") == "latency") value = fmt::format("{:.2f} ns/load", num(at(r, {"parameters"}), "ns_per_load"));
    const json& st = at(r, {"stats_ms"});
    const double iqr = num(st, "median") > 0 ? 100 * num(st, "iqr") / num(st, "median") : 0;
    std::string notes = str(r, "message");
    if (r.contains("notes")) {
      for (const auto& n : r["notes"]) {
        if (!notes.empty()) notes += "; ";
        notes += n.get<std::string>();
      }
    }
    out << fmt::format("| {} | {} | {} | {} | {:.2f}% | {} | {} | {} | {:.0f}% | {} |\n", str(r, "id"),
                       str(r, "status"), value, str(r, "statistic") == "best" ? "minimum" : "median", iqr,
                       num(at(r, {"parameters", "threads"}), "count"), num(at(r, {"procedure"}), "knob"),
                       mhz_text(at(r, {"parameters", "frequency", "sustained_mhz_median"})),
                       100 * num(at(r, {"parameters", "timing"}), "cpu_share"), notes);
  }
}

void write_host_curves(std::ostream& out, const std::vector<report::ReportRow>& rows) {
  auto line = [&out](const std::vector<std::string>& cells) {
    out << '|';
    for (const auto& c : cells) out << ' ' << c << " |";
    out << '\n';
  };
  auto number = [](const std::optional<double>& v) { return v.value_or(0); };
  for (const auto& row : rows) {
    const BenchmarkResult& r = row.result;
    const report::RowFacts facts = report::row_facts(r);
    const std::string& unit = r.metric.unit;
    const bool latency = r.family == "latency";
    for (const auto& s : facts.curves) {
      const std::string stat = s.statistic == "best" ? "minimum" : "median";
      const bool repro = !s.points.empty() && s.points[0].repro_second_ms.has_value();
      out << fmt::format("\n#### {} over {} ({}{})\n\n", r.id, s.name == "threads" ? "thread count" : "working set",
                         stat, s.threads ? fmt::format(", {} threads", *s.threads) : "");
      std::vector<std::string> head;
      if (latency) {
        head = {"working set", "ns per load", "cycles per load", "IQR", "fits in", "hops per region"};
      } else if (s.name == "threads") {
        head = {"threads", fmt::format("{}/s ({})", unit, stat), "IQR", "time per pass", "repeat", "clock (add chain)"};
      } else {
        head = {"working set", "per array", fmt::format("{}/s ({})", unit, stat), "IQR", "fits in", "repeat"};
      }
      head.push_back("CPU share");
      if (repro) {
        head.push_back(latency ? "2nd process ns per load" : fmt::format("2nd process {}/s", unit));
        head.push_back("agree");
      }
      head.push_back("check");
      line(head);
      line(std::vector<std::string>(head.size(), "---"));
      for (const auto& p : s.points) {
        const double ws = number(p.working_set_bytes);
        std::vector<std::string> c;
        if (latency) {
          c = {report::format_bytes(ws),
               fmt::format("{:.2f}", number(p.ns_per_load)),
               fmt::format("{:.1f}", number(p.cycles_per_load)),
               fmt::format("{:.1f}%", 100 * number(p.iqr_relative)),
               fits_in(ws, s.cache_boundaries),
               fmt::format("{}", number(p.repeat))};
        } else if (s.name == "threads") {
          c = {fmt::format("{}", number(p.threads)),
               report::format_rate(number(p.value), unit),
               fmt::format("{:.1f}%", 100 * number(p.iqr_relative)),
               time_text(number(p.time_ms)),
               fmt::format("{}", number(p.repeat)),
               p.clock_mhz ? fmt::format("{:.0f} MHz", *p.clock_mhz) : "n/a"};
        } else {
          c = {report::format_bytes(ws),
               report::format_bytes(number(p.array_bytes)),
               report::format_rate(number(p.value), unit),
               fmt::format("{:.1f}%", 100 * number(p.iqr_relative)),
               fits_in(ws, s.cache_boundaries),
               fmt::format("{}", number(p.repeat))};
        }
        c.push_back(fmt::format("{:.0f}%", 100 * number(p.cpu_share)));
        if (repro) {
          const double second = number(p.repro_second_ms);
          if (latency) {
            c.push_back(fmt::format("{:.2f}", second * 1e6));
          } else {
            // Same work per pass in both processes: the rate scales with the inverse time.
            c.push_back(second > 0 ? report::format_rate(number(p.value) * number(p.time_ms) / second, unit) : "-");
          }
          c.push_back(p.repro_agree.value_or(false) ? "yes" : "NO");
        }
        c.push_back(p.valid.value_or(false) ? "ok" : "FAILED");
        line(c);
      }
    }
  }
}

}  // namespace wgb::host
