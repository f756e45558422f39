// Draws SuiteProgress as "[#####-----]  15% 3/20 ~1m 05s left (50s-1m 20s)  read-linear: sample 2/10".
#include "cli/progress_display.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <iostream>

namespace wgb::cli {

ProgressDisplay::ProgressDisplay(ProgressMode mode)
    : enabled_(mode == ProgressMode::Always || (mode == ProgressMode::Auto && isatty(STDERR_FILENO) != 0)) {}

ProgressDisplay::~ProgressDisplay() { stop_thread(); }

void ProgressDisplay::stop_thread() {
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
        if (progress_ && !ended_) {
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
  if (!progress_ || ended_) return;
  // The scheduler's clock starts after preparation; align it with ours on its first event.
  if (e.kind == ProgressEvent::Kind::SuiteStart) offset_s_ = e.now_s - now_s();
  progress_->on_progress(e);
  if (e.kind == ProgressEvent::Kind::Resolved) return;  // about another benchmark than the current
  if (!e.id.empty()) current_ = e.id;
  stage_ = e.stage;
}

void ProgressDisplay::on_result(std::size_t index, const std::string& line, const std::function<void()>& print) {
  std::lock_guard lock(mutex_);
  if (print) {
    if (enabled_) clear_locked();
    print();
  }
  if (ended_) return;
  if (progress_) progress_->on_result(index, now_s() + offset_s_);
  if (!line.empty() && enabled_) {
    clear_locked();
    std::cerr << line << '\n';
  }
  draw_locked();
}

void ProgressDisplay::pause(const std::string& why) {
  std::lock_guard lock(mutex_);
  if (!progress_ || ended_ || !pause_reason_.empty()) return;
  ProgressEvent e;
  e.kind = ProgressEvent::Kind::PauseStart;
  e.now_s = now_s() + offset_s_;
  progress_->on_progress(e);
  pause_reason_ = why.empty() ? "paused" : why;
  if (enabled_) {
    draw_locked();  // "paused" in place of the ETA; the line is ended so the shell's message has its own
    std::cerr << '\n' << std::flush;
    drawn_ = false;
  }
}

void ProgressDisplay::resume() {
  std::lock_guard lock(mutex_);
  if (!progress_ || ended_ || pause_reason_.empty()) return;
  ProgressEvent e;
  e.kind = ProgressEvent::Kind::PauseEnd;
  e.now_s = now_s() + offset_s_;
  progress_->on_progress(e);
  pause_reason_.clear();
  draw_locked();
}

void ProgressDisplay::finish() {
  stop_thread();
  std::lock_guard lock(mutex_);
  if (ended_) return;
  ended_ = true;
  if (progress_) progress_->finish();
  if (enabled_) {
    draw_locked();
    std::cerr << '\n';
  }
}

void ProgressDisplay::stop() {
  stop_thread();
  std::lock_guard lock(mutex_);
  if (ended_) return;
  ended_ = true;
  // Leave the last drawn (honest, below 100 %) state on screen and end its line.
  if (enabled_ && drawn_) std::cerr << '\n';
  drawn_ = false;
}

void ProgressDisplay::clear_locked() {
  if (enabled_ && drawn_) std::cerr << "\r\033[2K";
  drawn_ = false;
}

void ProgressDisplay::draw_locked() {
  if (!enabled_ || !progress_) return;
  std::cerr << "\r\033[2K"
            << format_progress_line(snapshot(*progress_, current_, pause_reason_.empty() ? stage_ : pause_reason_))
            << std::flush;
  drawn_ = true;
}

}  // namespace wgb::cli
