// The leaderboard server's connections (docs/store.md, "Limits and security"): one event thread
// owns every socket. It reads each request whole (head and body) under one deadline and the
// limits of ServerOptions (the head through http::read_head), caps connections per address and in
// all and the body bytes buffered at once, and only then hands the request's bytes to a worker.
// It writes the answers back under a deadline and answers GET /healthz itself, so a slow or
// stalled client never holds a worker and a health check answers at once. What a request means is
// the handler's business (server_routes.hpp); nothing here parses more than the head.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "store/server.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::store {

// Answers one whole request (its bytes, as received) on a worker thread: the answer's bytes, and
// `keep` false when the connection must close after them. An empty answer closes it at once.
using RequestHandler =
    std::function<std::string(std::string_view request, const std::string& ip, int port, bool& keep)>;

class Connections {
 public:
  // Listens on options.host:options.port (never with SO_REUSEPORT: two servers cannot share a
  // port), then starts `options.threads` workers and the event thread. Io error when the address
  // cannot be listened on. `options` is taken as given: ServerOptions' ranges are Server::start's.
  static Expected<std::unique_ptr<Connections>> start(const ServerOptions& options, RequestHandler handler);
  ~Connections();  // stops
  Connections(const Connections&) = delete;
  Connections& operator=(const Connections&) = delete;

  int port() const;  // the bound port (options.port 0: the one the system chose)
  bool running() const;
  // Stops accepting, lets the requests in flight finish (the write deadline at most), joins every
  // thread. Idempotent.
  void stop();

  struct Impl;

 private:
  explicit Connections(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace wgb::store
