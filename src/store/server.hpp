// The leaderboard server (`webgpu-bench serve`): a JSON API to submit, fetch, list and rank result
// documents, and server-rendered pages (html.hpp). cpp-httplib underneath: a fixed thread pool,
// read/write timeouts, a body-size cap. Listens on loopback unless told otherwise.
//
//   auto server = Server::start(*store, {.host = "127.0.0.1", .port = 0});
//   std::cout << (*server)->url();   // http://127.0.0.1:<port>
//   ...
//   (*server)->stop();
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "store/store.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::store {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;                      // 0: any free port (see Server::port)
  std::string token;                    // when set, submitting needs "Authorization: Bearer <token>"
  std::size_t max_body_bytes = 8u << 20;
  int threads = 16;
  std::chrono::seconds read_timeout{5};  // a silent or stalled client is dropped after this
  std::chrono::seconds write_timeout{5};
  std::function<void(const std::string&)> log;  // one line per request; empty: quiet
};

struct ListenAddress {
  std::string host;
  int port = 0;
};
// "127.0.0.1:8080", "localhost:8080", "[::1]:8080", ":8080" (loopback). Usage error otherwise.
Expected<ListenAddress> parse_listen(const std::string& text);
bool is_loopback(const std::string& host);

class Server {
 public:
  static Expected<std::unique_ptr<Server>> start(Store& store, ServerOptions options);
  ~Server();  // stops
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  int port() const;
  std::string url() const;  // http://host:port
  bool running() const;
  void stop();  // idempotent; waits for the requests in flight

  struct Impl;

 private:
  explicit Server(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace wgb::store
