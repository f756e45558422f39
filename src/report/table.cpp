// Console table writer (pure: rows in, text out; pinned by golden tests).
#include "report/table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "report/roofline.hpp"

namespace wgb::report {

std::string scaled_value(double value, int significant) {
  static const char* kPrefix[] = {"", "k", "M", "G", "T", "P", "E"};
  if (!std::isfinite(value)) return "n/a ";
  int p = 0;
  double v = std::fabs(value);
  while (v >= 1000.0 && p < 6) {
    v /= 1000.0;
    ++p;
  }
  // Rounding may carry into the next prefix (999.7 k -> 1.00 M).
  const int sig = std::max(1, significant);
  const int int_digits = v >= 100 ? 3 : v >= 10 ? 2 : 1;
  int digits = std::max(0, sig - int_digits);
  if (std::round(v * std::pow(10.0, digits)) / std::pow(10.0, digits) >= 1000.0 && p < 6) {
    v /= 1000.0;
    ++p;
    digits = std::max(0, sig - 1);
  }
  return fmt::format("{}{:.{}f} {}", value < 0 ? "-" : "", v, digits, kPrefix[p]);
}

std::string format_rate(double value, const std::string& unit) { return scaled_value(value) + unit + "/s"; }

std::string format_bytes(double bytes) {
  static const char* kUnit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  if (!std::isfinite(bytes) || bytes < 0) return "n/a";
  int p = 0;
  double v = bytes;
  while (v >= 1024.0 && p < 5) {
    v /= 1024.0;
    ++p;
  }
  if (v == std::floor(v)) return fmt::format("{:.0f} {}", v, kUnit[p]);
  return fmt::format("{:.{}f} {}", v, v >= 100 ? 0 : v >= 10 ? 1 : 2, kUnit[p]);
}

std::string dispersion_text(const BenchmarkResult& r) {
  if (r.stats.count == 0) return "";
  const auto d = row_dispersion(r);
  return fmt::format("{} {:.2f}%", d.kind == std::string("iqr") ? "IQR" : "CV", 100.0 * d.relative);
}

std::string intensity_text(double ai) {
  if (std::isnan(ai)) return "-";
  if (std::isinf(ai)) return "inf";
  if (ai == 0) return "0";
  return fmt::format("{:.3g}", ai);
}

std::string roofline_text(const ReportRow& row) {
  if (!row.roofline || !row.roofline->applies) return "-";
  return fmt::format("{:.2f} {}", row.roofline->fraction, row.roofline->bound);
}

std::string repro_text(const ReportRow& row) {
  if (!row.repro) return "";
  const auto& c = *row.repro;
  if (c.verdict == "agree") return fmt::format("agree {:.2f}% <= {:.2f}%", 100 * c.difference, 100 * c.allowed);
  if (c.verdict == "disagree") {
    if (c.ratio > 0) return fmt::format("DISAGREE {:.2f}% > {:.2f}%", 100 * c.difference, 100 * c.allowed);
    return fmt::format("DISAGREE ({})", c.second_status);
  }
  return "not compared";
}

void write_table(std::ostream& out, const std::vector<ReportRow>& rows) {
  const bool with_repro = std::any_of(rows.begin(), rows.end(), [](const ReportRow& r) { return r.repro.has_value(); });
  constexpr std::size_t kCols = 9;
  using Line = std::array<std::string, kCols + 1>;  // + notes, not padded
  // Right-aligned columns: numbers.
  constexpr std::array<bool, kCols> kRight{false, false, true, false, true, false, true, false, false};
  std::vector<Line> lines;
  lines.push_back({"benchmark", "status", "rate", "statistic", "dispersion", "clock", "FLOP/B", "roofline",
                   with_repro ? "repro" : "", "notes"});
  for (const auto& row : rows) {
    const auto& r = row.result;
    Line l;
    l[0] = r.id;
    l[1] = to_string(r.status);
    const bool rate = has_rate(r);
    l[2] = rate ? format_rate(r.value, r.metric.unit) : "-";
    l[3] = rate ? fmt::format("{} of {}", to_string(r.statistic), r.stats.count) : "-";
    l[4] = rate ? dispersion_text(r) : "-";
    l[5] = r.timing_method == TimingMethod::None ? "-" : to_string(r.timing_method);
    l[6] = rate && row.roofline ? intensity_text(row.roofline->arithmetic_intensity) : "-";
    l[7] = rate ? roofline_text(row) : "-";
    l[8] = with_repro ? repro_text(row) : "";
    l[9] = r.message;
    lines.push_back(std::move(l));
  }
  std::array<std::size_t, kCols> w{};
  for (const auto& l : lines) {
    for (std::size_t c = 0; c < kCols; ++c) w[c] = std::max(w[c], l[c].size());
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& l = lines[i];
    std::string s;
    std::size_t width = 0;
    for (std::size_t c = 0; c < kCols; ++c) {
      if (w[c] == 0) continue;  // the repro column without --repro
      if (!s.empty() || c > 0) s += "  ";
      s += kRight[c] ? fmt::format("{:>{}}", l[c], w[c]) : fmt::format("{:<{}}", l[c], w[c]);
      width += w[c] + (c > 0 ? 2 : 0);
    }
    if (!l[kCols].empty()) s += "  " + l[kCols];
    while (!s.empty() && s.back() == ' ') s.pop_back();
    out << s << '\n';
    if (i == 0) out << std::string(width, '-') << '\n';
  }
}

void write_table(std::ostream& out, const std::vector<BenchmarkResult>& rows) {
  auto report_rows = to_report_rows(rows);
  apply_roofline(report_rows);
  write_table(out, report_rows);
}

void write_summary(std::ostream& out, const std::vector<ReportRow>& rows, const nlohmann::json& document) {
  out << "statistic: 'best' = fastest kept run (compute-bound kernels); 'median' = median with IQR (memory "
         "traffic, contention, scheduling). Rates are metric units per second.\n";
  const Ceilings c = find_ceilings(rows);
  std::vector<std::string> ceilings;
  if (c.bandwidth) ceilings.push_back(fmt::format("bandwidth {} ({})", format_rate(c.bandwidth->value, "B"), c.bandwidth->from));
  for (const auto& [precision, ceiling] : c.flops) {
    ceilings.push_back(fmt::format("{} {} ({})", precision, format_rate(ceiling.value, "FLOP"), ceiling.from));
  }
  out << fmt::format("roofline ceilings: {}\n", ceilings.empty() ? "none measured in this document"
                                                                 : fmt::format("{}", fmt::join(ceilings, ", ")));
  std::vector<std::string> low, none;
  for (const auto& row : rows) {
    if (!row.roofline || !has_rate(row.result)) continue;
    if (!row.roofline->applies) {
      none.push_back(row_key(row.result));
    } else if (row.roofline->fraction < kRooflineLowFraction) {
      low.push_back(fmt::format("{} ({:.2f})", row_key(row.result), row.roofline->fraction));
    }
  }
  if (!low.empty()) {
    out << fmt::format("below {} of the roofline (an unexplained bottleneck): {}\n", kRooflineLowFraction,
                       fmt::join(low, ", "));
  }
  if (!none.empty()) out << fmt::format("no roofline ceiling for: {}\n", fmt::join(none, ", "));
  if (document.is_object() && document.contains("repro") && document["repro"].is_object()) {
    const auto& r = document["repro"];
    const std::string verdict = r.value("verdict", std::string("?"));
    std::string line = fmt::format("repro (second process): {}", verdict == "pass" ? "PASS" : verdict == "fail" ? "FAIL" : verdict);
    if (r.contains("disagreeing") && r["disagreeing"].is_array() && !r["disagreeing"].empty()) {
      std::vector<std::string> ids;
      for (const auto& id : r["disagreeing"]) ids.push_back(id.is_string() ? id.get<std::string>() : id.dump());
      line += fmt::format(": disagreeing rows: {}", fmt::join(ids, ", "));
    }
    if (r.contains("reason") && r["reason"].is_string()) line += ": " + r["reason"].get<std::string>();
    out << line << '\n';
  }
}

}  // namespace wgb::report
