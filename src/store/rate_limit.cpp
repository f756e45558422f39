// Visitors' submissions per address in a sliding window.
#include "store/rate_limit.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>

namespace wgb::store {

std::string limit_key(const std::string& ip) {
  in6_addr v6{};
  if (inet_pton(AF_INET6, ip.c_str(), &v6) != 1 || IN6_IS_ADDR_V4MAPPED(&v6)) return ip;
  for (int i = 8; i < 16; ++i) v6.s6_addr[i] = 0;
  char buf[INET6_ADDRSTRLEN] = {};
  inet_ntop(AF_INET6, &v6, buf, sizeof(buf));
  return std::string(buf) + "/64";
}

struct SubmissionLimiter::State {
  int per_window;
  std::chrono::seconds window;
  mutable std::mutex mutex;
  std::unordered_map<std::string, std::deque<Clock::time_point>> seen;
  std::size_t prune_at = 10000;
};

SubmissionLimiter::SubmissionLimiter(int per_window, std::chrono::seconds window)
    : state_(std::make_unique<State>()) {
  state_->per_window = std::max(1, per_window);
  state_->window = std::max(window, std::chrono::seconds(1));
}
SubmissionLimiter::SubmissionLimiter(SubmissionLimiter&& other) noexcept = default;
SubmissionLimiter& SubmissionLimiter::operator=(SubmissionLimiter&& other) noexcept = default;
SubmissionLimiter::~SubmissionLimiter() = default;

std::int64_t SubmissionLimiter::admit(const std::string& key, Clock::time_point now) {
  auto& s = *state_;
  std::lock_guard lock(s.mutex);
  if (s.seen.size() > s.prune_at) {
    // Forget the addresses whose every submission left the window. Pruning only when the map has
    // doubled keeps the work per submission bounded on average, however many addresses come.
    for (auto it = s.seen.begin(); it != s.seen.end();) {
      it = it->second.empty() || it->second.back() + s.window <= now ? s.seen.erase(it) : std::next(it);
    }
    s.prune_at = std::max<std::size_t>(10000, 2 * s.seen.size());
  }
  auto& times = s.seen[key];
  while (!times.empty() && times.front() + s.window <= now) times.pop_front();
  if (static_cast<int>(times.size()) >= s.per_window) {
    const auto wait = std::chrono::ceil<std::chrono::seconds>(times.front() + s.window - now).count();
    return std::max<std::int64_t>(1, wait);
  }
  times.push_back(now);
  return 0;
}

std::size_t SubmissionLimiter::addresses() const {
  std::lock_guard lock(state_->mutex);
  return state_->seen.size();
}

}  // namespace wgb::store
