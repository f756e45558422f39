// The submit client over cpp-httplib's Client (http, and https where the library has OpenSSL).
#include "store/client.hpp"

#include <fmt/format.h>
#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <iostream>
#include <thread>

#include "store/api_json.hpp"
#include "store/submission.hpp"

namespace wgb::store {

namespace {

// A server that closes the connection while the body is being written must give an error, not
// kill the program with SIGPIPE (httplib's client writes without MSG_NOSIGNAL).
void ignore_sigpipe() {
  struct sigaction current {};
  if (sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) std::signal(SIGPIPE, SIG_IGN);
}

httplib::Client make_client(const ServerUrl& u, std::chrono::seconds timeout) {
  httplib::Client c(u.origin);
  c.set_connection_timeout(timeout.count(), 0);
  c.set_read_timeout(timeout.count(), 0);
  c.set_write_timeout(timeout.count(), 0);
  c.set_follow_location(false);
  c.set_keep_alive(false);
  return c;
}

std::string reason_of(const std::string& body) {
  if (auto reason = read_error_reason(body)) return *reason;
  return body.substr(0, 200);
}

// Splits "http://h:p/a/b?c" into the parsed origin and "/a/b?c".
Expected<std::pair<ServerUrl, std::string>> split(const std::string& url) {
  auto scheme = url.find("://");
  if (scheme == std::string::npos) return make_error(ErrorKind::Usage, fmt::format("{}: not a URL", url));
  const auto slash = url.find_first_of("/?", scheme + 3);
  auto base = parse_server_url(slash == std::string::npos ? url : url.substr(0, slash));
  if (!base) return base.error();
  std::string rest = slash == std::string::npos ? "/" : url.substr(slash);
  if (rest.front() == '?') rest = std::string(1, '/') + rest;
  return std::pair{*base, rest};
}

// httplib's error names ("Connection", "Read") in words, with the system's reason where it has one.
std::string describe(httplib::Error e, int err) {
  const std::string why = err != 0 ? fmt::format(": {}", std::strerror(err)) : std::string();
  switch (e) {
    case httplib::Error::Connection: return "could not connect" + (why.empty() ? " (is a server listening there?)" : why);
    case httplib::Error::ConnectionTimeout: return "timed out while connecting" + why;
    case httplib::Error::Read: return "the connection failed while reading the answer" + why;
    case httplib::Error::Write: return "Write failed: the connection broke while sending" + why;
    case httplib::Error::SSLConnection: return "the TLS handshake failed" + why;
    case httplib::Error::SSLServerVerification: return "the server's TLS certificate was not accepted";
    default: return httplib::to_string(e) + why;
  }
}

Expected<HttpReply> reply_of(const httplib::Result& r, const std::string& what) {
  if (!r) {
    const int err = errno;  // set by the socket call that failed, when one did
    const bool system = err == ECONNREFUSED || err == ETIMEDOUT || err == EHOSTUNREACH || err == ENETUNREACH ||
                        err == ECONNRESET || err == EPIPE;
    return make_error(ErrorKind::Io, fmt::format("{}: {}", what, describe(r.error(), system ? err : 0)));
  }
  return HttpReply{r->status, r->body, r->get_header_value("Content-Type"), r->get_header_value("Retry-After")};
}

}  // namespace

std::optional<std::chrono::seconds> retry_after(const std::string& value, std::chrono::system_clock::time_point now) {
  std::string v = value;
  while (!v.empty() && v.front() == ' ') v.erase(v.begin());
  while (!v.empty() && v.back() == ' ') v.pop_back();
  if (v.empty()) return std::nullopt;
  if (std::all_of(v.begin(), v.end(), [](unsigned char c) { return std::isdigit(c) != 0; })) {
    if (v.size() > 9) return std::chrono::seconds(999999999);  // "wait forever", bounded
    return std::chrono::seconds(std::stoll(v));
  }
  // An HTTP date: "Wed, 21 Oct 2026 07:28:00 GMT".
  std::tm tm{};
  const char* end = strptime(v.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  if (end == nullptr || *end != '\0') return std::nullopt;
  const auto at = std::chrono::system_clock::from_time_t(timegm(&tm));
  const auto left = std::chrono::ceil<std::chrono::seconds>(at - now);
  return left.count() > 0 ? left : std::chrono::seconds(0);
}

Expected<ServerUrl> parse_server_url(const std::string& url) {
  ServerUrl u;
  const bool http = url.rfind("http://", 0) == 0, https = url.rfind("https://", 0) == 0;
  if (!http && !https) {
    return make_error(ErrorKind::Usage, fmt::format("{}: the server URL must start with http:// or https://", url));
  }
  const std::size_t host_start = http ? 7 : 8;
  const auto slash = url.find('/', host_start);
  u.origin = url.substr(0, slash);
  if (u.origin.size() == host_start) return make_error(ErrorKind::Usage, fmt::format("{}: no host", url));
  if (url.find_first_of("?#@ ", host_start) != std::string::npos) {
    return make_error(ErrorKind::Usage, fmt::format("{}: give the server as scheme://host:port[/path]", url));
  }
  if (slash != std::string::npos) {
    u.path = url.substr(slash);
    while (!u.path.empty() && u.path.back() == '/') u.path.pop_back();
  }
  return u;
}

Expected<HttpReply> http_get(const std::string& url, std::chrono::seconds timeout) {
  auto parts = split(url);
  if (!parts) return parts.error();
  ignore_sigpipe();
  auto c = make_client(parts->first, timeout);
  errno = 0;
  return reply_of(c.Get(parts->second), url);
}

Expected<HttpReply> http_post(const std::string& url, const std::string& body, const std::string& token,
                              std::chrono::seconds timeout) {
  auto parts = split(url);
  if (!parts) return parts.error();
  ignore_sigpipe();
  auto c = make_client(parts->first, timeout);
  httplib::Headers headers;
  if (!token.empty()) headers.emplace("Authorization", "Bearer " + token);
  errno = 0;
  return reply_of(c.Post(parts->second, headers, body, "application/json"), url);
}

Expected<SubmitReceipt> post_document(const nlohmann::json& document, const std::string& to, const std::string& token,
                                      std::chrono::seconds timeout, const RetryPolicy& retry) {
  auto server = parse_server_url(to);
  if (!server) return server.error();
  auto checked = make_submission(document);
  if (!checked) {
    return make_error(ErrorKind::Usage, fmt::format("not submitted: {}", checked.error().message));
  }
  const std::string endpoint = server->origin + server->path + "/api/v1/results";
  auto say = retry.say ? retry.say : [](const std::string& line) { std::cerr << "webgpu-bench: " << line << '\n'; };
  auto sleep = retry.sleep ? retry.sleep : [](std::chrono::seconds s) { std::this_thread::sleep_for(s); };
  std::chrono::seconds waited{0};
  Expected<HttpReply> reply = make_error(ErrorKind::Io, "not sent");
  for (int attempt = 1;; ++attempt) {
    reply = http_post(endpoint, checked->canonical, token, timeout);
    if (!reply || (reply->status != 429 && reply->status != 503)) break;
    // Busy or rate-limited: the same document again, when the server says it may be accepted.
    const auto asked = retry_after(reply->retry_after);
    const std::chrono::seconds wait = asked ? *asked : std::chrono::seconds(1LL << std::min(attempt - 1, 10));
    if (attempt >= retry.max_attempts || waited + wait > retry.max_wait) {
      const std::string why = fmt::format("HTTP {} {} time{} after {} s of waiting{}", reply->status, attempt,
                                          attempt == 1 ? "" : "s", waited.count(),
                                          asked ? fmt::format(" (it asked for {} s more)", asked->count()) : "");
      // As without retries: 429 is the server refusing (exit 6 through the "(HTTP " mark), 503 failing.
      return make_error(reply->status < 500 ? ErrorKind::Usage : ErrorKind::Io,
                        fmt::format("{} {} the document (HTTP {}): {}; gave up: {}", to,
                                    reply->status < 500 ? "refused" : "failed on", reply->status,
                                    reason_of(reply->body), why));
    }
    say(fmt::format("{} answered HTTP {} ({}): trying again in {} s{} (attempt {} of {})", to, reply->status,
                    reason_of(reply->body), wait.count(), asked ? " as its Retry-After asks" : "", attempt + 1,
                    retry.max_attempts));
    sleep(wait);
    waited += wait;
  }
  if (!reply) {
    // A server refusing a body by its declared size answers and closes before reading it: the
    // client then fails while writing.
    const bool write_failed = reply.error().message.find("Write") != std::string::npos;
    return make_error(ErrorKind::Io, fmt::format("cannot reach {}: {}{}", to, reply.error().message,
                                                 write_failed ? fmt::format(" (the server closed the connection while "
                                                                            "{} bytes were sent: over its size limit?)",
                                                                            checked->canonical.size())
                                                              : ""));
  }
  if (reply->status == 200 || reply->status == 201) {
    auto answer = read_submit_answer(reply->body);
    if (!answer) {
      return make_error(ErrorKind::Io, fmt::format("{} answered {} with an unreadable body: {}", to, reply->status,
                                                   answer.error().message));
    }
    SubmitReceipt r;
    r.id = answer->id;
    r.url = server->origin + server->path + answer->url;
    r.duplicate = answer->duplicate;
    r.class_key = answer->device_class.key;
    return r;
  }
  const std::string reason = reason_of(reply->body);
  if (reply->status >= 400 && reply->status < 500) {
    return make_error(ErrorKind::Usage, fmt::format("{} refused the document (HTTP {}): {}", to, reply->status, reason));
  }
  return make_error(ErrorKind::Io, fmt::format("{} failed (HTTP {}): {}", to, reply->status, reason));
}

Status submit_document(const nlohmann::json& document, const std::string& to, const std::string& token) {
  auto r = post_document(document, to, token);
  if (!r) return r.error();
  return ok();
}

}  // namespace wgb::store
