// Submitting to the leaderboard server (POST /api/v1/results; docs/store.md, "API" and "Limits and
// security"): authorisation first (the token, or a visitor's place under the per-address limit),
// then the size cap, then the document checks (submission.hpp), then one transaction. Any refusal
// stores nothing.
#include <fmt/format.h>
#include <openssl/crypto.h>

#include "store/api_json.hpp"
#include "store/server_handlers.hpp"
#include "store/server_http.hpp"
#include "store/submission.hpp"

namespace wgb::store {

namespace {

// "Authorization: Bearer <token>", compared in constant time; always true without a token.
bool authorised(const Site& site, const httplib::Request& req) {
  if (site.options.token.empty()) return true;
  const std::string expected = "Bearer " + site.options.token;
  const std::string got = req.get_header_value("Authorization");
  return got.size() == expected.size() && CRYPTO_memcmp(got.data(), expected.data(), got.size()) == 0;
}

}  // namespace

void api_submit(Site& site, Exchange& ex) {
  const ServerOptions& options = site.options;
  auto& res = ex.res;
  const bool with_token = !options.token.empty() && authorised(site, ex.req);
  if (!authorised(site, ex.req) && !options.open_submissions) {
    res.set_header("WWW-Authenticate", "Bearer");
    return api_error(res, 401, "a valid bearer token is required to submit to this server");
  }
  if (options.open_submissions && !with_token) {
    const auto wait = site.limiter.admit(limit_key(ex.req.remote_addr), SubmissionLimiter::Clock::now());
    if (wait > 0) {
      res.set_header("Retry-After", std::to_string(wait));
      return api_error(res, 429,
                       fmt::format("more than {} submissions from this address in {} s: try again in {} s",
                                   options.open_submissions_per_window, options.open_submissions_window.count(),
                                   wait));
    }
  }
  std::string body;
  bool too_big = false;
  const bool complete = (*ex.body)([&](const char* data, std::size_t n) {
    if (body.size() + n > options.max_body_bytes) {
      too_big = true;
      return false;  // stop reading: the rest is never buffered
    }
    body.append(data, n);
    return true;
  });
  if (too_big) {
    res.set_header("Connection", "close");
    return api_error(res, 413, fmt::format("the body exceeds {} bytes", options.max_body_bytes));
  }
  if (!complete) {
    res.set_header("Connection", "close");
    return api_error(res, 400, "the request body was not received completely");
  }
  // Parsing a document can take many times its size in memory: a few at a time, the rest wait.
  site.submissions.acquire();
  struct Release {
    std::counting_semaphore<256>& s;
    ~Release() { s.release(); }
  } release{site.submissions};
  auto sub = parse_submission(body);
  if (!sub) {
    // Malformed JSON is a bad request; a well-formed document the server will not take, 422.
    const bool malformed = sub.error().message.find("not valid JSON") != std::string::npos;
    return api_error(res, malformed ? 400 : 422, sub.error().message);
  }
  auto outcome = site.store.insert(*sub);
  if (!outcome) return api_error(res, 500, "the store failed: " + outcome.error().message);
  res.status = outcome->duplicate ? 200 : 201;
  res.set_header("Location", fmt::format("/api/v1/results/{}", outcome->id));
  res.set_content(http::json_text(submit_answer_json({.id = outcome->id,
                                                      .url = fmt::format("/runs/{}", outcome->id),
                                                      .duplicate = outcome->duplicate,
                                                      .unranked_reason = sub->unranked_reason,
                                                      .device_class = sub->device_class})),
                  kJson);
}

}  // namespace wgb::store
