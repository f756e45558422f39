// The report's roofline section (charts.hpp): one device's rows against its own ceilings, drawn
// by report/svg.hpp. The HTML report and the results server's run page both use it.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "report/charts.hpp"
#include "report/model.hpp"
#include "report/roofline.hpp"
#include "report/svg.hpp"
#include "report/table.hpp"

namespace wgb::report::charts {

using svg::escape;

// One device's roofline: its rows against its own ceilings (the GPU's from a GPU document, the host
// CPU's from a host document); one roof per measured FLOP precision, each row against its own.
std::string roofline(const std::vector<ReportRow>& rows, const std::string& device, Ids& ids) {
  std::string s =
      fmt::format("<h2 id=\"{}\">Roofline{}</h2>\n", ids("roofline"), escape(device.empty() ? "" : ": " + device));
  const Ceilings c = find_ceilings(rows);
  std::optional<double> bw;
  if (c.bandwidth) bw = c.bandwidth->value;
  // The primary FLOP roof: f32 when measured, else the first precision measured.
  std::string primary;
  if (c.flops.count("f32")) {
    primary = "f32";
  } else if (!c.flops.empty()) {
    primary = c.flops.begin()->first;
  }
  std::vector<std::string> ceil_text;
  if (c.bandwidth) ceil_text.push_back(fmt::format("peak bandwidth {} (from {})", format_rate(c.bandwidth->value, "B"), c.bandwidth->from));
  for (const auto& [p, ce] : c.flops) ceil_text.push_back(fmt::format("peak {} {} (from {})", p, format_rate(ce.value, "FLOP"), ce.from));
  s += fmt::format("<p>Ceilings measured in this document: {}.</p>\n",
                   escape(ceil_text.empty() ? "none" : fmt::format("{}", fmt::join(ceil_text, "; "))));

  std::vector<const ReportRow*> placed, unplaced, low, over;
  for (const auto& row : rows) {
    if (!has_rate(row.result) || !row.roofline) continue;
    if (row.roofline->applies) {
      placed.push_back(&row);
      if (row.roofline->fraction < kRooflineLowFraction) low.push_back(&row);
      if (!over_ceiling(row).empty()) over.push_back(&row);
    } else {
      unplaced.push_back(&row);
    }
  }
  const std::string low_id = ids("roofline-low");
  std::vector<std::string> unusable;
  if (!c.bandwidth_unusable.empty()) unusable.push_back(c.bandwidth_unusable);
  for (const auto& [p, why] : c.flops_unusable) unusable.push_back(why);
  if (!bw && c.flops.empty() && !unusable.empty()) {
    s += fmt::format(
        "<p class=\"warn\">No ceiling could be measured in this document: {} (a ceiling comes only from "
        "an ok row), so no roofline can be drawn.</p>\n",
        escape(fmt::format("{}", fmt::join(unusable, ", "))));
  } else if (!bw && c.flops.empty()) {
    s += "<p class=\"warn\">No ceiling was measured in this document (run read-linear or the memory suite for "
         "bandwidth, f32-fma-vec4 for the FLOP rate; on the host, the host suite's STREAM and FMA kernels), so no "
         "roofline can be drawn.</p>\n";
  } else {
    // x: arithmetic intensity (FLOP/B); the ridge points and every finite intensity fit with margin.
    std::vector<double> xs;
    for (const auto* r : placed) {
      const double ai = r->roofline->arithmetic_intensity;
      if (std::isfinite(ai) && ai > 0) xs.push_back(ai);
    }
    if (bw) {
      for (const auto& [p, ce] : c.flops) xs.push_back(ce.value / *bw);
    }
    double lo = xs.empty() ? 1.0 : *std::min_element(xs.begin(), xs.end());
    double hi = xs.empty() ? 1.0 : *std::max_element(xs.begin(), xs.end());
    auto x_axis = svg::fit_axis({lo / 8, hi * 8}, "arithmetic intensity (FLOP per byte, log)", true);
    const double x_min = x_axis.min, x_max = x_axis.max;
    auto roof = [&](double x, const std::string& precision) {
      double r = HUGE_VAL;
      if (bw) r = std::min(r, *bw * x);
      const auto it = c.flops.find(precision.empty() ? primary : precision);
      if (it != c.flops.end()) r = std::min(r, it->second.value);
      return r;
    };
    struct P {
      const ReportRow* row;
      double x, y;
      bool edge;
    };
    std::vector<P> pts;
    std::vector<double> ys;
    for (const auto& [p, ce] : c.flops) {
      ys.push_back(roof(x_min, p));
      ys.push_back(roof(x_max, p));
    }
    if (c.flops.empty()) {
      ys.push_back(roof(x_min, ""));
      ys.push_back(roof(x_max, ""));
    }
    for (const auto* r : placed) {
      const double ai = r->roofline->arithmetic_intensity;
      // Kernels without FLOPs (AI 0) sit on the left edge, kernels without memory traffic (AI inf)
      // on the right edge; their height keeps their fraction of the roof there.
      const bool edge = !(std::isfinite(ai) && ai > 0);
      const double x = edge ? (ai == 0 ? x_min : x_max) : std::clamp(ai, x_min, x_max);
      const double y = r->roofline->fraction * roof(x, r->roofline->precision);
      pts.push_back({r, x, y, edge});
      ys.push_back(y);
    }
    auto y_axis = svg::fit_axis(ys, "FLOP/s (log)", true, svg::Axis::Labels::Si);
    svg::Plot plot(ids("roofline-chart"),
                   device.empty() ? "Roofline: every kernel against the measured ceilings" : "Roofline: " + device,
                   x_axis, y_axis, 760, 460);
    auto roof_line = [&](const std::string& precision) {
      std::vector<std::pair<double, double>> roof_pts;
      const int n = 64;
      for (int i = 0; i <= n; ++i) {
        const double x = x_min * std::pow(x_max / x_min, static_cast<double>(i) / n);
        roof_pts.emplace_back(x, roof(x, precision));
      }
      const auto it = c.flops.find(precision);
      if (bw && it != c.flops.end()) {
        const double ridge = it->second.value / *bw;
        if (ridge > x_min && ridge < x_max) roof_pts.emplace_back(ridge, it->second.value);
      }
      std::sort(roof_pts.begin(), roof_pts.end());
      return roof_pts;
    };
    std::vector<std::pair<std::string, std::string>> legend;
    if (c.flops.empty()) {
      plot.line(roof_line(""), "roof", "roofline (bandwidth)");
      legend.push_back({"roof-key", "roof: bandwidth"});
    }
    for (const auto& [p, ce] : c.flops) {
      plot.line(roof_line(p), p == primary ? "roof" : "roof alt", fmt::format("roofline ({} peak)", p));
      legend.push_back(
          {"roof-key", fmt::format("roof: {}{} peak{}", bw ? "bandwidth + " : "", p, p == primary ? "" : " (dashed)")});
    }
    for (const auto& p : pts) {
      const auto& r = p.row->result;
      const bool is_low = p.row->roofline->fraction < kRooflineLowFraction;
      const std::string over_kind = over_ceiling(*p.row);
      const bool flagged = over_kind == "flagged";
      plot.point(p.x, p.y, is_low || flagged ? "pt low" : "pt",
                 fmt::format("{}: {}, intensity {} FLOP/B, {:.2f} of the roofline ({}){}{}", row_key(r),
                             format_rate(r.value, r.metric.unit), intensity_text(p.row->roofline->arithmetic_intensity),
                             p.row->roofline->fraction, p.row->roofline->bound, p.edge ? ", drawn at the edge" : "",
                             over_kind.empty() ? "" : ", above the ceiling (see below)"),
                 p.edge);
    }
    // Labels: kernels inside the plot first, then those drawn at an edge (where they crowd); a
    // label with no room is left out and its kernel named under the chart.
    std::vector<std::string> unlabelled;
    for (const bool edge : {false, true}) {
      for (const auto& p : pts) {
        if (p.edge != edge) continue;
        if (!plot.label(p.x, p.y, row_key(p.row->result))) unlabelled.push_back(row_key(p.row->result));
      }
    }
    legend.push_back({"pt-key", "kernel (hollow: AI 0 or inf, at the edge)"});
    legend.push_back({"low-key", fmt::format("below {} of the roof", kRooflineLowFraction)});
    plot.legend(legend);
    s += plot.render();
    s += "<p class=\"sub\">Kernels that count no FLOP (arithmetic intensity 0) are drawn hollow at the left edge and "
         "kernels whose cost model moves no bytes (intensity infinite) hollow at the right edge; their height keeps "
         "their fraction of the roof there. Hover a point for its numbers.</p>\n";
    if (!unlabelled.empty()) {
      s += fmt::format("<p class=\"sub\">Not labelled (no room beside the point; hover it): {}.</p>\n",
                       escape(fmt::format("{}", fmt::join(unlabelled, ", "))));
    }
  }
  // Memory rows above their ceiling: cache windows (a cache rate) and flagged rows, never silent.
  if (!over.empty()) {
    s += fmt::format("<p id=\"{}\" class=\"warn\">Above the memory ceiling:</p><ul>\n", ids("roofline-over"));
    for (const auto* r : over) {
      s += fmt::format("<li class=\"{}\"><code>{}</code>: {:.2f} ({})</li>\n",
                       over_ceiling(*r) == "flagged" ? "bad" : "warn", escape(row_key(r->result)),
                       r->roofline->fraction, escape(r->roofline->note));
    }
    s += "</ul>\n";
  }
  if (!low.empty()) {
    s += fmt::format(
        "<p id=\"{}\" class=\"bad\">Below {} of the roofline (an unexplained bottleneck: find it "
        "before tuning):</p><ul>\n",
        low_id, kRooflineLowFraction);
    for (const auto* r : low) {
      s += fmt::format("<li><code>{}</code>: {:.3f} ({} bound; {})</li>\n", escape(row_key(r->result)), r->roofline->fraction,
                       escape(r->roofline->bound), escape(r->roofline->note));
    }
    s += "</ul>\n";
  } else if (!placed.empty()) {
    s += fmt::format("<p id=\"{}\" class=\"ok\">No kernel sits below {} of its roofline.</p>\n", low_id,
                     kRooflineLowFraction);
  }
  if (!unplaced.empty()) {
    // One line per reason, naming its rows (a suite of latency and technique rows would otherwise
    // repeat the same reason dozens of times).
    std::vector<std::pair<std::string, std::vector<std::string>>> by_reason;
    for (const auto* r : unplaced) {
      const std::string& why = r->roofline->note;
      auto it = std::find_if(by_reason.begin(), by_reason.end(), [&](const auto& g) { return g.first == why; });
      if (it == by_reason.end()) {
        by_reason.push_back({why, {}});
        it = by_reason.end() - 1;
      }
      it->second.push_back(row_key(r->result));
    }
    s +=
        fmt::format("<p id=\"{}\">{} without a ceiling, not on the plot:</p><ul class=\"reasons\">\n",
                    ids("roofline-unplaced"), unplaced.size() == 1 ? "1 row" : fmt::format("{} rows", unplaced.size()));
    for (const auto& [why, keys] : by_reason) {
      std::string names;
      for (const auto& k : keys) names += (names.empty() ? "" : ", ") + fmt::format("<code>{}</code>", escape(k));
      s += fmt::format("<li>{} ({}): {}</li>\n", escape(why), keys.size(), names);
    }
    s += "</ul>\n";
  }
  return s;
}

}  // namespace wgb::report::charts
