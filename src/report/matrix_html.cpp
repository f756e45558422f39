// The implementations page of matrix_html.hpp.
#include "report/matrix_html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "report/charts.hpp"
#include "report/svg.hpp"
#include "report/table.hpp"

namespace wgb::report {

using svg::escape;

namespace {

constexpr const char* kMatrixCss = R"css(
table.heat td.cell{text-align:center;font-variant-numeric:tabular-nums;white-space:nowrap;min-width:7em}
table.heat td.cell small{display:block;color:#3a4254;font-size:11px}
table.heat td.ref{background:#eef1f7}table.heat td.same{background:#f6f7fa}
)css";

std::string per_second(const std::string& unit) {
  return unit.size() > 2 && unit.compare(unit.size() - 2, 2, "/s") == 0 ? unit.substr(0, unit.size() - 2) : unit;
}

// Green for faster, red for slower, stronger the further from 1 (full at 2x either way).
std::string heat(double ratio) {
  const double strength = std::min(1.0, std::fabs(std::log2(ratio)));
  const int hue = ratio >= 1 ? 130 : 5;
  return fmt::format("background:hsl({},{}%,{}%)", hue, static_cast<int>(35 + 40 * strength),
                     static_cast<int>(94 - 30 * strength));
}

std::string anchor(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' ? c : '-';
  return out;
}

}  // namespace

void write_matrix_html(std::ostream& out, const MatrixDocument& m) {
  std::vector<const MatrixColumnRecord*> shown;  // the columns that ran
  for (const auto& c : m.columns) {
    if (c.status != "skipped") shown.push_back(&c);
  }
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>WebGPU implementations side by side - webgpu-bench</title>\n<style>"
      << charts::page_css() << charts::css() << kMatrixCss << "</style>\n</head>\n<body>\n";
  out << "<h1>WebGPU implementations side by side</h1>\n";
  const int rounds = m.rounds;
  out << fmt::format("<p class=\"sub\">{} round{} in alternating order; each implementation against native Dawn on its "
                     "own adapter.",
                     rounds, rounds == 1 ? "" : "s");
  if (m.command_line) {
    std::string cmd;
    for (const auto& a : *m.command_line) cmd += (cmd.empty() ? "" : " ") + a;
    out << fmt::format(" Command: <code>{}</code>", escape(cmd));
  }
  out << "</p>\n";

  out << "<h2>Implementations</h2>\n<div class=\"scroll\"><table>\n<tr><th>column</th><th>adapter</th><th>rounds</th>"
         "<th>wall time per round</th><th>against native Dawn</th><th>note</th></tr>\n";
  for (const auto& c : m.columns) {
    int ran = 0;
    for (const auto& r : c.rounds) ran += r.ran ? 1 : 0;
    std::string versus = c.baseline.empty() ? "reference" : "";
    if (c.geomean) versus = fmt::format("{:.3f} (geometric mean)", *c.geomean);
    std::string note = c.status == "ok" ? "" : c.status + ": " + c.reason;
    if (c.status == "skipped" && !c.install.empty()) note += " (to get it: " + c.install + ")";
    std::string adapter = c.adapter_device();
    if (adapter.empty()) adapter = "(not reported)";
    out << fmt::format(
        "<tr><td>{}</td><td>{}</td><td class=\"num\">{}/{}</td><td class=\"num\">{}</td><td>{}</td>"
        "<td{}>{}</td></tr>\n",
        escape(c.label), escape(c.status == "skipped" ? "" : adapter), ran, rounds,
        ran > 0 ? fmt::format("{:.1f} s", c.wall_s / ran) : "-", escape(versus),
        c.status == "ok" ? "" : " class=\"warn\"", escape(note));
  }
  out << "</table></div>\n";
  for (const auto& n : m.notes) out << "<p class=\"sub\">" << escape(n) << "</p>\n";

  out << "<h2>Ratio to native Dawn, per benchmark</h2>\n<p class=\"sub\">The geometric mean of the per-round rate "
         "ratios ± its standard error. Coloured where the change is significant (green faster, red slower, stronger "
         "up to 2x); grey where it is within the noise. Under it the median rate.</p>\n";
  out << "<div class=\"scroll\"><table class=\"heat\">\n<tr><th>benchmark</th>";
  for (const auto* c : shown) out << "<th>" << escape(c->label) << "</th>";
  out << "</tr>\n";
  const MatrixCellRecord none;
  auto cell_of = [&none](const MatrixRowRecord& row, const MatrixColumnRecord& c) -> const MatrixCellRecord& {
    const auto it = row.columns.find(c.name);
    return it == row.columns.end() ? none : it->second;
  };
  for (const auto& row : m.rows) {
    const std::string unit = per_second(row.unit);
    out << fmt::format("<tr><td><a href=\"#bench-{}\">{}</a></td>", anchor(row.id), escape(row.id));
    for (const auto* c : shown) {
      const MatrixCellRecord& cell = cell_of(row, *c);
      const std::string rate_text = cell.rate > 0 ? format_rate(cell.rate, unit) : cell.status;
      if (c->baseline.empty()) {
        out << fmt::format("<td class=\"cell ref\">reference<small>{}</small></td>", escape(rate_text));
      } else if (cell.comparison && cell.comparison->rounds > 0) {
        const double ratio = cell.comparison->ratio;
        const bool significant = cell.comparison->significant;
        out << fmt::format("<td class=\"cell{}\"{}>{:.3f} ± {:.3f}<small>{}</small></td>", significant ? "" : " same",
                           significant && ratio > 0 ? fmt::format(" style=\"{}\"", heat(ratio)) : "", ratio,
                           cell.comparison->ratio_se, escape(rate_text));
      } else {
        out << fmt::format("<td class=\"cell same\">-<small>{}</small></td>", escape(rate_text));
      }
    }
    out << "</tr>\n";
  }
  out << "</table></div>\n";

  out << "<h2>Rates per benchmark</h2>\n<p class=\"sub\">Bars: the median rate over the rounds; whiskers: the lowest "
         "and the highest round.</p>\n";
  for (const auto& row : m.rows) {
    const std::string& id = row.id;
    const std::string unit = per_second(row.unit);
    std::vector<svg::Bar> bars;
    for (const auto* c : shown) {
      std::vector<double> rates;
      for (const auto& r : c->rounds) {
        if (!r.rows) continue;
        for (const auto& x : *r.rows) {
          if (x.id == id && x.rate > 0) rates.push_back(x.rate);
        }
      }
      const double rate = cell_of(row, *c).rate;
      if (rate <= 0) continue;
      svg::Bar b;
      b.label = c->label;
      b.value = rate;
      if (rates.size() > 1) {
        b.low = *std::min_element(rates.begin(), rates.end());
        b.high = *std::max_element(rates.begin(), rates.end());
      }
      b.tooltip = fmt::format("{}: median {} over {} rounds", b.label, format_rate(rate, unit), rates.size());
      bars.push_back(std::move(b));
    }
    out << fmt::format("<h3 id=\"bench-{}\">{}</h3>\n", anchor(id), escape(id));
    if (bars.empty()) {
      out << "<p class=\"sub\">No implementation measured it.</p>\n";
      continue;
    }
    out << "<div class=\"scroll\">" << svg::bar_chart("bars-" + anchor(id), fmt::format("{} ({}/s)", id, unit), bars, unit)
        << "</div>\n";
  }
  out << "<p class=\"sub\">Generated by webgpu-bench from the comparison above; self-contained (no scripts, no "
         "external resources).</p>\n</body>\n</html>\n";
}

}  // namespace wgb::report
