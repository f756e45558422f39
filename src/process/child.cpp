// Child (child.hpp): posix_spawn with a process group, default signals and redirected output;
// waiting by polling (this program's SIGINT handler is installed with SA_RESTART, so a blocking
// waitpid would not notice a Ctrl-C); the group ended while its leader is still unreaped.
#include "process/child.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace wgb::process {

namespace {

using namespace std::chrono_literals;

// The groups of the live children, for signal_all() from a signal handler: fixed slots of
// lock-free atomics (no allocation, no lock). More live children than slots are still started;
// only a handler's signal misses them.
constexpr std::size_t kSlots = 64;
std::array<std::atomic<pid_t>, kSlots> g_groups{};

void track(pid_t group) {
  for (auto& slot : g_groups) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, group)) return;
  }
}

void untrack(pid_t group) {
  for (auto& slot : g_groups) {
    pid_t mine = group;
    if (slot.compare_exchange_strong(mine, 0)) return;
  }
}

bool executable(const std::string& path) {
  struct stat st {};
  return access(path.c_str(), X_OK) == 0 && stat(path.c_str(), &st) == 0 && !S_ISDIR(st.st_mode);
}

// This environment with `changes` applied ("NAME=value" sets, "NAME" removes).
std::vector<std::string> environment_with(const std::vector<std::string>& changes) {
  std::vector<std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) env.emplace_back(*e);
  for (const auto& change : changes) {
    const std::string name = change.substr(0, change.find('='));
    env.erase(std::remove_if(env.begin(), env.end(),
                             [&](const std::string& v) { return v.compare(0, name.size() + 1, name + "=") == 0; }),
              env.end());
    if (change.find('=') != std::string::npos) env.push_back(change);
  }
  return env;
}

// An fd this process opens for the child (closed when the spawn is done, whatever happens).
struct OwnedFd {
  int fd = -1;
  ~OwnedFd() {
    if (fd >= 0) close(fd);
  }
};

Expected<int> open_for_child(const std::string& path, OwnedFd& owned) {
  owned.fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (owned.fd < 0) return make_error(ErrorKind::Io, "cannot create " + path + ": " + std::strerror(errno));
  return owned.fd;
}

bool group_alive(pid_t group) { return group > 0 && kill(-group, 0) == 0; }

}  // namespace

std::string Exit::describe() const {
  if (timed_out) return "did not finish before its deadline (ended with its process group)";
  if (cancelled && signal == 0 && code == 130) return "cancelled (exit status 130)";
  if (signal != 0) {
    const char* name = strsignal(signal);
    return "killed by signal " + std::to_string(signal) + (name != nullptr ? std::string(" (") + name + ")" : "");
  }
  return "exit status " + std::to_string(code);
}

std::string find_program(const std::string& name) {
  if (name.empty()) return "";
  if (name.find('/') != std::string::npos) return executable(name) ? name : "";
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const std::string candidate = dir + "/" + name;
    if (executable(candidate)) return candidate;
  }
  return "";
}

Expected<Child> Child::spawn(const Options& o) {
  if (o.argv.empty() || o.argv.front().empty()) return make_error(ErrorKind::Failed, "no program to start");
  const std::string program = find_program(o.argv.front());
  if (program.empty()) {
    return make_error(ErrorKind::Failed,
                      "cannot start " + o.argv.front() + ": " +
                          (o.argv.front().find('/') != std::string::npos ? "no such executable program"
                                                                         : "no such program on PATH"));
  }
  // Output files are opened here, so a folder that cannot be written is this process's error value.
  OwnedFd log_fd, out_fd;
  const bool wants_log = o.out == Sink::Log || o.err == Sink::Log;
  if (wants_log && !o.log.empty()) {
    if (auto fd = open_for_child(o.log, log_fd); !fd) return fd.error();
  }
  if (o.out == Sink::File) {
    if (auto fd = open_for_child(o.out_file, out_fd); !fd) return fd.error();
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  auto route = [&](int target, Sink sink) {
    if (sink == Sink::Inherit) return;
    if (sink == Sink::File && out_fd.fd >= 0) {
      posix_spawn_file_actions_adddup2(&actions, out_fd.fd, target);
    } else if (sink == Sink::Log && log_fd.fd >= 0) {
      posix_spawn_file_actions_adddup2(&actions, log_fd.fd, target);
    } else {
      posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0);
    }
  };
  route(STDOUT_FILENO, o.out);
  route(STDERR_FILENO, o.err == Sink::File ? Sink::Null : o.err);

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Its own group (the deadline, a cancel and the destructor end all of it), no blocked signal
  // (this program blocks Ctrl-Z for its watcher thread) and default dispositions (an ignored
  // signal would otherwise survive exec).
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::vector<std::string> args = o.argv;
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env = environment_with(o.env);
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  Child c;
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, program.c_str(), &actions, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) return make_error(ErrorKind::Failed, "cannot start " + program + ": " + std::strerror(rc));
  c.pid_ = pid;
  c.argv_ = o.argv;
  c.argv_.front() = program;
  c.log_ = wants_log ? o.log : std::string();
  track(pid);
  return c;
}

Child::Child(Child&& o) noexcept
    : pid_(o.pid_), exit_(std::move(o.exit_)), argv_(std::move(o.argv_)), log_(std::move(o.log_)) {
  o.pid_ = -1;
  o.exit_.reset();
}

Child& Child::operator=(Child&& o) noexcept {
  if (this != &o) {
    release();
    pid_ = o.pid_;
    exit_ = std::move(o.exit_);
    argv_ = std::move(o.argv_);
    log_ = std::move(o.log_);
    o.pid_ = -1;
    o.exit_.reset();
  }
  return *this;
}

Child::~Child() { release(); }

void Child::release() {
  if (pid_ <= 0) return;
  terminate();
  pid_ = -1;
}

void Child::finish(int wait_status) {
  Exit e;
  if (WIFEXITED(wait_status)) e.code = WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) e.signal = WTERMSIG(wait_status);
  exit_ = e;
}

void Child::signal(int sig) const {
  if (pid_ > 0 && !exit_) kill(-pid_, sig);
}

std::optional<Exit> Child::poll() {
  if (exit_ || pid_ <= 0) return exit_;
  // Seen without reaping: while the leader is a zombie its pid, and so its group id, cannot be
  // reused, so what is left of the group can be killed safely before it is reaped.
  siginfo_t info{};
  if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
    if (errno == EINTR) return std::nullopt;
    untrack(pid_);
    exit_ = Exit{.code = 1};  // not our child any more (someone else reaped it): treat as ended
    return exit_;
  }
  if (info.si_pid == 0) return std::nullopt;
  untrack(pid_);
  kill(-pid_, SIGKILL);  // helpers outliving the leader (a browser's zygote, renderers)
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  finish(status);
  return exit_;
}

Expected<Exit> Child::wait(Deadline deadline, const std::atomic<bool>* cancel, std::chrono::milliseconds grace) {
  if (pid_ <= 0) return make_error(ErrorKind::Failed, "no child to wait for");
  auto nap = 1ms;
  bool asked = false;
  Deadline killed_at = kNoDeadline;
  for (;;) {
    if (auto e = poll()) {
      e->cancelled = asked;
      exit_ = *e;
      return *e;
    }
    const auto now = Clock::now();
    if (!asked && cancel != nullptr && cancel->load()) {
      // As Ctrl-C in a terminal: the child stops at its next check and keeps what completed.
      signal(SIGINT);
      asked = true;
      killed_at = now + grace;
    }
    if (now >= deadline || now >= killed_at) {
      const bool late = now >= deadline && !asked;
      terminate(100ms);
      exit_->timed_out = late;
      exit_->cancelled = asked;
      return *exit_;
    }
    std::this_thread::sleep_for(nap);
    nap = std::min<std::chrono::milliseconds>(nap * 2, 20ms);  // a prompt answer for short children
  }
}

void Child::terminate(std::chrono::milliseconds grace) {
  if (pid_ <= 0) return;
  if (!exit_ && grace > 0ms) {
    signal(SIGTERM);
    const auto until = Clock::now() + grace;
    while (!poll() && Clock::now() < until) std::this_thread::sleep_for(10ms);
  }
  if (!exit_) {
    untrack(pid_);
    kill(-pid_, SIGKILL);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    finish(status);
  }
  // The killed members are reaped by init, not by us: wait (bounded) until the group is empty, so
  // whoever looks next finds nothing of it.
  for (int i = 0; i < 100 && group_alive(pid_); ++i) std::this_thread::sleep_for(20ms);
}

std::string Child::log_tail(std::size_t lines, const std::function<bool(std::string_view)>& noise) const {
  return log_.empty() ? std::string() : file_tail(log_, lines, noise);
}

std::string file_tail(const std::string& path, std::size_t lines, const std::function<bool(std::string_view)>& noise) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  // Only the end matters, and a browser's log can be long.
  constexpr std::streamoff kTailBytes = 64 * 1024;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(std::max<std::streamoff>(0, size - kTailBytes));
  std::deque<std::string> last;
  std::string line;
  bool first = size > kTailBytes;  // the first line read from the middle is a fragment
  while (std::getline(in, line)) {
    if (first) {
      first = false;
      continue;
    }
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty() || (noise && noise(line))) continue;
    last.push_back(line);
    if (last.size() > lines) last.pop_front();
  }
  std::string out;
  for (const auto& l : last) out += (out.empty() ? "" : " | ") + l;
  return out;
}

void signal_all(int sig) noexcept {
  for (auto& slot : g_groups) {
    const pid_t group = slot.load();
    if (group > 0) kill(-group, sig);
  }
}

}  // namespace wgb::process
