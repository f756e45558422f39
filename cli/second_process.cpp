// fork/exec of this program (see second_process.hpp).
#include "cli/second_process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/common.hpp"

extern char** environ;

namespace wgb::cli {

std::vector<std::string> self_command() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {command_line().empty() ? std::string("webgpu-bench") : command_line().front()};
  const std::string name = exe.filename().string();
  if (name.rfind("ld-", 0) != 0 || name.find(".so") == std::string::npos) return {exe.string()};
  // Started as `ld.so [--library-path P ...] program args...`: /proc/self/cmdline still holds the
  // loader's part; everything before the program's own argv is kept.
  std::ifstream f("/proc/self/cmdline", std::ios::binary);
  std::stringstream buf;
  buf << f.rdbuf();
  const std::string raw = buf.str();
  std::vector<std::string> cmdline;
  std::size_t start = 0;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\0') {
      cmdline.push_back(raw.substr(start, i - start));
      start = i + 1;
    }
  }
  const std::size_t argc = command_line().size();
  if (argc == 0 || cmdline.size() < argc + 1) return {exe.string()};
  std::vector<std::string> out{exe.string()};
  for (std::size_t i = 1; i + argc < cmdline.size(); ++i) out.push_back(cmdline[i]);
  out.push_back(cmdline[cmdline.size() - argc]);  // the program
  return out;
}

Expected<int> run_self(const std::vector<std::string>& args) {
  std::vector<std::string> all = self_command();
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // The second run's table would repeat the first; its result document is what is compared.
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    return make_error(ErrorKind::Failed, fmt::format("cannot start the second process {}: {}", all.front(), std::strerror(rc)));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return make_error(ErrorKind::Failed, fmt::format("waiting for the second process: {}", std::strerror(errno)));
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

}  // namespace wgb::cli
