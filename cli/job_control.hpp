// Job control as the one unbounded pause a native run has (no estimate during unbounded pauses,
// docs/method.md#sampling; a browser's hidden tab has no native counterpart). While a StopWatcher lives, Ctrl-Z
// (SIGTSTP) is taken synchronously by its own thread instead of by an asynchronous handler: it
// calls `before_stop` (the display records PauseStart: no ETA, and the stopped time is excluded
// from the running benchmark's measured duration), stops the whole process with SIGSTOP as the
// default action would, and after SIGCONT calls `after_continue` (PauseEnd).
#pragma once

#include <signal.h>

#include <atomic>
#include <functional>
#include <thread>

namespace wgb::cli {

class StopWatcher {
 public:
  // Blocks SIGTSTP in the calling thread, and so in every thread it creates afterwards: construct
  // it before the GPU device (whose driver threads would otherwise take the signal and stop the
  // process without the pause being recorded).
  StopWatcher(std::function<void()> before_stop, std::function<void()> after_continue);
  ~StopWatcher();  // joins its thread and restores the signal mask (a pending SIGTSTP then stops)
  StopWatcher(const StopWatcher&) = delete;
  StopWatcher& operator=(const StopWatcher&) = delete;

 private:
  std::function<void()> before_stop_, after_continue_;
  sigset_t old_mask_{};
  std::atomic<bool> done_{false};
  std::thread thread_;
};

}  // namespace wgb::cli
