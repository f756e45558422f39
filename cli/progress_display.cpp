// Draws SuiteProgress as "[#####-----] 3/20 ~1m 05s left (range 50s-1m 20s)  read-linear: sample 2/10".
#include "cli/progress_display.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <iostream>

namespace wgb::cli {

std::string format_duration(double s) {
  if (s < 1) return fmt::format("{:.1f}s", s);
  const auto total = static_cast<long>(std::lround(s));
  if (total < 60) return fmt::format("{}s", total);
  if (total < 3600) return fmt::format("{}m {:02}s", total / 60, total % 60);
  return fmt::format("{}h {:02}m", total / 3600, (total % 3600) / 60);
}

ProgressDisplay::ProgressDisplay(bool enabled) : enabled_(enabled && isatty(STDERR_FILENO) != 0) {}

ProgressDisplay::~ProgressDisplay() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

double ProgressDisplay::now_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
}

void ProgressDisplay::begin(std::size_t count, std::vector<double> estimates_s) {
  std::lock_guard lock(mutex_);
  progress_ = std::make_unique<SuiteProgress>(count, std::move(estimates_s));
  t0_ = std::chrono::steady_clock::now();
  if (!enabled_) return;
  thread_ = std::thread([this] {
    while (!stop_) {
      {
        std::lock_guard l(mutex_);
        if (progress_) {
          progress_->tick(now_s() + offset_s_);
          draw_locked();
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
  });
}

void ProgressDisplay::on_progress(const ProgressEvent& e) {
  std::lock_guard lock(mutex_);
  if (!progress_) return;
  // The scheduler's clock starts after preparation; align it with ours on its first event.
  if (e.kind == ProgressEvent::Kind::SuiteStart) offset_s_ = e.now_s - now_s();
  progress_->on_progress(e);
  if (!e.id.empty()) current_ = e.id;
  stage_ = e.stage;
}

void ProgressDisplay::on_result(std::size_t index, const std::string& line) {
  std::lock_guard lock(mutex_);
  if (progress_) progress_->on_result(index, now_s() + offset_s_);
  if (!line.empty() && enabled_) {
    clear_locked();
    std::cerr << line << '\n';
  }
  draw_locked();
}

void ProgressDisplay::finish() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mutex_);
  if (progress_) progress_->finish();
  if (enabled_) {
    draw_locked();
    std::cerr << '\n';
  }
}

void ProgressDisplay::clear_locked() {
  if (enabled_ && drawn_) std::cerr << "\r\033[2K";
  drawn_ = false;
}

void ProgressDisplay::draw_locked() {
  if (!enabled_ || !progress_) return;
  const double f = progress_->display_fraction();
  constexpr int kWidth = 24;
  const int filled = static_cast<int>(f * kWidth);
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.append(static_cast<std::size_t>(kWidth - filled), '-');
  std::string eta;
  if (auto rem = progress_->remaining_seconds()) {
    eta = fmt::format("{}{} left", progress_->is_approximate() ? "~" : "", format_duration(*rem));
    if (auto range = progress_->remaining_seconds_range()) {
      eta += fmt::format(" ({}-{})", format_duration(range->first), format_duration(range->second));
    }
  } else {
    eta = "paused";
  }
  // Floor, not round: only finish() may show 100 % (seed 000).
  std::cerr << fmt::format("\r\033[2K[{}] {:3.0f}% {}/{} {}  {}{}{}", bar, std::floor(100 * f), progress_->completed_benchmarks(),
                           progress_->benchmark_count(), eta, current_, stage_.empty() ? "" : ": ", stage_)
            << std::flush;
  drawn_ = true;
}

}  // namespace wgb::cli
