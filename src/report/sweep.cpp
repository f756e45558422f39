// The series table of a sweep (see sweep.hpp).
#include "report/sweep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "report/facts.hpp"

namespace wgb::report {

namespace {

std::string value_text(const std::string& parameter, std::uint64_t v) {
  return parameter == "size" ? format_bytes(static_cast<double>(v)) : std::to_string(v);
}

bool latency_like(const BenchmarkResult& r) {
  return r.metric.unit == "hop" || r.metric.unit == "load" || r.category == "latency";
}

}  // namespace

void write_sweep_table(std::ostream& out, const std::vector<ReportRow>& rows, const std::string& parameter,
                       std::size_t width) {
  const bool latency = std::any_of(rows.begin(), rows.end(), [](const auto& r) { return latency_like(r.result); });
  constexpr std::size_t kCols = 7;
  using Line = std::array<std::string, kCols>;
  constexpr std::array<bool, kCols> kRight{true, false, true, false, true, false, true};
  std::vector<std::pair<Line, std::string>> lines;  // columns, note
  lines.push_back({{parameter, "status", "rate", "statistic", "dispersion", "clock", latency ? "latency" : ""}, ""});
  for (const auto& row : rows) {
    const auto& r = row.result;
    Line l;
    if (const auto sweep = sweep_point(r.parameters)) l[0] = value_text(parameter, sweep->value);
    const bool rate = has_rate(r);
    l[1] = to_string(r.status);
    l[2] = rate ? format_rate(r.value, r.metric.unit) : "-";
    l[3] = rate ? fmt::format("{} of {}", to_string(r.statistic), r.stats.count) : "-";
    l[4] = rate ? dispersion_text(r) : "-";
    l[5] = clock_text(r.timing_method);
    l[6] = latency ? (rate ? fmt::format("{:.3g} ns/{}", 1e9 / r.value, r.metric.unit) : "-") : "";
    lines.push_back({std::move(l), r.message});
  }
  std::array<std::size_t, kCols> w{};
  for (const auto& [l, note] : lines) {
    for (std::size_t c = 0; c < kCols; ++c) w[c] = std::max(w[c], l[c].size());
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& [l, note] = lines[i];
    std::string s;
    for (std::size_t c = 0; c < kCols; ++c) {
      if (w[c] == 0) continue;  // no latency column
      if (c > 0) s += "  ";
      s += kRight[c] ? fmt::format("{:>{}}", l[c], w[c]) : fmt::format("{:<{}}", l[c], w[c]);
    }
    const std::size_t table_width = s.size();
    if (note.empty()) {
      while (!s.empty() && s.back() == ' ') s.pop_back();
      out << s << '\n';
    } else if (s.size() + 2 + note.size() <= width) {
      out << s << "  " << note << '\n';
    } else {
      while (!s.empty() && s.back() == ' ') s.pop_back();
      out << s << '\n' << wrap_text(note, width, 4, 4) << '\n';
    }
    if (i == 0) out << std::string(table_width, '-') << '\n';
  }
}

}  // namespace wgb::report
