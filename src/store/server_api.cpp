// The leaderboard server's JSON API (docs/store.md, "API"): the run list with its filters, one run
// with its document, a leaderboard, the benchmarks and the device classes. Submitting is in
// server_submit.cpp.
#include <fmt/format.h>

#include "store/api_json.hpp"
#include "store/server_handlers.hpp"
#include "store/server_http.hpp"

namespace wgb::store {

namespace {

void answer_json(Exchange& ex, const nlohmann::json& j) { ex.res.set_content(http::json_text(j), kJson); }

}  // namespace

void health(Site&, Exchange& ex) { ex.res.set_content("ok\n", "text/plain"); }

void api_results(Site& site, Exchange& ex) {
  const auto f = requested_filter(ex, api_error);
  if (!f) return;
  auto runs = site.store.list(*f);
  auto total = site.store.count(*f);
  if (!runs || !total) return api_error(ex.res, 500, (!runs ? runs.error() : total.error()).message);
  answer_json(ex, run_list_json(*total, *f, *runs));
}

void api_result(Site& site, Exchange& ex) {
  auto run = requested_run(site, ex, api_error);
  if (!run) return;
  answer_json(ex, run_json(*run));
}

void api_leaderboard(Site& site, Exchange& ex) {
  std::string runtime;
  const auto board =
      requested_leaderboard(site, ex, api_error, "benchmark= is required (a benchmark id or memory phase)", runtime);
  if (!board) return;
  answer_json(ex, leaderboard_json(*board));
}

void api_benchmarks(Site& site, Exchange& ex) {
  auto list = site.store.benchmarks();
  if (!list) return api_error(ex.res, 500, list.error().message);
  answer_json(ex, benchmarks_json(*list));
}

void api_classes(Site& site, Exchange& ex) {
  auto list = site.store.classes();
  if (!list) return api_error(ex.res, 500, list.error().message);
  answer_json(ex, classes_json(*list));
}

}  // namespace wgb::store
