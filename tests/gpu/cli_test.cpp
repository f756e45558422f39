// The command line as a user meets it: exit codes, one-line errors, and Ctrl-C keeping the rows
// that completed. Runs the built webgpu-bench (WGB_CLI) as a child process.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "catalog/common.hpp"
#include "cli_process.hpp"
#include "gpu_fixture.hpp"

namespace wgb {
namespace {

using test::lines;
using test::run_cli;
using test::slurp;
using test::spawn;
using test::wait_exit;

TEST(Cli, UnknownBenchmarkIsAUsageErrorOnOneLine) {
  auto r = run_cli({"run", "--filter", "no-such-benchmark"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("no-such-benchmark"), std::string::npos);
}

TEST(Cli, BadOptionValueIsAUsageError) {
  auto r = run_cli({"run", "--max-rounds", "zero"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
}

TEST(Cli, SweepOfAParameterTheBenchmarkIgnoresIsRefused) {
  // A fixed-work technique reads neither size nor threads; an ALU probe reads threads, not size.
  auto r = run_cli({"sweep", "workgroup-256", "--param", "threads", "--values", "64,128"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("does not use --param threads"), std::string::npos) << r.err;
  r = run_cli({"sweep", "f32-fma-vec4", "--param", "size", "--values", "1M,2M"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("parameters it uses: threads"), std::string::npos) << r.err;
}

TEST(Cli, UnknownAdapterIsExitCode3) {
  auto r = run_cli({"run", "--adapter", "no-such-gpu-xyz", "--filter", "read-linear"});
  EXPECT_EQ(r.code, 3);
  EXPECT_EQ(lines(r.err), 1) << r.err;
}

TEST(Cli, ListShowsTheCatalog) {
  auto r = run_cli({"list"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("read-linear"), std::string::npos);
}

TEST(Cli, DevicesListsAVulkanAdapter) {
  WGB_GPU_OR_SKIP(ctx);
  auto r = run_cli({"devices"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("backend:       vulkan"), std::string::npos) << r.out;
}

TEST(Cli, RunWritesAValidatedRowAndJson) {
  WGB_GPU_OR_SKIP(ctx);
  const auto json = std::filesystem::temp_directory_path() / ("wgb-cli-run-" + std::to_string(getpid()) + ".json");
  auto r = run_cli({"run", "--filter", "read-linear", "--bandwidth-mib", "1", "--measurement-ms", "5",
                    "--idle-gap-ms", "0", "--max-rounds", "3", "--throttle-ratio", "100", "--json", json.string(), "--quiet"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("read-linear"), std::string::npos);
  auto doc = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(doc["state"], "complete");
  ASSERT_EQ(doc["rows"].size(), 1u);
  EXPECT_EQ(doc["rows"][0]["status"], "ok");
  EXPECT_FALSE(doc["rows"][0]["validation"].get<std::string>().empty());
  std::filesystem::remove(json);
}

TEST(Cli, ExtraDawnTogglesFromTheEnvironmentAreAppliedAndLogged) {
  WGB_GPU_OR_SKIP(ctx);
  setenv("WGB_DAWN_TOGGLES", "dump_shaders", 1);
  auto r = run_cli({"run", "--filter", "read-linear", "--bandwidth-mib", "1", "--measurement-ms", "5", "--idle-gap-ms",
                    "0", "--max-rounds", "2", "--min-rounds", "1", "--throttle-ratio", "100", "--quiet"});
  unsetenv("WGB_DAWN_TOGGLES");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("Dumped SPIRV"), std::string::npos) << "Dawn's shader dump should reach stderr";
}

TEST(Cli, KernelDirReplacesAKernelRecordsItAndRefusesStrangers) {
  WGB_GPU_OR_SKIP(ctx);
  const auto dir = std::filesystem::temp_directory_path() / ("wgb-kdir-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir / "bandwidth");
  const std::string shipped(kernels::find("bandwidth/write_linear"));
  ASSERT_FALSE(shipped.empty());
  const std::string replaced = "// replaced by a test: same kernel, other text\n" + shipped;
  std::ofstream(dir / "bandwidth" / "write_linear.wgsl") << replaced;
  const auto json = dir / "out.json";
  const std::vector<std::string> quick = {"--bandwidth-mib", "1", "--measurement-ms", "5", "--idle-gap-ms", "0",
                                          "--max-rounds", "2", "--min-rounds", "1", "--throttle-ratio", "100", "--quiet"};
  auto with = [&](std::vector<std::string> a) {
    a.insert(a.end(), quick.begin(), quick.end());
    return a;
  };
  auto r = run_cli(with({"run", "--filter", "write-linear", "--kernel-dir", dir.string(), "--json", json.string()}));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("kernels replaced from"), std::string::npos) << r.err;
  auto doc = nlohmann::json::parse(slurp(json));
  ASSERT_TRUE(doc.contains("kernel_overrides"));
  ASSERT_EQ(doc["kernel_overrides"]["kernels"].size(), 1u);
  const auto& k = doc["kernel_overrides"]["kernels"][0];
  EXPECT_EQ(k["kernel"], "bandwidth/write_linear");
  ASSERT_EQ(doc["rows"].size(), 1u);
  EXPECT_EQ(doc["rows"][0]["status"], "ok") << doc["rows"][0]["message"];
  EXPECT_EQ(doc["rows"][0]["wgsl_hash"], k["wgsl_hash"]);  // the row ran the file
  EXPECT_EQ(k["wgsl_hash"], gpu::source_hash(replaced));
  EXPECT_NE(k["wgsl_hash"], gpu::source_hash(shipped));

  // A file that replaces nothing (a typo) is a usage error on one line, before any GPU work.
  std::filesystem::create_directories(dir / "typo" / "bandwidth");
  std::ofstream(dir / "typo" / "bandwidth" / "write_linaer.wgsl") << shipped;
  r = run_cli(with({"run", "--filter", "write-linear", "--kernel-dir", (dir / "typo").string()}));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("write_linaer.wgsl replaces no built-in kernel"), std::string::npos) << r.err;

  // WGSL that does not compile makes that row an error with the compiler's message (exit 1).
  std::filesystem::create_directories(dir / "bad" / "bandwidth");
  std::ofstream(dir / "bad" / "bandwidth" / "write_linear.wgsl") << "this is not WGSL";
  r = run_cli(with({"run", "--filter", "write-linear", "--kernel-dir", (dir / "bad").string()}));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.out.find("failed to compile"), std::string::npos) << r.out;
  std::filesystem::remove_all(dir);
}

// Pins the bug of the first f32-f16-convert kernel: compilers fold f32(f16(x)) into x (Mesa's NIR
// did on lavapipe; the H200 then ran "conversions" at FMA speed) and the check could not tell. The
// shipped kernel must validate, and the same kernel without the XOR that blocks folding must fail.
TEST(Cli, FoldedF16ConversionsFailValidation) {
  WGB_GPU_OR_SKIP(ctx);
  const auto dir = std::filesystem::temp_directory_path() / ("wgb-fold-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir / "compute");
  std::string kernel(kernels::find("compute/f32_f16_convert"));
  const std::string xor_ = " ^ key)";
  const auto at = kernel.find(xor_);
  ASSERT_NE(at, std::string::npos) << "the shipped kernel should XOR the f16 bits with a run-time key";
  std::ofstream(dir / "compute" / "f32_f16_convert.wgsl") << kernel.substr(0, at) << ")" << kernel.substr(at + xor_.size());
  const std::vector<std::string> quick = {"run", "--filter", "f32-f16-convert", "--measurement-ms", "5",
                                          "--idle-gap-ms", "0", "--max-rounds", "2", "--min-rounds", "1",
                                          "--throttle-ratio", "100", "--quiet"};
  auto r = run_cli(quick);
  if (r.out.find("skipped") != std::string::npos) GTEST_SKIP() << "no shader-f16 on this adapter";
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  auto folded = quick;
  folded.insert(folded.end(), {"--kernel-dir", dir.string()});
  r = run_cli(folded);
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("validation failed"), std::string::npos) << r.out;
  std::filesystem::remove_all(dir);
}

TEST(Cli, CtrlCKeepsTheRowsThatCompleted) {
  WGB_GPU_OR_SKIP(ctx);
  const auto json = std::filesystem::temp_directory_path() / ("wgb-cli-int-" + std::to_string(getpid()) + ".json");
  // Each benchmark takes a few seconds (200 short rounds); interrupt once the first has completed.
  auto c = spawn({"run", "--filter", "read-linear,write-linear", "--bandwidth-mib", "1", "--measurement-ms", "5",
                  "--idle-gap-ms", "10", "--min-rounds", "200", "--max-rounds", "200", "--throttle-ratio", "100",
                  "--json", json.string(),
                  "--quiet"});
  ASSERT_TRUE(test::wait_for_rows(json)) << "the first row never completed";
  kill(c.pid, SIGINT);
  const int code = wait_exit(c);
  EXPECT_EQ(code, 130) << slurp(c.err);
  auto doc = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(doc["state"], "cancelled");
  // Every benchmark has a row: the one that completed, and the one the interrupt stopped (it takes
  // seconds; the exit code 130 above says the interrupt came before the run ended).
  ASSERT_EQ(doc["rows"].size(), 2u) << doc["rows"].dump().substr(0, 1000);
  // Measured: ok, or launch-bound on a CPU driver's short dispatches (docs/method.md#streaming).
  const auto& first = doc["rows"][0];
  EXPECT_TRUE(first["status"] == "ok" ||
              (first["status"] == "suspect" && first["message"].get<std::string>().starts_with("launch-bound")))
      << first.dump();
  EXPECT_EQ(doc["rows"][1]["status"], "cancelled");
  std::filesystem::remove(json);
}

}  // namespace
}  // namespace wgb
