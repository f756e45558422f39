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

#include "webgpu_bench/progress.hpp"

namespace wgb::cli {

// Everything the bar shows, read from SuiteProgress at one instant.
struct ProgressSnapshot {
  double fraction = 0;                               // SuiteProgress::display_fraction()
  bool finished = false;                             // finish() was called: the only 100 %
  std::optional<double> remaining_s;                 // nullopt: unbounded pause (no ETA)
  std::optional<std::pair<double, double>> range_s;  // empirical uncertainty range
  bool approximate = true;                           // shown with a leading "~"
  std::size_t completed = 0, count = 0;
  std::string current, stage;  // benchmark id and its stage text
};
ProgressSnapshot snapshot(const SuiteProgress& p, std::string current = {}, std::string stage = {});

// "[#####-------]  21% 3/20 ~1m 05s left (50s-1m 20s)  read-linear: sample 2/10". Percent is
// floored and capped at 99 until `finished`; "paused" instead of an ETA while none exists.
std::string format_progress_line(const ProgressSnapshot& s, int bar_width = 24);

// "0.4s", "12s", "3m 05s", "1h 02m": unrounded below one second (still meaningful there).
std::string format_duration(double seconds);

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
