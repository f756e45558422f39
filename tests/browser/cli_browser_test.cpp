// `webgpu-bench browser` as a user runs it: usage errors and a missing Chromium are one line with
// their exit code before anything starts; a one-round comparison of one benchmark prints its ratio
// and writes the JSON (skipped with the reason where the program has no browser engine or Chromium
// no adapter).
#include <gtest/gtest.h>

#include <filesystem>

#define WGB_CLI WGB_BIN
#include "tests/browser/ci_skip.hpp"
#include "tests/gpu/cli_process.hpp"

namespace wgb::test {
namespace {

namespace fs = std::filesystem;

int count_lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

TEST(CliBrowser, AnEmptyFilterIsAUsageError) {
  const auto r = run_cli({"browser", "--filter", ""});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
}

TEST(CliBrowser, AnUnknownBenchmarkIsAUsageError) {
  const auto r = run_cli({"browser", "--filter", "no-such-benchmark"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("no-such-benchmark"), std::string::npos) << r.err;
}

TEST(CliBrowser, AFilterWithTheMemorySuiteIsAUsageError) {
  const auto r = run_cli({"browser", "--suite", "memory", "--filter", "read-linear"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
}

TEST(CliBrowser, NoChromiumIsExit3NamingIt) {
  const auto r = run_cli({"browser", "--filter", "read-linear", "--chromium", "/nonexistent/chromium"});
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("/nonexistent/chromium"), std::string::npos) << r.err;
}

TEST(CliBrowser, OneRoundOfOneBenchmark) {
  const fs::path out = fs::temp_directory_path() / ("wgb-browser-cli-" + std::to_string(getpid()) + ".json");
  const auto r = run_cli({"browser", "--filter", "read-linear", "--rounds", "1", "--out", out.string()});
  if (r.code == 3) {
    WGB_SKIP_UNLESS_CI(r.err);  // no Chromium, no adapter, or no engine in this program: said on one line
  }
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("read-linear"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("wall time: browser"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(slurp(out));
  std::error_code ec;
  fs::remove(out, ec);
  EXPECT_EQ(j["rounds"], 1);
  ASSERT_EQ(j["rows"].size(), 1u);
  EXPECT_EQ(j["rows"][0]["id"], "read-linear");
  EXPECT_EQ(j["rows"][0]["outputs"], "agree") << j["rows"][0].dump();
  EXPECT_GT(j["rows"][0]["ratio"].get<double>(), 0);
  EXPECT_EQ(j["adapter"]["architecture"], j["native_adapter"]["architecture"]);
}

// --accuracy: the engine runs the accuracy pass on the page's device as run --accuracy does natively,
// and both sides' entries are printed (SwiftShader: the same results in the browser as natively).
TEST(CliBrowser, AccuracyOnBothSides) {
  const fs::path keep = fs::temp_directory_path() / ("wgb-browser-acc-" + std::to_string(getpid()));
  const auto r = run_cli({"browser", "--filter", "f32-sqrt", "--accuracy", "--rounds", "1", "--keep", keep.string()});
  if (r.code == 3) {
    WGB_SKIP_UNLESS_CI(r.err);
  }
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("browser:\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("native:\n"), std::string::npos) << r.out;
  const auto browser = nlohmann::json::parse(slurp(keep / "round-01-browser.json"));
  const auto native = nlohmann::json::parse(slurp(keep / "round-01-native.json"));
  std::error_code ec;
  fs::remove_all(keep, ec);
  ASSERT_EQ(browser["rows"][0]["accuracy"].size(), 1u) << browser["rows"][0].dump();
  const auto& b = browser["rows"][0]["accuracy"][0];
  const auto& n = native["rows"][0]["accuracy"][0];
  EXPECT_EQ(b["status"], "measured") << b["reason"];
  EXPECT_EQ(b["within"], true);
  EXPECT_EQ(b["inputs"], n["inputs"]);
  EXPECT_EQ(b["correctly_rounded"], n["correctly_rounded"]);
  EXPECT_EQ(browser["options"]["accuracy"], true);
}

}  // namespace
}  // namespace wgb::test
