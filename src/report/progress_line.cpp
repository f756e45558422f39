// The progress bar's text (progress_line.hpp).
#include "report/progress_line.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace wgb::report {

std::string format_duration(double s) {
  if (!std::isfinite(s) || s < 0) s = 0;
  if (s < 1) return fmt::format("{:.1f}s", s);
  const auto total = static_cast<long>(std::lround(s));
  if (total < 60) return fmt::format("{}s", total);
  if (total < 3600) return fmt::format("{}m {:02}s", total / 60, total % 60);
  return fmt::format("{}h {:02}m", total / 3600, (total % 3600) / 60);
}

ProgressSnapshot snapshot(const SuiteProgress& p, std::string current, std::string stage) {
  ProgressSnapshot s;
  s.fraction = p.display_fraction();
  s.finished = p.finished();
  s.remaining_s = p.remaining_seconds();
  s.range_s = p.remaining_seconds_range();
  s.approximate = p.is_approximate();
  s.completed = p.completed_benchmarks();
  s.count = p.benchmark_count();
  s.current = std::move(current);
  s.stage = std::move(stage);
  return s;
}

std::string format_progress_line(const ProgressSnapshot& s, int bar_width) {
  const double f = s.finished ? 1.0 : std::clamp(std::isfinite(s.fraction) ? s.fraction : 0.0, 0.0, 1.0);
  // Floor, and at most 99 before the end: only finish() may show 100 % (docs/method.md#sampling).
  const int percent = s.finished ? 100 : std::min(99, static_cast<int>(std::floor(100 * f)));
  const int filled = s.finished ? bar_width : std::min(bar_width - 1, static_cast<int>(f * bar_width));
  std::string bar(static_cast<std::size_t>(std::max(0, filled)), '#');
  bar.append(static_cast<std::size_t>(bar_width - std::max(0, filled)), '-');
  std::string eta;
  if (s.finished) {
    eta = "done";
  } else if (s.remaining_s) {
    eta = fmt::format("{}{} left", s.approximate ? "~" : "", format_duration(*s.remaining_s));
    if (s.range_s)
      eta += fmt::format(" ({}-{})", format_duration(s.range_s->first), format_duration(s.range_s->second));
  } else {
    eta = "paused";  // an unbounded pause: no honest number exists
  }
  std::string line = fmt::format("[{}] {:3}% {}/{} {}", bar, percent, s.completed, s.count, eta);
  if (!s.finished && !s.current.empty()) {
    line += fmt::format("  {}{}{}", s.current, s.stage.empty() ? "" : ": ", s.stage);
  }
  return line;
}

}  // namespace wgb::report
