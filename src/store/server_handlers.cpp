// What the leaderboard server's handlers share (server_handlers.hpp).
#include "store/server_handlers.hpp"

#include <fmt/format.h>

#include <tuple>
#include <utility>

#include "store/api_json.hpp"
#include "store/html.hpp"
#include "store/runtime_filter.hpp"
#include "store/server_http.hpp"
#include "store/submission.hpp"

namespace wgb::store {

void api_error(httplib::Response& res, int status, const std::string& reason) {
  res.status = status;
  res.set_content(http::json_text(error_json(reason)), kJson);
}

void page_error(httplib::Response& res, int status, const std::string& reason) {
  res.status = status;
  res.set_content(html::error_page(status, reason), kHtml);
}

std::string param(const httplib::Request& req, const char* name) {
  std::string v = req.has_param(name) ? req.get_param_value(name) : std::string{};
  if (v.size() > 256) v.resize(256);
  return v;
}

bool read_runtime(const httplib::Request& req, std::string& runtime, std::string& error) {
  runtime = param(req, "runtime");
  if (valid_runtime_filter(runtime)) return true;
  error = runtime_filter_error();
  return false;
}

bool read_filter(const httplib::Request& req, RunFilter& f, std::string& error) {
  f.device_class = param(req, "class");
  f.suite = param(req, "suite");
  f.benchmark = param(req, "benchmark");
  f.metric = param(req, "metric");
  if (!read_runtime(req, f.runtime, error)) return false;
  // Times compare as UTC text in the store: accept a date or an RFC 3339 time, refuse the rest.
  for (auto [name, target] : {std::pair{"since", &f.since}, std::pair{"until", &f.until}}) {
    std::string v = param(req, name);
    if (v.empty()) continue;
    if (v.size() == 10) v += "T00:00:00Z";
    auto t = normalize_timestamp(v);
    if (!t) {
      error = fmt::format("{} must be a date (2026-11-30) or an RFC 3339 time (2026-11-30T06:01:17Z)", name);
      return false;
    }
    *target = *t;
  }
  for (auto [name, target, lo, hi] : {std::tuple{"limit", &f.limit, std::int64_t{1}, std::int64_t{1000}},
                                      std::tuple{"offset", &f.offset, std::int64_t{0}, std::int64_t{1} << 40}}) {
    const std::string v = param(req, name);
    if (v.empty()) continue;
    std::int64_t n = 0;
    if (!http::parse_i64(v, n) || n < lo || n > hi) {
      error = fmt::format("{} must be an integer in [{}, {}]", name, lo, hi);
      return false;
    }
    *target = n;
  }
  return true;
}

namespace {

// Answers with `fail`, for a helper that then returns nothing.
std::nullopt_t refuse(Fail fail, Exchange& ex, int status, const std::string& reason) {
  fail(ex.res, status, reason);
  return std::nullopt;
}

}  // namespace

std::optional<RunFilter> requested_filter(Exchange& ex, Fail fail) {
  RunFilter f;
  std::string error;
  if (!read_filter(ex.req, f, error)) return refuse(fail, ex, 400, error);
  return f;
}

std::optional<StoredRun> requested_run(Site& site, Exchange& ex, Fail fail) {
  std::int64_t id = 0;
  if (!http::parse_i64(ex.captures.at(0), id)) return refuse(fail, ex, 404, "no such run");
  auto run = site.store.get(id);
  if (!run) return refuse(fail, ex, 500, run.error().message);
  if (!*run) return refuse(fail, ex, 404, fmt::format("no run {}", id));
  return std::move(*run);
}

std::optional<Leaderboard> requested_leaderboard(Site& site, Exchange& ex, Fail fail, const char* missing,
                                                 std::string& runtime) {
  const std::string bench = param(ex.req, "benchmark");
  if (bench.empty()) return refuse(fail, ex, 400, missing);
  std::string error;
  if (!read_runtime(ex.req, runtime, error)) return refuse(fail, ex, 400, error);
  auto board = site.store.leaderboard(bench, runtime);
  if (!board) return refuse(fail, ex, 500, board.error().message);
  return std::move(*board);
}

}  // namespace wgb::store
