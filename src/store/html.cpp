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
#include "report/facts.hpp"
#include "report/files.hpp"
#include "report/implementation.hpp"
#include "report/noise.hpp"
#include "report/roofline.hpp"
#include "report/svg.hpp"
#include "report/table.hpp"
#include "store/runtime_filter.hpp"

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
table{max-width:100%}td{overflow-wrap:break-word}td.msg{color:#8c1d18;font-size:12px;min-width:12em}
td.id,.id{white-space:nowrap}.why{color:#667085;font-size:12px}
.scroll{overflow-x:auto;max-width:100%}
.boards{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(360px,100%),1fr));gap:12px;margin:8px 0 18px}
.board{background:#fff;border:1px solid #e3e6eb;border-radius:6px;padding:8px 12px}
.board h2{margin:4px 0 2px;font-size:16px}.board table{width:100%;margin:4px 0}.board td,.board th{padding:3px 6px}
p.links a{white-space:nowrap;margin-right:14px;display:inline-block}
@media (max-width:600px){main{padding:10px 12px}header{padding:10px 12px}.scroll>table{min-width:600px}}
td svg{max-width:100%;height:auto}
.badge{display:inline-block;padding:0 6px;border-radius:8px;font-size:12px;margin-left:6px}
.var{background:#fff1d6;color:#8a5a00}.brw{background:#e3eefc;color:#1d3f7a}.unr{background:#e9e9ee;color:#555}.bad{background:#fde2e1;color:#8c1d18}
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
      "<a href=\"/run\">Run in your browser</a><a href=\"/api/v1/results\">API</a></header><main>{}</main>"
      "</body></html>\n",
      esc(title), kStyle, extra_css, body);
}

std::string leaderboard_href(std::string_view benchmark) { return "/leaderboard?benchmark=" + url_encode(benchmark); }
std::string class_href(std::string_view key) { return "/runs?class=" + url_encode(key); }
std::string run_href(std::int64_t id) { return fmt::format("/runs/{}", id); }

// A badge naming the runtime of runs measured by the engine in JavaScript (chromium, firefox, deno,
// safari, or "browser" when the document does not say which).
std::string runtime_badge(const std::string& runtime) {
  if (runtime.empty() || runtime == "native") return "";
  return fmt::format("<span class=\"badge brw\" title=\"measured by the engine in {}\">{}</span>",
                     runtime == "browser" ? "a browser" : esc(runtime), esc(runtime));
}

// The run list's <option>s of the runtime filter, `current` selected.
std::string runtime_options(const std::string& current) {
  std::string out;
  for (const auto& [value, name] : runtime_choices()) {
    out += fmt::format("<option value=\"{}\"{}>{}</option>", esc(value), current == value ? " selected" : "", name);
  }
  return out;
}

// Links to every runtime filter (runtime_filter.hpp; the current one in bold).
std::string runtime_links(const std::string& base, const std::string& current) {
  std::string out = "<p class=\"links\">Measured: ";
  for (const auto& [value, name] : runtime_choices()) {
    const std::string href = value.empty() ? base : base + "&runtime=" + value;
    out += current == value ? fmt::format("<b>{}</b> ", name) : fmt::format("<a href=\"{}\">{}</a> ", esc(href), name);
  }
  return out + "</p>";
}

std::string variable_badge(const DeviceClass& c) {
  if (!c.variable) return "";
  return "<span class=\"badge var\" title=\"integrated, CPU or host adapter: memory shared with the system, "
         "results vary with its configuration\">variable</span>";
}

// The class as people read it: the device, and under it vendor, architecture, API and adapter
// kind (store/device_class.hpp display_*); the key stays in the link and its tooltip.
std::string class_cell(const DeviceClass& c) {
  return fmt::format("<a class=\"cls\" href=\"{}\" title=\"device class {}\">{}</a>{}<div class=\"muted\">{}</div>",
                     esc(class_href(c.key)), esc(c.key), esc(display_name(c)), variable_badge(c),
                     esc(display_detail(c)));
}

// "2026-12-01T20:15:18Z" -> "2026-12-01 20:15 UTC" (other spellings stay as they are).
std::string when(const std::string& t) {
  const bool iso =
      t.size() == 20 && t[4] == '-' && t[7] == '-' && t[10] == 'T' && t[13] == ':' && t[16] == ':' && t[19] == 'Z';
  return iso ? t.substr(0, 10) + " " + t.substr(11, 5) + " UTC" : t;
}

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

// The server may append " · unranked: <reason>" to a run's suite or state; the pages show the
// reason on its own, so it is cut here.
std::string plain(const std::string& text) {
  const auto at = text.find(" \u00b7 unranked: ");
  return at == std::string::npos ? text : text.substr(0, at);
}

// Why an entry of a leaderboard does not count.
std::string entry_reason(const Entry& e, std::string_view board_unit) {
  if (!e.unranked_reason.empty()) return e.unranked_reason;
  if (e.status != "ok") return fmt::format("no measured value (status {})", e.status);
  if (e.unit != board_unit) return fmt::format("measured in {}, the board compares {}", e.unit, board_unit);
  return "the suite marked the row unranked (measured outside its default protocol, e.g. a capped working set)";
}

// A spread of values: "-" for none, the value alone when one run or all equal, else "lo - hi".
std::string range_text(std::size_t n, double lo, double hi, std::string_view unit) {
  if (n == 0) return "-";
  const std::string a = format_value(lo, unit), b = format_value(hi, unit);
  if (n == 1) return "one run";
  return a == b ? a + " (all equal)" : a + " - " + b;
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
  std::string id, status, unit, message;
  double value = 0;
  double dispersion = 0;  // relative (the row's dispersion column): what the compare page's rule needs
  bool unranked = false;
  std::string unranked_reason;  // parameters.unranked_reason, when the suite gave one
};

std::vector<DocRow> doc_rows(const report::Document& doc) {
  std::vector<DocRow> out;
  for (const auto& row : doc.rows) {
    const BenchmarkResult& r = row.result;
    DocRow d;
    d.id = r.id;
    d.status = to_string(r.status);
    d.unit = r.metric.unit.empty() ? std::string() : r.metric.unit + "/s";
    d.message = r.message;
    d.value = r.value;
    d.dispersion = report::row_dispersion(r).relative;
    const report::RowFacts facts = report::row_facts(r);
    if (facts.unranked) d.unranked = *facts.unranked;
    d.unranked_reason = facts.unranked_reason;
    out.push_back(std::move(d));
  }
  return out;
}

// A stored run's document, typed (the store checked it when it was submitted).
report::Document typed(const StoredRun& run) {
  return report::stored_document(run.document, fmt::format("run-{}", run.summary.id));
}

std::string status_badge(const std::string& status, bool unranked) {
  std::string s;
  if (status != "ok") s += fmt::format("<span class=\"badge bad\">{}</span>", esc(status));
  if (unranked) s += "<span class=\"badge unr\" title=\"parameters.unranked: shown, never ranked\">unranked</span>";
  return s;
}

std::string run_header(const StoredRun& run, const report::Document& doc) {
  const auto& s = run.summary;
  const std::string& adapter_desc = doc.adapter.description;
  const std::string& driver = doc.adapter.driver;
  std::string out = "<table>";
  auto line = [&out](std::string_view k, const std::string& v_html) {
    out += fmt::format("<tr><th>{}</th><td>{}</td></tr>", esc(k), v_html);
  };
  line("device class", class_cell(s.device_class));
  if (!adapter_desc.empty()) line("adapter", esc(adapter_desc));
  if (!driver.empty()) line("driver", esc(driver));
  if (s.runtime != "native") {
    // Untrusted text from the visitor's browser: escaped like everything else from a document.
    std::string where = s.runtime == "deno" ? "in Deno (the engine's command-line entry)"
                        : s.runtime == "browser" ? "in a browser (the /run page)"
                                                 : fmt::format("in {} (the /run page)", s.runtime);
    if (!doc.implementation.runtime.empty()) where += ": " + report::implementation_text(doc.implementation);
    const std::string thread = doc.browser ? doc.browser->webgpu_thread : "";
    if (!thread.empty()) where += thread == "worker" ? ", WebGPU in a dedicated worker" : ", WebGPU on the main thread";
    line("measured", esc(where));
    const std::string agent = doc.browser ? doc.browser->user_agent : "";
    if (!agent.empty()) line("user agent", esc(agent));
  }
  line("suite", esc(plain(s.suite)));
  line("state", esc(plain(s.state)));
  line("ranking",
       s.unranked_reason.empty() ? std::string("ranked (default options)") : "not ranked: " + esc(s.unranked_reason));
  line("started", esc(when(s.started_at)));
  line("submitted", esc(when(s.submitted_at)));
  const std::string& version = doc.build_version;
  const std::string& revision = doc.build_revision;
  if (!version.empty()) line("program", esc(version + (revision.empty() ? "" : " (" + revision + ")")));
  line("document", fmt::format("<a href=\"/api/v1/results/{}\">JSON</a>", s.id));
  return out + "</table>";
}

// The report's charts of this run (report/charts.hpp, the same SVG as `webgpu-bench report`): the
// roofline when the run measured a ceiling, sweep and host curves, technique families with their
// verdicts, and the memory suite's sustain timeline. Inline SVG only; the charts escape every string.
std::string run_charts(const StoredRun& run, const report::Document& doc) {
  report::charts::Ids ids;
  std::string c;
  const auto ceilings = report::find_ceilings(doc.rows);
  if (ceilings.bandwidth || !ceilings.flops.empty()) {
    const std::string device = doc.adapter.device.empty() ? run.summary.device_class.label : doc.adapter.device;
    c += report::charts::roofline(doc.rows, device, ids);
  }
  c += report::charts::curves(doc, ids);
  c += report::charts::host_curves(doc, ids);
  c += report::charts::family_bars(doc.rows, ids);
  c += report::charts::sustain_timeline(doc.rows, ids);
  c += report::charts::accuracy(doc.rows, ids);
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

std::vector<std::string> headline_benchmarks(const std::vector<BenchmarkInfo>& benchmarks) {
  // The numbers people come for, in this order: memory bandwidth and latency, the bandwidth and
  // FMA kernels of the default suite, the host CPU's STREAM, FMA and latency.
  static const char* const kHeadline[] = {"memory-read",  "memory-copy",      "memory-latency", "read-linear",
                                          "write-linear", "f32-fma-vec4",     "read-latency",   "host-stream-triad",
                                          "host-fma-f32", "host-load-latency"};
  std::vector<std::string> out;
  for (const char* id : kHeadline) {
    if (std::any_of(benchmarks.begin(), benchmarks.end(), [&](const BenchmarkInfo& b) { return b.id == id; }))
      out.push_back(id);
  }
  // A store without them (custom suites): the most-run benchmarks.
  std::vector<const BenchmarkInfo*> by_runs;
  for (const auto& b : benchmarks) by_runs.push_back(&b);
  std::stable_sort(by_runs.begin(), by_runs.end(), [](const auto* x, const auto* y) { return x->runs > y->runs; });
  for (const auto* b : by_runs) {
    if (out.size() >= 4) break;
    if (std::find(out.begin(), out.end(), b->id) == out.end()) out.push_back(b->id);
  }
  if (out.size() > kHeadlineBoards) out.resize(kHeadlineBoards);
  return out;
}

namespace {

// The top of one leaderboard for the home page: its best classes, with a link to the whole board.
std::string board_card(const Leaderboard& board) {
  std::string b = fmt::format("<section class=\"board\"><h2><a href=\"{}\">{}</a></h2>",
                              esc(leaderboard_href(board.benchmark)), esc(board.benchmark));
  std::size_t ranked = 0;
  for (const auto& c : board.classes) ranked += c.rank > 0 ? 1 : 0;
  b += fmt::format("<div class=\"muted\">{}{}; {} of {} ranked</div>", esc(board.unit),
                   board.lower_is_better ? ", lower is better" : ", higher is better", ranked,
                   plural(board.classes.size(), "class", "classes"));
  if (ranked == 0) {
    std::vector<std::string> why;
    for (const auto& c : board.classes) {
      for (const auto& e : c.entries) {
        const std::string r = entry_reason(e, board.unit);
        if (std::find(why.begin(), why.end(), r) == why.end()) why.push_back(r);
      }
    }
    b += "<p>No ranked run yet";
    if (!why.empty()) {
      b += ": ";
      for (std::size_t i = 0; i < why.size() && i < 3; ++i) b += (i ? "; " : "") + esc(why[i]);
    }
    return b + ".</p></section>";
  }
  b += "<table><tr><th>#</th><th>device class</th><th>median</th></tr>";
  std::size_t shown = 0;
  for (const auto& c : board.classes) {
    if (c.rank <= 0 || shown == kHeadlineRows) continue;
    ++shown;
    b += fmt::format("<tr><td class=\"rank\">{}</td><td>{}<div class=\"why\">{}</div></td><td class=\"n\">{}</td></tr>",
                     c.rank, class_cell(c.device_class), esc(plural(c.ranked, "ranked run", "ranked runs")),
                     esc(format_value(c.median, board.unit)));
  }
  b += "</table>";
  if (board.classes.size() > shown) {
    b += fmt::format("<a href=\"{}\">the whole board ({} more {})</a>", esc(leaderboard_href(board.benchmark)),
                     board.classes.size() - shown, board.classes.size() - shown == 1 ? "class" : "classes");
  }
  return b + "</section>";
}

}  // namespace

std::string index_page(const std::vector<BenchmarkInfo>& benchmarks, const std::vector<ClassInfo>& classes,
                       const std::vector<RunSummary>& recent, std::int64_t total_runs,
                       const std::vector<Leaderboard>& headline) {
  std::string b = "<h1>Leaderboards</h1>";
  b += fmt::format(
      "<p class=\"muted\">{} stored in {}. Runs are grouped by device class (vendor, architecture, "
      "device, backend) and each class is ranked by the median of its ranked runs; classes of integrated "
      "GPUs, CPU adapters and host CPUs are marked <span class=\"badge var\">variable</span>. Open a "
      "run for The Stack: its rows next to its class.</p>",
      plural(static_cast<std::size_t>(std::max<std::int64_t>(total_runs, 0)), "run", "runs"),
      plural(classes.size(), "device class", "device classes"));
  b += "<p><a href=\"/run\">Run the suite in your browser</a> (any browser with WebGPU) and see your GPU beside "
       "its class; runs in a browser or in Deno are marked with their runtime (<span class=\"badge brw\">firefox</span>), "
       "and every list filters them (<a href=\"/runs?runtime=browser\">browser runs</a>, "
       "<a href=\"/runs?runtime=firefox\">Firefox</a>, <a href=\"/runs?runtime=native\">native runs</a>).</p>";
  if (benchmarks.empty()) b += "<p>No measured results yet. Submit one with <code>webgpu-bench submit</code>.</p>";
  if (!headline.empty()) {
    b += "<div class=\"boards\">";
    for (const auto& board : headline) b += board_card(board);
    b += "</div>";
  }
  if (!benchmarks.empty()) {
    std::map<std::string, std::vector<const BenchmarkInfo*>> by_suite;
    for (const auto& x : benchmarks) by_suite[x.suite].push_back(&x);
    b += fmt::format("<h2>Every benchmark ({})</h2>", benchmarks.size());
    for (const auto& [suite, list] : by_suite) {
      b += fmt::format("<p class=\"links\"><b>suite {}</b>: ", esc(suite));
      for (const auto* x : list) {
        b += fmt::format("<a href=\"{}\" title=\"{}, {}\">{}</a> ", esc(leaderboard_href(x->id)), esc(x->unit),
                         esc(plural(static_cast<std::size_t>(x->runs), "run", "runs")), esc(x->id));
      }
      b += "</p>";
    }
  }
  if (!classes.empty()) {
    b += "<h2>Device classes</h2><table><tr><th>class</th><th>runs</th></tr>";
    for (const auto& c : classes) {
      b += fmt::format("<tr><td>{}</td><td class=\"n\">{}</td></tr>", class_cell(c.device_class), c.runs);
    }
    b += "</table>";
  }
  if (!recent.empty()) {
    b += "<h2>Recent runs</h2><div class=\"scroll\"><table><tr><th>run</th><th>class</th><th>suite</th>"
         "<th>started</th></tr>";
    for (const auto& r : recent) {
      b += fmt::format("<tr><td class=\"id\"><a href=\"{}\">#{}</a>{}</td><td>{}</td><td>{}{}</td><td>{}</td></tr>",
                       run_href(r.id), r.id, runtime_badge(r.runtime), class_cell(r.device_class), esc(plain(r.suite)),
                       r.unranked_reason.empty()
                           ? std::string()
                           : fmt::format("<div class=\"why\">unranked: {}</div>", esc(r.unranked_reason)),
                       esc(when(r.started_at)));
    }
    b += "</table></div>";
  }
  return page("Leaderboards", b);
}

std::string leaderboard_page(const Leaderboard& board, const std::string& runtime) {
  std::string b = fmt::format("<h1>Leaderboard: {}</h1>", esc(board.benchmark));
  b += runtime_links(leaderboard_href(board.benchmark), runtime);
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
  b += "<div class=\"scroll\"><table><tr><th>rank</th><th>device class</th><th>median</th><th>IQR</th><th>runs</th>"
       "<th></th></tr>";
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
    std::string median = c.ranked > 0 ? esc(format_value(c.median, board.unit)) : "not ranked";
    if (c.ranked == 0) {
      // Every class without a rank says why: the reasons of its runs, each once.
      std::vector<std::string> why;
      for (const auto& e : c.entries) {
        const std::string r = entry_reason(e, board.unit);
        if (std::find(why.begin(), why.end(), r) == why.end()) why.push_back(r);
      }
      std::string list;
      for (const auto& w : why) list += (list.empty() ? "" : "; ") + w;
      median += fmt::format("<div class=\"why\">{}</div>", esc(list));
    }
    b += fmt::format(
        "<tr><td class=\"rank\">{}</td><td>{}</td><td class=\"{}\">{}</td><td class=\"n\">{}</td>"
        "<td class=\"n\">{} of {} ranked</td><td>{}</td></tr>",
        rank, class_cell(c.device_class), c.ranked > 0 ? "n" : "msg", median,
        esc(range_text(c.ranked, c.q1, c.q3, board.unit)), c.ranked, c.entries.size(), svg);
  }
  b += "</table></div>";

  b += "<h2>Runs by class</h2>";
  for (const auto& c : board.classes) {
    b += fmt::format(
        "<h3>{}{}</h3><div class=\"muted\">{}</div><div class=\"scroll\"><table><tr><th>run</th>"
        "<th>value</th><th>status</th><th>started</th><th>suite</th></tr>",
        esc(display_name(c.device_class)), variable_badge(c.device_class), esc(display_detail(c.device_class)));
    for (const auto& e : c.entries) {
      const std::string status = e.ranked
                                     ? std::string("ranked")
                                     : status_badge(e.status, e.status == "ok") +
                                           fmt::format("<div class=\"why\">{}</div>", esc(entry_reason(e, board.unit)));
      b += fmt::format(
          "<tr><td class=\"id\"><a href=\"{}\">#{}</a>{}</td><td class=\"n\">{}</td><td>{}</td><td>{}</td>"
          "<td>{}</td></tr>",
          run_href(e.run_id), e.run_id, runtime_badge(e.runtime), esc(format_value(e.value, e.unit)), status,
          esc(when(e.started_at)), esc(plain(e.suite)));
    }
    b += "</table></div>";
  }
  return page("Leaderboard " + board.benchmark, b);
}

std::string run_page(const StoredRun& run, const std::vector<ClassDistribution>& class_stats,
                     const std::vector<RunSummary>& class_runs) {
  const auto& s = run.summary;
  std::string b = fmt::format("<h1>The Stack: run #{}</h1>", s.id);
  const report::Document doc = typed(run);
  const auto rows = doc_rows(doc);
  std::size_t most = 0;  // the most ranked runs the class has for one of this run's benchmarks
  for (const auto& d : class_stats) {
    if (std::any_of(rows.begin(), rows.end(), [&](const DocRow& r) { return r.id == d.benchmark; }))
      most = std::max(most, d.ranked);
  }
  const bool run_ranked = s.unranked_reason.empty();
  if (most <= 1) {
    // A class of one run (or none): there is nothing to compare with, and the page says so
    // rather than showing "+0.0 %" against itself.
    b += fmt::format(
        "<p class=\"muted\">{} has {}: the class columns show {}, and \"vs median\" fills in once "
        "other runs of this class are submitted.</p>",
        esc(display_name(s.device_class)),
        most == 0    ? "no ranked run yet"
        : run_ranked ? "one ranked run, this one"
                     : "one ranked run",
        most == 0 ? "nothing yet" : "that run alone");
  } else {
    b += fmt::format(
        "<p class=\"muted\">Each row of this run next to its class ({} of {}): box = interquartile "
        "range, line = min to max, black tick = class median, orange dot = this run; each strip is centred "
        "on the class median and labelled with how far its ends reach.</p>",
        esc(fmt::format("up to {}", plural(most, "ranked run", "ranked runs"))), esc(display_name(s.device_class)));
  }
  b += run_header(run, doc);

  std::map<std::string, const ClassDistribution*> dist;
  for (const auto& d : class_stats) dist[d.benchmark] = &d;
  b += "<h2>Rows</h2><div class=\"scroll\"><table><tr><th>benchmark</th><th>status</th><th>value</th>"
       "<th>class median</th><th>class IQR</th><th>n</th><th>vs median</th><th></th></tr>";
  for (const auto& r : rows) {
    const auto it = dist.find(r.id);
    const ClassDistribution* d = it == dist.end() ? nullptr : it->second;
    const bool row_ranked = run_ranked && !r.unranked && r.status == "ok" && r.value > 0;
    // This run is the class's only ranked run for the row: its median is this value.
    const bool alone = d != nullptr && d->ranked == 1 && row_ranked;
    const Scale sc = stack_scale(alone ? nullptr : d, r.value, 236);
    std::string vs;
    if (alone) {
      vs = "only run";
    } else if (d != nullptr && d->median > 0 && r.value > 0) {
      vs = fmt::format("{:+.1f}%", 100.0 * (r.value / d->median - 1));
    }
    std::string why;
    if (r.unranked || !run_ranked) {
      const std::string reason = !r.unranked_reason.empty() ? r.unranked_reason : s.unranked_reason;
      if (!reason.empty()) why = fmt::format("<div class=\"why\">{}</div>", esc(reason));
    }
    // A measured row that is not ok (suspect, throttled) says why beside its value.
    if (r.status != "ok" && r.value > 0 && !r.message.empty()) why += fmt::format("<div class=\"why\">{}</div>", esc(r.message));
    b += fmt::format(
        "<tr><td class=\"id\"><a href=\"{}\">{}</a></td><td>{}{}{}</td><td class=\"{}\">{}</td><td class=\"n\">{}</td>"
        "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
        esc(leaderboard_href(r.id)), esc(r.id), esc(r.status), status_badge("ok", r.unranked || !run_ranked), why,
        // A message (an unmeasured row) wraps; a value stays on one line.
        r.value > 0 ? "n" : "msg", r.value > 0 ? esc(format_value(r.value, r.unit)) : esc(r.message),
        d && !alone ? esc(format_value(d->median, d->unit)) : "-",
        d && !alone ? esc(range_text(d->ranked, d->q1, d->q3, d->unit)) : "-", d ? d->ranked : 0, esc(vs),
        // A strip needs a class to show: none for a row whose class has no other ranked run.
        d != nullptr && d->ranked > 0 && !alone ? stack_svg(sc, d, r.value, r.unit) : std::string());
  }
  b += "</table></div>";
  b += run_charts(run, doc);

  b += "<h2>Compare</h2>";
  b += fmt::format("<form action=\"/compare\" method=\"get\"><input type=\"hidden\" name=\"a\" value=\"{}\">"
                   "<label>with run # <input type=\"number\" name=\"b\" min=\"1\" required></label>"
                   "<button type=\"submit\">compare</button></form>",
                   s.id);
  std::string others;
  for (const auto& o : class_runs) {
    if (o.id == s.id) continue;
    others += fmt::format(
        "<tr><td class=\"id\"><a href=\"{}\">#{}</a></td><td>{}</td><td>{}</td><td><a "
        "href=\"/compare?a={}&amp;b={}\">compare</a></td></tr>",
        run_href(o.id), o.id, esc(when(o.started_at)), esc(plain(o.suite)), s.id, o.id);
  }
  if (!others.empty()) {
    b += "<h3>Other runs of this class</h3><table><tr><th>run</th><th>started</th><th>suite</th><th></th></tr>" +
         others + "</table>";
  }
  return page(fmt::format("Run #{}", s.id), b, report::charts::css());
}

std::string compare_page(const StoredRun& a, const StoredRun& b_run) {
  std::string b = fmt::format("<h1>Run #{} compared with run #{}</h1>", a.summary.id, b_run.summary.id);
  b += "<div class=\"scroll\"><table><tr><th></th><th>run</th><th>device class</th><th>suite</th><th>started</th></tr>";
  for (const auto* r : {&a, &b_run}) {
    b +=
        fmt::format("<tr><td>{}</td><td class=\"id\"><a href=\"{}\">#{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    r == &a ? "A" : "B", run_href(r->summary.id), r->summary.id, class_cell(r->summary.device_class),
                    esc(plain(r->summary.suite)), esc(when(r->summary.started_at)));
  }
  b += "</table></div>";
  if (a.summary.device_class.key != b_run.summary.device_class.key) {
    b += "<p class=\"muted\">The runs belong to different device classes.</p>";
  }
  // Match rows by id and occurrence (a sweep may repeat an id), in A's order, then B's leftovers.
  const auto ra = doc_rows(typed(a)), rb = doc_rows(typed(b_run));
  std::map<std::pair<std::string, int>, const DocRow*> in_b;
  {
    std::map<std::string, int> seen;
    for (const auto& r : rb) in_b[{r.id, seen[r.id]++}] = &r;
  }
  b += "<h2>Rows</h2><div class=\"scroll\"><table><tr><th>benchmark</th><th>A</th><th>B</th><th>B / A</th>"
       "<th>verdict</th><th></th></tr>";
  std::map<std::string, int> seen;
  auto line = [&b](const std::string& id, const DocRow* x, const DocRow* y) {
    const std::string unit = x ? x->unit : y->unit;
    const double va = x ? x->value : 0, vb = y ? y->value : 0;
    const Scale sc = zero_based(std::max(va, vb), 236);
    std::string ratio = va > 0 && vb > 0 ? fmt::format("{:.3f}", vb / va) : "-";
    // The one rule of `compare` and --repro (docs/method.md#differ), on each row's dispersion.
    std::string verdict = "-";
    if (x != nullptr && y != nullptr && va > 0 && vb > 0) {
      const auto d = report::compare_estimates({va, x->dispersion}, {vb, y->dispersion});
      verdict = fmt::format("{}<div class=\"why\">noise {:.1f}%</div>", report::verdict_word(d), 100 * d.allowance);
    }
    auto cell = [](const DocRow* r) {
      if (r == nullptr) return std::string("-");
      if (!(r->value > 0)) return esc(r->status);
      // A measured row that is not ok (suspect, throttled) keeps its status beside the value.
      return esc(format_value(r->value, r->unit)) + (r->status == "ok" ? "" : status_badge(r->status, false));
    };
    b += fmt::format(
        "<tr><td class=\"id\"><a href=\"{}\">{}</a></td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
        "<td class=\"n\">{}</td><td>{}</td><td>{}</td></tr>",
        esc(leaderboard_href(id)), esc(id), cell(x), cell(y), esc(ratio), verdict,
        stack_svg(sc, nullptr, va, unit, "B", vb));
  };
  for (const auto& r : ra) {
    const auto key = std::pair{r.id, seen[r.id]++};
    auto it = in_b.find(key);
    line(r.id, &r, it == in_b.end() ? nullptr : it->second);
    if (it != in_b.end()) in_b.erase(it);
  }
  for (const auto& [key, r] : in_b) line(key.first, nullptr, r);
  b += fmt::format(
      "</table></div><p class=\"muted\">Verdict: B against A, unchanged unless the change exceeds the "
      "noise: the rows' combined dispersion, at least {:.0f}% (as <code>webgpu-bench compare</code> "
      "decides). Orange dot: A; purple ring: B.</p>",
      100 * report::kNoiseFloor);
  return page(fmt::format("Run #{} vs #{}", a.summary.id, b_run.summary.id), b);
}

std::string runs_page(const std::vector<RunSummary>& runs, const RunFilter& f, std::int64_t total) {
  std::string b = "<h1>Runs</h1>";
  b += fmt::format(
      "<form action=\"/runs\" method=\"get\"><label>class<input name=\"class\" value=\"{}\"></label>"
      "<label>suite<input name=\"suite\" value=\"{}\" size=\"8\"></label>"
      "<label>benchmark<input name=\"benchmark\" value=\"{}\" size=\"14\"></label>"
      "<label>since<input name=\"since\" value=\"{}\" size=\"12\"></label>"
      "<label>until<input name=\"until\" value=\"{}\" size=\"12\"></label>"
      "<label>measured<select name=\"runtime\">{}</select></label>"
      "<button type=\"submit\">filter</button></form>",
      esc(f.device_class), esc(f.suite), esc(f.benchmark), esc(f.since), esc(f.until), runtime_options(f.runtime));
  b += fmt::format("<p class=\"muted\">{}.</p>", esc(runs_count_text(runs.size(), f.offset, total)));
  if (runs.empty()) return page("Runs", b);
  b += "<div class=\"scroll\"><table><tr><th>run</th><th>device class</th><th>suite</th><th>state</th><th>rows</th>"
       "<th>started</th></tr>";
  for (const auto& r : runs) {
    b += fmt::format(
        "<tr><td class=\"id\"><a href=\"{}\">#{}</a>{}</td><td>{}</td><td>{}</td><td>{}{}</td>"
        "<td class=\"n\">{}</td><td>{}</td></tr>",
        run_href(r.id), r.id, runtime_badge(r.runtime), class_cell(r.device_class), esc(plain(r.suite)), esc(plain(r.state)),
        r.unranked_reason.empty() ? std::string()
                                  : fmt::format("<div class=\"why\">unranked: {}</div>", esc(r.unranked_reason)),
        r.row_count, esc(when(r.started_at)));
  }
  b += "</table></div>";
  if (f.offset + static_cast<std::int64_t>(runs.size()) < total) {
    const std::string next = fmt::format("/runs?class={}&suite={}&benchmark={}&since={}&until={}&runtime={}&offset={}",
                                         url_encode(f.device_class), url_encode(f.suite), url_encode(f.benchmark),
                                         url_encode(f.since), url_encode(f.until), url_encode(f.runtime),
                                         f.offset + f.limit);
    b += fmt::format("<p><a href=\"{}\">next page</a></p>", esc(next));
  }
  return page("Runs", b);
}

std::string runs_count_text(std::size_t shown, std::int64_t offset, std::int64_t total) {
  if (total <= 0) return "No run matches";
  const std::string match = fmt::format("{} {}", total, total == 1 ? "run matches" : "runs match");
  if (shown == 0) return fmt::format("{}; none from number {} on", match, offset + 1);
  if (offset == 0 && static_cast<std::int64_t>(shown) == total) return match;
  return fmt::format("{}; showing {} to {}", match, offset + 1, offset + static_cast<std::int64_t>(shown));
}

std::string error_page(int status, std::string_view message) {
  return page(fmt::format("Error {}", status), fmt::format("<h1>Error {}</h1><p>{}</p>", status, esc(message)));
}

}  // namespace wgb::store::html
