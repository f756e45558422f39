// Socket primitives of the leaderboard server's event thread (server_connections.cpp): the
// listening socket, accepting one client with its address, and the one-shot refusal of a
// connection that never enters the loop. No state: the limits and deadlines are the event thread's.
#pragma once

#include <optional>
#include <string>

#include "webgpu_bench/expected.hpp"

namespace wgb::store {

// A non-blocking listening socket on host:port; `bound_port` is the port it got (port 0: any free
// one). Io error naming the address and the reason when it cannot listen there.
Expected<int> listen_on(const std::string& host, int port, int& bound_port);

struct Accepted {
  int fd = -1;     // non-blocking, close-on-exec, TCP_NODELAY
  std::string ip;  // the client's address as text ("?" when it is neither IPv4 nor IPv6)
  int port = 0;
};
// The next waiting connection; nullopt when none is waiting (or accepting failed).
std::optional<Accepted> accept_client(int listen_fd);

// Best effort: sends `answer`, half-closes, reads a little of what the client sent (so closing
// does not reset the connection before it read the answer) and closes.
void answer_and_close(int fd, const std::string& answer);

}  // namespace wgb::store
