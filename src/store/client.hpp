// Sending results to a leaderboard server (`webgpu-bench submit`, `run --submit`). Nothing is sent
// anywhere unless one of these is called with a URL the user gave.
//
//   if (auto st = wgb::store::submit_document(doc.json(), "http://127.0.0.1:8080", token); !st)
//     return fail(st.error());
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>

#include "webgpu_bench/expected.hpp"

namespace wgb::store {

struct SubmitReceipt {
  std::int64_t id = 0;
  std::string url;        // the run's page on the server, absolute
  bool duplicate = false;  // the server already had this exact document
  std::string class_key;
};

// A server that answers 429 (too many submissions) or 503 (busy) is asked again, after the time its
// Retry-After header gives (seconds or an HTTP date), else after 1, 2, 4, 8 s: at most
// `max_attempts` requests and `max_wait` of waiting in all; a server asking for more than is left
// is not waited for. Every wait is said through `say` (by default one line on stderr).
struct RetryPolicy {
  int max_attempts = 5;
  std::chrono::seconds max_wait{120};
  std::function<void(std::chrono::seconds)> sleep;  // empty: sleep for real (tests count instead)
  std::function<void(const std::string&)> say;      // empty: "webgpu-bench: ..." on stderr
};

// Seconds a Retry-After value asks for (delta-seconds or an HTTP date, against `now`); nullopt
// when it is absent or unreadable.
std::optional<std::chrono::seconds> retry_after(const std::string& value,
                                                std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

// Checks `document` as the server would (so nothing malformed leaves the machine), then POSTs it to
// <to>/api/v1/results, retrying as `retry` says. Errors: Usage when the document or URL is bad or
// the server refused it (its reason in the message), Io when the server could not be reached or failed.
Expected<SubmitReceipt> post_document(const nlohmann::json& document, const std::string& to, const std::string& token,
                                      std::chrono::seconds timeout = std::chrono::seconds(30),
                                      const RetryPolicy& retry = {});

// The same without the receipt: the hook for `run --submit URL`.
Status submit_document(const nlohmann::json& document, const std::string& to, const std::string& token);

// Plain HTTP for tools and tests.
struct HttpReply {
  int status = 0;
  std::string body;
  std::string content_type;
  std::string retry_after;  // the Retry-After header, when the server sent one
};
Expected<HttpReply> http_get(const std::string& url, std::chrono::seconds timeout = std::chrono::seconds(10));
Expected<HttpReply> http_post(const std::string& url, const std::string& body, const std::string& token,
                              std::chrono::seconds timeout = std::chrono::seconds(10));

// "http://host:port/prefix" -> {"http://host:port", "/prefix"}; Usage error for anything else.
struct ServerUrl {
  std::string origin;  // scheme://host[:port]
  std::string path;    // "" or "/prefix" (no trailing slash)
};
Expected<ServerUrl> parse_server_url(const std::string& url);

}  // namespace wgb::store
