// The DevTools WebSocket client against a scripted server on loopback: the upgrade, frame lengths
// (7-bit, 16-bit, 64-bit), masking, fragmented messages, pings answered, a close, a refused upgrade
// and a silent peer (the deadline, not a hang).
#include "browser/websocket.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <functional>
#include <string>
#include <thread>

namespace wgb::browser {
namespace {

using namespace std::chrono_literals;

// One connection on 127.0.0.1:<port>, served by `script` on a thread.
class FakePeer {
 public:
  explicit FakePeer(std::function<void(int)> script) {
    listen_fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a));
    socklen_t len = sizeof(a);
    getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    listen(listen_fd_, 1);
    thread_ = std::thread([this, script] {
      const int fd = accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) return;
      script(fd);
      close(fd);
    });
  }
  ~FakePeer() {
    shutdown(listen_fd_, SHUT_RDWR);
    thread_.join();
    close(listen_fd_);
  }
  int port() const { return port_; }

 private:
  int listen_fd_ = -1;
  int port_ = 0;
  std::thread thread_;
};

std::string read_request(int fd) {
  std::string head;
  char c;
  while (head.find("\r\n\r\n") == std::string::npos && recv(fd, &c, 1, 0) == 1) head += c;
  return head;
}

void send_all(int fd, const std::string& s) { (void)send(fd, s.data(), s.size(), MSG_NOSIGNAL); }

std::string server_frame(std::uint8_t opcode, const std::string& payload, bool fin = true) {
  std::string f;
  f += static_cast<char>((fin ? 0x80 : 0) | opcode);
  if (payload.size() < 126) {
    f += static_cast<char>(payload.size());
  } else if (payload.size() <= 0xffff) {
    f += static_cast<char>(126);
    f += static_cast<char>(payload.size() >> 8);
    f += static_cast<char>(payload.size() & 0xff);
  } else {
    f += static_cast<char>(127);
    for (int i = 7; i >= 0; --i) f += static_cast<char>((static_cast<std::uint64_t>(payload.size()) >> (8 * i)) & 0xff);
  }
  return f + payload;
}

// Reads one masked client frame and returns {opcode, unmasked payload}.
std::pair<int, std::string> read_client_frame(int fd) {
  unsigned char h[2];
  if (recv(fd, h, 2, MSG_WAITALL) != 2) return {-1, ""};
  std::uint64_t len = h[1] & 0x7f;
  if (len == 126 || len == 127) {
    unsigned char e[8];
    const int n = len == 126 ? 2 : 8;
    recv(fd, e, n, MSG_WAITALL);
    len = 0;
    for (int i = 0; i < n; ++i) len = (len << 8) | e[i];
  }
  unsigned char mask[4];
  recv(fd, mask, 4, MSG_WAITALL);
  std::string p(len, '\0');
  if (len > 0) recv(fd, p.data(), len, MSG_WAITALL);
  for (std::size_t i = 0; i < p.size(); ++i) p[i] = static_cast<char>(p[i] ^ mask[i % 4]);
  return {h[0] & 0x0f, p};
}

const char* kUpgrade = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n";

TEST(ClientFrameHeader, LengthsAndMask) {
  const std::uint8_t mask[4] = {1, 2, 3, 4};
  EXPECT_EQ(client_frame_header(1, 125, mask), std::string("\x81\xfd\x01\x02\x03\x04", 6));
  EXPECT_EQ(client_frame_header(1, 126, mask), std::string("\x81\xfe\x00\x7e\x01\x02\x03\x04", 8));
  EXPECT_EQ(client_frame_header(1, 65536, mask).substr(0, 10), std::string("\x81\xff\0\0\0\0\0\x01\0\0", 10));
}

TEST(WebSocket, EchoesAcrossFrameSizesAndJoinsFragments) {
  std::string request;
  FakePeer peer([&](int fd) {
    request = read_request(fd);
    send_all(fd, kUpgrade);
    for (int i = 0; i < 3; ++i) {
      auto [op, text] = read_client_frame(fd);
      send_all(fd, server_frame(static_cast<std::uint8_t>(op), text));
    }
    // A fragmented message with a ping in between: the client answers the ping and joins the rest.
    send_all(fd, server_frame(1, "hel", false) + server_frame(9, "p") + server_frame(0, "lo"));
    auto [op, pong] = read_client_frame(fd);
    send_all(fd, server_frame(1, op == 10 && pong == "p" ? "pong ok" : "no pong"));
  });
  auto ws = WebSocket::connect("127.0.0.1", peer.port(), "/devtools/browser/x", deadline_in(5s));
  ASSERT_TRUE(ws) << ws.error().message;
  for (std::size_t n : {5u, 300u, 70000u}) {
    const std::string text(n, 'a');
    ASSERT_TRUE(ws->send_text(text, deadline_in(5s)));
    auto back = ws->receive(deadline_in(5s));
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(*back, text);
  }
  auto joined = ws->receive(deadline_in(5s));
  ASSERT_TRUE(joined) << joined.error().message;
  EXPECT_EQ(*joined, "hello");
  auto pong = ws->receive(deadline_in(5s));
  ASSERT_TRUE(pong) << pong.error().message;
  EXPECT_EQ(*pong, "pong ok");
  EXPECT_EQ(request.rfind("GET /devtools/browser/x HTTP/1.1\r\n", 0), 0u) << request;
  EXPECT_NE(request.find("Sec-WebSocket-Key: "), std::string::npos);
}

TEST(WebSocket, ACloseFrameIsAnError) {
  FakePeer peer([](int fd) {
    read_request(fd);
    send_all(fd, std::string(kUpgrade) + server_frame(8, ""));
  });
  auto ws = WebSocket::connect("127.0.0.1", peer.port(), "/", deadline_in(5s));
  ASSERT_TRUE(ws) << ws.error().message;
  auto m = ws->receive(deadline_in(5s));
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("closed"), std::string::npos) << m.error().message;
  EXPECT_FALSE(ws->is_open());
}

TEST(WebSocket, ARefusedUpgradeNamesTheStatus) {
  FakePeer peer([](int fd) {
    read_request(fd);
    send_all(fd, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
  });
  auto ws = WebSocket::connect("127.0.0.1", peer.port(), "/", deadline_in(5s));
  ASSERT_FALSE(ws);
  EXPECT_NE(ws.error().message.find("404 Not Found"), std::string::npos) << ws.error().message;
}

TEST(WebSocket, ASilentPeerTimesOutAtTheDeadline) {
  FakePeer peer([](int fd) {
    read_request(fd);
    send_all(fd, kUpgrade);
    char c;
    recv(fd, &c, 1, 0);  // until the client goes away
  });
  auto ws = WebSocket::connect("127.0.0.1", peer.port(), "/", deadline_in(5s));
  ASSERT_TRUE(ws) << ws.error().message;
  const auto start = Clock::now();
  auto m = ws->receive(deadline_in(200ms));
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("timed out"), std::string::npos) << m.error().message;
  EXPECT_LT(Clock::now() - start, 2s);
  ws->close();
}

TEST(WebSocket, NothingListeningIsANamedError) {
  int port = 0;
  {
    FakePeer peer([](int) {});
    port = peer.port();
    auto ws = WebSocket::connect("127.0.0.1", port, "/", deadline_in(5s));  // let the peer finish
  }
  auto ws = WebSocket::connect("127.0.0.1", port, "/", deadline_in(2s));
  ASSERT_FALSE(ws);
  EXPECT_NE(ws.error().message.find("cannot connect to DevTools"), std::string::npos) << ws.error().message;
}

}  // namespace
}  // namespace wgb::browser
