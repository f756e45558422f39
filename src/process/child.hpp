// The one place this program starts other processes: the program's second copy (--repro, the
// native side of `browser`), browsers (Chromium, Firefox) and JavaScript runtimes (Deno).
//
// A Child is started in a process group of its own, with every signal unblocked and every signal
// disposition back to its default (this program blocks Ctrl-Z in a watcher thread and handles
// Ctrl-C; a child must not inherit either), stdin from /dev/null, and its output where the caller
// says: a log file, /dev/null, or this program's own stream. The Child owns the group: a deadline,
// a cancel, terminate() or the destructor end the whole group, so a browser's helpers (GPU process,
// renderers, content processes) never outlive it. Errors are values; a program that cannot be
// started is one line naming it.
//
//   process::Options o;
//   o.argv = {"firefox-esr", "--headless", "--profile", dir, url};
//   o.log = dir + "/firefox.log";
//   auto child = process::Child::spawn(o);
//   if (!child) return child.error();
//   auto exit = child->wait(process::deadline_in(60s), &cancel_flag);
//   if (exit && !exit->success()) say(exit->describe() + ": " + child->log_tail(5));
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "webgpu_bench/expected.hpp"

namespace wgb::process {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;
inline Deadline deadline_in(std::chrono::milliseconds d) { return Clock::now() + d; }
inline constexpr Deadline kNoDeadline = Deadline::max();

// Where one of the child's output streams goes.
enum class Sink {
  Null,     // /dev/null
  Log,      // Options::log (stdout and stderr share it when both go there)
  Inherit,  // this program's own stream (the terminal, or wherever it points)
  File,     // stdout only: Options::out_file (a document the child prints, e.g. `devices --json`)
};

struct Options {
  // argv[0] is the program: a path, or a name looked up on PATH.
  std::vector<std::string> argv;
  // Changes to this program's environment for the child: "NAME=value" sets, "NAME" removes.
  std::vector<std::string> env;
  Sink out = Sink::Log, err = Sink::Log;
  std::string log;       // created (or truncated), mode 0600; /dev/null when empty
  std::string out_file;  // for out = Sink::File
};

// How a child ended.
struct Exit {
  int code = 0;            // the exit status, when it exited
  int signal = 0;          // the signal that ended it, else 0
  bool timed_out = false;  // its deadline passed: this program ended its group
  bool cancelled = false;  // the caller's cancel flag was set: the child was asked to stop (SIGINT)
  bool success() const { return signal == 0 && code == 0 && !timed_out; }
  // The shell's convention: the exit status, or 128 + the signal.
  int status() const { return signal != 0 ? 128 + signal : code; }
  // "exit status 3", "killed by signal 11 (Segmentation fault)", "did not finish in time: ended".
  std::string describe() const;
};

// The program `name` would run as: itself when it contains a '/', else the first executable of
// that name on PATH; empty when there is none.
std::string find_program(const std::string& name);

// This program as it was started, so a second copy runs under the same loader: /proc/self/exe, or
// when started as `ld.so [--library-path P ...] program args...` the loader, its options and the
// program. `own_argc` is the number of arguments main() was given (argv[0] included).
std::vector<std::string> self_command(std::size_t own_argc);

class Child {
 public:
  // Starts the child. Errors: NoAdapter when the program does not exist or cannot be executed
  // (a runtime or browser that is not installed), Io when a log file cannot be created.
  static Expected<Child> spawn(const Options& options);

  Child() = default;
  Child(Child&& other) noexcept;
  Child& operator=(Child&& other) noexcept;
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child();  // terminate()

  // The exit without waiting (nullopt: still running). Once it ended, what remains of its group is
  // killed and the child reaped; later calls return the same Exit.
  std::optional<Exit> poll();
  // Waits until the child ends, its deadline passes (its group is then terminated: Exit::timed_out)
  // or `*cancel` becomes true (the group gets SIGINT, the way Ctrl-C reaches a program in the
  // terminal's group; a copy of this program then writes what completed and exits with 130; after
  // `grace` the group is killed: Exit::cancelled). An error only when the wait itself fails.
  Expected<Exit> wait(Deadline deadline = kNoDeadline, const std::atomic<bool>* cancel = nullptr,
                      std::chrono::milliseconds grace = std::chrono::seconds(10));
  // SIGTERM to the group, SIGKILL to the group after `grace` (at once with 0), the child reaped;
  // then a bounded wait until nothing of its group is left. Also right for a child that ended.
  void terminate(std::chrono::milliseconds grace = std::chrono::seconds(2));
  // A signal to the whole group (nothing once it ended).
  void signal(int sig) const;

  pid_t pid() const { return pid_; }
  bool running() const { return pid_ > 0 && !exit_.has_value(); }
  const std::vector<std::string>& argv() const { return argv_; }
  const std::string& log_path() const { return log_; }
  // The last `lines` non-empty lines of the log joined with " | " (for a one-line error message),
  // skipping lines for which `noise` returns true.
  std::string log_tail(std::size_t lines = 3, const std::function<bool(std::string_view)>& noise = {}) const;

 private:
  void finish(int wait_status);
  void release();

  pid_t pid_ = -1;
  std::optional<Exit> exit_;
  std::vector<std::string> argv_;
  std::string log_;
};

// Sends `sig` to the process group of every Child alive in this process. Async-signal-safe: the
// program's signal handlers call it (a second Ctrl-C kills the children before the program leaves;
// Ctrl-Z and fg stop and continue them with it), since children in their own groups do not get the
// terminal's signals.
void signal_all(int sig) noexcept;

// The last `lines` non-empty lines of a text file joined with " | ", without `noise` lines.
std::string file_tail(const std::string& path, std::size_t lines,
                      const std::function<bool(std::string_view)>& noise = {});

}  // namespace wgb::process
