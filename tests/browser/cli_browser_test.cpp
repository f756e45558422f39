// `webgpu-bench browser` as a user runs it: usage errors (an unknown runtime among them) and a
// missing Chromium are one line with their exit code before anything starts; a one-round comparison
// of one benchmark prints its ratio and writes the JSON (skipped with the reason where the program
// has no browser engine or Chromium no adapter); a runtime that crashes or hangs mid-round is
// reported with its log's tail while the native columns complete (a stand-in Deno, a shell script).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#define WGB_CLI WGB_BIN
#include "tests/browser/ci_skip.hpp"
#include "tests/gpu/cli_process.hpp"

namespace wgb::test {
namespace {

namespace fs = std::filesystem;

int count_lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

// The output with its lines joined (long reasons are wrapped to the terminal's width, continuation
// lines indented): a line break and the indentation after it become one space.
std::string flat(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\n') {
      out += s[i];
      continue;
    }
    out += ' ';
    while (i + 1 < s.size() && s[i + 1] == ' ') ++i;
  }
  return out;
}

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

TEST(CliBrowser, AnUnknownRuntimeIsAUsageErrorListingTheRuntimes) {
  const auto r = run_cli({"browser", "--runtime", "chromium,webkit", "--filter", "read-linear"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("'webkit'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("chromium, firefox, deno"), std::string::npos) << r.err;
}

TEST(CliBrowser, NoChromiumIsExit3NamingIt) {
  const auto r = run_cli({"browser", "--runtime", "chromium", "--filter", "read-linear", "--chromium",
                          "/nonexistent/chromium"});
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("/nonexistent/chromium"), std::string::npos) << r.err;
}

TEST(CliBrowser, OneRoundOfOneBenchmark) {
  const fs::path out = fs::temp_directory_path() / ("wgb-browser-cli-" + std::to_string(getpid()) + ".json");
  const auto r = run_cli({"browser", "--runtime", "chromium", "--filter", "read-linear", "--rounds", "1", "--out",
                          out.string()});
  if (r.code == 3) {
    WGB_SKIP_UNLESS_CI(r.err);  // no Chromium, no adapter, or no engine in this program: said on one line
  }
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("read-linear"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Chromium"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(slurp(out));
  std::error_code ec;
  fs::remove(out, ec);
  EXPECT_EQ(j["rounds"], 1);
  ASSERT_EQ(j["rows"].size(), 1u);
  EXPECT_EQ(j["rows"][0]["id"], "read-linear");
  const auto& cell = j["rows"][0]["columns"]["chromium"];
  EXPECT_EQ(cell["outputs"], "agree") << cell.dump();
  EXPECT_GT(cell["ratio"].get<double>(), 0);
  // Chromium and its reference on one adapter: the native side matched the page's.
  for (const auto& c : j["columns"]) {
    if (c["name"] == "chromium") {
      EXPECT_EQ(c["adapter"]["architecture"], c["detail"]["native_adapter"]["architecture"]) << c.dump();
      EXPECT_GT(c["wall_s"].get<double>(), 0);
    }
  }
}

// A stand-in for Deno: answers --adapter as the entry would (a CPU adapter that names nothing, as
// Firefox's does), then fails each round as `round` says.
fs::path fake_deno(const std::string& round) {
  const fs::path p = fs::temp_directory_path() / ("wgb-fake-deno-" + std::to_string(getpid()) + ".sh");
  std::ofstream(p) << "#!/bin/sh\n"
                      "for a in \"$@\"; do [ \"$a\" = --adapter ] && { echo '{\"adapter\": {\"vendor\": \"\", "
                      "\"is_fallback_adapter\": true}}'; exit 0; }; done\n"
                   << round << "\n";
  fs::permissions(p, fs::perms::owner_all);
  return p;
}

TEST(CliBrowser, ARuntimeThatCrashesIsReportedWithItsLogAndTheOthersComplete) {
  const fs::path deno = fake_deno("echo 'the adapter went away' >&2; kill -SEGV $$");
  const fs::path out = fs::temp_directory_path() / ("wgb-browser-crash-" + std::to_string(getpid()) + ".json");
  const auto r = run_cli({"browser", "--runtime", "deno", "--deno", deno.string(), "--filter", "read-linear",
                          "--rounds", "2", "--out", out.string()});
  fs::remove(deno);
  if (r.code == 3) WGB_SKIP_UNLESS_CI(r.err);  // no native CPU adapter to stand beside it
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(flat(r.err).find("deno failed and is not run again"), std::string::npos) << r.err;
  EXPECT_NE(flat(r.err).find("the adapter went away"), std::string::npos) << r.err;
  EXPECT_NE(flat(r.out).find("failed deno: round 1: killed by signal 11"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(slurp(out));
  fs::remove(out);
  for (const auto& c : j["columns"]) {
    if (c["name"] == "deno") {
      EXPECT_EQ(c["status"], "failed");
      EXPECT_NE(c["reason"].get<std::string>().find("the adapter went away"), std::string::npos) << c.dump();
    } else {  // the native columns complete both rounds
      EXPECT_EQ(c["status"], "ok") << c.dump();
      ASSERT_EQ(c["rounds"].size(), 2u);
      // ok, or throttled where other processes took the CPU adapter's cores, or suspect as
      // launch-bound when they slowed the empty dispatch the launch cost is measured with (seen in
      // CI: 495 us against a 9.6 ms dispatch): a measured row still, which is what this checks.
      const auto& row = c["rounds"][1]["rows"][0];
      const auto& status = row["status"];
      const bool launch_bound =
          status == "suspect" && row.value("message", std::string()).rfind("launch-bound", 0) == 0;
      EXPECT_TRUE(status == "ok" || status == "throttled" || launch_bound) << c.dump();
    }
  }
}

TEST(CliBrowser, ARuntimeThatHangsIsEndedAtTheRoundTimeout) {
  const fs::path deno = fake_deno("echo 'waiting forever'; sleep 600");
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = run_cli({"browser", "--runtime", "deno", "--deno", deno.string(), "--filter", "read-linear",
                          "--rounds", "1", "--round-timeout", "10"});
  fs::remove(deno);
  if (r.code == 3) WGB_SKIP_UNLESS_CI(r.err);
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(flat(r.out).find("did not finish within 10 s"), std::string::npos) << r.out;
  EXPECT_NE(flat(r.out).find("waiting forever"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("native Dawn"), std::string::npos) << r.out;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(240));
}

// --accuracy: the engine runs the accuracy pass on the page's device as run --accuracy does natively,
// and every column's entries are printed (SwiftShader: the same results in the browser as natively).
TEST(CliBrowser, AccuracyOnBothSides) {
  const fs::path keep = fs::temp_directory_path() / ("wgb-browser-acc-" + std::to_string(getpid()));
  const auto r = run_cli({"browser", "--runtime", "chromium", "--filter", "f32-sqrt", "--accuracy", "--rounds", "1",
                          "--keep", keep.string()});
  if (r.code == 3) {
    WGB_SKIP_UNLESS_CI(r.err);
  }
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("chromium:\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("dawn:\n"), std::string::npos) << r.out;
  const auto browser = nlohmann::json::parse(slurp(keep / "round-01-chromium.json"));
  const auto native = nlohmann::json::parse(slurp(keep / "round-01-dawn.json"));
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
