// The WebSocket client of websocket.hpp: POSIX sockets with poll() against a deadline.
#include "browser/websocket.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <random>

namespace wgb::browser {

namespace {

int remaining_ms(Deadline deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, 1000000));
}

Error timed_out(const char* what) { return make_error(ErrorKind::Failed, fmt::format("timed out {}", what)); }

// Moves `n` bytes through the socket: waits (until the deadline) for `events`, then calls `step`
// with the bytes left, a send or recv that returns how many it moved. `waiting` names the wait in
// the time-out error; a step that moves 0 bytes means the browser closed the connection.
template <class Step>
Status move_bytes(int fd, short events, std::size_t n, Deadline deadline, const char* waiting, Step step) {
  while (n > 0) {
    pollfd p{fd, events, 0};
    const int r = poll(&p, 1, remaining_ms(deadline));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return timed_out(waiting);
    const auto moved = step(n);
    if (moved == 0) return make_error(ErrorKind::Failed, "the browser closed the DevTools connection");
    if (moved < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return make_error(ErrorKind::Failed, fmt::format("DevTools socket: {}", std::strerror(errno)));
    }
    n -= static_cast<std::size_t>(moved);
  }
  return ok();
}

Status write_all(int fd, const char* data, std::size_t n, Deadline deadline) {
  return move_bytes(fd, POLLOUT, n, deadline, "writing to the browser's DevTools socket", [&](std::size_t left) {
    const auto w = ::send(fd, data, left, MSG_NOSIGNAL);
    if (w > 0) data += w;
    return w;
  });
}

void random_mask(std::uint8_t mask[4]) {
  static thread_local std::mt19937 gen{std::random_device{}()};
  const std::uint32_t v = gen();
  std::memcpy(mask, &v, 4);
}

std::string base64(const std::uint8_t* p, std::size_t n) {
  static constexpr char kTable[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < n; i += 3) {
    const std::uint32_t v = (std::uint32_t{p[i]} << 16) | (i + 1 < n ? std::uint32_t{p[i + 1]} << 8 : 0) |
                            (i + 2 < n ? std::uint32_t{p[i + 2]} : 0);
    out += kTable[(v >> 18) & 63];
    out += kTable[(v >> 12) & 63];
    out += i + 1 < n ? kTable[(v >> 6) & 63] : '=';
    out += i + 2 < n ? kTable[v & 63] : '=';
  }
  return out;
}

}  // namespace

std::string client_frame_header(std::uint8_t opcode, std::size_t payload_size, const std::uint8_t mask[4]) {
  std::string h;
  h += static_cast<char>(0x80 | (opcode & 0x0f));
  if (payload_size < 126) {
    h += static_cast<char>(0x80 | payload_size);
  } else if (payload_size <= 0xffff) {
    h += static_cast<char>(0x80 | 126);
    h += static_cast<char>((payload_size >> 8) & 0xff);
    h += static_cast<char>(payload_size & 0xff);
  } else {
    h += static_cast<char>(0x80 | 127);
    for (int i = 7; i >= 0; --i) h += static_cast<char>((static_cast<std::uint64_t>(payload_size) >> (8 * i)) & 0xff);
  }
  h.append(reinterpret_cast<const char*>(mask), 4);
  return h;
}

Expected<WebSocket> WebSocket::connect(const std::string& host, int port, const std::string& path, Deadline deadline) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  if (const int rc = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res); rc != 0) {
    return make_error(ErrorKind::Failed, fmt::format("DevTools address {}: {}", host, gai_strerror(rc)));
  }
  int fd = -1;
  std::string last_error = "no address";
  for (addrinfo* a = res; a != nullptr && fd < 0; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    if (::connect(fd, a->ai_addr, a->ai_addrlen) != 0 && errno != EINPROGRESS) {
      last_error = std::strerror(errno);
      ::close(fd);
      fd = -1;
      continue;
    }
    pollfd p{fd, POLLOUT, 0};
    int err = 0;
    socklen_t len = sizeof(err);
    if (poll(&p, 1, remaining_ms(deadline)) <= 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) {
      last_error = err != 0 ? std::strerror(err) : "timed out";
      ::close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(res);
  if (fd < 0) {
    return make_error(ErrorKind::Failed, fmt::format("cannot connect to DevTools at {}:{}: {}", host, port, last_error));
  }
  WebSocket ws(fd);
  std::uint8_t key[16];
  for (int i = 0; i < 16; i += 4) random_mask(key + i);
  const std::string request = fmt::format(
      "GET {} HTTP/1.1\r\nHost: {}:{}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: {}\r\nSec-WebSocket-Version: 13\r\n\r\n",
      path, host, port, base64(key, 16));
  if (auto st = write_all(fd, request.data(), request.size(), deadline); !st) return st.error();
  // The answer's headers: "HTTP/1.1 101 ..." up to the blank line (the accept hash is not checked:
  // the peer is the browser this process launched, on loopback).
  std::string head;
  while (head.find("\r\n\r\n") == std::string::npos) {
    if (head.size() > 16384) return make_error(ErrorKind::Failed, "DevTools upgrade answer too long");
    char buf[1024];
    pollfd p{fd, POLLIN, 0};
    const int r = poll(&p, 1, remaining_ms(deadline));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return timed_out("waiting for the DevTools WebSocket upgrade");
    const auto n = ::recv(fd, buf, sizeof(buf), 0);
    if (n == 0) return make_error(ErrorKind::Failed, "DevTools closed the connection during the upgrade");
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return make_error(ErrorKind::Failed, fmt::format("DevTools socket: {}", std::strerror(errno)));
    }
    head.append(buf, static_cast<std::size_t>(n));
  }
  const auto end = head.find("\r\n\r\n");
  const std::string status_line = head.substr(0, head.find("\r\n"));
  if (status_line.find(" 101") == std::string::npos) {
    return make_error(ErrorKind::Failed, fmt::format("DevTools refused the WebSocket upgrade: {}", status_line));
  }
  ws.buffered_ = head.substr(end + 4);
  return ws;
}

WebSocket::~WebSocket() { close(); }

WebSocket::WebSocket(WebSocket&& o) noexcept : fd_(o.fd_), buffered_(std::move(o.buffered_)) { o.fd_ = -1; }

WebSocket& WebSocket::operator=(WebSocket&& o) noexcept {
  if (this != &o) {
    close();
    fd_ = o.fd_;
    buffered_ = std::move(o.buffered_);
    o.fd_ = -1;
  }
  return *this;
}

void WebSocket::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

Status WebSocket::send_frame(std::uint8_t opcode, std::string_view payload, Deadline deadline) {
  if (fd_ < 0) return make_error(ErrorKind::Failed, "DevTools connection closed");
  std::uint8_t mask[4];
  random_mask(mask);
  std::string frame = client_frame_header(opcode, payload.size(), mask);
  const std::size_t start = frame.size();
  frame.append(payload);
  for (std::size_t i = 0; i < payload.size(); ++i) frame[start + i] = static_cast<char>(frame[start + i] ^ mask[i % 4]);
  return write_all(fd_, frame.data(), frame.size(), deadline);
}

Status WebSocket::send_text(std::string_view text, Deadline deadline) { return send_frame(0x1, text, deadline); }

Status WebSocket::read_exact(char* dst, std::size_t n, Deadline deadline) {
  const std::size_t from_buffer = std::min(n, buffered_.size());
  std::memcpy(dst, buffered_.data(), from_buffer);
  buffered_.erase(0, from_buffer);
  dst += from_buffer;
  n -= from_buffer;
  return move_bytes(fd_, POLLIN, n, deadline, "waiting for the browser (DevTools)", [&](std::size_t left) {
    const auto got = ::recv(fd_, dst, left, 0);
    if (got > 0) dst += got;
    if (got == 0) close();
    return got;
  });
}

Expected<std::string> WebSocket::receive(Deadline deadline) {
  if (fd_ < 0) return make_error(ErrorKind::Failed, "DevTools connection closed");
  std::string message;
  for (;;) {
    unsigned char h[2];
    if (auto st = read_exact(reinterpret_cast<char*>(h), 2, deadline); !st) return st.error();
    const bool fin = (h[0] & 0x80) != 0;
    const std::uint8_t opcode = h[0] & 0x0f;
    const bool masked = (h[1] & 0x80) != 0;
    std::uint64_t len = h[1] & 0x7f;
    if (len == 126 || len == 127) {
      unsigned char ext[8];
      const std::size_t n = len == 126 ? 2 : 8;
      if (auto st = read_exact(reinterpret_cast<char*>(ext), n, deadline); !st) return st.error();
      len = 0;
      for (std::size_t i = 0; i < n; ++i) len = (len << 8) | ext[i];
    }
    unsigned char mask[4] = {0, 0, 0, 0};
    if (masked) {
      if (auto st = read_exact(reinterpret_cast<char*>(mask), 4, deadline); !st) return st.error();
    }
    if (len > kMaxMessageBytes || message.size() + len > kMaxMessageBytes) {
      close();
      return make_error(ErrorKind::Failed, fmt::format("DevTools message larger than {} MiB", kMaxMessageBytes >> 20));
    }
    std::string payload(static_cast<std::size_t>(len), '\0');
    if (auto st = read_exact(payload.data(), payload.size(), deadline); !st) return st.error();
    if (masked) {
      for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<char>(payload[i] ^ mask[i % 4]);
    }
    if (opcode == 0x8) {  // close
      close();
      return make_error(ErrorKind::Failed, "the browser closed the DevTools connection");
    }
    if (opcode == 0x9) {  // ping: answer, keep reading
      if (auto st = send_frame(0xA, payload, deadline); !st) return st.error();
      continue;
    }
    if (opcode == 0xA) continue;  // pong
    message += payload;
    if (fin) return message;
  }
}

}  // namespace wgb::browser
