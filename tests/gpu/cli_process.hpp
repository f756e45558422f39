// Starting the built webgpu-bench (WGB_CLI) as a child process from a test: its stdout and stderr
// land in temporary files (nothing lost or interleaved), and the test can signal it (Ctrl-C).
// Shared by the CLI test files of this folder.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace wgb::test {

struct Child {
  pid_t pid = -1;
  std::filesystem::path out, err;
};

inline Child spawn(const std::vector<std::string>& args) {
  static int n = 0;
  Child c;
  const auto dir = std::filesystem::temp_directory_path();
  c.out = dir / ("wgb-cli-" + std::to_string(getpid()) + "-" + std::to_string(n) + ".out");
  c.err = dir / ("wgb-cli-" + std::to_string(getpid()) + "-" + std::to_string(n++) + ".err");
  c.pid = fork();
  if (c.pid == 0) {
    freopen(c.out.c_str(), "w", stdout);
    freopen(c.err.c_str(), "w", stderr);
    std::vector<char*> argv;
    std::string bin = WGB_CLI;
    argv.push_back(bin.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  return c;
}

inline int wait_exit(const Child& c) {
  int status = 0;
  waitpid(c.pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

struct Result {
  int code;
  std::string out, err;
};

inline Result run_cli(const std::vector<std::string>& args) {
  auto c = spawn(args);
  const int code = wait_exit(c);
  return {code, slurp(c.out), slurp(c.err)};
}

// Polls a result document that the child writes after every row (or phase) until it holds at least
// `rows` of them; false when two minutes pass first. For tests that interrupt a run midway.
inline bool wait_for_rows(const std::filesystem::path& json, std::size_t rows = 1) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    try {
      if (nlohmann::json::parse(slurp(json))["rows"].size() >= rows) return true;
    } catch (...) {  // not written yet, or caught mid-rename
    }
  }
  return false;
}

inline int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace wgb::test
