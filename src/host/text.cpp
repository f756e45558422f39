// Markdown renderings of the host document: the reporting table, the rows, and the curves.
#include "host/text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <vector>

#include "report/facts.hpp"
#include "report/host_section.hpp"
#include "report/table.hpp"

namespace wgb::host {

namespace {

std::string time_text(double ms) {
  if (ms >= 1) return fmt::format("{:.4g} ms", ms);
  if (ms >= 1e-3) return fmt::format("{:.4g} us", ms * 1e3);
  return fmt::format("{:.4g} ns", ms * 1e6);
}

std::string mhz_text(const std::optional<double>& v) { return v ? fmt::format("{:.0f} MHz", *v) : "n/a"; }

// The smallest cache level whose capacity (over the members used) holds `bytes`, else DRAM; nothing
// when the curve records no levels.
std::string fits_in(double bytes, const std::optional<std::vector<report::Curve::CacheBoundary>>& levels) {
  if (!levels) return "";
  for (const auto& b : *levels) {
    if (bytes <= b.total_bytes) return fmt::format("L{}", b.level);
  }
  return "DRAM";
}

std::string joined(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : separator) + p;
  return out;
}

}  // namespace

void write_host_summary(std::ostream& out, const nlohmann::json& machine, const nlohmann::json& options,
                        const std::vector<report::ReportRow>& rows) {
  const report::HostDescriptionRecord described = report::read_host_description(machine);
  const report::HostSuiteRecord h = report::read_host_suite_record(machine);
  const report::HostOptionsRecord opts = report::read_host_options(options);
  const report::HostTopologyRecord& topo = h.topology;
  const std::string isa = joined(described.vector_isa, " ");
  std::string caches;
  for (const auto& c : topo.caches) {
    caches += fmt::format("{}L{} {} {}: {} x {}, {}-way, {} B lines ({})", caches.empty() ? "" : "; ", c.level, c.type,
                          c.is_private ? "private" : "shared", c.instances,
                          report::format_bytes(static_cast<double>(c.bytes)), c.ways, c.line_bytes,
                          c.is_private ? std::string("per core") : fmt::format("cpus {}", c.shared_cpu_list));
  }
  const report::HostMemoryRecord mem = h.memory_measured.value_or(report::HostMemoryRecord{});
  const double bw = mem.stream_bandwidth_Bps.value_or(0);
  std::string stream =
      bw > 0 ? fmt::format("{} ({}, {} threads, arrays of {} each{})", report::format_rate(bw, "B"),
                           mem.stream_bandwidth_from, mem.stream_threads,
                           report::format_bytes(static_cast<double>(mem.stream_arrays_bytes)),
                           mem.stream_arrays_at_least_4x_llc ? ", >= 4x the last-level cache"
                                                             : ", BELOW 4x the last-level cache: not a DRAM figure")
             : "not measured in this run";
  const auto base_khz = h.clock.cpufreq_value("base_frequency");
  const report::ClockSpread none;
  const report::ClockSpread& sus = h.clock.sustained_add_chain_mhz ? *h.clock.sustained_add_chain_mhz : none;
  const report::ClockSpread& os = h.clock.os_reported_mhz ? *h.clock.os_reported_mhz : none;
  auto spread_mhz = [](const std::optional<report::ClockSpread>& s, double report::ClockSpread::*field) {
    return s ? std::optional<double>((*s).*field) : std::nullopt;
  };
  out << "| Item | Detail |\n|---|---|\n";
  out << fmt::format(
      "| CPU | {}; {} physical cores allowed ({} logical CPUs: {}); base clock: TSC {} "
      "(nominal on constant_tsc CPUs){}; vector ISA: {}; kernels dispatched: STREAM {}, FMA {} |\n",
      described.cpu_model.empty() ? "unknown" : described.cpu_model, topo.physical_cores_allowed,
      topo.allowed_cpu_count, topo.allowed_cpus, mhz_text(h.clock.tsc_mhz),
      base_khz ? fmt::format(", cpufreq base_frequency {} kHz", *base_khz) : std::string(),
      isa.empty() ? "unknown" : isa, h.kernel_isa.stream, h.kernel_isa.fma);
  out << fmt::format("| Cache | {} |\n", caches.empty() ? "not in sysfs" : caches);
  out << fmt::format(
      "| Memory | capacity {}; channels not reported (DMI tables need root); measured stream bandwidth "
      "{} |\n",
      report::format_bytes(static_cast<double>(topo.memory_total_bytes)), stream);
  out << fmt::format(
      "| NUMA | {} node(s); placement: {} policy, pages first-touched by the thread that uses them "
      "(same partition as the kernel) |\n",
      topo.numa_node_count, topo.mempolicy.empty() ? "unknown" : topo.mempolicy);
  out << fmt::format("| Compiler | {} ({}) |\n", h.compiler.vendor_version, h.compiler.version_string);
  out << fmt::format("| Flags | `{}`; {} |\n", h.compiler.command, h.compiler.multiversioning);
  out << fmt::format("| Threads | {} (sweep {}), affinity {}: {} |\n", opts.threads,
                     opts.thread_list ? fmt::format("[{}]", fmt::join(*opts.thread_list, ",")) : "-", opts.affinity,
                     opts.affinity == "cores"
                         ? fmt::format("each thread pins itself with pthread_setaffinity_np, one per physical "
                                       "core, CPUs {}",
                                       opts.cpus.value_or(""))
                         : std::string("not pinned"));
  out << fmt::format(
      "| Frequency | not fixed by this program; sustained (dependent add chain on the used cores after "
      "every point): median {}, min {}, max {} over {} readings; OS-reported: {} ({}) |\n",
      mhz_text(spread_mhz(h.clock.sustained_add_chain_mhz, &report::ClockSpread::median)),
      mhz_text(spread_mhz(h.clock.sustained_add_chain_mhz, &report::ClockSpread::min)),
      mhz_text(spread_mhz(h.clock.sustained_add_chain_mhz, &report::ClockSpread::max)), sus.readings.value_or(0),
      mhz_text(spread_mhz(h.clock.os_reported_mhz, &report::ClockSpread::median)), os.source.value_or("none"));
  out << "| Input | per row below (STREAM: three f64 arrays, 2 MiB-aligned, uniform exact values; FMA: register "
         "chains; "
         "latency: one Sattolo cycle of 64 B nodes) |\n";
  out << fmt::format(
      "| Timing | std::chrono::steady_clock (resolution {:.0f} ns, {:.0f} ns per call); {} repetitions "
      "timed individually, each region > {} ms; warm-up >= {} ms until steady; statistic per row; "
      "load average at start {}, at end {} |\n",
      h.timer.resolution_ns, h.timer.overhead_ns, opts.repetitions, opts.min_region_ms, opts.warmup_ms,
      h.load_average_at_start.empty() ? "?" : h.load_average_at_start,
      h.load_average_at_end.empty() ? "?" : h.load_average_at_end);
  out << '\n';
  out << "| benchmark | status | value | statistic | dispersion (IQR) | threads | repeat | sustained clock | CPU share "
         "| "
         "notes |\n"
         "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& row : rows) {
    const BenchmarkResult& r = row.result;
    const report::RowFacts facts = report::row_facts(r);
    std::string value = r.value > 0 ? report::format_rate(r.value, r.metric.unit) : "-";
    if (r.family == "latency") value = fmt::format("{:.2f} ns/load", facts.ns_per_load.value_or(0));
    const double iqr = r.stats.median > 0 ? 100 * r.stats.iqr / r.stats.median : 0;
    std::string notes = r.message;
    for (const auto& n : r.notes) notes += (notes.empty() ? "" : "; ") + n;
    out << fmt::format("| {} | {} | {} | {} | {:.2f}% | {} | {} | {} | {:.0f}% | {} |\n", r.id, to_string(r.status),
                       value, r.statistic == Statistic::Best ? "minimum" : "median", iqr,
                       facts.host_threads.value_or(0), r.knob, mhz_text(facts.sustained_mhz_median),
                       100 * facts.cpu_share.value_or(0), notes);
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
