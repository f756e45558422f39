// --submit from the three commands that measure (run, memory, host) to a local `serve` on SQLite:
// each document lands, once, with its suite. Nothing is sent unless asked: a run without --submit
// leaves the server empty. (`serve` is started as tests/unit/store_cli_test.cpp does: its first
// stdout line is its URL.)
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

namespace wgb {
namespace {

using test::quoted;
using test::run_command;

std::string bin() { return quoted(WGB_CLI_BIN); }

bool adapter_required() {
  const char* v = std::getenv("WGB_REQUIRE_ADAPTER");
  return v != nullptr && std::string(v) == "1";
}

// `webgpu-bench serve --store <sqlite file> --listen 127.0.0.1:0` in the background.
class Serve {
 public:
  explicit Serve(const std::filesystem::path& db) {
    int fds[2];
    if (pipe(fds) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(fds[1], STDOUT_FILENO);
      const int null = open("/dev/null", O_WRONLY);
      dup2(null, STDERR_FILENO);
      close(fds[0]);
      execl(WGB_CLI_BIN, WGB_CLI_BIN, "serve", "--store", db.c_str(), "--listen", "127.0.0.1:0", "--quiet",
            static_cast<char*>(nullptr));
      _exit(127);
    }
    close(fds[1]);
    std::string line;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (pid_ > 0 && line.find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      pollfd pfd{fds[0], POLLIN, 0};
      if (poll(&pfd, 1, 200) <= 0) continue;
      char buf[256];
      const auto n = read(fds[0], buf, sizeof(buf));
      if (n <= 0) break;
      line.append(buf, static_cast<std::size_t>(n));
    }
    close(fds[0]);
    if (const auto nl = line.find('\n'); nl != std::string::npos) url_ = line.substr(0, nl);
  }
  ~Serve() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }
  Serve(const Serve&) = delete;
  Serve& operator=(const Serve&) = delete;
  const std::string& url() const { return url_; }

  // The runs the server holds, newest first.
  nlohmann::json runs() const {
    auto r = store::http_get(url_ + "/api/v1/results?limit=50");
    if (!r || r->status != 200) return nlohmann::json::array();
    return nlohmann::json::parse(r->body)["runs"];
  }

 private:
  pid_t pid_ = -1;
  std::string url_;
};

TEST(CliSubmit, RunMemoryAndHostDocumentsLand) {
  test::TempFolder dir("cli-submit");
  Serve serve(dir / "results.db");
  ASSERT_FALSE(serve.url().empty()) << "serve printed no URL";

  // Without --submit nothing is sent.
  auto r = run_command(fmt::format("{} host --quick --threads 1 --filter host-fma-f32 --quiet", bin()), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(serve.runs().empty());

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

  auto runs = serve.runs();
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
