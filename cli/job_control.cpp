// Implementation of StopWatcher (job_control.hpp).
#include "cli/job_control.hpp"

#include <pthread.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>
#include <utility>

namespace wgb::cli {

StopWatcher::StopWatcher(std::function<void()> before_stop, std::function<void()> after_continue)
    : before_stop_(std::move(before_stop)), after_continue_(std::move(after_continue)) {
  sigset_t tstp;
  sigemptyset(&tstp);
  sigaddset(&tstp, SIGTSTP);
  pthread_sigmask(SIG_BLOCK, &tstp, &old_mask_);
  thread_ = std::thread([this, tstp] {
    while (!done_) {
      // Synchronous: no async-signal-safety constraint on what follows. The timeout lets the
      // destructor end the thread.
      const timespec slice{0, 200'000'000};
      const int sig = sigtimedwait(&tstp, nullptr, &slice);
      if (sig != SIGTSTP) continue;  // timeout or EINTR
      if (before_stop_) before_stop_();
      // What SIGTSTP's default action does: stop every thread of the process until SIGCONT.
      kill(getpid(), SIGSTOP);
      if (after_continue_) after_continue_();
    }
  });
}

StopWatcher::~StopWatcher() {
  done_ = true;
  if (thread_.joinable()) thread_.join();
  pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
}

}  // namespace wgb::cli
