// The submit client over cpp-httplib's Client (http, and https where the library has OpenSSL).
#include "store/client.hpp"

#include <fmt/format.h>
#include <httplib.h>

#include <cerrno>
#include <csignal>
#include <cstring>

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
  try {
    auto j = nlohmann::json::parse(body);
    if (j.is_object() && j.contains("error") && j["error"].is_string()) return j["error"].get<std::string>();
  } catch (const nlohmann::json::exception&) {
  }
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
  return HttpReply{r->status, r->body, r->get_header_value("Content-Type")};
}

}  // namespace

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
                                      std::chrono::seconds timeout) {
  auto server = parse_server_url(to);
  if (!server) return server.error();
  auto checked = make_submission(document);
  if (!checked) {
    return make_error(ErrorKind::Usage, fmt::format("not submitted: {}", checked.error().message));
  }
  const std::string endpoint = server->origin + server->path + "/api/v1/results";
  auto reply = http_post(endpoint, checked->canonical, token, timeout);
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
    try {
      auto j = nlohmann::json::parse(reply->body);
      SubmitReceipt r;
      r.id = j.at("id").get<std::int64_t>();
      r.url = server->origin + server->path + j.at("url").get<std::string>();
      r.duplicate = j.value("duplicate", false);
      if (j.contains("class") && j["class"].is_object()) r.class_key = j["class"].value("key", "");
      return r;
    } catch (const nlohmann::json::exception& e) {
      return make_error(ErrorKind::Io, fmt::format("{} answered {} with an unreadable body: {}", to, reply->status,
                                                   e.what()));
    }
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
