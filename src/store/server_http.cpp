// HTTP/1.x request heads and the event thread's own answers, as pure functions over bytes
// (server_http.hpp).
#include "store/server_http.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cstring>

namespace wgb::store::http {

namespace {

std::string_view trim(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  return v;
}

bool token_char(unsigned char c) {
  return std::isalnum(c) || std::strchr("!#$%&'*+-.^_`|~", c) != nullptr;
}

const char* status_text(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 408: return "Request Timeout";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 417: return "Expectation Failed";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Error";
  }
}

}  // namespace

std::optional<Head> read_head(std::string_view bytes, const Limits& limits) {
  // A head that ends within the cap is read, however its bytes arrive: the verdict waits for the
  // cap and the four bytes of the empty line, which may still complete a head ending at the cap.
  const auto end = bytes.substr(0, limits.max_header_bytes + 4).find("\r\n\r\n");
  if (end == std::string_view::npos) {
    if (bytes.size() < limits.max_header_bytes + 4) return std::nullopt;  // more to come
    Head h;
    h.status = 431;
    h.reason = fmt::format("the request line and headers exceed {} bytes", limits.max_header_bytes);
    return h;
  }
  Head h = parse_head(bytes.substr(0, end), limits);
  h.head_bytes = end + 4;
  return h;
}

Head parse_head(std::string_view text, const Limits& limits) {
  Head h;
  auto refuse = [&h](int status, std::string reason) {
    h.status = status;
    h.reason = std::move(reason);
    return h;
  };
  const auto eol = text.find("\r\n");
  const std::string_view line = text.substr(0, eol);
  const auto sp1 = line.find(' '), sp2 = line.rfind(' ');
  if (sp1 == std::string_view::npos || sp2 == sp1) return refuse(400, "malformed request line");
  h.method = std::string(line.substr(0, sp1));
  h.target = std::string(line.substr(sp1 + 1, sp2 - sp1 - 1));
  const std::string_view version = line.substr(sp2 + 1);
  if (h.method.empty() || h.target.empty() || h.target.find(' ') != std::string::npos) {
    return refuse(400, "malformed request line");
  }
  for (unsigned char c : h.method) {
    if (!token_char(c)) return refuse(400, "malformed request method");
  }
  if (version != "HTTP/1.1" && version != "HTTP/1.0") return refuse(505, "only HTTP/1.0 and HTTP/1.1 are spoken here");
  bool keep_alive_header = false, close_header = false, chunked = false;
  std::optional<std::uint64_t> length;
  std::size_t count = 0;
  std::size_t at = eol == std::string_view::npos ? text.size() : eol + 2;
  while (at < text.size()) {
    auto end = text.find("\r\n", at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view l = text.substr(at, end - at);
    at = end + 2;
    if (++count > limits.max_headers) return refuse(431, fmt::format("more than {} header lines", limits.max_headers));
    const auto colon = l.find(':');
    if (colon == 0 || colon == std::string_view::npos) return refuse(400, "a header line without a name");
    const std::string_view name = l.substr(0, colon);
    for (unsigned char c : name) {
      if (!token_char(c)) return refuse(400, "a header name with a space or a control character");
    }
    const std::string_view value = trim(l.substr(colon + 1));
    for (unsigned char c : value) {
      if ((c < 0x20 && c != '\t') || c == 0x7f) return refuse(400, "a control character in a header value");
    }
    if (iequals(name, "Content-Length")) {
      std::uint64_t n = 0;
      auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (value.empty() || ec != std::errc{} || p != value.data() + value.size()) {
        return refuse(400, "Content-Length is not a number");
      }
      if (length && *length != n) return refuse(400, "two different Content-Length headers");
      length = n;
    } else if (iequals(name, "Transfer-Encoding")) {
      chunked = true;
    } else if (iequals(name, "Expect")) {
      if (!iequals(value, "100-continue")) return refuse(417, "only Expect: 100-continue is understood");
      h.expect_continue = true;
    } else if (iequals(name, "Connection")) {
      if (iequals(value, "close")) close_header = true;
      if (iequals(value, "keep-alive")) keep_alive_header = true;
    }
  }
  if (chunked && length) return refuse(400, "both Transfer-Encoding and Content-Length");
  if (chunked) return refuse(411, "a chunked body is not accepted: send Content-Length");
  if (length && *length > limits.max_body_bytes) {
    return refuse(413, fmt::format("the body exceeds {} bytes", limits.max_body_bytes));
  }
  h.body = length ? static_cast<std::size_t>(*length) : 0;
  h.close = close_header || (version == "HTTP/1.0" && !keep_alive_header);
  return h;
}

std::string direct_answer(int status, const std::string& body, const char* type, bool close) {
  return fmt::format("HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n"
                     "X-Content-Type-Options: nosniff\r\n{}{}\r\n{}",
                     status, status_text(status), type, body.size(), close ? "Connection: close\r\n" : "",
                     status == 429 || status == 503 ? "Retry-After: 1\r\n" : "", body);
}

std::string refusal(int status, const std::string& reason) {
  return direct_answer(status, json_text({{"error", reason}}), "application/json", true);
}

std::string json_text(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string printable(std::string_view s) {
  std::string out;
  for (unsigned char c : s.substr(0, 200)) out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  return out;
}

bool parse_i64(std::string_view s, std::int64_t& out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc{} && p == s.data() + s.size();
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

}  // namespace wgb::store::http
