// Console table writer (pure: rows in, text out; pinned by golden tests).
#include "report/table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace wgb::report {

std::string scaled_value(double value, int significant) {
  static const char* kPrefix[] = {"", "k", "M", "G", "T", "P", "E"};
  if (!std::isfinite(value)) return "n/a";
  int p = 0;
  double v = std::fabs(value);
  while (v >= 1000.0 && p < 6) {
    v /= 1000.0;
    ++p;
  }
  const int digits = v >= 100 ? 0 : v >= 10 ? 1 : 2;
  (void)significant;
  return fmt::format("{}{:.{}f} {}", value < 0 ? "-" : "", v, digits, kPrefix[p]);
}

std::string format_rate(double value, const std::string& unit) {
  std::string s = scaled_value(value);
  return s + unit + "/s";
}

std::string dispersion_text(const BenchmarkResult& r) {
  if (r.stats.count == 0) return "";
  if (r.statistic == Statistic::Median) {
    const double rel = r.stats.median > 0 ? 100.0 * r.stats.iqr / r.stats.median : 0;
    return fmt::format("IQR {:.2f}%", rel);
  }
  return fmt::format("CV {:.2f}%", 100.0 * r.stats.cv);
}

void write_table(std::ostream& out, const std::vector<BenchmarkResult>& rows) {
  struct Line {
    std::string id, status, rate, stat, disp, clock, note;
  };
  std::vector<Line> lines;
  lines.push_back({"benchmark", "status", "rate", "statistic", "dispersion", "clock", "notes"});
  for (const auto& r : rows) {
    Line l;
    l.id = r.id;
    l.status = to_string(r.status);
    const bool has_rate = r.value > 0;
    l.rate = has_rate ? format_rate(r.value, r.metric.unit) : "-";
    l.stat = has_rate ? fmt::format("{} of {}", to_string(r.statistic), r.stats.count) : "-";
    l.disp = has_rate ? dispersion_text(r) : "-";
    l.clock = r.timing_method.empty() ? "-" : r.timing_method;
    l.note = r.message;
    lines.push_back(std::move(l));
  }
  std::size_t w[6] = {};
  for (const auto& l : lines) {
    w[0] = std::max(w[0], l.id.size());
    w[1] = std::max(w[1], l.status.size());
    w[2] = std::max(w[2], l.rate.size());
    w[3] = std::max(w[3], l.stat.size());
    w[4] = std::max(w[4], l.disp.size());
    w[5] = std::max(w[5], l.clock.size());
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& l = lines[i];
    std::string s = fmt::format("{:<{}}  {:<{}}  {:>{}}  {:<{}}  {:>{}}  {:<{}}", l.id, w[0], l.status, w[1], l.rate,
                                w[2], l.stat, w[3], l.disp, w[4], l.clock, w[5]);
    if (!l.note.empty()) s += "  " + l.note;
    while (!s.empty() && s.back() == ' ') s.pop_back();
    out << s << '\n';
    if (i == 0) {
      out << std::string(std::min<std::size_t>(s.size(), w[0] + w[1] + w[2] + w[3] + w[4] + w[5] + 10), '-')
          << '\n';
    }
  }
}

}  // namespace wgb::report
