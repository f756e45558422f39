// Small shared helpers of the report's row model.
#include "report/model.hpp"

#include <fmt/format.h>

#include "report/facts.hpp"

namespace wgb::report {

Dispersion row_dispersion(const BenchmarkResult& r) {
  if (r.statistic == Statistic::Median) {
    return {"iqr", r.stats.median > 0 ? r.stats.iqr / r.stats.median : 0.0};
  }
  return {"cv", r.stats.cv};
}

bool has_rate(const BenchmarkResult& r) {
  const bool measured =
      r.status == RowStatus::Ok || r.status == RowStatus::Throttled || r.status == RowStatus::Suspect;
  return measured && r.value > 0;
}

std::vector<ReportRow> to_report_rows(const std::vector<BenchmarkResult>& rows) {
  std::vector<ReportRow> out;
  out.reserve(rows.size());
  for (const auto& r : rows) out.push_back(ReportRow{r, std::nullopt, std::nullopt});
  return out;
}

std::string row_key(const BenchmarkResult& r) {
  const auto sweep = sweep_point(r.parameters);
  if (!sweep) return r.id;
  return fmt::format("{}@{}={}", r.id, sweep->parameter, sweep->value);
}

}  // namespace wgb::report
