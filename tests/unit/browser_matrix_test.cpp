// Every implementation side by side, without a browser: the runtime list (unknown names are usage
// errors naming the runtimes), adapters matched when a runtime does not say which it uses, the
// rounds (alternating order; a column that fails is not run again, the others complete), a child
// column that crashes or hangs (its log's tail in the error), and the pooled matrix with its text
// and JSON (each column against the reference on its adapter).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "browser/against_native.hpp"
#include "browser/columns.hpp"
#include "browser/matrix.hpp"
#include "browser/runtimes.hpp"
#include "report/document.hpp"
#include "report/files.hpp"

namespace wgb::browser {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace std::chrono_literals;

// The adapters as the page and `devices --json` write them, read as the driver reads them.
std::optional<std::size_t> match(const json& browser_adapter, const json& native_devices) {
  return match_native_adapter(report::read_adapter_identity(browser_adapter), report::read_adapter_list(native_devices));
}

TEST(Runtimes, TheListIsParsedInOrderWithoutDuplicates) {
  auto r = parse_runtimes("deno,chromium,deno");
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].name, "deno");
  EXPECT_EQ((*r)[0].webgpu, "wgpu");
  EXPECT_EQ((*r)[1].name, "chromium");
  EXPECT_FALSE((*r)[1].install.empty());
}

TEST(Runtimes, AnUnknownNameIsAUsageErrorListingTheRuntimes) {
  for (const char* bad : {"safari", "chromium,,deno", ""}) {
    auto r = parse_runtimes(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().kind, ErrorKind::Usage);
    EXPECT_NE(r.error().message.find("chromium, firefox, deno"), std::string::npos) << r.error().message;
  }
  EXPECT_NE(parse_runtimes("safari").error().message.find("'safari'"), std::string::npos);
}

const json kNative = json::array({
    {{"index", 0}, {"vendor", "nvidia"}, {"architecture", "hopper"}, {"device", "NVIDIA H200"}, {"adapter_type", "discrete-gpu"}},
    {{"index", 1}, {"vendor", "mesa"}, {"architecture", ""}, {"device", "llvmpipe (LLVM 15.0.6, 256 bits)"},
     {"adapter_type", "cpu"}},
});

TEST(MatchNativeAdapter, AnEmptyIdentityIsMatchedByItsKindWhenOnlyOneFits) {
  // Firefox leaves adapter.info empty; a fallback (CPU) adapter then is the one CPU adapter.
  EXPECT_EQ(match({{"vendor", ""}, {"is_fallback_adapter", true}}, kNative), 1u);
  EXPECT_EQ(match({{"vendor", ""}, {"is_fallback_adapter", false}}, kNative), 0u);
  json two_gpus = kNative;
  two_gpus.push_back({{"index", 2}, {"vendor", "amd"}, {"device", "MI300X"}, {"adapter_type", "discrete-gpu"}});
  EXPECT_FALSE(match({{"vendor", ""}, {"is_fallback_adapter", false}}, two_gpus));
}

TEST(MatchNativeAdapter, ADescriptionNamesTheDeviceWhateverTheVendorSays) {
  // wgpu reports the vendor as a PCI id and the device's name in its description.
  EXPECT_EQ(match({{"vendor", "65541"}, {"device", ""}, {"description", "llvmpipe (LLVM 15.0.6, 256 bits)"}},
                                 kNative),
            1u);
}

// A document with one row per (id, rate): rate 0 makes an error row.
report::Document doc_with(const std::vector<std::pair<std::string, double>>& rows) {
  report::ResultDocument d("default", {"webgpu-bench", "run"});
  for (const auto& [id, rate] : rows) {
    BenchmarkResult r;
    r.id = id;
    r.metric = Metric{"bytes", "B", "Bytes"};
    r.status = rate > 0 ? RowStatus::Ok : RowStatus::Error;
    r.value = rate;
    r.statistic = Statistic::Median;
    r.stats.count = 8;
    r.stats.median = 1;
    r.stats.iqr = 0.001;
    r.validation = "checked 12 words";
    d.add_row(r);
  }
  d.finish("complete");
  auto read = report::read_document(d.json(), "test");
  return *read;
}

RoundRun run_of(int round, const report::Document& d, double wall = 1) {
  RoundRun r;
  r.round = round;
  r.ran = true;
  r.document = d;
  r.wall_s = wall;
  return r;
}

ColumnSpec spec(const std::string& name, const std::string& baseline, const std::string& group = "llvmpipe") {
  ColumnSpec s;
  s.name = name;
  s.label = name;
  s.baseline = baseline;
  s.group = group;
  return s;
}

TEST(Matrix, EachColumnAgainstItsReferenceOverTheRounds) {
  Matrix m;
  m.rounds = 2;
  m.columns = {spec("dawn", ""), spec("firefox", "dawn"), spec("dawn@ss", "", "ss"), spec("chromium", "dawn@ss", "ss")};
  m.runs = {{run_of(1, doc_with({{"read-linear", 100}})), run_of(2, doc_with({{"read-linear", 100}}))},
            {run_of(1, doc_with({{"read-linear", 80}})), run_of(2, doc_with({{"read-linear", 80}}))},
            {run_of(1, doc_with({{"read-linear", 10}})), run_of(2, doc_with({{"read-linear", 10}}))},
            {run_of(1, doc_with({{"read-linear", 15}})), run_of(2, doc_with({{"read-linear", 15}}))}};
  const MatrixResult r = pool_matrix(m);
  ASSERT_EQ(r.rows.size(), 1u);
  const auto& cells = r.rows[0].cells;
  EXPECT_FALSE(cells[0].vs_baseline);  // a reference
  ASSERT_TRUE(cells[1].vs_baseline);
  EXPECT_NEAR(cells[1].vs_baseline->geomean, 0.8, 1e-9);
  EXPECT_TRUE(cells[1].vs_baseline->significant);
  EXPECT_EQ(cells[1].vs_baseline->outputs, "agree");
  EXPECT_NEAR(cells[3].vs_baseline->geomean, 1.5, 1e-9);  // against its own adapter's reference
  EXPECT_DOUBLE_EQ(cells[2].rate, 10);
  EXPECT_DOUBLE_EQ(r.wall_s[1], 2);

  std::ostringstream text;
  write_matrix(text, m, r, 100);
  std::istringstream lines(text.str());
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 100u) << line;
  EXPECT_NE(text.str().find("0.800 ± 0.000"), std::string::npos) << text.str();
  const json j = report::to_json(matrix_document(m, r));
  EXPECT_EQ(j["kind"], "webgpu-bench-implementations");
  EXPECT_EQ(j["columns"][1]["rounds"].size(), 2u);  // every round of every column
  EXPECT_EQ(j["columns"][1]["rounds"][1]["rows"][0]["rate"], 80.0);
  EXPECT_NEAR(j["rows"][0]["columns"]["chromium"]["ratio"].get<double>(), 1.5, 1e-9);
}

TEST(Matrix, SkippedAndFailedColumnsAreShownWithTheirReasons) {
  Matrix m;
  m.rounds = 1;
  m.columns = {spec("dawn", ""), spec("deno", "dawn"), spec("firefox", "dawn")};
  m.columns[1].status = "failed";
  m.columns[1].reason = "round 1: killed by signal 11 (Segmentation fault): the log's last words";
  m.columns[2].status = "skipped";
  m.columns[2].reason = "no Firefox found";
  m.columns[2].install = "install firefox-esr";
  RoundRun failed;
  failed.round = 1;
  failed.ran = true;
  failed.error = "killed by signal 11";
  m.runs = {{run_of(1, doc_with({{"read-linear", 100}}))}, {failed}, {}};
  const MatrixResult r = pool_matrix(m);
  std::ostringstream text;
  write_matrix(text, m, r, 100);
  EXPECT_NE(text.str().find("failed deno: round 1: killed by signal 11"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("skipped firefox: no Firefox found (to get it: install firefox-esr)"), std::string::npos)
      << text.str();
  const json j = report::to_json(matrix_document(m, r));
  EXPECT_EQ(j["columns"][1]["rounds"][0]["error"], "killed by signal 11");
  EXPECT_EQ(j["columns"][2]["status"], "skipped");
}

// A column that records the order it ran in and fails where told.
class Recorder : public Column {
 public:
  Recorder(std::string name, std::vector<std::string>& order, int fail_round = 0)
      : name_(std::move(name)), order_(order), fail_round_(fail_round) {}
  RoundRun run(const RoundContext& ctx) override {
    order_.push_back(fmt::format("{}{}", name_, ctx.round));
    RoundRun r = run_of(ctx.round, doc_with({{"read-linear", 1}}));
    if (ctx.round == fail_round_) {
      r.document.reset();
      r.error = "it broke";
    }
    return r;
  }

 private:
  std::string name_;
  std::vector<std::string>& order_;
  int fail_round_;
};

TEST(Rounds, TheOrderAlternatesAndAFailedColumnIsNotRunAgain) {
  std::vector<std::string> order, notes;
  Recorder a("a", order), b("b", order, 2), c("c", order);
  RoundContext ctx;
  ctx.rounds = 3;
  auto runs = run_rounds({&a, &b, &c}, {"a", "b", "c"}, ctx, [&](const std::string& l) { notes.push_back(l); });
  EXPECT_EQ(order, (std::vector<std::string>{"a1", "b1", "c1", "c2", "b2", "a2", "a3", "c3"}));
  ASSERT_EQ(runs[1].size(), 3u);
  EXPECT_FALSE(runs[1][2].ran);
  EXPECT_EQ(runs[1][1].error, "it broke");
  EXPECT_TRUE(runs[2][2].document.has_value());
  ASSERT_FALSE(notes.empty());
  bool said = false;
  for (const auto& n : notes) said = said || n.find("b failed and is not run again: it broke") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(Rounds, ACancelStopsAfterTheRound) {
  std::vector<std::string> order;
  Recorder a("a", order), b("b", order);
  std::atomic<bool> cancel{true};
  RoundContext ctx;
  ctx.rounds = 5;
  ctx.cancel = &cancel;
  auto runs = run_rounds({&a, &b}, {"a", "b"}, ctx, [](const std::string&) {});
  EXPECT_TRUE(order.empty());
  EXPECT_EQ(runs[0].size(), 1u);
  EXPECT_FALSE(runs[0][0].ran);
}

class ChildColumnTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string t = (fs::temp_directory_path() / "wgb-matrix-XXXXXX").string();
    ASSERT_NE(mkdtemp(t.data()), nullptr);
    dir_ = t;
    ctx_.round = 1;
    ctx_.rounds = 1;
    ctx_.folder = dir_;
    ctx_.timeout = 30s;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  // `sh -c script` with "--out FILE" as $1 $2.
  RoundRun run(const std::string& script) {
    auto c = child_column("fake", {"sh", "-c", script, "sh"}, "--out", {});
    return c->run(ctx_);
  }
  fs::path dir_;
  RoundContext ctx_;
};

TEST_F(ChildColumnTest, ItsDocumentIsLoaded) {
  const fs::path doc = dir_ / "source.json";
  ASSERT_TRUE(report::write_json_atomic(doc, [] {
    report::ResultDocument d("default", {"webgpu-bench", "run"});
    d.finish("complete");
    return d.json();
  }()));
  const RoundRun r = run(fmt::format("cp '{}' \"$2\"", doc.string()));
  EXPECT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.document.has_value());
  EXPECT_EQ(r.document->state, "complete");
}

TEST_F(ChildColumnTest, ACrashIsAnErrorWithTheLogsTail) {
  const RoundRun r = run("echo 'loading the engine'; echo 'the adapter went away' >&2; kill -SEGV $$");
  ASSERT_FALSE(r.error.empty());
  EXPECT_NE(r.error.find("signal 11"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("the adapter went away"), std::string::npos) << r.error;
  EXPECT_FALSE(r.document.has_value());
}

// A runtime that crashes after writing its whole document (Deno at exit on NVIDIA's driver): the
// rows stand and the crash is said; a crash that leaves a running (unfinished) document is an error.
TEST_F(ChildColumnTest, ACrashAfterAWholeDocumentKeepsItAndSaysSo) {
  auto write = [&](const std::string& state) {
    const fs::path doc = dir_ / (state + ".json");
    EXPECT_TRUE(report::write_json_atomic(doc, [&] {
      report::ResultDocument d("default", {"webgpu-bench", "run"});
      if (!state.empty() && state != "running") d.finish(state);
      return d.json();
    }()));
    return doc;
  };
  const fs::path whole = write("complete");
  RoundRun r = run(fmt::format("cp '{}' \"$2\"; echo 'free(): invalid pointer' >&2; kill -ABRT $$", whole.string()));
  EXPECT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.document.has_value());
  EXPECT_NE(r.warning.find("signal 6"), std::string::npos) << r.warning;
  EXPECT_NE(r.warning.find("whole document"), std::string::npos) << r.warning;

  const fs::path half = write("running");
  r = run(fmt::format("cp '{}' \"$2\"; kill -SEGV $$", half.string()));
  EXPECT_NE(r.error.find("signal 11"), std::string::npos) << r.error;
  EXPECT_FALSE(r.document.has_value());
  EXPECT_TRUE(r.warning.empty());
}

TEST_F(ChildColumnTest, AHangIsEndedAtTheRoundTimeout) {
  ctx_.timeout = 1s;
  const auto t0 = std::chrono::steady_clock::now();
  const RoundRun r = run("echo 'started'; sleep 60");
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s);
  EXPECT_NE(r.error.find("did not finish within 1 s"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("started"), std::string::npos) << r.error;
}

TEST_F(ChildColumnTest, AnExitWithoutADocumentSaysSo) {
  const RoundRun r = run("exit 1");
  EXPECT_NE(r.error.find("its document"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace wgb::browser
