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
  const std::string over = over_ceiling(row);
  // Above 1.0 of a memory ceiling (roofline.cpp): a cache window says so, anything else is flagged.
  const char* mark = over == "cache-window" ? " (cache)" : over.empty() ? "" : " (!)";
  return fmt::format("{:.2f} {}{}", row.roofline->fraction, row.roofline->bound, mark);
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

std::string clock_text(const std::string& timing_method) {
  if (timing_method.empty()) return "-";
  if (timing_method == "gpu-timestamp") return "gpu";
  if (timing_method == "wall-clock") return "wall";
  if (timing_method == "host-steady-clock") return "host";
  if (timing_method == "operation-wall-clock") return "op";
  return timing_method;
}

std::string wrap_text(std::string_view text, std::size_t width, std::size_t first_indent, std::size_t indent) {
  // Words are never cut: a word longer than the line stands alone on its line.
  std::string out(first_indent, ' ');
  std::size_t line = first_indent;
  bool line_empty = true;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    std::size_t j = i;
    while (j < text.size() && text[j] != ' ') ++j;
    if (j == i) break;
    const std::string_view word = text.substr(i, j - i);
    if (!line_empty && line + 1 + word.size() > width) {
      out += '\n';
      out.append(indent, ' ');
      line = indent;
      line_empty = true;
    }
    if (!line_empty) {
      out += ' ';
      ++line;
    }
    out += word;
    line += word.size();
    line_empty = false;
    i = j;
  }
  return out;
}

std::string wrap_block(std::string_view text, std::size_t width) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    const std::size_t indent = std::min(line.find_first_not_of(' '), line.size());
    out += line.size() <= width ? std::string(line) : wrap_text(line.substr(indent), width, indent, indent + 2);
    out += '\n';
    start = end + 1;
  }
  return out;
}

namespace {

enum Col : std::size_t { kId, kStatus, kRate, kStat, kDisp, kClock, kIntensity, kRoof, kRepro, kCols };

}  // namespace

TableFit fit_columns(const std::vector<ReportRow>& rows, std::size_t width) {
  TableFit fit;
  const bool with_repro = std::any_of(rows.begin(), rows.end(), [](const ReportRow& r) { return r.repro.has_value(); });
  fit.show = {true, true, true, true, true, true, true, true, with_repro};
  fit.widths = {9, 6, 4, 9, 10, 5, 6, 8, 5};  // the headers
  for (const auto& row : rows) {
    const auto& r = row.result;
    const bool rate = has_rate(r);
    fit.widths[kId] = std::max(fit.widths[kId], r.id.size());
    fit.widths[kStatus] = std::max(fit.widths[kStatus], std::string(to_string(r.status)).size());
    if (rate) {
      fit.widths[kRate] = std::max(fit.widths[kRate], format_rate(r.value, r.metric.unit).size());
      fit.widths[kStat] = std::max(fit.widths[kStat], fmt::format("{} of {}", to_string(r.statistic), r.stats.count).size());
      fit.widths[kDisp] = std::max(fit.widths[kDisp], dispersion_text(r).size());
      if (row.roofline) {
        fit.widths[kIntensity] = std::max(fit.widths[kIntensity], intensity_text(row.roofline->arithmetic_intensity).size());
      }
      fit.widths[kRoof] = std::max(fit.widths[kRoof], roofline_text(row).size());
    }
    fit.widths[kClock] = std::max(fit.widths[kClock], clock_text(r.timing_method).size());
    if (with_repro) fit.widths[kRepro] = std::max(fit.widths[kRepro], repro_text(row).size());
  }
  auto total = [&] {
    std::size_t t = 0, n = 0;
    for (std::size_t c = 0; c < kCols; ++c) {
      if (!fit.show[c]) continue;
      t += fit.widths[c];
      ++n;
    }
    return t + (n > 0 ? 2 * (n - 1) : 0);
  };
  // Columns the terminal table can do without (the documents, CSV and HTML report keep them), in
  // the order they are left out: arithmetic intensity, the roofline fraction, the clock.
  for (const Col c : {kIntensity, kRoof, kClock}) {
    if (total() <= width) break;
    fit.show[c] = false;
    fit.left_out.push_back(c == kIntensity ? "FLOP/B" : c == kRoof ? "roofline" : "clock");
  }
  fit.width = total();
  return fit;
}

void write_table(std::ostream& out, const std::vector<ReportRow>& rows, std::size_t width) {
  const TableFit fit = fit_columns(rows, width);
  using Line = std::array<std::string, kCols>;
  constexpr std::array<bool, kCols> kRight{false, false, true, false, true, false, true, false, false};
  auto render = [&](const Line& l) {
    std::string s;
    bool first = true;
    for (std::size_t c = 0; c < kCols; ++c) {
      if (!fit.show[c]) continue;
      if (!first) s += "  ";
      first = false;
      s += kRight[c] ? fmt::format("{:>{}}", l[c], fit.widths[c]) : fmt::format("{:<{}}", l[c], fit.widths[c]);
    }
    return s;
  };
  auto trim = [](std::string s) {
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
  };
  const std::string header = render({"benchmark", "status", "rate", "statistic", "dispersion", "clock", "FLOP/B", "roofline", "repro"});
  // The notes header only where a note can stand on its row.
  out << (header.size() + 7 <= width ? header + "  notes" : trim(header)) << '\n' << std::string(fit.width, '-') << '\n';
  for (const auto& row : rows) {
    const auto& r = row.result;
    const bool rate = has_rate(r);
    Line l;
    l[kId] = r.id;
    l[kStatus] = to_string(r.status);
    l[kRate] = rate ? format_rate(r.value, r.metric.unit) : "-";
    l[kStat] = rate ? fmt::format("{} of {}", to_string(r.statistic), r.stats.count) : "-";
    l[kDisp] = rate ? dispersion_text(r) : "-";
    l[kClock] = clock_text(r.timing_method);
    l[kIntensity] = rate && row.roofline ? intensity_text(row.roofline->arithmetic_intensity) : "-";
    l[kRoof] = rate ? roofline_text(row) : "-";
    l[kRepro] = repro_text(row);
    const std::string line = render(l);
    // A note stays on its row when the whole line fits; otherwise it goes under the row, wrapped,
    // so no line is wider than the terminal and nothing is cut.
    if (r.message.empty()) {
      out << trim(line) << '\n';
    } else if (line.size() + 2 + r.message.size() <= width) {
      out << line << "  " << r.message << '\n';
    } else {
      out << trim(line) << '\n' << wrap_text(r.message, width, 4, 4) << '\n';
    }
  }
}

namespace {

// Right-aligned columns under their headers; `right[c]` for numbers.
template <std::size_t N>
std::string pad_line(const std::array<std::string, N>& cells, const std::array<std::size_t, N>& w,
                     const std::array<bool, N>& right) {
  std::string s;
  for (std::size_t c = 0; c < N; ++c) {
    if (c > 0) s += "  ";
    s += right[c] ? fmt::format("{:>{}}", cells[c], w[c]) : fmt::format("{:<{}}", cells[c], w[c]);
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

constexpr std::array<bool, 6> kStreamRight{false, false, true, false, true, false};

}  // namespace

TableStream::TableStream(const std::vector<std::string>& ids, const std::vector<std::string>& units, std::size_t width)
    : width_(width) {
  // benchmark, status, rate, statistic, dispersion, clock. A rate is at most "999 M" + unit + "/s";
  // a statistic "median of 999"; a dispersion "IQR 100.00%" (wider values still print whole).
  widths_ = {9, 9, 4, 13, 11, 5};
  for (const auto& id : ids) widths_[0] = std::max(widths_[0], id.size());
  for (const auto& u : units) widths_[2] = std::max(widths_[2], 6 + u.size() + 2);
}

std::string TableStream::header() const {
  const std::string h = pad_line<6>({"benchmark", "status", "rate", "statistic", "dispersion", "clock"}, widths_, kStreamRight);
  std::size_t total = 0;
  for (auto w : widths_) total += w;
  total += 2 * (widths_.size() - 1);
  return h + (total + 7 <= width_ ? "  notes" : "") + "\n" + std::string(total, '-') + "\n";
}

std::string TableStream::row(const BenchmarkResult& r) const {
  const bool rate = has_rate(r);
  std::array<std::string, 6> cells{r.id, to_string(r.status), rate ? format_rate(r.value, r.metric.unit) : "-",
                                   rate ? fmt::format("{} of {}", to_string(r.statistic), r.stats.count) : "-",
                                   rate ? dispersion_text(r) : "-", clock_text(r.timing_method)};
  std::array<std::size_t, 6> w = widths_;
  std::string line = pad_line<6>(cells, w, kStreamRight);
  if (r.message.empty()) return line + "\n";
  // Pad to the full row width so a note on the same line starts under "notes".
  std::size_t total = 0;
  for (auto x : w) total += x;
  total += 2 * (w.size() - 1);
  if (line.size() < total) line.append(total - line.size(), ' ');
  if (line.size() + 2 + r.message.size() <= width_) return line + "  " + r.message + "\n";
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line + "\n" + wrap_text(r.message, width_, 4, 4) + "\n";
}

void write_roofline_table(std::ostream& out, const std::vector<ReportRow>& rows) {
  std::vector<std::array<std::string, 3>> lines;
  for (const auto& row : rows) {
    if (!has_rate(row.result) || !row.roofline || !row.roofline->applies) continue;
    lines.push_back({row_key(row.result), intensity_text(row.roofline->arithmetic_intensity), roofline_text(row)});
  }
  if (lines.empty()) return;
  std::array<std::size_t, 3> w{9, 6, 8};
  for (const auto& l : lines) {
    for (std::size_t c = 0; c < 3; ++c) w[c] = std::max(w[c], l[c].size());
  }
  constexpr std::array<bool, 3> kRight{false, true, false};
  out << "\nroofline (the fraction of the ceiling that bounds each row)\n"
      << pad_line<3>({"benchmark", "FLOP/B", "roofline"}, w, kRight) << '\n'
      << std::string(w[0] + w[1] + w[2] + 4, '-') << '\n';
  for (const auto& l : lines) out << pad_line<3>(l, w, kRight) << '\n';
}

void write_repro_table(std::ostream& out, const std::vector<ReportRow>& rows) {
  if (std::none_of(rows.begin(), rows.end(), [](const ReportRow& r) { return r.repro.has_value(); })) return;
  std::size_t w = 9;
  for (const auto& row : rows) w = std::max(w, row.result.id.size());
  out << "\nrepro (the same command in a second process)\n" << fmt::format("{:<{}}  {}", "benchmark", w, "verdict") << '\n'
      << std::string(w + 2 + 24, '-') << '\n';
  for (const auto& row : rows) {
    if (row.repro) out << fmt::format("{:<{}}  {}", row.result.id, w, repro_text(row)) << '\n';
  }
}

void write_table(std::ostream& out, const std::vector<BenchmarkResult>& rows, std::size_t width) {
  auto report_rows = to_report_rows(rows);
  apply_roofline(report_rows);
  write_table(out, report_rows, width);
}

void write_summary(std::ostream& out, const std::vector<ReportRow>& rows, const std::optional<ReproSummary>& repro,
                   std::size_t width, bool streamed) {
  auto line = [&](const std::string& text) { out << wrap_text(text, width, 0, 2) << '\n'; };
  const bool operations = std::any_of(rows.begin(), rows.end(),
                                      [](const ReportRow& r) { return r.result.timing_method == TimingMethod::OperationWallClock; });
  line(std::string("statistic: 'best' = fastest kept run (compute-bound kernels); 'median' = median with IQR (memory "
                   "traffic, contention, scheduling). Rates are metric units per second. clock: gpu = GPU timestamps, "
                   "wall = host wall clock minus the cost of an empty submit.") +
       (operations ? " op = host wall clock around the whole API operation, nothing subtracted." : ""));
  const TableFit fit = fit_columns(rows, width);
  if (!streamed && !fit.left_out.empty()) {
    line(fmt::format("left out to fit {} columns: {} (a wider terminal, the JSON or CSV document or the HTML "
                     "report show them)", width, fmt::join(fit.left_out, ", ")));
  }
  const Ceilings c = find_ceilings(rows);
  std::vector<std::string> ceilings;
  if (c.bandwidth) ceilings.push_back(fmt::format("bandwidth {} ({})", format_rate(c.bandwidth->value, "B"), c.bandwidth->from));
  for (const auto& [precision, ceiling] : c.flops) {
    ceilings.push_back(fmt::format("{} {} ({})", precision, format_rate(ceiling.value, "FLOP"), ceiling.from));
  }
  line(fmt::format("roofline ceilings: {}", ceilings.empty() ? "none measured in this document"
                                                               : fmt::format("{}", fmt::join(ceilings, ", "))));
  std::vector<std::string> low, flagged, cached;
  // Rows without a ceiling, grouped by why: each reason is said once.
  std::vector<std::pair<std::string, std::vector<std::string>>> none;
  for (const auto& row : rows) {
    if (!row.roofline || !has_rate(row.result)) continue;
    if (!row.roofline->applies) {
      std::string why = row.roofline->note;
      if (why.rfind("no ceiling: ", 0) == 0) why = why.substr(12);
      auto it = std::find_if(none.begin(), none.end(), [&](const auto& g) { return g.first == why; });
      if (it == none.end()) {
        none.push_back({why, {}});
        it = none.end() - 1;
      }
      it->second.push_back(row_key(row.result));
    } else if (row.roofline->fraction < kRooflineLowFraction) {
      low.push_back(fmt::format("{} ({:.2f})", row_key(row.result), row.roofline->fraction));
    } else if (const std::string over = over_ceiling(row); !over.empty()) {
      auto& list = over == "cache-window" ? cached : flagged;
      list.push_back(fmt::format("{} ({:.2f})", row_key(row.result), row.roofline->fraction));
    }
  }
  if (!flagged.empty()) {
    line(fmt::format("ABOVE the memory ceiling (!): {}: the row or the ceiling's row is wrong", fmt::join(flagged, ", ")));
  }
  if (!cached.empty()) {
    line(fmt::format("above the DRAM ceiling (cache): {}: windows a cache may hold, rates to read against a cache "
                     "ceiling",
                     fmt::join(cached, ", ")));
  }
  if (!low.empty()) {
    line(fmt::format("below {} of the roofline (an unexplained bottleneck): {}", kRooflineLowFraction, fmt::join(low, ", ")));
  }
  for (const auto& [why, ids] : none) {
    line(fmt::format("no roofline ceiling for {}: {}", fmt::join(ids, ", "), why.empty() ? "no reason recorded" : why));
  }
  if (repro) {
    const std::string& verdict = repro->verdict;
    std::string text = fmt::format("repro (second process): {}", verdict == "pass" ? "PASS" : verdict == "fail" ? "FAIL" : verdict);
    if (!repro->disagreeing.empty()) text += fmt::format(": disagreeing rows: {}", fmt::join(repro->disagreeing, ", "));
    if (!repro->reason.empty()) text += ": " + repro->reason;
    line(text);
  }
}

}  // namespace wgb::report
