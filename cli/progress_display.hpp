// The progress bar with an honest ETA on stderr, redrawn between results by its own thread (it
// never touches the GPU, so it cannot delay a timing callback). Shown when stderr is a terminal
// (or with --progress); quiet otherwise and with --quiet. The text of the bar is a pure function
// of a snapshot of SuiteProgress (format_progress_line), unit-tested in tests/unit.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "report/progress_line.hpp"
#include "webgpu_bench/progress.hpp"

namespace wgb::cli {

// The bar's text (report/progress_line.hpp): shared with the browser engine's progress events.
using report::format_duration;
using report::format_progress_line;
using report::ProgressSnapshot;
using report::snapshot;

enum class ProgressMode { Auto, Always, Never };  // Auto: only when stderr is a terminal

class ProgressDisplay {
 public:
  explicit ProgressDisplay(ProgressMode mode);
  // true: Auto (on a terminal only); false: Never.
  explicit ProgressDisplay(bool enabled) : ProgressDisplay(enabled ? ProgressMode::Auto : ProgressMode::Never) {}
  ~ProgressDisplay();
  void begin(std::size_t count, std::vector<double> estimates_s);
  void on_progress(const ProgressEvent& e);
  // A row that really ran (or resolved) completed; `line` is printed above the bar on stderr, and
  // `print` (output on stdout, say) runs while the bar is cleared, so the two never share a line.
  void on_result(std::size_t index, const std::string& line, const std::function<void()>& print = {});
  // An unbounded pause (job control): no ETA until resume(), and the paused time does not count
  // toward the running benchmark's measured duration. `why` is shown in place of the stage.
  void pause(const std::string& why);
  void resume();
  // A completed run: the bar shows 100 % once, then a newline.
  void finish();
  // An interrupted run: drawing stops at the last honest state (never 100 %), then a newline.
  void stop();
  bool enabled() const { return enabled_; }

 private:
  void stop_thread();
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
  bool ended_ = false;
  std::string pause_reason_;  // non-empty while paused
};

}  // namespace wgb::cli
