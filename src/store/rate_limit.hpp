// Visitors' submissions per client address (`serve --open-submissions`, docs/store.md "Limits and
// security"): at most N in any window (a sliding window over the times of the accepted ones), and
// how long to wait when over it, which the server sends as Retry-After. Time is given, never read,
// so tests drive it.
//
//   SubmissionLimiter limit(10, std::chrono::hours(1));
//   if (auto wait = limit.admit(limit_key(ip), SubmissionLimiter::Clock::now()); wait > 0) -> 429
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace wgb::store {

// The key an address is counted under: IPv4 (and IPv4-mapped IPv6) as it is, IPv6 by its /64 (one
// host usually holds a whole /64 and could otherwise rotate through it); anything else as it is.
std::string limit_key(const std::string& ip);

class SubmissionLimiter {
 public:
  using Clock = std::chrono::steady_clock;
  SubmissionLimiter(int per_window, std::chrono::seconds window);
  SubmissionLimiter(SubmissionLimiter&& other) noexcept;
  SubmissionLimiter& operator=(SubmissionLimiter&& other) noexcept;
  ~SubmissionLimiter();

  // 0: the submission may go ahead, and is counted; else the whole seconds (>= 1) until the
  // oldest counted one leaves the window. Thread-safe.
  std::int64_t admit(const std::string& key, Clock::time_point now);

  std::size_t addresses() const;  // keys held (forgotten once their window passed; for tests)

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace wgb::store
