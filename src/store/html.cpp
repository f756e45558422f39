// The pages. Layout: one <main> per page, tables for numbers, an inline SVG strip per row for the
// picture (the same scale within a page). Text from documents is escaped where it is written,
// never earlier, so nothing is escaped twice and nothing is missed.
#include "store/html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <initializer_list>
#include <map>

#include "report/charts.hpp"
#include "report/roofline.hpp"
#include "report/svg.hpp"
#include "report/table.hpp"

namespace wgb::store::html {

namespace {

std::string esc(std::string_view s) { return html_escape(s); }

constexpr const char* kStyle = R"(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:10px 24px}header a{color:#fff;text-decoration:none;margin-right:18px}
header b{margin-right:28px}main{padding:16px 24px;max-width:1200px;box-sizing:border-box}
h1{font-size:22px;margin:8px 0 4px}h2{font-size:17px;margin:22px 0 6px}
table{border-collapse:collapse;background:#fff;margin:6px 0 14px}
th,td{padding:4px 10px;border-bottom:1px solid #e3e6eb;text-align:left;vertical-align:middle}
th{background:#eef0f4;font-weight:600}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table{max-width:100%}td{overflow-wrap:anywhere}td.msg{color:#8c1d18;font-size:12px;min-width:12em}
td svg{max-width:100%;height:auto}
.badge{display:inline-block;padding:0 6px;border-radius:8px;font-size:12px;margin-left:6px}
.var{background:#fff1d6;color:#8a5a00}.unr{background:#e9e9ee;color:#555}.bad{background:#fde2e1;color:#8c1d18}
.muted{color:#667085}.rank{font-weight:700}a{color:#1f5fbf}
form{background:#fff;padding:8px 10px;display:inline-block;margin:6px 0}
input{margin:0 8px 0 4px}svg{display:block}
)";

std::string page(std::string_view title, const std::string& body, std::string_view extra_css = {}) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      "<title>{} - webgpu-bench</title><style>{}{}</style></head><body>"
      "<header><b>webgpu-bench results</b><a href=\"/\">Leaderboards</a><a href=\"/runs\">Runs</a>"
      "<a href=\"/api/v1/results\">API</a></header><main>{}</main></body></html>\n",
      esc(title), kStyle, extra_css, body);
}

std::string leaderboard_href(std::string_view benchmark) { return "/leaderboard?benchmark=" + url_encode(benchmark); }
std::string class_href(std::string_view key) { return "/runs?class=" + url_encode(key); }
std::string run_href(std::int64_t id) { return fmt::format("/runs/{}", id); }

std::string variable_badge(const DeviceClass& c) {
  if (!c.variable) return "";
  return "<span class=\"badge var\" title=\"integrated, CPU or host adapter: memory shared with the system, "
         "results vary with its configuration\">variable</span>";
}

std::string class_cell(const DeviceClass& c) {
  return fmt::format("<a href=\"{}\">{}</a>{}<div class=\"muted\">{}</div>", esc(class_href(c.key)), esc(c.label),
                     variable_badge(c), esc(c.key));
}

// [lo, hi] onto [x0, x1] pixels, linear or logarithmic (values outside are clamped to the ends).
struct Scale {
  double lo = 0, hi = 1, x0 = 4, x1 = 236;
  bool log = false;
  double operator()(double v) const {
    double t = 0;
    if (log) {
      t = v > 0 ? (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo)) : 0;
    } else {
      t = hi > lo ? (v - lo) / (hi - lo) : 0;
    }
    return x0 + (x1 - x0) * std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0);
  }
};

// From 0 to a little past `top`: bars start at zero.
Scale zero_based(double top, double x1) {
  return Scale{0, top > 0 && std::isfinite(top) ? top * 1.08 : 1.0, 4, x1, false};
}

// A leaderboard spans classes that differ by orders of magnitude (an H200 and a CPU driver): past
// a factor of 20 the scale is logarithmic so that every class stays visible.
Scale board_scale(double lo, double hi, double x1) {
  if (lo > 0 && hi / lo > 20) return Scale{lo / 1.5, hi * 1.5, 4, x1, true};
  return zero_based(hi, x1);
}

// The Stack zooms on the class: centred on its median, wide enough for the run, the class's
// extremes and at least +-2 %, so a run 0.5 % off its class is visibly off.
Scale stack_scale(const ClassDistribution* d, double value, double x1) {
  if (d == nullptr || d->ranked == 0 || !(d->median > 0)) return zero_based(value, x1);
  double r = 0.02;
  for (double v : {value, d->min, d->max}) {
    if (v > 0) r = std::max(r, std::abs(v / d->median - 1) * 1.25);
  }
  r = std::min(r, 0.99);
  return Scale{d->median * (1 - r), d->median * (1 + r), 4, x1, false};
}

// A class's distribution (min-max line, q1-q3 box, median tick) and one run's dot, on `sc`; a
// zoomed scale labels its ends relative to the median.
std::string stack_svg(const Scale& sc, const ClassDistribution* d, double value, std::string_view unit,
                      std::string_view second_label = {}, double second = -1) {
  const bool zoomed = !sc.log && sc.lo > 0;
  const int height = zoomed ? 28 : 20;
  std::string s = fmt::format("<svg width=\"{:.0f}\" height=\"{}\" viewBox=\"0 0 {:.0f} {}\" role=\"img\">",
                              sc.x1 + 4, height, sc.x1 + 4, height);
  s += fmt::format("<line x1=\"{:.1f}\" y1=\"17\" x2=\"{:.1f}\" y2=\"17\" stroke=\"#c9ced6\"/>", sc.x0, sc.x1);
  if (d != nullptr && d->ranked > 0) {
    s += fmt::format("<line x1=\"{:.1f}\" y1=\"10\" x2=\"{:.1f}\" y2=\"10\" stroke=\"#9aa4b2\"/>", sc(d->min),
                     sc(d->max));
    s += fmt::format("<rect x=\"{:.1f}\" y=\"5\" width=\"{:.1f}\" height=\"10\" fill=\"#bcd3f5\"/>", sc(d->q1),
                     std::max(1.0, sc(d->q3) - sc(d->q1)));
    s += fmt::format("<line x1=\"{:.1f}\" y1=\"3\" x2=\"{:.1f}\" y2=\"17\" stroke=\"#1d2330\" stroke-width=\"2\">"
                     "<title>class median {}</title></line>",
                     sc(d->median), sc(d->median), esc(format_value(d->median, unit)));
    if (zoomed) {
      const double r = 100.0 * (sc.hi / d->median - 1);
      s += fmt::format("<text x=\"{:.1f}\" y=\"27\" font-size=\"9\" fill=\"#667085\">-{:.1f}%</text>"
                       "<text x=\"{:.1f}\" y=\"27\" font-size=\"9\" fill=\"#667085\" text-anchor=\"middle\">median"
                       "</text><text x=\"{:.1f}\" y=\"27\" font-size=\"9\" fill=\"#667085\" text-anchor=\"end\">+{:.1f}%"
                       "</text>",
                       sc.x0, r, sc(d->median), sc.x1, r);
    }
  }
  if (value > 0) {
    s += fmt::format("<circle cx=\"{:.1f}\" cy=\"10\" r=\"4.5\" fill=\"#e8590c\"><title>{}</title></circle>",
                     sc(value), esc(format_value(value, unit)));
  }
  if (second > 0) {
    s += fmt::format("<circle cx=\"{:.1f}\" cy=\"10\" r=\"4.5\" fill=\"none\" stroke=\"#5f3dc4\" stroke-width=\"2\">"
                     "<title>{} {}</title></circle>",
                     sc(second), esc(second_label), esc(format_value(second, unit)));
  }
  return s + "</svg>";
}

// Rows of a stored document, defensively (the store validated them on the way in).
struct DocRow {
  std::string id, status, unit, statistic, message;
  double value = 0, cv = -1;
  bool unranked = false;
};

std::vector<DocRow> doc_rows(const nlohmann::json& doc) {
  std::vector<DocRow> out;
  auto rows = doc.find("rows");
  if (rows == doc.end() || !rows->is_array()) return out;
  auto str = [](const nlohmann::json& o, const char* k) {
    auto it = o.find(k);
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string{};
  };
  for (const auto& r : *rows) {
    if (!r.is_object()) continue;
    DocRow d;
    d.id = str(r, "id");
    d.status = str(r, "status");
    d.unit = str(r, "value_unit");
    d.statistic = str(r, "statistic");
    d.message = str(r, "message");
    if (auto v = r.find("value"); v != r.end() && v->is_number()) d.value = v->get<double>();
    if (auto st = r.find("stats_ms"); st != r.end() && st->is_object()) {
      if (auto cv = st->find("cv"); cv != st->end() && cv->is_number()) d.cv = cv->get<double>();
    }
    if (auto p = r.find("parameters"); p != r.end() && p->is_object()) {
      if (auto u = p->find("unranked"); u != p->end() && u->is_boolean()) d.unranked = u->get<bool>();
    }
    out.push_back(std::move(d));
  }
  return out;
}

// The string at a path of object keys ("" when any step is missing); non-strings as JSON text.
std::string json_text(const nlohmann::json& doc, std::initializer_list<const char*> path) {
  const nlohmann::json* node = &doc;
  for (const char* key : path) {
    if (!node->is_object()) return {};
    auto it = node->find(key);
    if (it == node->end()) return {};
    node = &*it;
  }
  return node->is_string() ? node->get<std::string>() : node->dump();
}

std::string status_badge(const std::string& status, bool unranked) {
  std::string s;
  if (status != "ok") s += fmt::format("<span class=\"badge bad\">{}</span>", esc(status));
  if (unranked) s += "<span class=\"badge unr\" title=\"parameters.unranked: shown, never ranked\">unranked</span>";
  return s;
}

std::string run_header(const StoredRun& run) {
  const auto& s = run.summary;
  const auto& doc = run.document;
  const std::string adapter_desc = json_text(doc, {"machine", "adapter", "description"});
  const std::string driver = json_text(doc, {"machine", "adapter", "driver"});
  std::string out = "<table>";
  auto line = [&out](std::string_view k, const std::string& v_html) {
    out += fmt::format("<tr><th>{}</th><td>{}</td></tr>", esc(k), v_html);
  };
  line("device class", class_cell(s.device_class));
  line("adapter type", esc(s.device_class.adapter_type));
  if (!adapter_desc.empty()) line("adapter", esc(adapter_desc));
  if (!driver.empty()) line("driver", esc(driver));
  line("suite", esc(s.suite));
  line("state", esc(s.state));
  line("started", esc(s.started_at));
  line("submitted", esc(s.submitted_at));
  const std::string version = json_text(doc, {"build", "version"});
  const std::string revision = json_text(doc, {"build", "git_revision"});
  if (!version.empty()) line("program", esc(version + (revision.empty() ? "" : " (" + revision + ")")));
  line("document", fmt::format("<a href=\"/api/v1/results/{}\">JSON</a>", s.id));
  return out + "</table>";
}

// The report's charts of this run (report/charts.hpp, the same SVG as `webgpu-bench report`): the
// roofline when the run measured a ceiling, sweep and host curves, technique families with their
// verdicts, and the memory suite's sustain timeline. Inline SVG only; the charts escape every string.
std::string run_charts(const StoredRun& run) {
  const auto doc = report::charts::document_from_json(run.document, fmt::format("run-{}", run.summary.id));
  report::charts::Ids ids;
  std::string c;
  const auto ceilings = report::find_ceilings(doc.rows);
  if (ceilings.bandwidth || !ceilings.flops.empty()) {
    const auto& m = run.document.is_object() && run.document.contains("machine") ? run.document["machine"]
                                                                                 : nlohmann::json::object();
    std::string device = run.summary.device_class.label;
    if (m.is_object() && m.contains("adapter") && m["adapter"].is_object()) {
      device = m["adapter"].value("device", device);
    }
    c += report::charts::roofline(doc.rows, device, ids);
  }
  c += report::charts::curves(doc, ids);
  c += report::charts::host_curves(doc, ids);
  c += report::charts::family_bars(doc.rows, ids);
  c += report::charts::sustain_timeline(doc.rows, ids);
  return c.empty() ? c : "<section class=\"charts\">" + c + "</section>";
}

}  // namespace

// The report's escaping (the same five characters as in its SVG and HTML).
std::string html_escape(std::string_view text) { return report::svg::escape(text); }

std::string url_encode(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

std::string format_value(double value, std::string_view unit) {
  if (unit.size() > 2 && unit.substr(unit.size() - 2) == "/s") {
    return report::format_rate(value, std::string(unit.substr(0, unit.size() - 2)));
  }
  if (unit.empty()) return fmt::format("{:.4g}", value);
  return fmt::format("{:.4g} {}", value, unit);
}

std::string index_page(const std::vector<BenchmarkInfo>& benchmarks, const std::vector<ClassInfo>& classes,
                       const std::vector<RunSummary>& recent, std::int64_t total_runs) {
  std::string b = "<h1>Leaderboards</h1>";
  b += fmt::format("<p class=\"muted\">{} runs stored. Runs are grouped by device class (vendor, architecture, "
                   "device, backend); classes of integrated GPUs, CPU adapters and host CPUs are marked "
                   "<span class=\"badge var\">variable</span>. Open a run for The Stack: its rows next to its "
                   "class.</p>",
                   total_runs);
  if (benchmarks.empty()) b += "<p>No measured results yet. Submit one with <code>webgpu-bench submit</code>.</p>";
  std::map<std::string, std::vector<const BenchmarkInfo*>> by_suite;
  for (const auto& x : benchmarks) by_suite[x.suite].push_back(&x);
  for (const auto& [suite, list] : by_suite) {
    b += fmt::format("<h2>Suite {}</h2><table><tr><th>benchmark</th><th>unit</th><th>runs</th></tr>", esc(suite));
    for (const auto* x : list) {
      b += fmt::format("<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td class=\"n\">{}</td></tr>",
                       esc(leaderboard_href(x->id)), esc(x->id), esc(x->unit), x->runs);
    }
    b += "</table>";
  }
  if (!classes.empty()) {
    b += "<h2>Device classes</h2><table><tr><th>class</th><th>adapter type</th><th>runs</th></tr>";
    for (const auto& c : classes) {
      b += fmt::format("<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td></tr>", class_cell(c.device_class),
                       esc(c.device_class.adapter_type), c.runs);
    }
    b += "</table>";
  }
  if (!recent.empty()) {
    b += "<h2>Recent runs</h2><table><tr><th>run</th><th>class</th><th>suite</th><th>started</th></tr>";
    for (const auto& r : recent) {
      b += fmt::format("<tr><td><a href=\"{}\">#{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>", run_href(r.id),
                       r.id, class_cell(r.device_class), esc(r.suite), esc(r.started_at));
    }
    b += "</table>";
  }
  return page("Leaderboards", b);
}

std::string leaderboard_page(const Leaderboard& board) {
  std::string b = fmt::format("<h1>Leaderboard: {}</h1>", esc(board.benchmark));
  b += fmt::format("<p class=\"muted\">Classes ranked by the median of their ranked runs ({} is better). Bar: "
                   "median; whisker: interquartile range; dots: runs (hollow: unranked, shown but not counted).</p>",
                   board.lower_is_better ? "lower" : "higher");
  if (board.classes.empty()) {
    b += "<p>No measured result for this benchmark.</p>";
    return page(board.benchmark, b);
  }
  double top = 0, bottom = 0;
  for (const auto& c : board.classes) {
    for (const auto& e : c.entries) {
      top = std::max(top, e.value);
      if (e.value > 0 && (bottom == 0 || e.value < bottom)) bottom = e.value;
    }
  }
  const Scale sc = board_scale(bottom, top, 316);
  if (sc.log) b += "<p class=\"muted\">The chart's scale is logarithmic: the classes differ by orders of magnitude.</p>";
  b += "<table><tr><th>rank</th><th>device class</th><th>median</th><th>IQR</th><th>runs</th><th></th></tr>";
  for (const auto& c : board.classes) {
    std::string svg = fmt::format("<svg width=\"320\" height=\"22\" viewBox=\"0 0 320 22\" role=\"img\">");
    if (c.ranked > 0) {
      svg += fmt::format("<rect x=\"{:.1f}\" y=\"6\" width=\"{:.1f}\" height=\"10\" fill=\"#7aa7e6\"/>", sc.x0,
                         std::max(1.0, sc(c.median) - sc.x0));
      svg += fmt::format("<line x1=\"{:.1f}\" y1=\"11\" x2=\"{:.1f}\" y2=\"11\" stroke=\"#1d2330\"/>", sc(c.q1),
                         sc(c.q3));
      for (double x : {c.q1, c.q3}) {
        svg += fmt::format("<line x1=\"{:.1f}\" y1=\"7\" x2=\"{:.1f}\" y2=\"15\" stroke=\"#1d2330\"/>", sc(x), sc(x));
      }
    }
    for (const auto& e : c.entries) {
      svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"11\" r=\"3\" fill=\"{}\" stroke=\"#e8590c\"><title>#{} {}{}"
                         "</title></circle>",
                         sc(e.value), e.ranked ? "#e8590c" : "none", e.run_id, esc(format_value(e.value, board.unit)),
                         e.ranked ? "" : " (unranked)");
    }
    svg += "</svg>";
    const std::string rank = c.rank > 0 ? fmt::format("{}", c.rank) : "-";
    const std::string median = c.ranked > 0 ? format_value(c.median, board.unit) : "unranked";
    const std::string iqr =
        c.ranked > 0 ? format_value(c.q1, board.unit) + " - " + format_value(c.q3, board.unit) : "";
    b += fmt::format("<tr><td class=\"rank\">{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
                     "<td class=\"n\">{} ranked / {}</td><td>{}</td></tr>",
                     rank, class_cell(c.device_class), esc(median), esc(iqr), c.ranked, c.entries.size(), svg);
  }
  b += "</table>";

  b += "<h2>Runs by class</h2>";
  for (const auto& c : board.classes) {
    b += fmt::format("<h3>{}{}</h3><table><tr><th>run</th><th>value</th><th>status</th><th>started</th>"
                     "<th>suite</th></tr>",
                     esc(c.device_class.label), variable_badge(c.device_class));
    for (const auto& e : c.entries) {
      b += fmt::format("<tr><td><a href=\"{}\">#{}</a></td><td class=\"n\">{}</td><td>{}</td><td>{}</td><td>{}</td>"
                       "</tr>",
                       run_href(e.run_id), e.run_id, esc(format_value(e.value, e.unit)),
                       e.ranked ? "ranked" : status_badge(e.status, e.status == "ok"), esc(e.started_at),
                       esc(e.suite));
    }
    b += "</table>";
  }
  return page("Leaderboard " + board.benchmark, b);
}

std::string run_page(const StoredRun& run, const std::vector<ClassDistribution>& class_stats,
                     const std::vector<RunSummary>& class_runs) {
  const auto& s = run.summary;
  std::string b = fmt::format("<h1>The Stack: run #{}</h1>", s.id);
  b += fmt::format("<p class=\"muted\">Each row of this run next to its class ({} ranked runs of {}): box = "
                   "interquartile range, line = min to max, black tick = class median, orange dot = this run; each strip "
                   "is centred on the class median and labelled with how far its ends reach.</p>",
                   class_stats.empty() ? 0 : std::max_element(class_stats.begin(), class_stats.end(),
                                                              [](const auto& x, const auto& y) {
                                                                return x.ranked < y.ranked;
                                                              })->ranked,
                   esc(s.device_class.label));
  b += run_header(run);

  std::map<std::string, const ClassDistribution*> dist;
  for (const auto& d : class_stats) dist[d.benchmark] = &d;
  const auto rows = doc_rows(run.document);
  b += "<h2>Rows</h2><table><tr><th>benchmark</th><th>status</th><th>value</th><th>class median</th>"
       "<th>class IQR</th><th>n</th><th>vs median</th><th></th></tr>";
  for (const auto& r : rows) {
    const auto it = dist.find(r.id);
    const ClassDistribution* d = it == dist.end() ? nullptr : it->second;
    const Scale sc = stack_scale(d, r.value, 236);
    std::string vs;
    if (d != nullptr && d->median > 0 && r.value > 0) vs = fmt::format("{:+.1f}%", 100.0 * (r.value / d->median - 1));
    b += fmt::format(
        "<tr><td><a href=\"{}\">{}</a></td><td>{}{}</td><td class=\"{}\">{}</td><td class=\"n\">{}</td>"
        "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
        esc(leaderboard_href(r.id)), esc(r.id), esc(r.status), status_badge("ok", r.unranked),
        // A message (an unmeasured row) wraps; a value stays on one line.
        r.value > 0 ? "n" : "msg", r.value > 0 ? esc(format_value(r.value, r.unit)) : esc(r.message),
        d ? esc(format_value(d->median, d->unit)) : "-",
        d ? esc(format_value(d->q1, d->unit) + " - " + format_value(d->q3, d->unit)) : "-", d ? d->ranked : 0, esc(vs),
        stack_svg(sc, d, r.value, r.unit));
  }
  b += "</table>";
  b += run_charts(run);

  b += "<h2>Compare</h2>";
  b += fmt::format("<form action=\"/compare\" method=\"get\"><input type=\"hidden\" name=\"a\" value=\"{}\">"
                   "<label>with run # <input type=\"number\" name=\"b\" min=\"1\" required></label>"
                   "<button type=\"submit\">compare</button></form>",
                   s.id);
  std::string others;
  for (const auto& o : class_runs) {
    if (o.id == s.id) continue;
    others += fmt::format("<tr><td><a href=\"{}\">#{}</a></td><td>{}</td><td>{}</td><td><a href=\"/compare?a={}&amp;"
                          "b={}\">compare</a></td></tr>",
                          run_href(o.id), o.id, esc(o.started_at), esc(o.suite), s.id, o.id);
  }
  if (!others.empty()) {
    b += "<h3>Other runs of this class</h3><table><tr><th>run</th><th>started</th><th>suite</th><th></th></tr>" +
         others + "</table>";
  }
  return page(fmt::format("Run #{}", s.id), b, report::charts::css());
}

std::string compare_page(const StoredRun& a, const StoredRun& b_run) {
  std::string b = fmt::format("<h1>Run #{} compared with run #{}</h1>", a.summary.id, b_run.summary.id);
  b += "<table><tr><th></th><th>run</th><th>device class</th><th>suite</th><th>started</th></tr>";
  for (const auto* r : {&a, &b_run}) {
    b += fmt::format("<tr><td>{}</td><td><a href=\"{}\">#{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>",
                     r == &a ? "A" : "B", run_href(r->summary.id), r->summary.id, class_cell(r->summary.device_class),
                     esc(r->summary.suite), esc(r->summary.started_at));
  }
  b += "</table>";
  if (a.summary.device_class.key != b_run.summary.device_class.key) {
    b += "<p class=\"muted\">The runs belong to different device classes.</p>";
  }
  // Match rows by id and occurrence (a sweep may repeat an id), in A's order, then B's leftovers.
  const auto ra = doc_rows(a.document), rb = doc_rows(b_run.document);
  std::map<std::pair<std::string, int>, const DocRow*> in_b;
  {
    std::map<std::string, int> seen;
    for (const auto& r : rb) in_b[{r.id, seen[r.id]++}] = &r;
  }
  b += "<h2>Rows</h2><table><tr><th>benchmark</th><th>A</th><th>B</th><th>B / A</th><th></th></tr>";
  std::map<std::string, int> seen;
  auto line = [&b](const std::string& id, const DocRow* x, const DocRow* y) {
    const std::string unit = x ? x->unit : y->unit;
    const double va = x ? x->value : 0, vb = y ? y->value : 0;
    const Scale sc = zero_based(std::max(va, vb), 236);
    std::string ratio = va > 0 && vb > 0 ? fmt::format("{:.3f}", vb / va) : "-";
    auto cell = [](const DocRow* r) {
      if (r == nullptr) return std::string("-");
      return r->value > 0 ? esc(format_value(r->value, r->unit)) : esc(r->status);
    };
    b += fmt::format("<tr><td><a href=\"{}\">{}</a></td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
                     "<td class=\"n\">{}</td><td>{}</td></tr>",
                     esc(leaderboard_href(id)), esc(id), cell(x), cell(y), esc(ratio),
                     stack_svg(sc, nullptr, va, unit, "B", vb));
  };
  for (const auto& r : ra) {
    const auto key = std::pair{r.id, seen[r.id]++};
    auto it = in_b.find(key);
    line(r.id, &r, it == in_b.end() ? nullptr : it->second);
    if (it != in_b.end()) in_b.erase(it);
  }
  for (const auto& [key, r] : in_b) line(key.first, nullptr, r);
  b += "</table><p class=\"muted\">Orange dot: A; purple ring: B.</p>";
  return page(fmt::format("Run #{} vs #{}", a.summary.id, b_run.summary.id), b);
}

std::string runs_page(const std::vector<RunSummary>& runs, const RunFilter& f, std::int64_t total) {
  std::string b = "<h1>Runs</h1>";
  b += fmt::format(
      "<form action=\"/runs\" method=\"get\"><label>class<input name=\"class\" value=\"{}\"></label>"
      "<label>suite<input name=\"suite\" value=\"{}\" size=\"8\"></label>"
      "<label>benchmark<input name=\"benchmark\" value=\"{}\" size=\"14\"></label>"
      "<label>since<input name=\"since\" value=\"{}\" size=\"12\"></label>"
      "<label>until<input name=\"until\" value=\"{}\" size=\"12\"></label><button type=\"submit\">filter</button></form>",
      esc(f.device_class), esc(f.suite), esc(f.benchmark), esc(f.since), esc(f.until));
  b += fmt::format("<p class=\"muted\">{} runs match; showing {} from {}.</p>", total, runs.size(), f.offset);
  b += "<table><tr><th>run</th><th>device class</th><th>suite</th><th>state</th><th>rows</th><th>started</th></tr>";
  for (const auto& r : runs) {
    b += fmt::format("<tr><td><a href=\"{}\">#{}</a></td><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td>"
                     "<td>{}</td></tr>",
                     run_href(r.id), r.id, class_cell(r.device_class), esc(r.suite), esc(r.state), r.row_count,
                     esc(r.started_at));
  }
  b += "</table>";
  if (f.offset + static_cast<std::int64_t>(runs.size()) < total) {
    const std::string next = fmt::format("/runs?class={}&suite={}&benchmark={}&since={}&until={}&offset={}",
                                         url_encode(f.device_class), url_encode(f.suite), url_encode(f.benchmark),
                                         url_encode(f.since), url_encode(f.until), f.offset + f.limit);
    b += fmt::format("<p><a href=\"{}\">next page</a></p>", esc(next));
  }
  return page("Runs", b);
}

std::string error_page(int status, std::string_view message) {
  return page(fmt::format("Error {}", status), fmt::format("<h1>Error {}</h1><p>{}</p>", status, esc(message)));
}

}  // namespace wgb::store::html
