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

using nlohmann::json;
using svg::escape;

namespace {

constexpr const char* kMatrixCss = R"css(
table.heat td.cell{text-align:center;font-variant-numeric:tabular-nums;white-space:nowrap;min-width:7em}
table.heat td.cell small{display:block;color:#3a4254;font-size:11px}
table.heat td.ref{background:#eef1f7}table.heat td.same{background:#f6f7fa}
)css";

std::string str(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

double num(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
}

std::string per_second(const std::string& unit) {
  return unit.size() > 2 && unit.compare(unit.size() - 2, 2, "/s") == 0 ? unit.substr(0, unit.size() - 2) : unit;
}

std::string adapter_name(const json& a) {
  std::string n = str(a, "device");
  if (n.empty() || n == "0") n = str(a, "description");
  return n.empty() ? "(not reported)" : n;
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

bool is_implementations_matrix(const json& j) {
  return j.is_object() && str(j, "kind") == kImplementationsKind && j.contains("columns") && j["columns"].is_array() &&
         j.contains("rows") && j["rows"].is_array();
}

void write_matrix_html(std::ostream& out, const json& m) {
  const json& columns = m["columns"];
  std::vector<const json*> shown;  // the columns that ran
  for (const auto& c : columns) {
    if (str(c, "status") != "skipped") shown.push_back(&c);
  }
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>WebGPU implementations side by side - webgpu-bench</title>\n<style>"
      << charts::page_css() << charts::css() << kMatrixCss << "</style>\n</head>\n<body>\n";
  out << "<h1>WebGPU implementations side by side</h1>\n";
  const int rounds = m.value("rounds", 0);
  out << fmt::format("<p class=\"sub\">{} round{} in alternating order; each implementation against native Dawn on its "
                     "own adapter.",
                     rounds, rounds == 1 ? "" : "s");
  if (m.contains("command_line") && m["command_line"].is_array()) {
    std::string cmd;
    for (const auto& a : m["command_line"]) cmd += (cmd.empty() ? "" : " ") + (a.is_string() ? a.get<std::string>() : a.dump());
    out << fmt::format(" Command: <code>{}</code>", escape(cmd));
  }
  out << "</p>\n";

  out << "<h2>Implementations</h2>\n<div class=\"scroll\"><table>\n<tr><th>column</th><th>adapter</th><th>rounds</th>"
         "<th>wall time per round</th><th>against native Dawn</th><th>note</th></tr>\n";
  for (const auto& c : columns) {
    const std::string status = str(c, "status");
    int ran = 0;
    for (const auto& r : c.value("rounds", json::array())) ran += r.value("ran", false) ? 1 : 0;
    const double wall = num(c, "wall_s");
    std::string versus = str(c, "baseline").empty() ? "reference" : "";
    if (c.contains("geomean")) versus = fmt::format("{:.3f} (geometric mean)", num(c, "geomean"));
    std::string note = status == "ok" ? "" : status + ": " + str(c, "reason");
    if (status == "skipped" && !str(c, "install").empty()) note += " (to get it: " + str(c, "install") + ")";
    out << fmt::format("<tr><td>{}</td><td>{}</td><td class=\"num\">{}/{}</td><td class=\"num\">{}</td><td>{}</td>"
                       "<td{}>{}</td></tr>\n",
                       escape(str(c, "label")), escape(status == "skipped" ? "" : adapter_name(c.value("adapter", json()))),
                       ran, rounds, ran > 0 ? fmt::format("{:.1f} s", wall / ran) : "-", escape(versus),
                       status == "ok" ? "" : " class=\"warn\"", escape(note));
  }
  out << "</table></div>\n";
  for (const auto& n : m.value("notes", json::array())) {
    if (n.is_string()) out << "<p class=\"sub\">" << escape(n.get<std::string>()) << "</p>\n";
  }

  out << "<h2>Ratio to native Dawn, per benchmark</h2>\n<p class=\"sub\">The geometric mean of the per-round rate "
         "ratios ± its standard error. Coloured where the change is significant (green faster, red slower, stronger "
         "up to 2x); grey where it is within the noise. Under it the median rate.</p>\n";
  out << "<div class=\"scroll\"><table class=\"heat\">\n<tr><th>benchmark</th>";
  for (const json* c : shown) out << "<th>" << escape(str(*c, "label")) << "</th>";
  out << "</tr>\n";
  for (const auto& row : m["rows"]) {
    const std::string unit = per_second(str(row, "unit"));
    out << fmt::format("<tr><td><a href=\"#bench-{}\">{}</a></td>", anchor(str(row, "id")), escape(str(row, "id")));
    for (const json* c : shown) {
      const json cell = row.value("columns", json::object()).value(str(*c, "name"), json::object());
      const double rate = num(cell, "rate");
      const std::string rate_text = rate > 0 ? format_rate(rate, unit) : str(cell, "status");
      if (str(*c, "baseline").empty()) {
        out << fmt::format("<td class=\"cell ref\">reference<small>{}</small></td>", escape(rate_text));
      } else if (cell.contains("ratio")) {
        const double ratio = num(cell, "ratio");
        const bool significant = cell.value("significant", false);
        out << fmt::format("<td class=\"cell{}\"{}>{:.3f} ± {:.3f}<small>{}</small></td>", significant ? "" : " same",
                           significant && ratio > 0 ? fmt::format(" style=\"{}\"", heat(ratio)) : "", ratio,
                           num(cell, "ratio_se"), escape(rate_text));
      } else {
        out << fmt::format("<td class=\"cell same\">-<small>{}</small></td>", escape(rate_text));
      }
    }
    out << "</tr>\n";
  }
  out << "</table></div>\n";

  out << "<h2>Rates per benchmark</h2>\n<p class=\"sub\">Bars: the median rate over the rounds; whiskers: the lowest "
         "and the highest round.</p>\n";
  for (const auto& row : m["rows"]) {
    const std::string id = str(row, "id");
    const std::string unit = per_second(str(row, "unit"));
    std::vector<svg::Bar> bars;
    for (const json* c : shown) {
      std::vector<double> rates;
      for (const auto& r : c->value("rounds", json::array())) {
        for (const auto& x : r.value("rows", json::array())) {
          if (str(x, "id") == id && num(x, "rate") > 0) rates.push_back(num(x, "rate"));
        }
      }
      const json cell = row.value("columns", json::object()).value(str(*c, "name"), json::object());
      const double rate = num(cell, "rate");
      if (rate <= 0) continue;
      svg::Bar b;
      b.label = str(*c, "label");
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
