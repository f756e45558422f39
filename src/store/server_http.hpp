// HTTP/1.x messages as bytes, for the leaderboard server: where a request's head ends and what it
// says about its body, under the server's limits (docs/store.md, "Limits and security"), and the
// short answers the event thread writes itself. Pure functions over bytes: no socket, no clock, so
// the rules are tested one by one (store_server_http_test) and fuzzed (store_fuzz_test).
//
//   if (auto head = http::read_head(received, limits)) {
//     if (head->refused()) -> answer http::refusal(head->status, head->reason) and close
//     else if (received.size() >= head->size()) -> the request is whole: hand it to a worker
//   }  // nullopt: the head is still arriving
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace wgb::store::http {

struct Limits {
  std::size_t max_header_bytes = 32 * 1024;  // request line and headers together: 431 beyond
  std::size_t max_headers = 100;             // header lines: 431 beyond
  std::size_t max_body_bytes = 8u << 20;     // a declared Content-Length above: 413
};

// What the event thread needs from a request's head; the router reads the rest itself.
struct Head {
  int status = 0;  // non-zero: refuse with this status and `reason` (the connection is closed)
  std::string reason;
  std::string method, target;
  std::size_t head_bytes = 0;  // the request line, the header lines and the empty line after them
  std::size_t body = 0;        // the declared Content-Length (0 without one)
  bool expect_continue = false;
  bool close = false;  // Connection: close, or HTTP/1.0 without keep-alive

  bool refused() const { return status != 0; }
  std::size_t size() const { return head_bytes + body; }  // the whole request
};

// The head of the request that starts `bytes`, once it has arrived whole: nullopt while it has
// not (and may still end within the header cap); a refused Head when it breaks a rule, e.g. 431
// once `max_header_bytes` + 4 bytes arrived without the empty line that ends a head. The verdict
// depends on the bytes only, never on how they were cut into reads.
std::optional<Head> read_head(std::string_view bytes, const Limits& limits);

// The request line and header lines (without the empty line that ends them). Strict where
// ambiguity could let a request be read two ways: one Content-Length (repeats must agree), no
// Transfer-Encoding (RFC 9112).
Head parse_head(std::string_view text, const Limits& limits);

// Sent before the body when a client asked for it (Expect: 100-continue).
inline constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";

// An answer the event thread writes itself (a refusal, the health check): status line, the
// headers every answer carries, Connection: close when `close`, Retry-After: 1 for 429 and 503.
std::string direct_answer(int status, const std::string& body, const char* type, bool close);
// {"error": reason}, the connection closed after it.
std::string refusal(int status, const std::string& reason);

// JSON text that never throws: a reason can quote bytes of a malformed request, and invalid UTF-8
// is replaced rather than thrown on.
std::string json_text(const nlohmann::json& j);
// At most 200 bytes of `s` for a log line, each byte outside printable ASCII as '?'.
std::string printable(std::string_view s);
// A whole decimal integer (an optional '-', digits, nothing else).
bool parse_i64(std::string_view s, std::int64_t& out);
// ASCII case-insensitive equality (header names and tokens).
bool iequals(std::string_view a, std::string_view b);

}  // namespace wgb::store::http
