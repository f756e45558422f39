// The leaderboard server (server.hpp): its options put in range, and its parts joined. The parts
// live by responsibility: server_http (a request's head as bytes, the event thread's own answers),
// server_connections and server_socket (the event thread, its limits and deadlines, the workers),
// server_routes (the route table and the router over requests in memory) and the handlers
// (server_api, server_submit, server_pages, server_runner).
#include "store/server.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>

#include <algorithm>

#include "store/server_connections.hpp"
#include "store/server_http.hpp"
#include "store/server_routes.hpp"
#include "store/server_site.hpp"

namespace wgb::store {

struct Server::Impl {
  ServerOptions options;  // in range (start)
  Site site;
  Router router;
  std::unique_ptr<Connections> connections;  // last: stopped and destroyed before what it calls

  Impl(Store& store, ServerOptions o) : options(std::move(o)), site(store, options), router(site) {}
};

Expected<ListenAddress> parse_listen(const std::string& text) {
  ListenAddress a;
  std::string port;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      return make_error(ErrorKind::Usage, fmt::format("--listen {}: expected [ipv6]:port", text));
    }
    a.host = text.substr(1, close - 1);
    port = text.substr(close + 2);
  } else {
    const auto colon = text.rfind(':');
    if (colon == std::string::npos) {
      return make_error(ErrorKind::Usage, fmt::format("--listen {}: expected host:port", text));
    }
    a.host = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  if (a.host.empty()) a.host = "127.0.0.1";
  std::int64_t p = -1;
  if (!http::parse_i64(port, p) || p < 0 || p > 65535) {
    return make_error(ErrorKind::Usage, fmt::format("--listen {}: the port must be 0..65535", text));
  }
  a.port = static_cast<int>(p);
  return a;
}

bool is_loopback(const std::string& host) {
  if (host == "localhost") return true;
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (inet_pton(AF_INET6, host.c_str(), &v6) == 1) return IN6_IS_ADDR_LOOPBACK(&v6);
  return false;
}

Server::Server(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Server::~Server() { stop(); }

Expected<std::unique_ptr<Server>> Server::start(Store& store, ServerOptions o) {
  if (o.max_body_bytes == 0) return make_error(ErrorKind::Usage, "the body limit must be positive");
  o.threads = std::clamp(o.threads, 2, 256);
  o.max_connections = std::clamp(o.max_connections, 1, 100000);
  o.max_connections_per_address = std::clamp(o.max_connections_per_address, 1, o.max_connections);
  o.max_header_bytes = std::clamp<std::size_t>(o.max_header_bytes, 1024, 1u << 20);
  o.open_submissions_per_window = std::max(1, o.open_submissions_per_window);
  o.open_submissions_window = std::max(o.open_submissions_window, std::chrono::seconds(1));
  auto impl = std::make_unique<Impl>(store, std::move(o));
  Router& router = impl->router;
  auto connections = Connections::start(
      impl->options, [&router](std::string_view request, const std::string& ip, int port, bool& keep) {
        return router.handle(request, ip, port, keep);
      });
  if (!connections) return connections.error();
  impl->connections = std::move(*connections);
  return std::unique_ptr<Server>(new Server(std::move(impl)));
}

int Server::port() const { return impl_->connections->port(); }

std::string Server::url() const {
  const auto& h = impl_->options.host;
  const int port = impl_->connections->port();
  return h.find(':') != std::string::npos ? fmt::format("http://[{}]:{}", h, port)
                                          : fmt::format("http://{}:{}", h, port);
}

bool Server::running() const { return impl_->connections->running(); }

void Server::stop() {
  if (impl_) impl_->connections->stop();
}

}  // namespace wgb::store
