// Sending results to a leaderboard server (`webgpu-bench submit`, `run --submit`). Nothing is sent
// anywhere unless one of these is called with a URL the user gave.
//
//   if (auto st = wgb::store::submit_document(doc.json(), "http://127.0.0.1:8080", token); !st)
//     return fail(st.error());
#pragma once

#include <chrono>
#include <cstdint>
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

// Checks `document` as the server would (so nothing malformed leaves the machine), then POSTs it to
// <to>/api/v1/results. Errors: Usage when the document or URL is bad or the server refused it
// (its reason in the message), Io when the server could not be reached or failed.
Expected<SubmitReceipt> post_document(const nlohmann::json& document, const std::string& to, const std::string& token,
                                      std::chrono::seconds timeout = std::chrono::seconds(30));

// The same without the receipt: the hook for `run --submit URL`.
Status submit_document(const nlohmann::json& document, const std::string& to, const std::string& token);

// Plain HTTP for tools and tests.
struct HttpReply {
  int status = 0;
  std::string body;
  std::string content_type;
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
