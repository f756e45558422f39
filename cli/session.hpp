// One command-line session: what every measuring command (run, memory, sweep, host) shares, so the
// subcommand files only map their flags. The session owns
//   - the one SIGINT handler of the program (Ctrl-C: cancel at the next check, a second Ctrl-C
//     leaves at once) and job control (Ctrl-Z pauses the display, job_control.hpp);
//   - the progress display (a terminal or --progress; nothing with --quiet);
//   - writing --json / --csv atomically after every row (the first failure is kept; nothing that
//     completed is lost);
//   - the second process of --repro (one way to start it, one argument rewrite: report/repro.hpp);
//   - submitting to a results server (--submit), and the exit code.
#pragma once

#include <CLI/CLI.hpp>
#include <atomic>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/common.hpp"
#include "cli/job_control.hpp"
#include "cli/progress_display.hpp"
#include "frontend/frontend.hpp"
#include "report/document.hpp"
#include "report/files.hpp"
#include "webgpu_bench/options.hpp"

namespace wgb::cli {

// The flags every measuring command shares (each command offers the ones it accepts).
struct OutputFlags {
  std::string json_path;
  std::string csv_path;
  bool quiet = false;     // nothing on stderr but errors (wins over --progress)
  bool progress = false;  // the bar and per-row lines on stderr even when it is not a terminal
  bool repro = false;
  bool second_run = false;  // hidden: this process is the second run of --repro
  std::string submit_url;   // --submit: send the finished document to a results server
  std::string submit_token;
};

// Which of the shared flags a command offers; `unit` names what is written after each ("row").
struct OutputFlagSet {
  const char* unit = "row";
  bool progress = true;
  bool repro = true;
  bool submit = true;
};
void add_output_flags(CLI::App& cmd, OutputFlags& f, const OutputFlagSet& set);

// The one SIGINT handler (and SIGTERM where asked: serve). While an Interrupt lives, the first
// signal sets requested() (a cancel token reads it); a second SIGINT exits at once with code 130.
// The previous dispositions come back when it ends.
class Interrupt {
 public:
  explicit Interrupt(bool also_sigterm = false);
  ~Interrupt();
  Interrupt(const Interrupt&) = delete;
  Interrupt& operator=(const Interrupt&) = delete;
  bool requested() const;
  CancelToken token() const;

 private:
  bool sigterm_;
  void (*previous_int_)(int) = nullptr;
  void (*previous_term_)(int) = nullptr;
};

// The second process of --repro: this program again with the same arguments (outputs,
// submissions and --quiet rewritten), its stdout discarded; what it left behind.
struct SecondRun {
  std::vector<std::string> arguments;  // after the program name
  std::vector<std::string> executed;   // the exact argv started (the loader and its options included)
  std::string started_at, finished_at;
  std::optional<int> exit_code;  // nullopt: it could not be started
  Expected<report::Document> document = make_error(ErrorKind::Failed, "not run");
  std::string failure;  // why there is no usable document (empty when there is)
};

// Starting this same program again: through /proc/self/exe, and through the same dynamic loader and
// its options when the program was started by the loader explicitly (scripts/wgb does that).
std::vector<std::string> self_command();
// Runs self_command() + args (a process::Child: its own group, default signals) with stdout
// discarded and stderr inherited; a Ctrl-C is passed on to it. The exit status (128 + signal when
// killed by a signal). `executed` receives the exact argv started.
Expected<int> run_self(const std::vector<std::string>& args, std::vector<std::string>* executed = nullptr);

// How a session ended (the one front-end loop's outcome, frontend/frontend.hpp).
using frontend::Outcome;

class Session {
 public:
  explicit Session(const OutputFlags& flags, const char* unit = "row");
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const OutputFlags& flags() const { return flags_; }
  // Checks what can be checked before any work: a malformed --submit URL (usage error).
  Status check_before_work() const;
  // Starts the display and job control (Ctrl-Z): construct before the GPU device exists, so its
  // driver threads leave SIGTSTP to the watcher.
  ProgressDisplay& display() { return *display_; }
  CancelToken cancel() const { return interrupt_.token(); }
  bool cancelled() const { return interrupt_.requested(); }
  // Prints a progress line on stderr (unless --quiet).
  void note(const std::string& line) const;

  // Writes --json/--csv atomically. The first call's failure is returned so an unwritable file
  // fails before any work; later failures are kept and reported by finish().
  Status write_first(const report::ResultDocument& doc);
  void write(const report::ResultDocument& doc);

  // --repro: runs the command line again in a second process and loads its document.
  SecondRun run_second_process() const;
  // --repro, the whole check (docs/method.md#reproducibility): the second process, its rows compared
  // with `doc`'s by the one rule (report/repro.hpp: rows and curve points), disagreeing rows made
  // suspect, and the document's repro section. `tolerance`: the sampler's improvement tolerance.
  report::ReproSummary reproduce(report::ResultDocument& doc, double tolerance) const;

  // The exit code: output errors first (5), then the submission (6), then an interrupt (130), the
  // fatal error, and rows that failed (1).
  int finish(const nlohmann::json& document, const Outcome& outcome);

 private:
  OutputFlags flags_;
  const char* unit_;
  Interrupt interrupt_;
  std::unique_ptr<ProgressDisplay> display_;
  std::unique_ptr<StopWatcher> stop_watcher_;
  Status io_ = ok();
};

// The command line as a front end of the one loop (frontend/frontend.hpp): the streamed table on
// stdout (for the commands that print one as rows complete), the bar and one line per row on stderr
// (a terminal or --progress), the adapter line, and the document written after every row.
class TerminalFrontEnd final : public frontend::FrontEnd {
 public:
  struct Layout {
    bool stream_table = true;  // run: the table on stdout row by row; memory, host: a summary at the end
    bool bar = true;           // host: no bar (its estimates are unknown); each point prints its own line
    bool notes_without_bar = false;  // sweep: each row's line on stderr even where no bar is drawn
  };
  TerminalFrontEnd(Session& session, Layout layout) : s_(session), layout_(layout) {}
  CancelToken cancel() const override { return s_.cancel(); }
  Status started(frontend::Job& job) override;
  void header(const std::string& table_header) override;
  void begin(std::size_t count, std::vector<double> estimates_s) override;
  void progress(const ProgressEvent& e) override {
    if (layout_.bar) s_.display().on_progress(e);
  }
  void row(const BenchmarkResult& row, const std::string& table_line, const std::string& progress_line,
           const report::ResultDocument& doc) override;
  void end(bool completed) override;

 private:
  Session& s_;
  Layout layout_;
};

// Runs `job` through `terminal` (the one loop, frontend::run) and ends the session. A run stopped
// before its first row is the exit code of why (`unit` names what never ran), with nothing
// written; otherwise `before_end` (run's --repro check) may amend the outcome, the document is
// written, the summary printed on stdout for `width` columns, and the exit code is finish()'s.
int run_to_end(Session& session, frontend::Job& job, TerminalFrontEnd& terminal, std::size_t width, const char* unit,
               const std::function<void(Outcome&)>& before_end = {});

// --submit: posts the document; a server that cannot be reached or answers with an HTTP error is
// exit code 6 (kExitNetwork), a malformed URL or a document refused before sending is 2.
int submit_exit_code(const Error& e);

}  // namespace wgb::cli
