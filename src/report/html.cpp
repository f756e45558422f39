// The self-contained HTML report (see html.hpp). Charts come from report/svg.hpp; nothing here
// fetches, links or scripts anything.
#include "report/html.hpp"


#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>

#include "report/charts.hpp"
#include "report/compare.hpp"
#include "report/facts.hpp"
#include "report/machine_facts.hpp"
#include "report/roofline.hpp"
#include "report/svg.hpp"
#include "report/table.hpp"
#include "report/verdict.hpp"
#include "report/files.hpp"

namespace wgb::report {

namespace {

using svg::escape;
using Json = nlohmann::json;

// The charts' rules (charts::css): shared with the results server's run page.
constexpr const char* kChartCss = R"css(
.verdict{padding:8px 12px;border-radius:6px;margin:8px 0;border:1px solid}
.verdict.pass{background:#eaf6ee;border-color:#9fd3ae}.verdict.fail{background:#fdecea;border-color:#f1aaa4}
.verdict.info{background:#f3f5fa;border-color:#d8dce5}
svg.chart{display:block;margin:8px 0;max-width:100%;height:auto;background:#fff}
svg .frame{fill:none;stroke:#9aa3b5}svg .grid{stroke:#eceef3}svg .tick{font-size:11px;fill:#5b6475}
svg .leader{stroke:#9aa3b5;stroke-width:0.8}svg .axis{font-size:12px;fill:#3a4254}svg .ttl{font-size:14px;font-weight:600;fill:#1d2330}svg .lbl{font-size:11px;fill:#1d2330}
svg .roof{fill:none;stroke:#b3261e;stroke-width:2.5}svg .roof-key{fill:#b3261e}
svg .series{fill:none;stroke:#2357c6;stroke-width:2}svg .series-key{fill:#2357c6}
svg .pt{fill:#2357c6;stroke:#123a8a}svg .pt.low{fill:#e8710a;stroke:#8a4306}svg .pt.hollow{fill:#fff}
svg .pt-key{fill:#2357c6}svg .low-key{fill:#e8710a}svg .pt.nob{fill:#9aa3b5;stroke:#5b6475}svg .nob-key{fill:#9aa3b5}
svg .bar{fill:#6d8fd8}svg .whisker,svg .wh{stroke:#1d2330;stroke-width:1.4;fill:none}
svg .roof.alt{stroke-dasharray:6 4}svg .s1{stroke:#b3261e}svg .s2{stroke:#1b7a3a}svg .s3{stroke:#8a4fd0}
svg .s1-key{fill:#b3261e}svg .s2-key{fill:#1b7a3a}svg .s3-key{fill:#8a4fd0}
.doc{border-top:3px solid #2357c6;margin-top:32px;padding-top:4px}
)css";

constexpr const char* kCss = R"css(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#1d2330;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #d8dce5;padding-bottom:4px}
h3{font-size:15px;margin:18px 0 6px}.sub{color:#5b6475}
.card{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(340px,100%),1fr));gap:12px}
.box{border:1px solid #d8dce5;border-radius:6px;padding:10px 12px;background:#fafbfd;min-width:0}
.box h3{margin-top:0}.box table{width:100%;table-layout:fixed}.box table.kv th{width:9.5em}
.box td{overflow-wrap:break-word}
table{border-collapse:collapse;font-size:13px}th,td{border-bottom:1px solid #e3e6ee;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f0f2f7}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table.kv th{background:none;font-weight:600;color:#3a4254;white-space:normal;overflow-wrap:normal;hyphens:none}
.ok{color:#1b7a3a}.bad{color:#b3261e;font-weight:600}.warn{color:#9a6700}
details{margin:6px 0}code{font-size:12px}td code,li code,.id{white-space:nowrap}
.scroll{overflow-x:auto;max-width:100%}.same{color:#3a4254}
.box table.kv.limits th{width:62%}.box table.caches{table-layout:auto}.caches td,.caches th{white-space:nowrap;padding:3px 5px}
ul.reasons li{margin:3px 0}
pre{white-space:pre-wrap;overflow-wrap:break-word}
@media (max-width:600px){body{margin:12px}.box table.kv th{width:7.5em}}
)css";

using charts::Ids;

std::string anchor(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '-';
  return out;
}

std::string join_strings(const std::vector<std::string>& items, const char* sep = ", ") {
  std::string out;
  for (const auto& v : items) {
    if (!out.empty()) out += sep;
    out += v;
  }
  return out;
}

void kv(std::string& s, const std::string& k, const std::string& v) {
  if (v.empty()) return;
  s += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", escape(k), escape(v));
}

void kv_html(std::string& s, const std::string& k, const std::string& html) {
  if (html.empty()) return;
  s += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", escape(k), html);
}

// A list of names (features, toggles) that wraps only between words: a line may break after a
// comma, '_' or '-', never inside "readonly_and_readwrite_storage_textures" at a random letter.
std::string name_list(const std::vector<std::string>& names) {
  std::string out;
  for (char c : escape(join_strings(names))) {
    out += c;
    if (c == '_') out += "<wbr>";
  }
  return out;
}

// ---- machine card -----------------------------------------------------------------------------

// The file name a document was read from (its origin's last part).
std::string file_name(const Document& d) { return std::filesystem::path(d.origin).filename().string(); }

// The host clock as the document states it (report/compare.hpp clock_figures): base, max,
// observed and sustained clocks, each with its source.
// One line per figure; the sources (long: "measured: dependent add chain ...") on hover and under
// "sources".
std::string host_clock_html(const Document& doc) {
  std::string lines, sources;
  for (const auto& f : clock_figures(doc)) {
    lines += fmt::format("<div title=\"{}\">{}: {:.0f} MHz</div>", escape(f.source_a), escape(f.what), f.a_mhz);
    sources += fmt::format("<li>{}: {}</li>", escape(f.what), escape(f.source_a));
  }
  if (lines.empty()) return {};
  return lines + "<details><summary>sources</summary><ul class=\"sub\">" + sources + "</ul></details>";
}

std::string machine_card(const Document& doc, Ids& ids) {
  const MachineFacts m = machine_facts(doc.machine, doc.build);
  const auto& a = m.adapter;
  const auto& d = m.dawn;
  const auto& h = m.host;
  const auto& b = m.build;
  const std::string name = doc.device_name();
  std::string s = fmt::format("<h2 id=\"{}\">Machine{}</h2>\n<div class=\"card\">\n", ids("machine"),
                              escape(name.empty() ? "" : ": " + name));

  if (m.has_adapter) {
    s += "<div class=\"box\"><h3>GPU adapter</h3><table class=\"kv\">\n";
    kv(s, "device", a.device);
    kv(s, "vendor", fmt::format("{} ({}), architecture {}", a.vendor, a.vendor_id, a.architecture));
    kv(s, "description", a.description);
    kv(s, "backend / type", fmt::format("{} / {}", a.backend, a.adapter_type));
    kv(s, "driver", a.driver);
    if (a.has_subgroups) kv(s, "subgroups", fmt::format("{}..{} lanes", a.subgroup_min_size, a.subgroup_max_size));
    kv_html(s, "features", name_list(a.features));
    kv_html(s, "WGSL language features", name_list(a.wgsl_language_features));
    s += "</table>\n";
    if (a.has_limits) {
      s += "<details><summary>limits</summary><table class=\"kv limits\">\n";
      for (const auto& [k, v] : a.limits) {
        // "maxStorageBufferBindingSize" may wrap between its words on a narrow screen.
        std::string words;
        for (char c : escape(k)) {
          if (std::isupper(static_cast<unsigned char>(c)) && !words.empty()) words += "<wbr>";
          words += c;
        }
        s += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", words, escape(v));
      }
      s += "</table></details>\n";
    }
    s += "</div>\n";
  }

  s += fmt::format("<div class=\"box\"><h3>{}</h3><table class=\"kv\">\n", m.has_adapter ? "Dawn and build" : "Build");
  kv(s, "Dawn", d.version.empty() ? b.dawn_version : d.version);
  kv(s, "robustness", d.robustness);
  kv(s, "timestamps", d.timestamps);
  kv(s, "timestamp quantization", d.timestamp_quantization);
  kv(s, "empty submit", d.empty_submit_ms ? *d.empty_submit_ms + " ms" : "");
  kv(s, "compiler", b.compiler);
  kv(s, "flags", b.flags);
  kv(s, "build type", b.build_type);
  kv(s, "git revision", b.git_revision);
  kv(s, "webgpu-bench", b.version);
  kv(s, "Dawn source", b.dawn_source);
  s += "</table>\n";
  if (m.has_adapter || m.has_dawn) {
    s += fmt::format("<details><summary>device toggles in force</summary><p>{}</p></details>\n",
                     name_list(d.device_toggles));
    s += fmt::format("<details><summary>adapter toggles</summary><p>{}</p></details>\n",
                     name_list(a.adapter_toggles));
  }
  s += "</div>\n";

  s += "<div class=\"box\"><h3>Host</h3><table class=\"kv\">\n";
  kv(s, "CPU", h.cpu_model);
  kv(s, "cores", fmt::format("{} logical, {} per socket, {} socket(s)", h.logical_cpus, h.cores_per_socket, h.sockets));
  kv_html(s, "clock", host_clock_html(doc));
  kv(s, "vector ISA", join_strings(h.vector_isa));
  if (h.memory_bytes) kv(s, "memory", format_bytes(*h.memory_bytes));
  kv(s, "NUMA nodes", h.numa_nodes);
  if (h.has_roofline) {
    std::vector<std::string> parts;
    if (h.bandwidth_Bps) parts.push_back("stream bandwidth " + format_rate(*h.bandwidth_Bps, "B"));
    if (h.peak_flops_f32) parts.push_back(fmt::format("f32 peak {}", format_rate(*h.peak_flops_f32, "FLOP")));
    if (h.peak_flops_f64) parts.push_back(fmt::format("f64 peak {}", format_rate(*h.peak_flops_f64, "FLOP")));
    kv(s, "measured ceilings", fmt::format("{}", fmt::join(parts, ", ")));
  }
  kv(s, "OS", fmt::format("{} {} {} {}", h.distribution, h.os, h.kernel, h.arch));
  s += "</table>\n";
  if (!h.caches.empty()) {
    s += "<table class=\"caches\"><tr><th>cache</th><th>size</th><th>ways</th><th>line</th><th>shared</th></tr>\n";
    for (const auto& c : h.caches) {
      s += fmt::format("<tr><td>L{} {}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>\n",
                       escape(c.level), escape(c.type), escape(c.size), escape(c.ways), escape(c.line),
                       escape(c.shared_cpus));
    }
    s += "</table>\n";
  }
  s += "</div>\n</div>\n";

  s += "<details><summary>command line and options</summary>\n";
  s += fmt::format("<p><code>{}</code></p>\n", escape(fmt::format("{}", fmt::join(doc.command, " "))));
  s += fmt::format("<pre>{}</pre>\n", escape(doc.options.dump(2)));
  s += "</details>\n";
  return s;
}

// ---- verdicts ---------------------------------------------------------------------------------

}  // namespace

std::string machine_identity(const Document& doc) {
  return machine_key(machine_facts(doc.machine, doc.build), doc.build) + (doc.host_suite() ? " host" : "");
}

std::string rows_summary(const Document& doc) {
  // Statuses in a fixed order (ok first), each counted once.
  std::vector<std::pair<std::string, std::size_t>> counts;
  for (const auto& row : doc.rows) {
    const std::string k = to_string(row.result.status);
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == k; });
    if (it == counts.end()) {
      counts.emplace_back(k, 0);
      it = counts.end() - 1;
    }
    ++it->second;
  }
  std::stable_sort(counts.begin(), counts.end(),
                   [](const auto& x, const auto& y) { return (x.first == "ok") > (y.first == "ok"); });
  std::string c;
  for (const auto& [k, n] : counts) c += fmt::format("{}{} {}", c.empty() ? "" : ", ", n, k);
  const std::size_t n = doc.rows.size();
  std::string out = n == 0 ? std::string("No rows") : fmt::format("{} {}: {}", n, n == 1 ? "row" : "rows", c);
  const std::string& state = doc.state;
  if (!state.empty()) out += fmt::format("; the run is {}", state);
  return out + ".";
}

namespace {

std::string verdicts(const Document& doc) {
  std::string s;
  if (doc.repro) {
    const ReproSummary& r = *doc.repro;
    const std::string& v = r.verdict;
    const std::string cls = v == "pass" ? "pass" : v == "fail" ? "fail" : "info";
    std::string text = fmt::format("<b>Reproducibility (second process): {}</b>", escape(v == "pass" ? "PASS" : v == "fail" ? "FAIL" : v));
    if (!r.disagreeing.empty()) {
      text += " &mdash; disagreeing rows: " + escape(fmt::format("{}", fmt::join(r.disagreeing, ", ")));
    }
    if (!r.reason.empty()) text += " &mdash; " + escape(r.reason);
    text += fmt::format("<br><span class=\"sub\">Rule: {}; tolerance {:g}.</span>", escape(kReproRule), r.tolerance);
    s += fmt::format("<div id=\"repro-verdict\" class=\"verdict {}\">{}</div>\n", cls, text);
  }
  s += fmt::format("<div class=\"verdict info\">{}</div>\n", escape(rows_summary(doc)));
  return s;
}

// ---- results table ----------------------------------------------------------------------------

std::string results_table(const std::vector<ReportRow>& rows, Ids& ids) {
  const bool with_repro = std::any_of(rows.begin(), rows.end(), [](const auto& r) { return r.repro.has_value(); });
  std::string s =
      "<div class=\"scroll\"><table "
      "class=\"results\"><tr><th>benchmark</th><th>label</th><th>status</th><th>rate</th><th>statistic</th>"
      "<th>dispersion</th><th>time / rep</th><th>clock</th><th>FLOP/B</th><th>roofline</th>";
  if (with_repro) s += "<th>repro</th>";
  s += "<th>notes</th></tr>\n";
  for (const auto& row : rows) {
    const auto& r = row.result;
    const bool rate = has_rate(r);
    const std::string status_cls = r.status == RowStatus::Ok ? "ok" : r.status == RowStatus::Skipped ? "warn" : "bad";
    std::string roof = rate ? roofline_text(row) : "-";
    const bool low = rate && row.roofline && row.roofline->applies &&
                     (row.roofline->fraction < kRooflineLowFraction || over_ceiling(row) == "flagged");
    std::string notes = r.message;
    for (const auto& n : r.notes) notes += (notes.empty() ? "" : "; ") + n;
    s += fmt::format("<tr id=\"{}\"><td title=\"WGSL {}\"><code>{}</code></td><td>{}</td><td class=\"{}\">{}</td>",
                     escape(ids("row-" + anchor(row_key(r)))), escape(r.wgsl_hash), escape(row_key(r)), escape(r.label),
                     status_cls, escape(to_string(r.status)));
    s += fmt::format("<td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td>",
                     escape(rate ? format_rate(r.value, r.metric.unit) : "-"),
                     escape(rate ? fmt::format("{} of {}", to_string(r.statistic), r.stats.count) : "-"),
                     escape(rate ? dispersion_text(r) : "-"),
                     escape(rate ? fmt::format("{:.4g} ms", r.time_ms) : "-"), escape(to_string(r.timing_method)));
    s += fmt::format("<td class=\"num\">{}</td><td class=\"num{}\" title=\"{}\">{}</td>",
                     escape(rate && row.roofline ? intensity_text(row.roofline->arithmetic_intensity) : "-"),
                     low ? " bad" : "", escape(row.roofline ? row.roofline->note : ""), escape(roof));
    if (with_repro) {
      const bool bad = row.repro && row.repro->verdict == "disagree";
      s += fmt::format("<td class=\"{}\" title=\"{}\">{}</td>", bad ? "bad" : "ok", escape(row.repro ? row.repro->reason : ""),
                       escape(repro_text(row)));
    }
    s += fmt::format("<td>{}</td></tr>\n", escape(notes));
  }
  s += "</table></div>\n<p class=\"sub\">statistic: <b>best</b> = fastest kept run (compute-bound kernels); "
       "<b>median</b> = "
       "median with IQR (memory traffic, contention, scheduling). Dispersion: IQR/median or CV of the "
       "per-repetition times. Rates are metric units per second.</p>\n";
  return s;
}

// ---- sweeps: rate or latency against the swept parameter ---------------------------------------

bool latency_like(const BenchmarkResult& r) {
  return r.metric.unit == "hop" || r.metric.unit == "load" || r.category == "latency";
}

// The curves of one document's sweep rows (one series per benchmark and swept parameter; series
// of different documents are never merged: they may come from different devices).
std::string sweep_sections(const Document& doc, Ids& ids) {
  struct Series {
    std::string id, parameter;
    std::vector<const ReportRow*> rows;
  };
  std::vector<Series> series;
  {
    for (const auto& row : doc.rows) {
      const RowFacts facts = row_facts(row.result);
      if (!facts.sweep) continue;
      const std::string param = facts.sweep->parameter.empty() ? "value" : facts.sweep->parameter;
      auto s = std::find_if(series.begin(), series.end(),
                            [&](const Series& x) { return x.id == row.result.id && x.parameter == param; });
      if (s == series.end()) {
        series.push_back({row.result.id, param, {}});
        s = series.end() - 1;
      }
      s->rows.push_back(&row);
    }
  }
  if (series.empty()) return {};
  std::string out = fmt::format("<h2 id=\"{}\">Curves</h2>\n", ids("sweeps"));
  for (const auto& s : series) {
    const bool bytes = s.parameter == "size" || s.parameter.find("bytes") != std::string::npos;
    const bool latency = !s.rows.empty() && latency_like(s.rows.front()->result);
    const auto& first = s.rows.front()->result;
    std::vector<double> xs, ys;
    struct Pt {
      double x, y, lo, hi;
      std::string tip;
    };
    std::vector<Pt> pts;
    std::vector<std::string> missing;
    for (const auto* row : s.rows) {
      const auto& r = row->result;
      const auto point = sweep_point(r.parameters);
      const double x = point ? static_cast<double>(point->value) : 0.0;
      if (!has_rate(r)) {
        missing.push_back(fmt::format("{}: {}{}", bytes ? format_bytes(x) : fmt::format("{:g}", x), to_string(r.status),
                                      r.message.empty() ? "" : " (" + r.message + ")"));
        continue;
      }
      Pt p;
      p.x = x;
      if (latency) {
        p.y = 1e9 / r.value;  // ns per hop
        p.lo = r.value_high > 0 ? 1e9 / r.value_high : 0;
        p.hi = r.value_low > 0 ? 1e9 / r.value_low : 0;
      } else {
        p.y = r.value;
        p.lo = r.value_low;
        p.hi = r.value_high;
      }
      p.tip = fmt::format("{} = {}: {}", s.parameter, bytes ? format_bytes(x) : fmt::format("{:g}", x),
                          latency ? fmt::format("{:.3g} ns per {}", p.y, r.metric.unit) : format_rate(r.value, r.metric.unit));
      xs.push_back(x);
      ys.push_back(p.y);
      ys.push_back(p.hi);
      pts.push_back(p);
    }
    const std::string id = ids("sweep-" + anchor(s.id + "-" + s.parameter));
    const std::string title = latency ? fmt::format("{}: latency vs {}", s.id, bytes ? "working set" : s.parameter)
                                      : fmt::format("{}: {}/s vs {}", s.id, first.metric.unit, bytes ? "working set" : s.parameter);
    auto x_axis = svg::fit_axis(xs, bytes ? "working set (log2)" : s.parameter + " (log2)", true,
                                bytes ? svg::Axis::Labels::Binary : svg::Axis::Labels::Plain);
    if (!bytes) {
      x_axis.min = std::pow(2.0, std::floor(std::log2(std::max(x_axis.min, 1.0))));
    }
    auto y_axis = svg::fit_axis(ys, latency ? fmt::format("ns per {}", first.metric.unit) : first.metric.unit + "/s", false,
                                latency ? svg::Axis::Labels::Plain : svg::Axis::Labels::Si);
    svg::Plot plot(id, title, x_axis, y_axis, 760, 400);
    std::vector<std::pair<double, double>> line;
    for (const auto& p : pts) line.emplace_back(p.x, p.y);
    plot.line(line, "series", title);
    for (const auto& p : pts) {
      plot.whisker(p.x, p.lo, p.hi, "wh");
      plot.point(p.x, p.y, "pt", p.tip);
    }
    plot.legend({{"series-key", latency ? "median time per dependent load" : "headline rate (whiskers: IQR)"}});
    out += plot.render();
    if (!missing.empty()) {
      out += fmt::format("<p class=\"warn\">Points without a value: {}</p>\n", escape(fmt::format("{}", fmt::join(missing, "; "))));
    }
  }
  if (!doc.sweep_notes.empty()) {
    out += fmt::format("<p class=\"sub\">Sweep notes ({}): {}</p>\n", escape(file_name(doc)),
                       escape(fmt::format("{}", fmt::join(doc.sweep_notes, "; "))));
  }
  return out;
}

// The host suite's curves (parameters.series of its rows: FMA and STREAM over thread count, STREAM
// and load latency over working-set size): one chart per series name and x, one line per kernel.
std::string host_curve_sections(const Document& doc, Ids& ids) {
  struct Line {
    std::string id;
    bool latency = false;
    std::vector<std::array<double, 4>> pts;  // x, y, low, high
  };
  struct Chart {
    std::string name, x, unit;
    std::vector<Line> lines;
  };
  std::vector<Chart> charts;
  for (const auto& row : doc.rows) {
    const auto& r = row.result;
    if (!is_host_row(r)) continue;
    const RowFacts facts = row_facts(r);
    const bool latency = latency_like(r);
    for (const Curve& se : facts.curves) {
      const std::string& x = se.x;
      const std::string& name = se.name;
      if (x.empty()) continue;
      Line line{r.id, latency, {}};
      for (const CurvePoint& p : se.points) {
        if (!p.at(x) || !p.value) continue;
        const double v = *p.value;
        if (!(v > 0)) continue;
        // An error bar apart from its point would read as another point: the range includes it.
        const auto [lo, hi] = p.rate_range();
        if (latency) {  // ns per load; the rate's IQR turns around
          line.pts.push_back({*p.at(x), 1e9 / v, hi > 0 ? 1e9 / hi : 0, lo > 0 ? 1e9 / lo : 0});
        } else {
          line.pts.push_back({*p.at(x), v, lo, hi});
        }
      }
      if (line.pts.empty()) continue;
      const std::string unit = latency ? "ns per " + r.metric.unit : r.metric.unit + "/s";
      auto c = std::find_if(charts.begin(), charts.end(),
                            [&](const Chart& ch) { return ch.name == name && ch.x == x && ch.unit == unit; });
      if (c == charts.end()) {
        charts.push_back({name, x, unit, {}});
        c = charts.end() - 1;
      }
      c->lines.push_back(std::move(line));
    }
  }
  if (charts.empty()) return {};
  std::string out = fmt::format("<h2 id=\"{}\">Host curves</h2>\n", ids("host-curves"));
  for (const auto& ch : charts) {
    const bool bytes = ch.x.find("bytes") != std::string::npos;
    std::vector<double> xs, ys;
    for (const auto& l : ch.lines) {
      for (const auto& p : l.pts) {
        xs.push_back(p[0]);
        ys.push_back(p[1]);
        if (p[3] > 0) ys.push_back(p[3]);
      }
    }
    const std::string xname = bytes ? "working set" : ch.x;
    auto x_axis = svg::fit_axis(xs, bytes ? "working set (log2)" : ch.x + " (log2)", true,
                                bytes ? svg::Axis::Labels::Binary : svg::Axis::Labels::Plain);
    if (!bytes) x_axis.min = std::pow(2.0, std::floor(std::log2(std::max(x_axis.min, 1.0))));
    auto y_axis =
        svg::fit_axis(ys, ch.unit, false, ch.lines.front().latency ? svg::Axis::Labels::Plain : svg::Axis::Labels::Si);
    const std::string title = fmt::format("host: {} vs {}", ch.unit, xname);
    svg::Plot plot(ids("host-" + anchor(ch.name + "-" + ch.x)), title, x_axis, y_axis, 760, 400);
    std::vector<std::pair<std::string, std::string>> legend;
    for (std::size_t i = 0; i < ch.lines.size(); ++i) {
      const auto& l = ch.lines[i];
      const std::string cls = i == 0 ? "series" : fmt::format("series s{}", i % 4);
      std::vector<std::pair<double, double>> line;
      for (const auto& p : l.pts) line.emplace_back(p[0], p[1]);
      plot.line(line, cls, l.id);
      for (const auto& p : l.pts) {
        plot.whisker(p[0], p[2], p[3], "wh");
        plot.point(p[0], p[1], "pt",
                   fmt::format("{}: {} = {}: {:.4g} {}", l.id, ch.x,
                               bytes ? format_bytes(p[0]) : fmt::format("{:g}", p[0]), p[1], ch.unit));
      }
      legend.push_back({i == 0 ? "series-key" : fmt::format("s{}-key", i % 4), l.id});
    }
    plot.legend(legend);
    out += plot.render();
  }
  return out;
}

// ---- technique families -------------------------------------------------------------------------

// One family's verdict (report/verdict.hpp), derived from the rows: the fastest variant, its lead
// and the rate ranges it was compared with, or "inconclusive"; with the family's caveat.
std::string verdict_box(const FamilyVerdict& v, const std::string& id) {
  const bool clear = v.outcome == FamilyVerdict::Outcome::Clear;
  std::string head = verdict_headline(v);
  if (!v.ranked.empty() && v.outcome != FamilyVerdict::Outcome::NoResult) {
    head += fmt::format(" ({} {})", v.outcome == FamilyVerdict::Outcome::Inconclusive ? "fastest measured:" : "at",
                        v.outcome == FamilyVerdict::Outcome::Inconclusive
                            ? fmt::format("{}, {}", v.fastest, format_rate(v.ranked[0].value, v.unit))
                            : format_rate(v.ranked[0].value, v.unit));
  }
  if (!v.runner_up.empty()) head += fmt::format("; lead over {}: {:.1f}%", v.runner_up, 100 * v.lead);
  std::string s = fmt::format("<div id=\"{}\" class=\"verdict {}\"><b>Verdict: {}</b><br>{}", id,
                              clear ? "pass" : "info", escape(head), escape(v.explanation));
  for (const auto& u : v.unranked) s += "<br>not ranked: " + escape(u);
  if (!v.caveat.empty()) s += "<br><span class=\"sub\">Note: " + escape(v.caveat) + ".</span>";
  s += "</div>\n";
  return s;
}

std::string family_sections(const std::vector<ReportRow>& rows, Ids& ids) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const ReportRow*>> by_family;
  for (const auto& row : rows) {
    if (row.result.family.empty() || is_host_row(row.result)) continue;
    if (!by_family.count(row.result.family)) order.push_back(row.result.family);
    by_family[row.result.family].push_back(&row);
  }
  if (order.empty()) return {};
  const auto family_v = family_verdicts(rows);
  std::string s = fmt::format(
      "<h2 id=\"{}\">Technique comparisons</h2>\n<p class=\"sub\">Same work per family; bars are the headline rate, "
      "whiskers the rate at the q3..q1 repetition times widened to include the headline (the range a verdict "
      "compares). {}</p>\n",
      ids("families"), escape(kVerdictScope));
  for (const auto& family : order) {
    std::vector<svg::Bar> bars;
    std::string unit;
    std::vector<std::string> not_measured;
    for (const auto* row : by_family[family]) {
      const auto& r = row->result;
      if (!has_rate(r)) {
        not_measured.push_back(fmt::format("{} ({})", r.id, to_string(r.status)));
        continue;
      }
      if (unit.empty()) unit = r.metric.unit;
      // The whisker surrounds the plotted value for both statistics: a best-run headline lies
      // above the rate at q1, so the range is widened to include it (as the verdict does).
      const double low = r.value_low > 0 ? std::min(r.value_low, r.value) : 0;
      const double high = r.value_high > 0 ? std::max(r.value_high, r.value) : 0;
      bars.push_back({r.id, r.value, low, high,
                      fmt::format("{}: {} ({}; {} of {})", r.id, format_rate(r.value, r.metric.unit),
                                  dispersion_text(r), to_string(r.statistic), r.stats.count)});
    }
    if (!bars.empty()) {
      s += svg::bar_chart(ids("family-" + anchor(family)), fmt::format("{} ({}/s)", family, unit), bars, unit);
    }
    for (const auto& v : family_v) {
      if (v.family == family) s += verdict_box(v, ids("verdict-" + anchor(family)));
    }
    if (!not_measured.empty()) {
      s += fmt::format("<p class=\"warn\">{}: not measured: {}</p>\n", escape(family),
                       escape(fmt::format("{}", fmt::join(not_measured, ", "))));
    }
  }
  return s;
}

// ---- the memory suite's sustain timeline (read through facts.hpp) --------------------------------

std::string sustain_section(const std::vector<ReportRow>& rows, Ids& ids) {
  std::string s;
  for (const auto& row : rows) {
    const auto& r = row.result;
    if (r.id != "memory-sustain") continue;
    s += fmt::format("<h2 id=\"{}\">Sustained bandwidth</h2>\n", ids("sustain"));
    const RowFacts facts = row_facts(r);
    const auto& pts = facts.timeline;
    if (pts.size() < 2) {
      s += "<p class=\"warn\">memory-sustain has no timeline (parameters.timeline) to draw.</p>\n";
      continue;
    }
    std::vector<double> xs, ys;
    for (const auto& [t, v] : pts) {
      xs.push_back(t);
      ys.push_back(v);
    }
    svg::Plot plot(ids("sustain-chart"), "memory-sustain: bandwidth over time", svg::fit_axis(xs, "time (s)", false),
                   svg::fit_axis(ys, "B/s", false, svg::Axis::Labels::Si), 760, 360);
    plot.line(pts, "series", "sustained copy bandwidth");
    plot.legend({{"series-key", "copy bandwidth per sample"}});
    s += plot.render();
    if (facts.retention) {
      s += fmt::format("<p>Retention (median of the last 60% over the first 20%): {:.1f}%{}</p>\n",
                       100 * *facts.retention,
                       facts.retention_reading.empty() ? std::string() : ": " + escape(facts.retention_reading));
    }
  }
  return s;
}

}  // namespace

void write_html(std::ostream& out, const std::vector<Document>& docs) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  std::vector<std::string> devices;
  for (const auto& d : docs) {
    const std::string name = d.device_name();
    if (!name.empty() && std::find(devices.begin(), devices.end(), name) == devices.end()) devices.push_back(name);
  }
  const std::string title = devices.empty() ? "" : ": " + fmt::format("{}", fmt::join(devices, " + "));
  out << fmt::format("<title>webgpu-bench report{}</title>\n", escape(title));
  out << "<style>" << kCss << kChartCss << "</style>\n</head>\n<body>\n";
  out << fmt::format("<h1>webgpu-bench report{}</h1>\n", escape(title));
  for (const auto& d : docs) {
    out << fmt::format("<p class=\"sub\">{}: suite {}, started {}, {}, schema {} v{}</p>\n", escape(d.origin),
                       escape(d.suite), escape(d.started_at),
                       d.finished_at.empty() ? std::string("not finished") : "finished " + escape(d.finished_at),
                       kSchemaName, d.schema_version);
  }
  // Every document is a section of its own: its machine card, verdicts, table, its device's
  // roofline (under that device's ceilings), curves, technique families and sustain timeline.
  Ids ids;
  std::map<std::string, std::string> cards;  // machine identity -> the document whose card shows it
  for (const auto& d : docs) {
    const std::string name = file_name(d);
    out << fmt::format("<section class=\"doc\" id=\"{}\">\n", ids("doc-" + anchor(name)));
    const std::string machine = machine_identity(d);
    if (const auto it = cards.find(machine); it != cards.end()) {
      const std::string device = d.device_name();
      out << fmt::format(
          "<h2 id=\"{}\">Machine{}</h2>\n<p class=\"same\">The same machine and build as <b>{}</b>: its card is "
          "above.</p>\n",
          ids("machine"), escape(device.empty() ? "" : ": " + device), escape(it->second));
      out << fmt::format(
          "<details><summary>command line and options</summary>\n<p><code>{}</code></p>\n<pre>{}</pre>\n"
          "</details>\n",
          escape(fmt::format("{}", fmt::join(d.command, " "))), escape(d.options.dump(2)));
    } else {
      cards[machine] = name;
      out << machine_card(d, ids);
    }
    out << fmt::format("<h2 id=\"{}\">Results: {}</h2>\n", ids("results-" + anchor(name)), escape(name));
    out << verdicts(d);
    out << results_table(d.rows, ids);
    const bool any_rate =
        std::any_of(d.rows.begin(), d.rows.end(), [](const ReportRow& r) { return has_rate(r.result); });
    const Ceilings c = find_ceilings(d.rows);
    // A sweep of a latency probe measures no ceiling: its rows say so in the table; a roofline
    // section is drawn for every document that has a ceiling, or that is the only one.
    if (c.bandwidth || !c.flops.empty() || (docs.size() == 1 && any_rate)) {
      out << charts::roofline(d.rows, d.device_name(), ids);
    }
    // A hierarchy document's rows are its two curves, drawn with the levels marked instead.
    out << (d.hierarchy ? charts::hierarchy(d, ids) : sweep_sections(d, ids));
    out << host_curve_sections(d, ids);
    out << family_sections(d.rows, ids);
    out << sustain_section(d.rows, ids);
    out << charts::accuracy(d.rows, ids);
    out << "</section>\n";
  }
  out << "<p class=\"sub\">Generated by webgpu-bench from the result documents above; self-contained (no scripts, no "
         "external resources).</p>\n</body>\n</html>\n";
}

namespace charts {

const char* css() { return kChartCss; }
const char* page_css() { return kCss; }
std::string curves(const Document& doc, Ids& ids) { return sweep_sections(doc, ids); }
std::string host_curves(const Document& doc, Ids& ids) { return host_curve_sections(doc, ids); }
std::string family_bars(const std::vector<ReportRow>& rows, Ids& ids) { return family_sections(rows, ids); }
std::string sustain_timeline(const std::vector<ReportRow>& rows, Ids& ids) { return sustain_section(rows, ids); }

}  // namespace charts

}  // namespace wgb::report
