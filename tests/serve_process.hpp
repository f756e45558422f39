// `webgpu-bench serve --store <spec> --listen 127.0.0.1:0 --quiet` as a child process for tests: its
// first stdout line is its URL (read with a 30 s limit); the destructor kills it. Shared by the
// store CLI tests (tests/unit) and the submit tests (tests/golden).
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace wgb::test {

class ServeProcess {
 public:
  // `extra`: more options for serve (limits, timeouts).
  ServeProcess(const std::string& binary, const std::string& store, const std::vector<std::string>& extra = {}) {
    int fds[2];
    if (pipe(fds) != 0) return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    const std::string bin = binary;
    std::vector<std::string> args = {bin, "serve", "--store", store, "--listen", "127.0.0.1:0", "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, bin.c_str(), &actions, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    // Read the URL line, waiting at most 30 s.
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
  ~ServeProcess() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  const std::string& url() const { return url_; }
  pid_t pid() const { return pid_; }
  // Sends `sig` and waits (bounded) for the exit; returns the exit code, 128+signal, or -1.
  int stop(int sig) {
    if (pid_ <= 0) return -1;
    kill(pid_, sig);
    int status = 0;
    for (int i = 0; i < 300; ++i) {  // 30 s at most
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return -1;
  }

 private:
  pid_t pid_ = -1;
  std::string url_;
};

}  // namespace wgb::test
