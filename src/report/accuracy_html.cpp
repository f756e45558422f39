// The HTML report's accuracy section (charts::accuracy): each builtin's error against its probe's
// rate on log axes, and the entries tabled with their worst inputs (docs/method.md#accuracy).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/accuracy.hpp"
#include "report/charts.hpp"
#include "report/svg.hpp"
#include "report/table.hpp"

namespace wgb::report::charts {

namespace {

using svg::escape;

// The spacing of the result type's values in [1, 2): the unit an absolute error is drawn in, so
// that it shares the error axis with the ULP errors (an absolute error of 2^-23 is 1 on it in f32).
double unit_at_one(const BuiltinAccuracy& e) { return e.result_type == "f16" ? 0x1p-10 : 0x1p-23; }

// The error as drawn: ULPs, or the absolute error in units of unit_at_one.
double drawn(double error, const BuiltinAccuracy& e) {
  return e.unit == "absolute" ? error / unit_at_one(e) : error;
}

std::string entry_name(const BenchmarkResult& r, const BuiltinAccuracy& e) {
  return fmt::format("{} {} {}", r.id, e.builtin, e.range);
}

std::string sample_html(const AccuracySample& s, const BuiltinAccuracy& e) {
  if (s.input.empty()) return "-";
  std::string text = fmt::format("{}: returned {:.9g}, exact {:.9g}", input_text(s), s.output, s.expected);
  if (s.allowed.size() == 2) text += fmt::format(", allowed [{:.9g}, {:.9g}]", s.allowed[0], s.allowed[1]);
  return escape(text) + fmt::format(" <span class=\"sub\">({} {})</span>", escape(error_text(s.error, e.unit)),
                                    e.unit == "absolute" ? "abs" : "ulp");
}

std::string entries_table(const std::vector<ReportRow>& rows) {
  std::string s =
      "<div class=\"scroll\"><table class=\"accuracy\"><tr><th>benchmark</th><th>rate</th><th>builtin</th>"
      "<th>type</th><th>range</th><th>inputs</th><th>max</th><th>mean</th><th>max ULP</th><th>mean ULP</th>"
      "<th>correctly rounded</th><th>flushed</th><th>bound</th><th>verdict</th><th>worst input</th></tr>\n";
  for (const auto& row : rows) {
    const auto& r = row.result;
    for (const auto& e : r.accuracy) {
      const bool measured = e.status == "measured";
      const std::string verdict = verdict_text(e);
      const char* cls = verdict == "within" ? "ok" : verdict == "OUTSIDE" || e.status == "error" ? "bad" : "warn";
      const std::uint64_t counted = e.inputs - std::min(e.inputs, e.excluded);
      const std::string unit = e.unit == "absolute" ? " abs" : "";
      s += fmt::format(
          "<tr><td><code>{}</code></td><td class=\"num\">{}</td><td><code>{}</code></td><td>{}</td><td>{}</td>"
          "<td class=\"num\">{}</td>",
          escape(r.id), escape(has_rate(r) ? format_rate(r.value, r.metric.unit) : "-"), escape(e.builtin),
          escape(e.type == e.result_type ? e.type : e.type + " to " + e.result_type), escape(e.range),
          measured ? fmt::format("{}{}", counted, e.excluded > 0 ? fmt::format(" (+{} excluded)", e.excluded) : "")
                   : "-");
      if (measured) {
        s += fmt::format(
            "<td class=\"num\">{}{}</td><td class=\"num\">{}{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
            "<td class=\"num\">{:.2f}%</td><td class=\"num\">{}</td>",
            escape(error_text(e.max_error, e.unit)), unit, escape(error_text(e.mean_error, e.unit)), unit,
            escape(error_text(e.max_ulp, "ulp")), escape(error_text(e.mean_ulp, "ulp")),
            counted > 0 ? 100.0 * static_cast<double>(e.correctly_rounded) / static_cast<double>(counted) : 0.0,
            e.flushed);
      } else {
        s += "<td>-</td><td>-</td><td>-</td><td>-</td><td>-</td><td>-</td>";
      }
      std::string worst = measured ? sample_html(e.worst, e) : escape(e.reason);
      if (e.worst_violation) {
        worst += fmt::format("<br><span class=\"bad\">{} outside the bound; the worst:</span> {}", e.violations,
                             sample_html(*e.worst_violation, e));
      }
      s += fmt::format("<td title=\"{}\">{}</td><td class=\"{}\">{}</td><td>{}</td></tr>\n", escape(e.bound),
                       escape(bound_text(e)), cls, escape(verdict), worst);
    }
  }
  return s + "</table></div>\n";
}

}  // namespace

std::string accuracy(const std::vector<ReportRow>& rows, Ids& ids) {
  struct Point {
    const BenchmarkResult* row;
    const BuiltinAccuracy* entry;
    double rate, max, mean;
  };
  std::vector<Point> pts;
  bool any = false;
  for (const auto& row : rows) {
    for (const auto& e : row.result.accuracy) {
      any = true;
      if (e.status != "measured" || !has_rate(row.result)) continue;
      pts.push_back({&row.result, &e, row.result.value, drawn(e.max_error, e), drawn(e.mean_error, e)});
    }
  }
  if (!any) return "";
  std::string s = fmt::format("<h2 id=\"{}\">Accuracy beside speed</h2>\n", ids("accuracy"));
  s += "<p class=\"sub\">Each floating-point builtin a speed probe times, evaluated over a dense set of inputs and "
       "compared with the exact result; the bound is the WGSL specification's (docs/method.md#accuracy). A value "
       "outside its bound is a finding about the implementation, with its input.</p>\n";
  if (!pts.empty()) {
    std::vector<double> xs, ys = {0.5};  // 0.5 ULP: what correct rounding gives
    for (const auto& p : pts) {
      xs.push_back(p.rate);
      for (const double y : {p.max, p.mean}) {
        if (std::isfinite(y) && y > 0) ys.push_back(y);
      }
    }
    const auto x_axis = svg::fit_axis(xs, "rate of the speed probe (log)", true, svg::Axis::Labels::Si, "/s");
    const auto y_axis = svg::fit_axis(ys, "error in ULPs (log)", true);
    svg::Plot plot(ids("accuracy-chart"), "Accuracy against throughput, per builtin", x_axis, y_axis, 760, 460);
    plot.segment(x_axis.min, 0.5, x_axis.max, 0.5, "roof alt");
    // Errors of 0 sit on the bottom edge, infinite ones on the top edge.
    auto place = [&](double y) { return std::isinf(y) ? y_axis.max : std::clamp(y, y_axis.min, y_axis.max); };
    std::vector<std::string> unlabelled;
    for (const auto& p : pts) {
      const auto& e = *p.entry;
      plot.whisker(p.rate, place(p.mean), place(p.max), "whisker");
      const char* cls = !e.within ? "pt nob" : *e.within ? "pt" : "pt low";
      plot.point(p.rate, place(p.max), cls,
                 fmt::format("{}: {}; max {} {}, mean {}; bound {}; {}", entry_name(*p.row, e),
                             format_rate(p.rate, p.row->metric.unit), error_text(e.max_error, e.unit),
                             e.unit == "absolute" ? "abs" : "ulp", error_text(e.mean_error, e.unit), bound_text(e),
                             verdict_text(e)),
                 e.unit == "absolute");
      const std::string label = builtin_text(e) + (e.type == e.result_type ? " " + e.type : "") +
                                (std::isinf(e.max_error) ? " (inf)" : "");
      if (!plot.label(p.rate, place(p.max), label)) unlabelled.push_back(entry_name(*p.row, e));
    }
    plot.legend({{"pt-key", "within its bound"},
                 {"low-key", "outside its bound"},
                 {"nob-key", "no bound in this range"},
                 {"roof-key", "0.5 ULP (correctly rounded; dashed)"}});
    s += plot.render();
    s += "<p class=\"sub\">A marker is an entry's largest error, its whisker reaches down to the mean. Hollow "
         "markers are absolute errors (the bound is absolute there), drawn in units of the spacing of values in "
         "[1, 2) (2^-23 in f32, 2^-10 in f16) so they share the axis. Errors of 0 sit on the bottom edge, infinite "
         "ones (a NaN or infinite result) on the top edge.</p>\n";
    if (!unlabelled.empty()) {
      s += fmt::format("<p class=\"sub\">Not labelled (no room beside the point; hover it): {}.</p>\n",
                       escape(fmt::format("{}", fmt::join(unlabelled, ", "))));
    }
  }
  return s + entries_table(rows);
}

}  // namespace wgb::report::charts
