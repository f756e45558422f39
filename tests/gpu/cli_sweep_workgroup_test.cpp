// `webgpu-bench sweep --param workgroup`: a benchmark that does not declare the parameter (every
// probe but the ALU ones) is refused on one line with exit code 2, before any GPU work.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gpu_fixture.hpp"

namespace wgb {
namespace {

namespace fs = std::filesystem;

struct Result {
  int code;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

Result run_cli(std::vector<std::string> args) {
  static int n = 0;
  const auto dir = fs::temp_directory_path();
  const auto out = dir / ("wgb-swg-" + std::to_string(getpid()) + "-" + std::to_string(n) + ".out");
  const auto err = dir / ("wgb-swg-" + std::to_string(getpid()) + "-" + std::to_string(n++) + ".err");
  const pid_t pid = fork();
  if (pid == 0) {
    if (freopen(out.c_str(), "w", stdout) == nullptr || freopen(err.c_str(), "w", stderr) == nullptr) _exit(126);
    std::vector<char*> argv;
    std::string bin = WGB_CLI;
    argv.push_back(bin.data());
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  Result r{WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), slurp(out), slurp(err)};
  fs::remove(out);
  fs::remove(err);
  return r;
}

TEST(CliSweepWorkgroup, AProbeThatDoesNotDeclareWorkgroupIsRefused) {
  for (const char* id : {"read-linear", "workgroup-64"}) {
    auto r = run_cli({"sweep", id, "--param", "workgroup", "--values", "64,128"});
    EXPECT_EQ(r.code, 2) << id << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("does not use --param workgroup"), std::string::npos) << r.err;
  }
  // A value that is no workgroup size is a usage error too.
  auto r = run_cli({"sweep", "f32-sqrt", "--param", "workgroup", "--values", "1K"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("not a workgroup size"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace wgb
