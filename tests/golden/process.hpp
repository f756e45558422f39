// Running a command line from a test: exit status, stdout and stderr (through temporary files, so
// nothing is lost or interleaved), and a per-test temporary folder.
#pragma once

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace wgb::test {

struct CommandResult {
  int exit_code = -1;
  std::string out, err;
};

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class TempFolder {
 public:
  explicit TempFolder(const std::string& tag)
      : path_(std::filesystem::temp_directory_path() / fmt::format("wgb-{}-{}", tag, ::getpid())) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Runs `command` through /bin/sh; its stdout and stderr land in files of `dir`.
inline CommandResult run_command(const std::string& command, const TempFolder& dir) {
  const auto out = dir / "cmd.out", err = dir / "cmd.err";
  const int status = std::system(fmt::format("{} >'{}' 2>'{}'", command, out.string(), err.string()).c_str());
  CommandResult r;
  r.exit_code = status == -1 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

inline std::string quoted(const std::filesystem::path& p) { return fmt::format("'{}'", p.string()); }

}  // namespace wgb::test
