// ErrorSink (context.hpp): Dawn's uncaptured-error and device-lost callbacks may run on other
// threads, so the pending messages sit behind a lock.
#include <mutex>

#include "webgpu_bench/context.hpp"

namespace wgb::gpu {

struct ErrorSink::State {
  std::mutex mutex;
  std::vector<std::string> pending;
  std::string lost_message;
};

ErrorSink::ErrorSink() : state_(std::make_unique<State>()) {}
ErrorSink::~ErrorSink() = default;

void ErrorSink::report_uncaptured(std::string message) {
  std::lock_guard lock(state_->mutex);
  state_->pending.push_back(std::move(message));
  errors_.fetch_add(1);
}

void ErrorSink::report_lost(std::string message) {
  std::lock_guard lock(state_->mutex);
  if (!lost_.load()) state_->lost_message = std::move(message);
  lost_.store(true);
}

std::vector<std::string> ErrorSink::take() {
  std::lock_guard lock(state_->mutex);
  errors_.store(0);
  return std::exchange(state_->pending, {});
}

std::string ErrorSink::lost_message() const {
  std::lock_guard lock(state_->mutex);
  return state_->lost_message;
}

}  // namespace wgb::gpu
