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

}  // namespace
}  // namespace wgb::test
