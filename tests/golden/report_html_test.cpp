// The HTML report: self-contained, escaped, with every chart; and rendered by headless Chromium
// (Debian's `chromium`), which must produce a non-trivial screenshot and a DOM holding the chart
// <svg> elements. The Chromium test skips only when Chromium is absent and CI is not set; in CI
// (CI=true) a missing Chromium fails it (scripts/test.sh installs it there).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "report/html.hpp"
#include "report/roofline.hpp"
#include "report/svg.hpp"
#include "tests/golden/process.hpp"
#include "tests/golden/synthetic.hpp"
#include "tests/page_geometry.hpp"
#include "report/files.hpp"

namespace wgb::report {
namespace {

constexpr const char* kHostile = "<script>alert('x')</script> & \"quotes\"";

// The synthetic run plus a latency sweep document.
std::vector<nlohmann::json> document_json() {
  auto rows = test::synthetic_rows();
  rows[6].label = kHostile;  // workgroup-64
  rows[10].message = "validation failed: <b>not bold</b>";
  ResultDocument run("default", {"webgpu-bench", "run", kHostile});
  run.set_adapter(test::synthetic_adapter(), test::synthetic_dawn());
  for (const auto& r : rows) run.add_row(r);
  run.finish("complete");
  std::vector<nlohmann::json> docs(2);
  docs[0] = run.json();

  ResultDocument sweep("sweep", {"webgpu-bench", "sweep", "read-dependent-chain"});
  std::size_t i = 0;
  for (std::uint64_t size = 16 << 10; size <= (1u << 30); size *= 4, ++i) {
    // Latency grows at the synthetic cache boundaries (256 KiB, 32 MiB).
    const double ns = size <= (256u << 10) ? 30 : size <= (32u << 20) ? 200 : 600;
    auto r = test::measured_row(i, "read-dependent-chain", "latency", test::kHops, Statistic::Median, ns * 4096 * 1e-6,
                                {0, 0, 4096});
    r.parameters["sweep"] = {{"parameter", "size"}, {"value", size}, {"option", "working_set_bytes"}};
    sweep.add_row(r);
  }
  sweep.json()["sweep"] = {{"benchmark", "read-dependent-chain"}, {"parameter", "size"}, {"notes", {"1 GiB clamped"}}};
  sweep.finish("complete");
  docs[1] = sweep.json();
  return docs;
}

std::vector<Document> documents() {
  const auto j = document_json();
  return {*read_document(j[0], "run.json"), *read_document(j[1], "sweep.json")};
}

std::string html() {
  std::ostringstream out;
  write_html(out, documents());
  return out.str();
}

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(Html, HasEveryChartAndSection) {
  const auto h = html();
  for (const char* id : {"id=\"roofline-chart\"", "id=\"sweep-read-dependent-chain-size\"", "id=\"family-workgroup\"",
                         "id=\"sustain-chart\"", "id=\"machine\"", "id=\"roofline-low\""}) {
    EXPECT_NE(h.find(id), std::string::npos) << id;
  }
  // The roofline holds every row with a ceiling: memory-read, read-linear, f32-fma-vec4,
  // f32-fma-matvec, read-gather-64mb, memory-sustain.
  const auto roof = h.substr(h.find("id=\"roofline-chart\""));
  EXPECT_EQ(count(roof.substr(0, roof.find("roof-key")), "<circle"), 6u);
  // The rows below 0.2 and the rows without a ceiling are named.
  const auto low = h.substr(h.find("id=\"roofline-low\""), 400);
  EXPECT_NE(low.find("read-gather-64mb"), std::string::npos) << low;
  EXPECT_NE(h.find("without a ceiling, not on the plot"), std::string::npos);
  // Latency curve: one point per size, in ns per hop.
  const auto sweep = h.substr(h.find("id=\"sweep-read-dependent-chain-size\""));
  EXPECT_EQ(count(sweep.substr(0, sweep.find("series-key")), "<circle"), 9u);  // 16 KiB, 64 KiB, ..., 1 GiB
  EXPECT_NE(sweep.find("ns per hop"), std::string::npos);
  EXPECT_NE(h.find("1 GiB clamped"), std::string::npos);
}

TEST(Html, IsSelfContainedAndEscapesEveryString) {
  const auto h = html();
  EXPECT_EQ(h.find("<script"), std::string::npos);
  EXPECT_EQ(h.find("<b>not bold</b>"), std::string::npos);
  EXPECT_NE(h.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quotes&quot;"), std::string::npos);
  for (const char* fetch : {"http:", "https:", "//", "src=", "href=", "url(", "@import", "<link", "<img", "<iframe"}) {
    // "//" only appears in URLs here: the CSS and markup use no comments of that form.
    EXPECT_EQ(h.find(fetch), std::string::npos) << fetch;
  }
  EXPECT_EQ(h.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(h.find("</html>"), std::string::npos);
}

Document loaded(const nlohmann::json& json, const std::string& path) { return *read_document(json, path); }

std::string html_of(const std::vector<Document>& docs) {
  std::ostringstream out;
  write_html(out, docs);
  return out.str();
}

// Every id="..." of the page, with the ids that occur more than once.
std::vector<std::string> duplicate_ids(const std::string& h) {
  std::map<std::string, int> seen;
  std::vector<std::string> dup;
  const std::regex id_re("\\sid=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(h.begin(), h.end(), id_re); it != std::sregex_iterator(); ++it) {
    if (++seen[(*it)[1].str()] == 2) dup.push_back((*it)[1].str());
  }
  return dup;
}

// The per-family verdict sits next to the family's bars: the fastest variant, its lead and
// the ranges compared, with the reminder that the ranking is local to this workload, GPU and runtime.
TEST(Html, FamilyVerdictNextToItsBars) {
  const auto h = html();
  const auto bars = h.find("id=\"family-workgroup\"");
  const auto verdict = h.find("id=\"verdict-workgroup\"");
  ASSERT_NE(bars, std::string::npos);
  ASSERT_NE(verdict, std::string::npos);
  EXPECT_GT(verdict, bars);
  EXPECT_EQ(h.find("<h2", bars), h.find("<h2", verdict)) << "the verdict is not in the family's section";
  const auto box = h.substr(verdict, h.find("</div>", verdict) - verdict);
  EXPECT_NE(box.find("Verdict: fastest workgroup-128"), std::string::npos) << box;
  EXPECT_NE(box.find("lead over workgroup-256: 12.5%"), std::string::npos) << box;
  EXPECT_NE(box.find("do not overlap"), std::string::npos) << box;
  EXPECT_NE(h.find("holds for this workload on this GPU and runtime only"), std::string::npos);
}

TEST(Html, VerdictsAreDerivedForDocumentsWithoutTheField) {
  auto json = document_json();
  std::vector<Document> docs;
  for (auto& j : json) {
    j.erase("technique_verdicts");  // a document written before the field
    docs.push_back(loaded(j, "run.json"));
  }
  const auto h = html_of(docs);
  EXPECT_NE(h.find("id=\"verdict-workgroup\""), std::string::npos);
  EXPECT_NE(h.find("Verdict: fastest workgroup-128"), std::string::npos);
}

// A GPU document and a host document in one report: both machine cards, each device's roofline
// under its own ceilings, the host's curves, and no id twice.
TEST(Html, GpuAndHostDocumentsGetTheirOwnCardAndRoofline) {
  const auto gpu = loaded(test::synthetic_document().json(), "gpu.json");
  const auto host = loaded(test::synthetic_host_document().json(), "host.json");
  const auto h = html_of({gpu, host});
  EXPECT_TRUE(duplicate_ids(h).empty()) << fmt::format("{}", fmt::join(duplicate_ids(h), ", "));
  EXPECT_EQ(count(h, "<svg id=\"roofline-chart"), 2u);
  const auto host_section = h.substr(h.find("id=\"doc-host-json\""));
  EXPECT_NE(host_section.find("id=\"machine-2\""), std::string::npos);
  EXPECT_NE(host_section.find("Machine: host CPU: Synthetic CPU 9000"), std::string::npos);
  EXPECT_NE(h.substr(0, h.find("id=\"doc-host-json\"")).find("Machine: Synthetic GPU"), std::string::npos);
  // The host roofline: the host's ceilings, with its FMA and STREAM rows on it.
  const auto roof = host_section.substr(host_section.find("<svg id=\"roofline-chart-2\""));
  const auto roof_svg = roof.substr(0, roof.find("</svg>"));  // the plot area holds every point
  EXPECT_NE(host_section.find("peak bandwidth 10.0 GB/s (from host-stream-triad)"), std::string::npos);
  EXPECT_NE(host_section.find("peak f64"), std::string::npos);
  EXPECT_EQ(count(roof_svg, "<circle"), 3u) << "host-fma-f32, host-fma-f64, host-stream-triad";
  EXPECT_NE(roof_svg.find("host-stream-triad"), std::string::npos);
  EXPECT_EQ(roof_svg.find("memory-read"), std::string::npos) << "a GPU row under the host's roof";
  // The host's thread and working-set curves.
  for (const char* id : {"id=\"host-threads-threads\"", "id=\"host-working_set-working_set_bytes\"",
                         "id=\"host-working_set-working_set_bytes-2\""}) {
    EXPECT_NE(host_section.find(id), std::string::npos) << id;
  }
  EXPECT_NE(host_section.find("ns per load"), std::string::npos);
  EXPECT_EQ(host_section.find("No ceiling was measured"), std::string::npos);
}

TEST(Html, HostDocumentAloneDrawsTheHostRoofline) {
  const auto h = html_of({loaded(test::synthetic_host_document().json(), "host.json")});
  EXPECT_EQ(h.find("No ceiling was measured"), std::string::npos);
  EXPECT_NE(h.find("<svg id=\"roofline-chart\""), std::string::npos);
  EXPECT_NE(h.find("Roofline: host CPU: Synthetic CPU 9000"), std::string::npos);
}

TEST(Html, IdsStayUniqueAcrossDocuments) {
  const auto doc = test::synthetic_document().json();
  const auto h = html_of({loaded(doc, "a.json"), loaded(doc, "b.json")});
  EXPECT_TRUE(duplicate_ids(h).empty()) << fmt::format("{}", fmt::join(duplicate_ids(h), ", "));
  EXPECT_EQ(count(h, "id=\"row-read-linear\""), 1u);
  EXPECT_EQ(count(h, "id=\"row-read-linear-2\""), 1u);
  EXPECT_EQ(count(h, "<h2 id=\"machine"), 2u);
  EXPECT_EQ(count(h, "<svg id=\"roofline-chart"), 2u);
}

// Review item 8: a best-run headline lies above the rate at q1, so its whisker must still reach the
// bar's end; median bars too. Every whisker spans the plotted value.
TEST(Html, FamilyWhiskersSurroundThePlottedValue) {
  auto rows = test::synthetic_rows();
  std::vector<Document> docs(1);
  ResultDocument doc("default", {"webgpu-bench", "run"});
  for (auto r : {rows[6], rows[7], rows[8]}) doc.add_row(r);
  auto best = test::measured_row(9, "workgroup-512", "technique", test::kElements, Statistic::Best, 0.03,
                                 {524288, 524288, 65536}, "workgroup", {1.0, 1.04, 1.02, 1.06, 1.03});
  doc.add_row(best);
  const auto h = html_of({loaded(doc.json(), "run.json")});
  const auto chart = h.substr(h.find("<svg id=\"family-workgroup\""));
  const std::regex bar_re("<rect class=\"bar\" x=\"([0-9.]+)\" y=\"[0-9.]+\" width=\"([0-9.]+)\"");
  const std::regex whisker_re("<path class=\"whisker\" d=\"M([0-9.]+) [0-9.]+H([0-9.]+)");
  std::vector<std::pair<double, double>> ends, spans;
  const auto svg_end = chart.find("</svg>");
  const std::string body = chart.substr(0, svg_end);
  for (auto it = std::sregex_iterator(body.begin(), body.end(), bar_re); it != std::sregex_iterator(); ++it) {
    ends.emplace_back(std::stod((*it)[1]), std::stod((*it)[1]) + std::stod((*it)[2]));
  }
  for (auto it = std::sregex_iterator(body.begin(), body.end(), whisker_re); it != std::sregex_iterator(); ++it) {
    spans.emplace_back(std::stod((*it)[1]), std::stod((*it)[2]));
  }
  ASSERT_EQ(ends.size(), 4u);
  ASSERT_EQ(spans.size(), 4u);
  for (std::size_t i = 0; i < ends.size(); ++i) {
    EXPECT_LE(spans[i].first, ends[i].second + 0.05) << "bar " << i;
    EXPECT_GE(spans[i].second, ends[i].second - 0.05) << "bar " << i << ": the whisker stops short of the bar";
  }
}

std::string find_chromium() {
  if (const char* c = std::getenv("WGB_CHROMIUM"); c != nullptr && *c != '\0') return c;
  for (const char* dir : {"/usr/bin", "/usr/local/bin", "/snap/bin"}) {
    for (const char* name : {"chromium", "chromium-browser"}) {
      const std::filesystem::path p = std::filesystem::path(dir) / name;
      if (::access(p.c_str(), X_OK) == 0) return p.string();
    }
  }
  return {};
}

bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}

// Two documents of one machine and build share one machine card; a third of another machine gets
// its own. Pins the card repeated per document.
TEST(Html, OneMachineCardPerMachine) {
  const auto doc = test::synthetic_document().json();
  auto other = doc;
  other["machine"]["adapter"]["device"] = "Another GPU";
  const auto h = html_of({loaded(doc, "a.json"), loaded(doc, "b.json"), loaded(other, "c.json")});
  EXPECT_EQ(count(h, "<h3>GPU adapter</h3>"), 2u);
  EXPECT_NE(h.find("The same machine and build as <b>a.json</b>"), std::string::npos);
  EXPECT_TRUE(duplicate_ids(h).empty()) << fmt::format("{}", fmt::join(duplicate_ids(h), ", "));
}

// The reasons rows are off the roofline: one line per reason naming its rows, not one bullet per
// row (a suite of latency rows repeated the same "no ceiling" sentence dozens of times).
TEST(Html, RowsWithoutACeilingAreListedOncePerReason) {
  auto json = test::synthetic_document().json();
  std::size_t unplaced = 0;
  std::map<std::string, std::size_t> reasons;
  {
    const auto d = loaded(json, "a.json");
    for (const auto& r : d.rows) {
      if (has_rate(r.result) && r.roofline && !r.roofline->applies) {
        ++unplaced;
        ++reasons[r.roofline->note];
      }
    }
  }
  ASSERT_GE(unplaced, 2u);
  const auto h = html_of({loaded(json, "a.json")});
  const auto at = h.find("id=\"roofline-unplaced\"");
  ASSERT_NE(at, std::string::npos);
  const auto list = h.substr(at, h.find("</ul>", at) - at);
  EXPECT_NE(list.find(fmt::format("{} rows without a ceiling", unplaced)), std::string::npos) << list;
  EXPECT_EQ(count(list, "<li>"), reasons.size()) << list;
  for (const auto& [why, n] : reasons) EXPECT_EQ(count(list, svg::escape(why)), 1u) << why;
}

TEST(Html, SummaryCountsEveryRowWithItsGrammar) {
  const auto docs = documents();
  const std::string s = rows_summary(docs[0]);
  EXPECT_EQ(s.rfind(fmt::format("{} rows: ", docs[0].rows.size()), 0), 0u) << s;
  EXPECT_NE(s.find("; the run is complete."), std::string::npos) << s;
  Document one = docs[1];
  one.rows.resize(1);
  EXPECT_EQ(rows_summary(one).rfind("1 row: 1 ok", 0), 0u) << rows_summary(one);
}

// The report laid out by Chromium at a desktop and a phone width: no chart label over another, no
// card label over its value, no identifier broken mid-word, nothing wider than the window.
TEST(Html, LaysOutCleanlyAt1280And390Pixels) {
  const std::string chromium = test::find_chromium_binary();
  if (chromium.empty()) {
    if (in_ci()) FAIL() << "CI=true but Chromium is not installed (scripts/test.sh installs it)";
    GTEST_SKIP() << "Chromium is not installed (Debian package `chromium`); CI installs it";
  }
  test::TempFolder dir("html-geometry");
  auto docs = documents();
  docs.push_back(loaded(test::synthetic_host_document().json(), "host.json"));
  const std::string page = html_of(docs);
  for (int width : {1280, 390}) {
    const auto g = test::page_geometry(chromium, page, width, dir.path());
    ASSERT_TRUE(g.ran) << width;
    EXPECT_EQ(g.width, width);
    EXPECT_TRUE(g.problems.empty()) << width << " px:\n" << fmt::format("{}", fmt::join(g.problems, "\n"));
  }
}

TEST(Html, RendersInHeadlessChromium) {
  const std::string chromium = find_chromium();
  if (chromium.empty()) {
    if (in_ci()) FAIL() << "CI=true but Chromium is not installed (scripts/test.sh installs it)";
    GTEST_SKIP() << "Chromium is not installed (Debian package `chromium`); CI installs it";
  }
  test::TempFolder dir("html-render");
  const auto page = dir / "report.html";
  std::ofstream(page, std::ios::binary) << html();
  const std::string flags = fmt::format(
      "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking "
      "--disable-component-update --disable-sync --user-data-dir={} --window-size=1200,2000",
      test::quoted(dir / "profile"));
  const auto shot = dir / "shot.png";
  auto r = test::run_command(fmt::format("timeout 180 {} {} --screenshot={} file://{}", chromium, flags,
                                         test::quoted(shot), page.string()),
                             dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string png = test::read_file(shot);
  ASSERT_GE(png.size(), 24u) << "no screenshot";
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  auto be32 = [&](std::size_t at) {
    return (static_cast<unsigned>(static_cast<unsigned char>(png[at])) << 24) |
           (static_cast<unsigned>(static_cast<unsigned char>(png[at + 1])) << 16) |
           (static_cast<unsigned>(static_cast<unsigned char>(png[at + 2])) << 8) |
           static_cast<unsigned>(static_cast<unsigned char>(png[at + 3]));
  };
  EXPECT_EQ(be32(16), 1200u);  // IHDR width
  EXPECT_EQ(be32(20), 2000u);  // IHDR height
  // A blank 1200x2000 page compresses to a few KiB; text, tables and charts do not.
  EXPECT_GT(png.size(), 40000u) << "the screenshot looks empty";

  r = test::run_command(fmt::format("timeout 180 {} {} --dump-dom file://{}", chromium, flags, page.string()), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string& dom = r.out;
  // WGB_HTML_OUT=<folder>: keep the page and its screenshot there, to look at them.
  if (const char* keep = std::getenv("WGB_HTML_OUT"); keep != nullptr && *keep != '\0') {
    std::filesystem::copy_file(page, std::filesystem::path(keep) / "report.html",
                               std::filesystem::copy_options::overwrite_existing);
    std::filesystem::copy_file(shot, std::filesystem::path(keep) / "shot.png",
                               std::filesystem::copy_options::overwrite_existing);
  }
  for (const char* id : {"roofline-chart", "sweep-read-dependent-chain-size", "family-workgroup", "sustain-chart"}) {
    EXPECT_TRUE(std::regex_search(dom, std::regex(fmt::format("<svg[^>]*id=\"{}\"", id)))) << id;
  }
  EXPECT_GE(count(dom, "<circle"), 15u);
  EXPECT_EQ(dom.find("<script"), std::string::npos);  // the hostile label stayed text
  EXPECT_NE(dom.find("&lt;script&gt;"), std::string::npos);
}

}  // namespace
}  // namespace wgb::report
