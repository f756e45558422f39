// The command line's signals and stderr as a user meets them: Ctrl-C never shows 100 % and counts
// only the rows that really completed; Ctrl-Z is a pause; stderr stays quiet when it is not a
// terminal (unless --progress) and with --quiet; an empty --filter is a usage error. Runs the
// built webgpu-bench (WGB_CLI) as a child process.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "cli_process.hpp"
#include "gpu_fixture.hpp"

namespace wgb {
namespace {

using test::lines;
using test::run_cli;
using test::slurp;

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

const std::vector<std::string> kQuickRun = {
    "run", "--filter",     "read-linear", "--bandwidth-mib", "1", "--measurement-ms", "5", "--idle-gap-ms",
    "0",   "--min-rounds", "2",           "--max-rounds",    "3"};

std::vector<std::string> with(std::vector<std::string> args, std::initializer_list<std::string> more) {
  args.insert(args.end(), more);
  return args;
}

// Review finding: on Ctrl-C the bar drew 100 % and the CLI said "interrupted; 73 completed rows were
// kept" when one row was ok and the rest were `cancelled` rows.
TEST(CliCancel, InterruptNeverShows100PercentAndCountsOnlyCompletedRows) {
  WGB_GPU_OR_SKIP(ctx);
  const auto json = std::filesystem::temp_directory_path() / ("wgb-cli-cancel-" + std::to_string(getpid()) + ".json");
  // Each benchmark takes a few seconds (200 short rounds); interrupt once the first has completed.
  auto c = test::spawn({"run", "--filter", "read-linear,write-linear,read-gather-16kb", "--bandwidth-mib", "1",
                        "--measurement-ms", "5", "--idle-gap-ms", "10", "--min-rounds", "200", "--max-rounds", "200",
                        "--throttle-ratio", "100", "--json", json.string(), "--progress"});
  ASSERT_TRUE(test::wait_for_rows(json)) << "the first row never completed";
  kill(c.pid, SIGINT);
  EXPECT_EQ(test::wait_exit(c), 130);
  const std::string err = slurp(c.err);
  const auto doc = nlohmann::json::parse(slurp(json));
  ASSERT_EQ(doc["rows"].size(), 3u);
  std::size_t completed = 0;
  for (const auto& r : doc["rows"]) completed += r["status"] != "cancelled" ? 1 : 0;
  ASSERT_GE(completed, 1u);
  ASSERT_LT(completed, 3u) << "the interrupt came too late to test anything";
  EXPECT_TRUE(has(err, "[")) << "--progress draws the bar: " << err;
  EXPECT_FALSE(has(err, "100%")) << err;
  EXPECT_TRUE(has(err, "interrupted; " + std::to_string(completed) +
                           (completed == 1 ? " completed row was kept" : " completed rows were kept")))
      << err;
  std::filesystem::remove(json);
}

TEST(CliStderr, QuietWhenNotATerminalOrWithQuiet) {
  WGB_GPU_OR_SKIP(ctx);
  for (const auto& args : {kQuickRun, with(kQuickRun, {"--quiet"}), with(kQuickRun, {"--quiet", "--progress"})}) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_FALSE(has(r.err, "adapter:")) << r.err;
    EXPECT_FALSE(has(r.err, "read-linear")) << r.err;  // no per-row line
    EXPECT_FALSE(has(r.err, "%")) << r.err;            // no bar
    EXPECT_TRUE(has(r.out, "read-linear")) << r.out;   // the table is on stdout
  }
  // Asked for: the bar (ending at 100 % on a completed run), the adapter and the per-row lines.
  const auto r = run_cli(with(kQuickRun, {"--progress"}));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.err, "adapter:")) << r.err;
  EXPECT_TRUE(has(r.err, "  read-linear")) << r.err;
  EXPECT_TRUE(has(r.err, "100% 1/1 done")) << r.err;
}

// Review finding: `--filter ''` silently ran the whole default suite.
TEST(CliFilter, EmptyFilterIsAUsageError) {
  for (const std::string filter : {"", " ", ","}) {
    const auto r = run_cli({"run", "--filter", filter});
    EXPECT_EQ(r.code, 2) << "'" << filter << "': " << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_TRUE(has(r.err, "--filter")) << r.err;
  }
}

// Job control is the native unbounded pause: Ctrl-Z (SIGTSTP) stops the process as it always did,
// the bar says "paused" (no ETA) before it stops, and after SIGCONT the run completes normally.
TEST(CliJobControl, CtrlZStopsTheRunAsAPauseAndItCompletesAfterContinue) {
  WGB_GPU_OR_SKIP(ctx);
  const auto json = std::filesystem::temp_directory_path() / ("wgb-cli-tstp-" + std::to_string(getpid()) + ".json");
  auto c = test::spawn({"run", "--filter", "read-linear,write-linear", "--bandwidth-mib", "1", "--measurement-ms", "5",
                        "--idle-gap-ms", "10", "--min-rounds", "60", "--max-rounds", "60", "--throttle-ratio", "100",
                        "--json", json.string(), "--progress"});
  ASSERT_TRUE(test::wait_for_rows(json)) << "the first row never completed";
  kill(c.pid, SIGTSTP);
  int status = 0;
  ASSERT_EQ(waitpid(c.pid, &status, WUNTRACED), c.pid);
  ASSERT_TRUE(WIFSTOPPED(status)) << "Ctrl-Z must still stop the process";
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  kill(c.pid, SIGCONT);
  EXPECT_EQ(test::wait_exit(c), 0) << slurp(c.err);
  const std::string err = slurp(c.err);
  EXPECT_TRUE(has(err, "paused  ")) << err;  // no ETA while stopped
  EXPECT_TRUE(has(err, "stopped (job control)")) << err;
  EXPECT_TRUE(has(err, "100% 2/2 done")) << err;
  const auto doc = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(doc["state"], "complete");
  std::filesystem::remove(json);
}

}  // namespace
}  // namespace wgb
