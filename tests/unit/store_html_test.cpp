// The results server's pages as people read them (store/html.hpp): the home page shows the top of
// each headline leaderboard, every unranked class or run says why, classes are named (never by
// their key), a one-run class reads as such (no "+0.0 %" against itself), ranges that collapse to
// one value are shown as that value, and counts have their grammar ("1 ranked run"). The pages laid
// out by headless Chromium at 1280 and 390 px: nothing spills, overlaps, breaks mid-word or
// overflows the window (skips where Chromium is absent, except in CI).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "store/device_class.hpp"
#include "store/html.hpp"
#include "tests/golden/process.hpp"
#include "tests/golden/synthetic.hpp"
#include "tests/page_geometry.hpp"

namespace wgb::store {
namespace {

DeviceClass h200() {
  report::AdapterIdentity a;
  a.vendor = "nvidia", a.architecture = "hopper", a.device = "NVIDIA H200", a.backend = "vulkan";
  a.adapter_type = "discrete-gpu";
  auto c = adapter_class(a);
  return *c;
}

DeviceClass lavapipe() {
  report::AdapterIdentity a;
  a.vendor = "mesa", a.architecture = "llvmpipe", a.device = "llvmpipe (LLVM 15.0.6, 256 bits)";
  a.backend = "vulkan", a.adapter_type = "cpu";
  auto c = adapter_class(a);
  return *c;
}

Entry entry(std::int64_t run, double value, const DeviceClass& c, bool ranked, std::string reason = {}) {
  Entry e;
  e.run_id = run;
  e.value = value;
  e.unit = "B/s";
  e.status = "ok";
  e.started_at = "2026-12-01T10:00:00Z";
  e.suite = "memory";
  e.ranked = ranked;
  e.unranked_reason = std::move(reason);
  e.device_class = c;
  return e;
}

// memory-read: the H200 class with one ranked run, lavapipe with one run unranked for its options.
Leaderboard board() {
  return build_leaderboard("memory-read", {entry(1, 3.94e12, h200(), true),
                                           entry(2, 4.1e9, lavapipe(), false, "memory options changed: sample_ms 5")});
}

bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}

TEST(StoreHtml, ClassesAreNamedForPeople) {
  EXPECT_EQ(display_name(h200()), "NVIDIA H200");
  EXPECT_EQ(display_detail(h200()), "NVIDIA hopper \u00b7 Vulkan \u00b7 discrete GPU");
  EXPECT_EQ(display_detail(lavapipe()), "Mesa llvmpipe \u00b7 Vulkan \u00b7 CPU adapter");
  const std::string page = html::leaderboard_page(board());
  // The key is in links and tooltips, never shown as text.
  EXPECT_EQ(page.find(">" + h200().key + "<"), std::string::npos);
  EXPECT_EQ(page.find(">nvidia/"), std::string::npos);
  EXPECT_NE(page.find(">NVIDIA H200</a>"), std::string::npos);
}

TEST(StoreHtml, LeaderboardSaysWhyAndCountsWithGrammar) {
  const std::string page = html::leaderboard_page(board());
  EXPECT_NE(page.find("1 of 1 ranked"), std::string::npos);
  EXPECT_EQ(page.find("1 ranked runs"), std::string::npos);
  // One run: no "3.94 TB/s - 3.94 TB/s".
  EXPECT_EQ(page.find("3.94 TB/s - 3.94 TB/s"), std::string::npos);
  EXPECT_NE(page.find(">one run<"), std::string::npos);
  // The unranked class and its run say why.
  EXPECT_NE(page.find("not ranked<div class=\"why\">memory options changed: sample_ms 5</div>"), std::string::npos)
      << page;
  EXPECT_EQ(page.find("\u00b7 unranked:"), std::string::npos);
}

TEST(StoreHtml, HomePageShowsTheTopOfEachHeadlineBoard) {
  std::vector<BenchmarkInfo> benches;
  for (const char* id : {"a-custom", "memory-read", "memory-write", "zz-other"})
    benches.push_back({id, "memory", "B/s", 2});
  const auto headline = html::headline_benchmarks(benches);
  ASSERT_FALSE(headline.empty());
  EXPECT_EQ(headline.front(), "memory-read");  // headline ids first, then the most-run others
  EXPECT_LE(headline.size(), html::kHeadlineBoards);
  std::vector<ClassInfo> classes{{h200(), 1}, {lavapipe(), 1}};
  const std::string page = html::index_page(benches, classes, {}, 1, {board()});
  EXPECT_NE(page.find("1 run stored in 2 device classes"), std::string::npos) << page.substr(0, 3000);
  const auto card = page.find("<section class=\"board\">");
  ASSERT_NE(card, std::string::npos);
  const std::string top = page.substr(card, page.find("</section>", card) - card);
  EXPECT_NE(top.find("memory-read"), std::string::npos);
  EXPECT_NE(top.find("NVIDIA H200"), std::string::npos);
  EXPECT_NE(top.find("3.94 TB/s"), std::string::npos);
  EXPECT_NE(top.find("1 ranked run<"), std::string::npos);
  EXPECT_NE(top.find("1 of 2 classes ranked"), std::string::npos) << top;
  EXPECT_NE(top.find("(1 more class)"), std::string::npos) << top;
}

TEST(StoreHtml, ARunAloneInItsClassIsNotComparedWithItself) {
  StoredRun run;
  run.summary.id = 1;
  run.summary.suite = "memory";
  run.summary.state = "complete";
  run.summary.device_class = h200();
  run.document = test::synthetic_document().json();
  std::vector<ClassDistribution> stats;
  for (const auto& r : run.document["rows"]) {
    const double v = r["value"].get<double>();
    stats.push_back({r["id"].get<std::string>(), r["value_unit"].get<std::string>(), 1, v, v, v, v, v});
  }
  const std::string page = html::run_page(run, stats, {});
  EXPECT_EQ(page.find("+0.0%"), std::string::npos);
  EXPECT_NE(page.find(">only run<"), std::string::npos);
  EXPECT_NE(page.find("has one ranked run, this one"), std::string::npos);
  EXPECT_EQ(page.find("1 ranked runs"), std::string::npos);
}

// A suspect row (the second process disagreed, or a rate above a ceiling) shows its reason on the
// run page, not only its value.
TEST(StoreHtml, ASuspectRowSaysWhy) {
  StoredRun run;
  run.summary.id = 2;
  run.summary.suite = "default";
  run.summary.state = "complete";
  run.summary.device_class = h200();
  auto doc = test::synthetic_document();
  doc.rows()[1].result.status = RowStatus::Suspect;
  doc.rows()[1].result.message = "the second process disagrees beyond the dispersion (repro)";
  doc.refresh();
  run.document = doc.json();
  const std::string page = html::run_page(run, {}, {});
  EXPECT_NE(page.find("<div class=\"why\">the second process disagrees beyond the dispersion (repro)</div>"),
            std::string::npos);
  // Compared with another run, it keeps its status beside its value.
  StoredRun other = run;
  other.summary.id = 3;
  other.document = test::synthetic_document().json();
  const std::string compared = html::compare_page(run, other);
  EXPECT_NE(compared.find("<span class=\"badge bad\">suspect</span>"), std::string::npos);
}

TEST(StoreHtml, RunCountsReadAsSentences) {
  EXPECT_EQ(html::runs_count_text(3, 0, 3), "3 runs match");
  EXPECT_EQ(html::runs_count_text(1, 0, 1), "1 run matches");
  EXPECT_EQ(html::runs_count_text(0, 0, 0), "No run matches");
  EXPECT_EQ(html::runs_count_text(10, 10, 25), "25 runs match; showing 11 to 20");
  const std::string page = html::runs_page({}, RunFilter{}, 0);
  EXPECT_EQ(page.find("showing"), std::string::npos);
  EXPECT_NE(page.find("No run matches."), std::string::npos);
}

TEST(StoreHtml, PagesLayOutCleanlyAt1280And390Pixels) {
  const std::string chromium = test::find_chromium_binary();
  if (chromium.empty()) {
    if (in_ci()) FAIL() << "CI=true but Chromium is not installed (scripts/test.sh installs it)";
    GTEST_SKIP() << "Chromium is not installed (Debian package `chromium`); CI installs it";
  }
  test::TempFolder dir("store-html-geometry");
  std::vector<BenchmarkInfo> benches{{"memory-read", "memory", "B/s", 2}, {"memory-latency", "memory", "ns", 2}};
  RunSummary recent;
  recent.id = 2;
  recent.suite = "memory";
  recent.state = "complete";
  recent.device_class = lavapipe();
  recent.unranked_reason = "memory options changed: sample_ms 5, budget_ms 100, sustain_ms 2000";
  recent.started_at = "2026-12-01T10:00:00Z";
  StoredRun run;
  run.summary = recent;
  run.document = test::synthetic_document().json();
  const std::vector<std::pair<const char*, std::string>> pages{
      {"home", html::index_page(benches, {{h200(), 1}, {lavapipe(), 1}}, {recent}, 2, {board()})},
      {"leaderboard", html::leaderboard_page(board())},
      {"run", html::run_page(run, {}, {recent})},
      {"runs", html::runs_page({recent}, RunFilter{}, 1)},
      {"compare", html::compare_page(run, run)}};
  for (const auto& [name, page] : pages) {
    for (int width : {1280, 390}) {
      const auto g = test::page_geometry(chromium, page, width, dir.path());
      ASSERT_TRUE(g.ran) << name << " " << width;
      EXPECT_TRUE(g.problems.empty()) << name << " at " << width << " px:\n"
                                      << fmt::format("{}", fmt::join(g.problems, "\n"));
    }
  }
}

}  // namespace
}  // namespace wgb::store
