// --submit from the three commands that measure (run, memory, host) to a local `serve` on SQLite:
// each document lands, once, with its suite. Nothing is sent unless asked: a run without --submit
// leaves the server empty. (`serve` runs through tests/serve_process.hpp, as in the store CLI tests.)
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>

#include "store/client.hpp"
#include "tests/golden/process.hpp"
#include "tests/serve_process.hpp"

namespace wgb {
namespace {

using test::quoted;
using test::run_command;

std::string bin() { return quoted(WGB_CLI_BIN); }

bool adapter_required() {
  const char* v = std::getenv("WGB_REQUIRE_ADAPTER");
  return v != nullptr && std::string(v) == "1";
}

// The runs a server holds, newest first.
nlohmann::json runs_of(const test::ServeProcess& serve) {
  auto r = store::http_get(serve.url() + "/api/v1/results?limit=50");
  if (!r || r->status != 200) return nlohmann::json::array();
  return nlohmann::json::parse(r->body)["runs"];
}

TEST(CliSubmit, RunMemoryAndHostDocumentsLand) {
  test::TempFolder dir("cli-submit");
  test::ServeProcess serve(WGB_CLI_BIN, (dir / "results.db").string());
  ASSERT_FALSE(serve.url().empty()) << "serve printed no URL";

  // Without --submit nothing is sent.
  auto r = run_command(fmt::format("{} host --quick --threads 1 --filter host-fma-f32 --quiet", bin()), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(runs_of(serve).empty());

  r = run_command(fmt::format("{} run --filter read-linear --bandwidth-mib 1 --min-rounds 2 --max-rounds 3 "
                              "--measurement-ms 5 --idle-gap-ms 0 --throttle-ratio 100 --submit {}",
                              bin(), serve.url()),
                  dir);
  if (r.exit_code == 3 && !adapter_required()) GTEST_SKIP() << "no WebGPU adapter: " << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("submitted to " + serve.url()), std::string::npos) << r.err;

  r = run_command(fmt::format("{} memory --working-set 16 --min-working-set 16 --phases read,latency --budget-ms 30 "
                              "--latency-budget-ms 30 --sample-ms 4 --latency-sample-ms 4 --warmup-ms 10 "
                              "--transition-ms 5 --submit {} --token unused",
                              bin(), serve.url()),
                  dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("submitted to " + serve.url()), std::string::npos) << r.err;

  // --repro's second process must not submit a second copy.
  r = run_command(fmt::format("{} host --quick --threads 1 --filter host-stream-triad --no-size-sweep --repro "
                              "--submit {} --quiet",
                              bin(), serve.url()),
                  dir);
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;  // 1: the two processes disagreed
  EXPECT_NE(r.err.find("submitted to " + serve.url()), std::string::npos) << r.err;

  // run --device host --submit: the path that used to exit 0 and send nothing.
  r = run_command(fmt::format("{} run --device host --quick --threads 1 --filter host-fma-f64 --submit {} --quiet",
                              bin(), serve.url()),
                  dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;

  auto runs = runs_of(serve);
  ASSERT_EQ(runs.size(), 4u) << runs.dump();
  // In submission order (ids grow): run (1 row), memory (2 phases), host triad (1), run --device host (1).
  std::sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) {
    return a["id"].template get<std::int64_t>() < b["id"].template get<std::int64_t>();
  });
  std::vector<std::string> suites;
  std::vector<int> rows;
  for (const auto& run : runs) {
    suites.push_back(run["suite"].get<std::string>());
    rows.push_back(run["rows"].get<int>());
  }
  EXPECT_EQ(suites, (std::vector<std::string>{"default", "memory", "host", "host"})) << runs.dump();
  EXPECT_EQ(rows, (std::vector<int>{1, 2, 1, 1})) << runs.dump();
}

}  // namespace
}  // namespace wgb
