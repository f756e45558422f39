// The handlers of the leaderboard server's routes (server_routes.hpp), each a small function of
// the site and one exchange, grouped by what they serve, and what they share: the answer's content
// types, the error answers, the query parameters. The API answers JSON ({"error": reason} on
// failure), the pages HTML (html.hpp).
#pragma once

#include <httplib.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/server_site.hpp"

namespace wgb::store {

// One request and its answer.
struct Exchange {
  const httplib::Request& req;
  httplib::Response& res;
  std::vector<std::string> captures;             // the route pattern's groups
  const httplib::ContentReader* body = nullptr;  // POST routes: reads the body in pieces
};

inline constexpr const char* kJson = "application/json";
inline constexpr const char* kHtml = "text/html; charset=utf-8";

void api_error(httplib::Response& res, int status, const std::string& reason);
void page_error(httplib::Response& res, int status, const std::string& reason);
// A query parameter limited to a sane length ("" when absent).
std::string param(const httplib::Request& req, const char* name);
// runtime=browser|native (absent or empty: both); false with `error` otherwise.
bool read_runtime(const httplib::Request& req, std::string& runtime, std::string& error);
// The run filters of /runs and /api/v1/results (class, suite, benchmark, metric, runtime, since,
// until, limit, offset); false with `error` naming the bad one.
bool read_filter(const httplib::Request& req, RunFilter& f, std::string& error);

// What the API and the pages fetch alike. On a bad request or a store failure `fail` (api_error
// or page_error) answers and nothing is returned.
using Fail = void (*)(httplib::Response& res, int status, const std::string& reason);
// The run filters of the request (400 naming the bad one).
std::optional<RunFilter> requested_filter(Exchange& ex, Fail fail);
// The run the route's capture names: 404 when the id is malformed or names none.
std::optional<StoredRun> requested_run(Site& site, Exchange& ex, Fail fail);
// The leaderboard of benchmark= under runtime= (also returned, for the page); `missing` is the
// answer when benchmark= is absent.
std::optional<Leaderboard> requested_leaderboard(Site& site, Exchange& ex, Fail fail, const char* missing,
                                                 std::string& runtime);

// --- the JSON API (server_api.cpp) ---
void health(Site& site, Exchange& ex);         // GET /healthz (when the event thread did not answer)
void api_results(Site& site, Exchange& ex);    // GET /api/v1/results?filters
void api_result(Site& site, Exchange& ex);     // GET /api/v1/results/ID
void api_leaderboard(Site& site, Exchange& ex);
void api_benchmarks(Site& site, Exchange& ex);
void api_classes(Site& site, Exchange& ex);

// --- submissions (server_submit.cpp) ---
void api_submit(Site& site, Exchange& ex);     // POST /api/v1/results

// --- the HTML pages (server_pages.cpp) ---
void page_index(Site& site, Exchange& ex);
void page_leaderboard(Site& site, Exchange& ex);
void page_runs(Site& site, Exchange& ex);
void page_run(Site& site, Exchange& ex);       // The Stack
void page_compare(Site& site, Exchange& ex);

// --- the browser runner, web/ embedded (server_runner.cpp) ---
void runner_page(Site& site, Exchange& ex);    // GET /run, /run/
void runner_file(Site& site, Exchange& ex);    // GET /run/NAME

}  // namespace wgb::store
