// The leaderboard server's routes: the table of method + path -> handler, and the router that
// answers one whole request held in memory (cpp-httplib reads the request and formats the answer;
// it never touches a socket here: the bytes come from and go back to server_connections.hpp). The
// handlers live by what they serve (server_handlers.hpp): server_api.cpp (the JSON API),
// server_submit.cpp (submissions), server_pages.cpp (the HTML pages), server_runner.cpp (/run).
//
//   Router router(site);
//   bool keep = false;
//   std::string answer = router.handle("GET /runs/12 HTTP/1.1\r\n\r\n", "127.0.0.1", 50000, keep);
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace wgb::store {

struct Site;      // what every handler shares (server_handlers.hpp)
struct Exchange;  // one request and its answer (server_handlers.hpp)
using Handler = void (*)(Site&, Exchange&);

struct Route {
  std::string_view method;   // "GET" (which answers HEAD too) or "POST" (whose handler reads the body)
  std::string_view pattern;  // ECMAScript regex over the whole decoded path; groups become captures
  std::string_view name;     // for tests and logs
  Handler handler;
};

// Every route, in the order they are tried (the first match answers).
std::span<const Route> route_table();

// What a method and path come to: a route and its captures, else 404, or 405 when the path has
// routes of other methods only (`allow` lists them for the Allow header, e.g. "GET, HEAD").
struct Resolved {
  const Route* route = nullptr;
  std::vector<std::string> captures;
  int status = 0;  // 0 with a route; else 404 or 405
  std::string allow;
};
Resolved resolve(std::string_view method, const std::string& path);

class Router {
 public:
  explicit Router(Site& site);
  ~Router();
  Router(const Router&) = delete;
  Router& operator=(const Router&) = delete;

  // The answer's bytes to one whole request (`request`: its bytes as received, from a client at
  // ip:port); `keep` false when the connection must close after them. Thread-safe.
  std::string handle(std::string_view request, const std::string& ip, int port, bool& keep);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace wgb::store
