// "The Stack" (a run's page on the results server) with the report's charts (report/charts.hpp:
// the same SVG as `webgpu-bench report`), still without script or anything fetched, every string
// escaped; and its table fits a 1200 px window (measured by headless Chromium, which skips where
// Chromium is absent, except in CI).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>

#include "store/html.hpp"
#include "tests/golden/synthetic.hpp"

namespace wgb::store {
namespace {

StoredRun synthetic_run() {
  StoredRun run;
  run.summary.id = 7;
  run.summary.suite = "default";
  run.summary.state = "complete";
  run.summary.device_class.key = "synthetic/test/synthetic-gpu/vulkan";
  run.summary.device_class.label = "Synthetic GPU";
  run.summary.device_class.adapter_type = "discrete-gpu";
  auto rows = test::synthetic_rows();
  rows[6].label = "<script>alert('x')</script>";
  rows[10].message =
      "validation failed: word 3 of the sink buffer held 0x00000000000000000000000000000000deadbeef where the host "
      "reference expected 0x0000000000000000000000000000000000000007_after_the_second_repetition_of_the_batch";
  report::ResultDocument doc("default", {"webgpu-bench", "run"});
  doc.set_adapter(test::synthetic_adapter(), test::synthetic_dawn());
  for (const auto& r : rows) doc.add_row(r);
  doc.finish("complete");
  run.document = doc.json();
  return run;
}

std::vector<ClassDistribution> class_stats(const StoredRun& run) {
  std::vector<ClassDistribution> out;
  for (const auto& r : run.document["rows"]) {
    const double v = r["value"].get<double>();
    if (!(v > 0)) continue;
    out.push_back(
        {r["id"].get<std::string>(), r["value_unit"].get<std::string>(), 12, v, v * 0.97, v * 1.02, v * 0.8, v * 1.1});
  }
  return out;
}

TEST(StoreRunCharts, TheStackShowsTheReportCharts) {
  const auto run = synthetic_run();
  const std::string page = html::run_page(run, class_stats(run), {});
  for (const char* id : {"roofline-chart", "family-workgroup", "sustain-chart"}) {
    EXPECT_TRUE(std::regex_search(page, std::regex(fmt::format("<svg[^>]*id=\"{}\"", id)))) << id;
  }
  EXPECT_NE(page.find("id=\"verdict-workgroup\""), std::string::npos);
  EXPECT_NE(page.find("svg.chart{"), std::string::npos) << "the charts' CSS";
  // The page's Content-Security-Policy allows no script and no fetch: nothing of the kind appears.
  EXPECT_EQ(page.find("<script"), std::string::npos);
  for (const char* fetch : {"http:", "https:", "src=", "url(", "@import", "<link", "<img"}) {
    EXPECT_EQ(page.find(fetch), std::string::npos) << fetch;
  }
}

std::string find_chromium() {
  if (const char* env = std::getenv("WGB_CHROMIUM"); env != nullptr && *env != '\0') return env;
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/local/bin/chromium"}) {
    if (std::filesystem::exists(p)) return p;
  }
  return "";
}

// Pins a bug: the Stack's table overflowed horizontally in a 1200 px window.
TEST(StoreRunCharts, TheStackFitsA1200PixelWindow) {
  const std::string chromium = find_chromium();
  if (chromium.empty()) {
    const char* ci = std::getenv("CI");
    if (ci != nullptr && std::string(ci) == "true") FAIL() << "chromium is not installed (scripts/test.sh installs it)";
    GTEST_SKIP() << "chromium is not installed (apt-get install chromium)";
  }
  const auto dir = std::filesystem::temp_directory_path() / fmt::format("wgb-stack-fit-{}", ::getpid());
  std::filesystem::create_directories(dir);
  const auto run = synthetic_run();
  std::string page = html::run_page(run, class_stats(run), {});
  // The measurement only (the served page has no script): the document's width after layout.
  page.replace(page.rfind("</body>"), 7,
               "<script>document.body.setAttribute('data-width', String(document.documentElement.scrollWidth));"
               "</script></body>");
  std::ofstream(dir / "stack.html") << page;
  const std::string cmd = fmt::format(
      "timeout 90 '{}' --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run "
      "--disable-extensions --user-data-dir='{}' --window-size=1200,900 --dump-dom 'file://{}' 2>/dev/null",
      chromium, (dir / "profile").string(), (dir / "stack.html").string());
  std::string dom;
  if (FILE* p = popen(cmd.c_str(), "r"); p != nullptr) {
    std::array<char, 8192> buf{};
    for (std::size_t n; (n = fread(buf.data(), 1, buf.size(), p)) > 0;) dom.append(buf.data(), n);
    pclose(p);
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(dom, m, std::regex("data-width=\"([0-9]+)\""))) << dom.substr(0, 500);
  EXPECT_LE(std::stoi(m[1].str()), 1200) << "the page is wider than the window";
}

}  // namespace
}  // namespace wgb::store
