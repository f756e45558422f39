// The leaderboard server's HTML pages (docs/store.md, "Pages"): the index, a leaderboard, the run
// list, one run next to its class (The Stack) and a comparison of two runs. The pages themselves
// are pure functions of store data (html.hpp); here the data is fetched and the unranked reason of
// a run is put where the pages show it.
#include <fmt/format.h>

#include "report/facts.hpp"
#include "store/html.hpp"
#include "store/server_handlers.hpp"
#include "store/server_http.hpp"

namespace wgb::store {

namespace {

// The pages (src/store/html.cpp) show a run's state and, on the leaderboard, each run's suite and
// an "unranked" badge: a run unranked for its options carries the reason in those cells, and its
// rows carry parameters.unranked, so the existing unranked display shows it.
std::string with_reason(const std::string& text, const std::string& reason) {
  return reason.empty() ? text : text + " \u00b7 unranked: " + reason;
}

RunSummary shown(RunSummary s) {
  s.state = with_reason(s.state, s.unranked_reason);
  return s;
}

std::vector<RunSummary> shown(std::vector<RunSummary> runs) {
  for (auto& r : runs) r = shown(std::move(r));
  return runs;
}

StoredRun shown(StoredRun run) {
  if (!run.summary.unranked_reason.empty()) report::mark_rows_unranked(run.document);
  run.summary = shown(std::move(run.summary));
  return run;
}

Leaderboard shown(Leaderboard board) {
  for (auto& c : board.classes) {
    for (auto& e : c.entries) e.suite = with_reason(e.suite, e.unranked_reason);
  }
  return board;
}

}  // namespace

void page_index(Site& site, Exchange& ex) {
  Store& store = site.store;
  auto benches = store.benchmarks();
  auto classes = store.classes();
  RunFilter recent;
  recent.limit = 20;
  auto runs = store.list(recent);
  auto totals = store.totals();
  if (!benches || !classes || !runs || !totals) return page_error(ex.res, 500, "the store failed");
  std::vector<Leaderboard> boards;  // the top of each headline benchmark
  for (const auto& id : html::headline_benchmarks(*benches)) {
    auto board = store.leaderboard(id);
    if (!board) return page_error(ex.res, 500, board.error().message);
    boards.push_back(std::move(*board));
  }
  ex.res.set_content(html::index_page(*benches, *classes, shown(std::move(*runs)), totals->first, boards), kHtml);
}

void page_leaderboard(Site& site, Exchange& ex) {
  std::string runtime;
  auto board = requested_leaderboard(site, ex, page_error, "choose a benchmark: /leaderboard?benchmark=<id>", runtime);
  if (!board) return;
  ex.res.set_content(html::leaderboard_page(shown(std::move(*board)), runtime), kHtml);
}

void page_runs(Site& site, Exchange& ex) {
  const auto f = requested_filter(ex, page_error);
  if (!f) return;
  auto runs = site.store.list(*f);
  auto total = site.store.count(*f);
  if (!runs || !total) return page_error(ex.res, 500, "the store failed");
  ex.res.set_content(html::runs_page(shown(std::move(*runs)), *f, *total), kHtml);
}

void page_run(Site& site, Exchange& ex) {
  auto run = requested_run(site, ex, page_error);
  if (!run) return;
  const auto& key = run->summary.device_class.key;
  auto dist = site.store.class_distributions(key);
  RunFilter f;
  f.device_class = key;
  f.limit = 50;
  auto others = site.store.list(f);
  if (!dist || !others) return page_error(ex.res, 500, "the store failed");
  ex.res.set_content(html::run_page(shown(std::move(*run)), *dist, shown(std::move(*others))), kHtml);
}

void page_compare(Site& site, Exchange& ex) {
  std::int64_t a = 0, b = 0;
  if (!http::parse_i64(param(ex.req, "a"), a) || !http::parse_i64(param(ex.req, "b"), b)) {
    return page_error(ex.res, 400, "compare needs two run numbers: /compare?a=<id>&b=<id>");
  }
  auto ra = site.store.get(a);
  auto rb = site.store.get(b);
  if (!ra || !rb) return page_error(ex.res, 500, "the store failed");
  if (!*ra || !*rb) return page_error(ex.res, 404, fmt::format("no run {}", !*ra ? a : b));
  ex.res.set_content(html::compare_page(shown(std::move(**ra)), shown(std::move(**rb))), kHtml);
}

}  // namespace wgb::store
