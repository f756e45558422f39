// Socket primitives of the leaderboard server (server_socket.hpp).
#include "store/server_socket.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace wgb::store {

// The listening socket, without SO_REUSEPORT (cpp-httplib sets it by default, which let a second
// server share the port with the first and split its requests). SO_REUSEADDR lets a restarted
// server bind while old connections sit in TIME_WAIT; on Linux it never lets two sockets listen on
// one address.
Expected<int> listen_on(const std::string& host, int port, int& bound_port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* list = nullptr;
  const std::string service = std::to_string(port);
  if (const int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &list); rc != 0) {
    return make_error(ErrorKind::Io, fmt::format("cannot listen on {}:{}: {}", host, port, gai_strerror(rc)));
  }
  std::string reason = "no address";
  int fd = -1;
  for (addrinfo* a = list; a != nullptr && fd < 0; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
    if (fd < 0) {
      reason = std::strerror(errno);
      continue;
    }
    const int yes = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    if (a->ai_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &yes, sizeof(yes));
    if (::bind(fd, a->ai_addr, a->ai_addrlen) != 0 || ::listen(fd, 512) != 0) {
      reason = std::strerror(errno);
      ::close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(list);
  if (fd < 0) return make_error(ErrorKind::Io, fmt::format("cannot listen on {}:{}: {}", host, port, reason));
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  bound_port = ntohs(addr.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port
                                                : reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
  return fd;
}

std::optional<Accepted> accept_client(int listen_fd) {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  const int fd = ::accept4(listen_fd, reinterpret_cast<sockaddr*>(&addr), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
  if (fd < 0) return std::nullopt;
  char host[INET6_ADDRSTRLEN] = "?";
  Accepted a;
  a.fd = fd;
  if (addr.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&addr);
    inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
    a.port = ntohs(in->sin_port);
  } else if (addr.ss_family == AF_INET6) {
    const auto* in = reinterpret_cast<const sockaddr_in6*>(&addr);
    inet_ntop(AF_INET6, &in->sin6_addr, host, sizeof(host));
    a.port = ntohs(in->sin6_port);
  }
  a.ip = host;
  const int yes = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
  return a;
}

void answer_and_close(int fd, const std::string& answer) {
  (void)::send(fd, answer.data(), answer.size(), MSG_NOSIGNAL);
  ::shutdown(fd, SHUT_WR);
  char sink[4096];
  (void)::recv(fd, sink, sizeof(sink), 0);
  ::close(fd);
}

}  // namespace wgb::store
