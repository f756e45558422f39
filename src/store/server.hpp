// The leaderboard server (`webgpu-bench serve`): a JSON API to submit, fetch, list and rank result
// documents, server-rendered pages (html.hpp), and the browser runner `/run` (the files of web/ and
// the engine, embedded at build time: web_assets.hpp), cross-origin isolated. Visitors may submit
// without the token when `open_submissions` says so, a few per address (rate_limit.hpp). Listens
// on loopback unless told otherwise.
//
// How it stays responsive whatever clients do (docs/store.md, "Limits and security"): one event
// thread owns every socket (server_connections.hpp). It reads each request whole (headers and body)
// under one deadline, with a header-size cap, strict framing (Content-Length only, conflicting
// lengths refused: server_http.hpp) and caps on connections per address and on body bytes buffered
// at once; only then does a worker thread see the request, through the route table and cpp-httplib
// running on the bytes in memory (server_routes.hpp). The event thread writes the answers back
// under a deadline and answers /healthz itself, so slow or stalled clients never hold a worker and
// a health check answers at once.
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
  int threads = 16;                     // workers: they only ever see complete requests
  // A request must arrive whole (request line, headers and body) within this, from its first
  // byte (from the connection for the first request): 408 and the connection closed otherwise.
  std::chrono::milliseconds request_timeout{10000};
  std::chrono::milliseconds write_timeout{10000};      // a whole answer; the connection is closed after
  std::chrono::milliseconds keep_alive_timeout{5000};  // idle between requests on one connection
  std::size_t max_header_bytes = 32 * 1024;  // request line and headers together: 431 beyond
  std::size_t max_headers = 100;             // header lines: 431 beyond
  int max_connections_per_address = 32;      // open connections from one client address: 429 beyond
  int max_connections = 512;                 // open connections in all: 503 beyond
  // Body bytes buffered at once over all connections (declared lengths are reserved when the
  // headers arrive): 503 beyond. 0: 4 x max_body_bytes, at least 64 MiB.
  std::size_t max_buffered_body_bytes = 0;
  int max_parallel_submissions = 2;  // documents parsed and stored at once (each may take ~20x its size)
  // Visitors' submissions (the /run page's Submit) when a token is set: a request without the
  // token is accepted, at most `open_submissions_per_window` per client address (IPv6: per /64)
  // in any `open_submissions_window`, 429 with Retry-After beyond. Without a token and with this
  // set, every submission counts against the limit. Requests with the token are never limited.
  bool open_submissions = false;
  int open_submissions_per_window = 10;
  std::chrono::seconds open_submissions_window{3600};
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
