// The engine end to end in each wgpu runtime on the CPU Vulkan driver, stored through `serve`: the
// /run page in headless Firefox (autorun=1&submit=1, no automation protocol at all) and the Deno
// entry (web/deno.js --submit); each a one-benchmark run whose row is ok and validated and whose
// document names its runtime and wgpu. Then `webgpu-bench browser` with both wgpu runtimes for one
// round (Chromium's own is CliBrowser.OneRoundOfOneBenchmark: CI time is short).
// Skipped with the reason where Firefox, Deno or the engine is missing; failures under CI=true.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#define WGB_CLI WGB_BIN
#include "browser/firefox.hpp"
#include "browser/launch.hpp"
#include "browser/runtimes.hpp"
#include "process/child.hpp"
#include "store/client.hpp"
#include "tests/browser/ci_skip.hpp"
#include "tests/gpu/cli_process.hpp"
#include "tests/serve_process.hpp"

namespace wgb::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace std::chrono_literals;

// A private folder for one test, removed after it.
struct Folder {
  fs::path path;
  Folder() {
    std::string t = (fs::temp_directory_path() / "wgb-runtimes-XXXXXX").string();
    if (mkdtemp(t.data()) != nullptr) path = t;
  }
  ~Folder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// Polls the server until a run is stored (or `child` ends, or the deadline passes): its document.
json wait_for_stored_run(const std::string& url, process::Child& child, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    auto list = store::http_get(url + "/api/v1/results");
    if (list && list->status == 200) {
      const json j = json::parse(list->body, nullptr, false);
      if (j.is_object() && !j["runs"].empty()) {
        auto run = store::http_get(fmt::format("{}/api/v1/results/{}", url, j["runs"][0]["id"].get<std::int64_t>()));
        if (run && run->status == 200) return json::parse(run->body)["document"];
      }
    }
    if (child.poll() && child.poll()->status() != 0) break;  // it ended without submitting
    std::this_thread::sleep_for(1s);
  }
  return json();
}

// A measured row: `ok`, or `throttled` where other processes took the CPU adapter's cores during it
// (the row keeps its rate and its validation; the CI machine is shared).
// Measured: ok or throttled, or launch-bound on a CPU driver's short dispatches (the row says so and
// keeps its rate; docs/method.md#streaming), as the command line's tests allow.
bool measured(const json& row) {
  const json& status = row["status"];
  return status == "ok" || status == "throttled" ||
         (status == "suspect" && row["message"].is_string() && row["message"].get<std::string>().starts_with("launch-bound"));
}

void expect_one_validated_row(const json& doc, const std::string& runtime) {
  ASSERT_TRUE(doc.is_object());
  EXPECT_EQ(doc["implementation"]["runtime"], runtime) << doc["implementation"].dump();
  EXPECT_EQ(doc["implementation"]["webgpu"], "wgpu") << doc["implementation"].dump();
  ASSERT_EQ(doc["rows"].size(), 1u);
  EXPECT_EQ(doc["rows"][0]["id"], "read-linear");
  EXPECT_TRUE(measured(doc["rows"][0])) << doc["rows"][0].dump();
  EXPECT_FALSE(doc["rows"][0]["validation"].get<std::string>().empty()) << doc["rows"][0].dump();
}

TEST(Runtimes, FirefoxRunsThePageAndSubmitsItsRunToServe) {
  auto firefox = browser::find_firefox("");
  if (!firefox) WGB_SKIP_UNLESS_CI(firefox.error().message + " (scripts/bootstrap.sh --with-test-tools)");
  Folder dir;
  ServeProcess serve(WGB_BIN, (dir.path / "results.db").string());
  ASSERT_FALSE(serve.url().empty());
  std::ofstream(dir.path / "user.js") << browser::firefox_user_js();
  process::Options o;
  o.argv = {*firefox, "--headless", "--no-remote", "--profile", dir.path.string(),
            serve.url() + "/run?filter=read-linear&autorun=1&submit=1"};
  o.env = browser::runtime_vulkan_env();
  o.log = (dir.path / "firefox.log").string();
  auto child = process::Child::spawn(o);
  ASSERT_TRUE(child) << child.error().message;
  const json doc = wait_for_stored_run(serve.url(), *child, 240s);
  if (doc.is_null()) {
    const auto probe = store::http_get(serve.url() + "/run/webgpu-bench-engine.wasm");
    if (probe && probe->status == 404) GTEST_SKIP() << "this program is built without the browser engine";
    FAIL() << "no run stored; Firefox's log: " << child->log_tail(8);
  }
  expect_one_validated_row(doc, "firefox");
  EXPECT_NE(doc["machine"]["browser"]["user_agent"].get<std::string>().find("Firefox/"), std::string::npos);
}

TEST(Runtimes, TheDenoEntrySubmitsItsRunToServe) {
  auto deno = browser::find_deno("", fs::path(WGB_BIN));
  if (!deno) WGB_SKIP_UNLESS_CI(deno.error().message + " (scripts/bootstrap.sh --with-test-tools)");
  Folder dir;
  ServeProcess serve(WGB_BIN, (dir.path / "results.db").string());
  ASSERT_FALSE(serve.url().empty());
  const auto probe = store::http_get(serve.url() + "/run/webgpu-bench-engine.wasm");
  if (probe && probe->status == 404) GTEST_SKIP() << "this program is built without the browser engine";
  process::Options o;
  o.argv = {*deno, "run", "--unstable-webgpu", "-A", "--no-config", "--quiet", serve.url() + "/run/deno.js",
            "--engine", serve.url() + "/run/webgpu-bench-engine.wasm", "--filter", "read-linear",
            "--out", (dir.path / "deno.json").string(), "--submit", serve.url()};
  o.env = browser::runtime_vulkan_env();
  o.env.push_back("DENO_DIR=" + (dir.path / "deno-cache").string());
  o.log = (dir.path / "deno.log").string();
  auto child = process::Child::spawn(o);
  ASSERT_TRUE(child) << child.error().message;
  auto exit = child->wait(process::deadline_in(240s));
  ASSERT_TRUE(exit) << exit.error().message;
  ASSERT_EQ(exit->status(), 0) << exit->describe() << ": " << child->log_tail(8);
  EXPECT_NE(slurp(dir.path / "deno.log").find("submitted to"), std::string::npos) << child->log_tail(8);
  const json doc = wait_for_stored_run(serve.url(), *child, 10s);
  expect_one_validated_row(doc, "deno");
  // The document it wrote is the one it submitted.
  EXPECT_EQ(json::parse(slurp(dir.path / "deno.json"))["started_at"], doc["started_at"]);
}

TEST(Runtimes, BothWgpuRuntimesSideBySideForOneRound) {
  Folder dir;
  const fs::path out = dir.path / "matrix.json";
  const auto r = run_cli({"browser", "--runtime", "firefox,deno", "--filter", "read-linear", "--rounds", "1",
                          "--out", out.string()});
  if (r.code == 3) WGB_SKIP_UNLESS_CI(r.err);  // not one runtime could run: said on one line
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const json j = json::parse(slurp(out));
  EXPECT_EQ(j["kind"], "webgpu-bench-implementations");
  EXPECT_EQ(j["rounds"], 1);
  for (const auto& c : j["columns"]) {
    if (c["status"] == "skipped") {
      if (in_ci()) ADD_FAILURE() << c.dump();  // CI installs every runtime
      EXPECT_FALSE(c["install"].get<std::string>().empty()) << c.dump();
      continue;
    }
    EXPECT_EQ(c["status"], "ok") << c.dump();
    ASSERT_EQ(c["rounds"].size(), 1u);
    EXPECT_TRUE(measured(c["rounds"][0]["rows"][0])) << c.dump();
  }
  ASSERT_EQ(j["rows"].size(), 1u);
  for (auto& [name, cell] : j["rows"][0]["columns"].items()) {
    if (!cell.contains("ratio")) continue;  // a reference
    EXPECT_GT(cell["ratio"].get<double>(), 0) << name;
    EXPECT_EQ(cell["outputs"], "agree") << name << ": " << cell.dump();
  }
  EXPECT_NE(r.out.find("read-linear"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace wgb::test
