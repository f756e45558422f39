// CSV writer (pure; pinned by tests/golden/report_csv_test.cpp).
#include "report/csv.hpp"

#include <fmt/format.h>

#include <cmath>

#include "report/facts.hpp"
#include "report/table.hpp"

namespace wgb::report {

const std::vector<std::string>& csv_columns() {
  static const std::vector<std::string> cols{
      "index",         "id",           "label",           "category",        "family",
      "status",        "statistic",    "value",           "value_unit",      "value_low",
      "value_high",    "time_ms",      "dispersion_kind", "dispersion_relative", "samples",
      "timing_method", "knob",         "repetitions_per_batch", "bytes_read", "bytes_written",
      "operations",    "arithmetic_intensity", "fraction_of_roofline", "roofline_bound", "roofline_note",
      "repro_verdict", "repro_second_value", "repro_difference", "repro_allowed", "sweep_parameter",
      "sweep_value",   "wgsl_hash",    "message"};
  return cols;
}

std::string csv_field(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

namespace {

std::string num(double x) {
  if (std::isnan(x)) return "";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return fmt::format("{}", x);
}

}  // namespace

void write_csv(std::ostream& out, const std::vector<ReportRow>& rows) {
  const auto& cols = csv_columns();
  for (std::size_t i = 0; i < cols.size(); ++i) out << (i ? "," : "") << cols[i];
  out << "\r\n";
  for (const auto& row : rows) {
    const auto& r = row.result;
    const bool rate = has_rate(r);
    const auto d = row_dispersion(r);
    std::vector<std::string> f;
    f.push_back(std::to_string(r.index));
    f.push_back(r.id);
    f.push_back(r.label);
    f.push_back(r.category);
    f.push_back(r.family);
    f.push_back(to_string(r.status));
    f.push_back(to_string(r.statistic));
    f.push_back(rate ? num(r.value) : "");
    f.push_back(r.metric.unit + "/s");
    f.push_back(rate ? num(r.value_low) : "");
    f.push_back(rate ? num(r.value_high) : "");
    f.push_back(rate ? num(r.time_ms) : "");
    f.push_back(rate ? d.kind : "");
    f.push_back(rate ? num(d.relative) : "");
    f.push_back(std::to_string(r.stats.count));
    f.push_back(to_string(r.timing_method));
    f.push_back(rate ? std::to_string(r.knob) : "");
    f.push_back(rate ? std::to_string(r.repetitions) : "");
    f.push_back(num(r.work.bytes_read));
    f.push_back(num(r.work.bytes_written));
    f.push_back(num(r.work.operations));
    const bool roof = rate && row.roofline.has_value();
    f.push_back(roof ? num(row.roofline->arithmetic_intensity) : "");
    f.push_back(roof && row.roofline->applies ? num(row.roofline->fraction) : "");
    f.push_back(roof ? row.roofline->bound : "");
    f.push_back(roof ? row.roofline->note : "");
    f.push_back(row.repro ? row.repro->verdict : "");
    f.push_back(row.repro && row.repro->second_value > 0 ? num(row.repro->second_value) : "");
    f.push_back(row.repro && row.repro->ratio > 0 ? num(row.repro->difference) : "");
    f.push_back(row.repro && row.repro->ratio > 0 ? num(row.repro->allowed) : "");
    const auto sweep = sweep_point(r.parameters);
    f.push_back(sweep ? sweep->parameter : "");
    f.push_back(sweep ? std::to_string(sweep->value) : "");
    f.push_back(r.wgsl_hash);
    f.push_back(r.message);
    for (std::size_t i = 0; i < f.size(); ++i) out << (i ? "," : "") << csv_field(f[i]);
    out << "\r\n";
  }
}

}  // namespace wgb::report
