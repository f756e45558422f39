// What every handler of the leaderboard server shares (server_handlers.hpp): the store, the
// server's options, and the limits on submissions. One per server; the handlers run on the
// worker threads at once, so everything here is thread-safe.
#pragma once

#include <algorithm>
#include <semaphore>

#include "store/rate_limit.hpp"
#include "store/server.hpp"
#include "store/store.hpp"

namespace wgb::store {

struct Site {
  Store& store;
  const ServerOptions& options;  // in range (Server::start)
  // Visitors' submissions per address (options.open_submissions).
  SubmissionLimiter limiter;
  // Documents parsed and stored at once: parsing may take many times a body in memory.
  std::counting_semaphore<256> submissions;

  Site(Store& s, const ServerOptions& o)
      : store(s),
        options(o),
        limiter(o.open_submissions_per_window, o.open_submissions_window),
        submissions(std::clamp(o.max_parallel_submissions, 1, 256)) {}
};

}  // namespace wgb::store
