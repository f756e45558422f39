// `webgpu-bench serve` and `submit` as processes: documented exit codes, and a server killed with
// SIGKILL after acknowledging submissions loses none of them (SQLite WAL with synchronous=FULL;
// PostgreSQL transactions), on both databases.
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "store/client.hpp"
#include "store_test_support.hpp"
#include "tests/serve_process.hpp"

namespace wgb::store {
namespace {

using wgb::test::ServeProcess;

using test::make_document;

// build/<config>/tests/unit/store_cli_test -> build/<config>/cli/webgpu-bench
std::filesystem::path cli_binary() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return self.parent_path().parent_path().parent_path() / "cli" / "webgpu-bench";
}

struct Ran {
  int code = -1;
  std::string out;
};

// Runs the CLI to completion (bounded by coreutils' timeout); stdout captured, stderr dropped
// (or captured with stdout: `with_stderr`). `env`: assignments put before the command.
Ran run_cli(const std::string& args, bool with_stderr = false, const std::string& env = "") {
  Ran r;
  const std::string cmd = fmt::format("{} timeout 60 '{}' {} {}", env.empty() ? "" : "env " + env,
                                      cli_binary().string(), args, with_stderr ? "2>&1" : "2>/dev/null");
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  std::array<char, 4096> buf{};
  for (std::size_t n; (n = fread(buf.data(), 1, buf.size(), p)) > 0;) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// `webgpu-bench serve` in the background; its first stdout line is its URL.

class StoreCli : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(cli_binary())) {
      if (test::in_ci()) FAIL() << "no CLI binary at " << cli_binary();
      GTEST_SKIP() << "build webgpu-bench first (" << cli_binary() << ")";
    }
    backend_ = std::make_unique<test::Backend>(GetParam());
    WGB_BACKEND_OR_SKIP(*backend_);
    dir_ = test::temp_dir();
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }
  std::string write(const std::string& name, const std::string& text) {
    const auto p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  std::int64_t total(const std::string& url) {
    auto r = http_get(fmt::format("{}/api/v1/results?limit=1", url));
    if (!r || r->status != 200) return -1;
    return nlohmann::json::parse(r->body)["total"].get<std::int64_t>();
  }

  std::unique_ptr<test::Backend> backend_;
  std::filesystem::path dir_;
};

TEST_P(StoreCli, SubmitThenKillThenRestartLosesNothing) {
  std::string files;
  for (int i = 0; i < 6; ++i) {
    files += fmt::format(" {}", write(fmt::format("r{}.json", i), make_document({}, {{}}, "default", i).dump(2)));
  }
  {
    ServeProcess serve(cli_binary().string(), backend_->spec());
    ASSERT_FALSE(serve.url().empty()) << "serve printed no URL";
    auto r = run_cli(fmt::format("submit{} --to {}", files, serve.url()));
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("stored as run"), std::string::npos) << r.out;
    auto again = run_cli(fmt::format("submit {} --to {}", (dir_ / "r0.json").string(), serve.url()));
    EXPECT_EQ(again.code, 0);
    EXPECT_NE(again.out.find("already stored as run"), std::string::npos) << again.out;
    // Every submission was acknowledged; now the server dies without any chance to flush.
    EXPECT_EQ(serve.stop(SIGKILL), 128 + SIGKILL);
  }
  ServeProcess again(cli_binary().string(), backend_->spec());
  ASSERT_FALSE(again.url().empty());
  EXPECT_EQ(total(again.url()), 6);
  EXPECT_EQ(again.stop(SIGTERM), 0);  // a polite stop is a clean exit
}

TEST_P(StoreCli, ExitCodes) {
  ServeProcess serve(cli_binary().string(), backend_->spec());
  ASSERT_FALSE(serve.url().empty());
  auto bad = make_document({}, {{}});
  bad["rows"][0]["value"] = -1.0;
  EXPECT_EQ(run_cli(fmt::format("submit {} --to {}", write("bad.json", bad.dump()), serve.url())).code, 2);
  EXPECT_EQ(run_cli(fmt::format("submit {} --to {}", write("junk.json", "{\"trunc"), serve.url())).code, 2);
  EXPECT_EQ(run_cli(fmt::format("submit {} --to ftp://x", write("ok.json", make_document({}, {{}}).dump()))).code, 2);
  EXPECT_EQ(run_cli(fmt::format("submit {}", (dir_ / "ok.json").string())).code, 2);  // --to is required
  EXPECT_EQ(total(serve.url()), 0);
}

// A second serve on the port of a first one fails at once with one line naming the address and the
// reason, and exit code 5; it does not start and share the port (SO_REUSEPORT) with the first.
TEST_P(StoreCli, ABusyPortIsAClearErrorNotASharedPort) {
  ServeProcess first(cli_binary().string(), backend_->spec());
  ASSERT_FALSE(first.url().empty());
  const std::string address = first.url().substr(std::string("http://").size());
  const auto t0 = std::chrono::steady_clock::now();
  auto second = run_cli(fmt::format("serve --store {} --listen {}", backend_->spec(), address), true);
  EXPECT_EQ(second.code, 5) << second.out;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(20));
  EXPECT_NE(second.out.find(fmt::format("cannot listen on {}: Address already in use", address)), std::string::npos)
      << second.out;
  EXPECT_EQ(std::count(second.out.begin(), second.out.end(), '\n'), 1) << second.out;  // one line
  EXPECT_EQ(total(first.url()), 0);  // the first still answers
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreCli, ::testing::Values("sqlite", "postgres"), test::backend_name);

// An empty token would silently mean "no authentication": a usage error instead, however given.
TEST(StoreCliPlain, AnEmptyTokenIsAUsageError) {
  if (!std::filesystem::exists(cli_binary())) GTEST_SKIP() << "no CLI binary";
  auto dir = test::temp_dir();
  const auto db = (dir / "results.db").string();
  const auto empty = (dir / "empty-token").string();
  std::ofstream(empty) << "\n";
  for (const auto& [args, env] : {std::pair<std::string, std::string>{"--token ''", ""},
                                  std::pair<std::string, std::string>{fmt::format("--token-file {}", empty), ""},
                                  std::pair<std::string, std::string>{"", "WEBGPU_BENCH_TOKEN="}}) {
    auto r = run_cli(fmt::format("serve --store {} --listen 127.0.0.1:0 {}", db, args), true, env);
    EXPECT_EQ(r.code, 2) << args << env << ": " << r.out;
    EXPECT_NE(r.out.find("empty"), std::string::npos) << r.out;
    const auto doc = (dir / "ok.json").string();
    std::ofstream(doc) << make_document({}, {{}}).dump();
    EXPECT_EQ(run_cli(fmt::format("submit {} --to http://127.0.0.1:9 {}", doc, args), false, env).code, 2) << args << env;
  }
  std::filesystem::remove_all(dir);
}

TEST(StoreCliPlain, ServeAndSubmitFailuresAreDocumentedExitCodes) {
  if (!std::filesystem::exists(cli_binary())) GTEST_SKIP() << "no CLI binary";
  EXPECT_EQ(run_cli("serve --store /nonexistent-dir/x/results.db --listen 127.0.0.1:0").code, 5);
  EXPECT_EQ(run_cli("serve --listen nonsense").code, 2);
  EXPECT_EQ(run_cli("serve --store postgresql://nobody@127.0.0.1:1/none?connect_timeout=2 --listen 127.0.0.1:0").code,
            5);
  // Port 9 (discard): nothing listens there on a test machine.
  auto dir = test::temp_dir();
  const auto doc = (dir / "ok.json").string();
  std::ofstream(doc) << make_document({}, {{}}).dump();
  // An unreachable server is a network failure: exit code 6 (5 is for files that cannot be written).
  EXPECT_EQ(run_cli(fmt::format("submit {} --timeout 2 --to http://127.0.0.1:9", doc)).code, 6);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace wgb::store
