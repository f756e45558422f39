// The leaderboard server's JSON API (docs/store.md, "API"): the run list with its filters, one run
// with its document, a leaderboard, the benchmarks and the device classes. Submitting is in
// server_submit.cpp.
#include <fmt/format.h>

#include "store/server_handlers.hpp"
#include "store/server_http.hpp"

namespace wgb::store {

namespace {

void answer_json(Exchange& ex, const nlohmann::json& j) { ex.res.set_content(http::json_text(j), kJson); }

nlohmann::json summary_json(const RunSummary& s) {
  return {{"id", s.id},
          {"url", fmt::format("/runs/{}", s.id)},
          {"submitted_at", s.submitted_at},
          {"started_at", s.started_at},
          {"suite", s.suite},
          {"state", s.state},
          {"rows", s.row_count},
          {"ranked", s.unranked_reason.empty()},
          {"unranked_reason", s.unranked_reason},
          {"runtime", s.runtime},
          {"class", class_json(s.device_class)}};
}

nlohmann::json class_board_json(const ClassStanding& c) {
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& e : c.entries) {
    runs.push_back({{"id", e.run_id},
                    {"value", e.value},
                    {"status", e.status},
                    {"ranked", e.ranked},
                    {"unranked_reason", e.unranked_reason},
                    {"started_at", e.started_at},
                    {"suite", e.suite},
                    {"runtime", e.runtime}});
  }
  nlohmann::json cj = {{"class", class_json(c.device_class)}, {"ranked_runs", c.ranked}, {"runs", runs}};
  cj["rank"] = c.rank > 0 ? nlohmann::json(c.rank) : nlohmann::json(nullptr);
  if (c.ranked > 0) {
    cj["median"] = c.median;
    cj["q1"] = c.q1;
    cj["q3"] = c.q3;
    cj["min"] = c.min;
    cj["max"] = c.max;
  }
  return cj;
}

}  // namespace

nlohmann::json class_json(const DeviceClass& c) {
  return {{"key", c.key},         {"label", c.label},     {"vendor", c.vendor},
          {"architecture", c.architecture}, {"device", c.device}, {"backend", c.backend},
          {"adapter_type", c.adapter_type}, {"variable", c.variable}};
}

void health(Site&, Exchange& ex) { ex.res.set_content("ok\n", "text/plain"); }

void api_results(Site& site, Exchange& ex) {
  RunFilter f;
  std::string error;
  if (!read_filter(ex.req, f, error)) return api_error(ex.res, 400, error);
  auto runs = site.store.list(f);
  auto total = site.store.count(f);
  if (!runs || !total) return api_error(ex.res, 500, (!runs ? runs.error() : total.error()).message);
  nlohmann::json list = nlohmann::json::array();
  for (const auto& r : *runs) list.push_back(summary_json(r));
  answer_json(ex, {{"total", *total}, {"offset", f.offset}, {"limit", f.limit}, {"runs", list}});
}

void api_result(Site& site, Exchange& ex) {
  std::int64_t id = 0;
  if (!http::parse_i64(ex.captures.at(0), id)) return api_error(ex.res, 404, "no such run");
  auto run = site.store.get(id);
  if (!run) return api_error(ex.res, 500, run.error().message);
  if (!*run) return api_error(ex.res, 404, fmt::format("no run {}", id));
  auto j = summary_json((*run)->summary);
  j["document"] = (*run)->document;
  answer_json(ex, j);
}

void api_leaderboard(Site& site, Exchange& ex) {
  const std::string bench = param(ex.req, "benchmark");
  if (bench.empty()) return api_error(ex.res, 400, "benchmark= is required (a benchmark id or memory phase)");
  std::string runtime, error;
  if (!read_runtime(ex.req, runtime, error)) return api_error(ex.res, 400, error);
  auto board = site.store.leaderboard(bench, runtime);
  if (!board) return api_error(ex.res, 500, board.error().message);
  nlohmann::json classes = nlohmann::json::array();
  for (const auto& c : board->classes) classes.push_back(class_board_json(c));
  answer_json(ex, {{"benchmark", board->benchmark},
                   {"unit", board->unit},
                   {"lower_is_better", board->lower_is_better},
                   {"classes", classes}});
}

void api_benchmarks(Site& site, Exchange& ex) {
  auto list = site.store.benchmarks();
  if (!list) return api_error(ex.res, 500, list.error().message);
  nlohmann::json out = nlohmann::json::array();
  for (const auto& b : *list) out.push_back({{"id", b.id}, {"suite", b.suite}, {"unit", b.unit}, {"runs", b.runs}});
  answer_json(ex, out);
}

void api_classes(Site& site, Exchange& ex) {
  auto list = site.store.classes();
  if (!list) return api_error(ex.res, 500, list.error().message);
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : *list) {
    auto j = class_json(c.device_class);
    j["runs"] = c.runs;
    out.push_back(std::move(j));
  }
  answer_json(ex, out);
}

}  // namespace wgb::store
