// Raw HTTP over a loopback socket for the store's server tests: the requests no HTTP client would
// send (trickled, malformed, oversized). Every loop is bounded, and every socket has timeouts.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace wgb::store::test {

// A socket connected to 127.0.0.1:port with send and receive timeouts of `timeout_s`; -1 when the
// connection failed (the socket is closed then).
inline int connect_loopback(int port, long timeout_s) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  timeval tv{timeout_s, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// Appends to `in` until one whole response (headers and Content-Length bytes of body) is there,
// the server closes, the receive timeout passes, or `max_reads` reads were made.
inline void read_response(int fd, std::string& in, int max_reads) {
  char buf[8192];
  for (int i = 0; i < max_reads; ++i) {
    const auto n = recv(fd, buf, sizeof(buf), 0);
    if (n <= 0) return;
    in.append(buf, static_cast<std::size_t>(n));
    const auto end = in.find("\r\n\r\n");
    const auto cl = in.find("Content-Length: ");
    if (end != std::string::npos && cl != std::string::npos && cl < end &&
        in.size() >= end + 4 + static_cast<std::size_t>(std::atol(in.c_str() + cl + 16))) {
      return;
    }
  }
}

}  // namespace wgb::store::test
