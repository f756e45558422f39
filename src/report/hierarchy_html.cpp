// The memory levels of a hierarchy document in the HTML report (charts.hpp): the latency and the
// bandwidth curve over the working set, each with the inferred boundaries marked (a dashed line at
// the capacity, thin lines at the ends of its interval), then the levels' table and the notes
// (docs/method.md#hierarchy).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/charts.hpp"
#include "report/hierarchy.hpp"
#include "report/run_options.hpp"
#include "report/svg.hpp"
#include "report/table.hpp"

namespace wgb::report::charts {

namespace {

using svg::escape;

std::string quantity_cell(const hierarchy::Quantity& q, const std::string& text) {
  if (!q.resolved) return fmt::format("<td class=\"warn\">unresolved: {}</td>", escape(q.reason));
  return fmt::format("<td>{} ± {:.0f} %</td>", escape(text), std::max(1.0, 100 * q.uncertainty));
}

// One curve with the boundaries of the levels it shows. `latency`: ns per hop, else bytes/s.
std::string curve_chart(std::vector<hierarchy::Point> pts, const hierarchy::Section& s, bool latency,
                        const std::string& benchmark, Ids& ids, bool spread = false) {
  if (pts.empty()) return {};
  // The rows ran in a scattered order; the line joins them by footprint.
  std::sort(pts.begin(), pts.end(), [](const auto& a, const auto& b) { return a.footprint < b.footprint; });
  std::vector<double> xs, ys;
  for (const auto& p : pts) {
    xs.push_back(p.footprint);
    ys.push_back(p.value * (1 + p.dispersion));
    ys.push_back(p.value * (1 - std::min(p.dispersion, 0.9)));
  }
  // The levels whose capacity falls inside this curve's footprints (the device-wide chase starts at
  // 1 MiB: an L1 far below it would only stretch its axis).
  const double lo = pts.front().footprint / 2, hi = pts.back().footprint * 2;
  auto shown = [&](const hierarchy::Level& l) {
    return l.capacity.resolved && l.capacity_high >= lo && l.capacity_low <= hi;
  };
  for (const auto& l : s.levels) {
    if (shown(l)) xs.push_back(l.capacity_low), xs.push_back(l.capacity_high);
  }
  const std::string title = spread    ? fmt::format("{}: ns per read-modify-write hop, walkers on every unit", benchmark)
                            : latency ? fmt::format("{}: ns per dependent load vs working set", benchmark)
                                    : fmt::format("{}: rate of re-reading the footprint", benchmark);
  auto x = svg::fit_axis(xs, "working set (log2)", true, svg::Axis::Labels::Binary);
  auto y = svg::fit_axis(ys, latency ? "ns per hop (log)" : "B/s (log)", true,
                         latency ? svg::Axis::Labels::Plain : svg::Axis::Labels::Si, latency ? "" : "B/s");
  svg::Plot plot(ids(spread ? "hierarchy-spread" : latency ? "hierarchy-latency" : "hierarchy-bandwidth"), title, x, y,
                 760, 400);
  const auto& own = spread ? s.spread_boundaries : latency ? s.latency_boundaries : s.bandwidth_boundaries;
  for (const auto& l : s.levels) {
    if (!shown(l)) continue;
    plot.segment(l.capacity_low, y.min, l.capacity_low, y.max, "leader");
    plot.segment(l.capacity_high, y.min, l.capacity_high, y.max, "leader");
    plot.segment(l.capacity.value, y.min, l.capacity.value, y.max, "roof alt");
    plot.label(l.capacity.value, y.max, fmt::format("{} {}", l.name, format_bytes(l.capacity.value)));
  }
  std::vector<std::pair<double, double>> line;
  for (const auto& p : pts) line.emplace_back(p.footprint, p.value);
  plot.line(line, "series", title);
  for (const auto& p : pts) {
    plot.whisker(p.footprint, p.value * (1 - std::min(p.dispersion, 0.9) / 2), p.value * (1 + p.dispersion / 2), "wh");
    plot.point(p.footprint, p.value, "pt",
               fmt::format("{}: {}", format_bytes(p.footprint),
                           latency ? fmt::format("{:.3g} ns", p.value) : format_rate(p.value, "B")));
  }
  plot.legend({{"series-key", fmt::format("{} (whiskers: IQR); dashed: the levels' capacities, {} where this curve "
                                          "steps",
                                          latency ? "median ns per hop" : "median rate", own.size())}});
  return plot.render();
}

}  // namespace

std::string hierarchy(const Document& doc, Ids& ids) {
  if (!doc.hierarchy) return {};
  const hierarchy::Section& s = *doc.hierarchy;
  // The curves' benchmarks; one that was not run (written empty) keeps the default's name.
  const HierarchyRunOptions asked = read_hierarchy_options(doc.options);
  const std::string lat_id = asked.latency_benchmark.empty() ? "read-latency" : asked.latency_benchmark;
  const std::string bw_id = asked.bandwidth_benchmark.empty() ? "read-linear" : asked.bandwidth_benchmark;
  std::string out = fmt::format("<h2 id=\"{}\">Memory levels</h2>\n", ids("hierarchy"));
  out += "<p class=\"sub\">Inferred from the curves below (docs/method.md#hierarchy): a level ends where latency rises "
         "or bandwidth falls for good; its capacity lies between the thin lines.</p>\n";
  out += "<table><tr><th>level</th><th>capacity</th><th>latency</th><th>bandwidth</th><th>evidence</th></tr>\n";
  for (const auto& l : s.levels) {
    out += fmt::format("<tr><td>{}</td>{}{}{}<td>{}</td></tr>\n", escape(l.name),
                       l.capacity.resolved ? quantity_cell(l.capacity, format_bytes(l.capacity.value)) : "<td>-</td>",
                       quantity_cell(l.latency_ns, fmt::format("{:.3g} ns", l.latency_ns.value)),
                       quantity_cell(l.bandwidth, format_rate(l.bandwidth.value, "B")), escape(l.evidence));
  }
  out += "</table>\n";
  out += curve_chart(hierarchy::points_from_rows(doc.rows, lat_id), s, true, lat_id, ids);
  out += curve_chart(hierarchy::points_from_rows(doc.rows, bw_id), s, false, bw_id, ids);
  const std::string& spread_id = asked.spread_benchmark;
  if (!spread_id.empty()) out += curve_chart(hierarchy::points_from_rows(doc.rows, spread_id), s, true, spread_id, ids, true);
  for (const auto& n : s.notes) out += fmt::format("<p class=\"sub\">Note: {}</p>\n", escape(n));
  return out;
}

}  // namespace wgb::report::charts
