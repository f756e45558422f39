// The progress bar with an honest ETA on stderr, redrawn between results by its own thread (it
// never touches the GPU, so it cannot delay a timing callback). Quiet when stderr is not a
// terminal or with --quiet.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>

#include "webgpu_bench/progress.hpp"

namespace wgb::cli {

class ProgressDisplay {
 public:
  explicit ProgressDisplay(bool enabled);
  ~ProgressDisplay();
  void begin(std::size_t count, std::vector<double> estimates_s);
  void on_progress(const ProgressEvent& e);
  void on_result(std::size_t index, const std::string& line);
  void finish();
  bool enabled() const { return enabled_; }

 private:
  void draw_locked();
  void clear_locked();
  double now_s() const;

  bool enabled_;
  std::mutex mutex_;
  std::unique_ptr<SuiteProgress> progress_;
  std::string current_;
  std::string stage_;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
  double offset_s_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  bool drawn_ = false;
};

std::string format_duration(double seconds);

}  // namespace wgb::cli
