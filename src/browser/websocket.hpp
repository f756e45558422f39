// A minimal WebSocket client (RFC 6455) for the Chrome DevTools protocol on loopback: one TCP
// connection, the HTTP upgrade, masked text frames out, whole messages in (continuations joined,
// pings answered, close reported). Every call is bounded by a deadline: a browser that stops
// answering becomes an error naming what was awaited, never a hang.
//
//   auto ws = WebSocket::connect("127.0.0.1", 9222, "/devtools/browser/ID", deadline);
//   ws->send_text(R"({"id":1,"method":"Browser.getVersion"})", deadline);
//   auto reply = ws->receive(deadline);
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "webgpu_bench/expected.hpp"

namespace wgb::browser {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;
inline Deadline deadline_in(std::chrono::milliseconds d) { return Clock::now() + d; }

// The frame header for a client frame (FIN set, masked) carrying `payload_size` bytes with `opcode`,
// mask key included; exposed for tests.
std::string client_frame_header(std::uint8_t opcode, std::size_t payload_size, const std::uint8_t mask[4]);

class WebSocket {
 public:
  // Messages larger than this are refused (a result document is a few MiB at most).
  static constexpr std::size_t kMaxMessageBytes = std::size_t{256} << 20;

  static Expected<WebSocket> connect(const std::string& host, int port, const std::string& path, Deadline deadline);
  WebSocket() = default;
  ~WebSocket();
  WebSocket(WebSocket&& o) noexcept;
  WebSocket& operator=(WebSocket&& o) noexcept;
  WebSocket(const WebSocket&) = delete;
  WebSocket& operator=(const WebSocket&) = delete;

  Status send_text(std::string_view text, Deadline deadline);
  // The next whole text or binary message. A close frame or a closed socket is an error ("closed").
  Expected<std::string> receive(Deadline deadline);
  bool is_open() const { return fd_ >= 0; }
  void close();

 private:
  explicit WebSocket(int fd) : fd_(fd) {}
  Status send_frame(std::uint8_t opcode, std::string_view payload, Deadline deadline);
  Status read_exact(char* dst, std::size_t n, Deadline deadline);
  int fd_ = -1;
  std::string buffered_;  // bytes read past the HTTP upgrade answer
};

}  // namespace wgb::browser
