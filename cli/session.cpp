// The command-line session (session.hpp): signals, display, writing, the second process, submitting
// and the exit code, once for run, memory, sweep and host.
#include "cli/session.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "process/child.hpp"
#include "report/repro.hpp"
#include "store/client.hpp"
#include "report/files.hpp"

namespace wgb::cli {

namespace {

// The program's one signal flag: a handler can only reach a static.
std::atomic<bool> g_interrupted{false};

extern "C" void on_interrupt(int sig) {
  // First Ctrl-C: stop at the next check and write what completed. Second: leave at once.
  // The children (in process groups of their own, which the terminal does not signal) go first.
  if (g_interrupted.exchange(true) && sig == SIGINT) {
    process::signal_all(SIGKILL);
    std::_Exit(kExitCancelled);
  }
}

}  // namespace

// ---- flags ----------------------------------------------------------------------------------

void add_output_flags(CLI::App& cmd, OutputFlags& f, const OutputFlagSet& set) {
  const std::string unit = set.unit;
  cmd.add_option("--json", f.json_path,
                 fmt::format("Write the result document here (after every {}, atomically)", unit))
      ->type_name("FILE");
  cmd.add_option("--csv", f.csv_path, fmt::format("Write the {}s as CSV here (after every {}, atomically)", unit, unit))
      ->type_name("FILE");
  cmd.add_flag(
      "-q,--quiet", f.quiet,
      fmt::format("Nothing on stderr but errors{}{}", set.submit ? " and where --submit sent the document" : "",
                  set.progress ? " (wins over --progress)" : ""));
  if (set.progress) {
    cmd.add_flag("--progress", f.progress,
                 fmt::format("Draw the progress bar and per-{} lines on stderr even when it is not a terminal (by "
                             "default they are shown only on a terminal)",
                             unit));
  }
  if (set.repro) {
    cmd.add_flag("--repro", f.repro,
                 "Run everything again in a second process and flag rows where the two runs disagree beyond their "
                 "noise (docs/method.md#differ; exit code 1 when any does)");
    cmd.add_flag(report::kSecondRunFlag, f.second_run)->group("");  // hidden: set by --repro
  }
  if (set.submit) {
    cmd.add_option("--submit", f.submit_url, "Send the finished result document to this results server (see 'serve')")
        ->type_name("URL");
    cmd.add_option("--submit-token,--token", f.submit_token, "Bearer token for --submit")->type_name("TOKEN");
  }
}

// ---- signals --------------------------------------------------------------------------------

Interrupt::Interrupt(bool also_sigterm) : sigterm_(also_sigterm) {
  g_interrupted = false;
  previous_int_ = std::signal(SIGINT, on_interrupt);
  if (sigterm_) previous_term_ = std::signal(SIGTERM, on_interrupt);
}

Interrupt::~Interrupt() {
  std::signal(SIGINT, previous_int_);
  if (sigterm_) std::signal(SIGTERM, previous_term_);
}

bool Interrupt::requested() const { return g_interrupted.load(); }

CancelToken Interrupt::token() const { return CancelToken{&g_interrupted}; }

// ---- the second process -----------------------------------------------------------------------

std::vector<std::string> self_command() { return process::self_command(command_line().size()); }

Expected<int> run_self(const std::vector<std::string>& args, std::vector<std::string>* executed) {
  process::Options o;
  o.argv = self_command();
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  if (executed != nullptr) *executed = o.argv;
  // The second run's table would repeat the first; its result document is what is compared.
  o.out = process::Sink::Null;
  o.err = process::Sink::Inherit;
  auto child = process::Child::spawn(o);
  if (!child) return make_error(ErrorKind::Failed, "the second process: " + child.error().message);
  // Ctrl-C reaches this process only (the child has its own group): it is passed on, and the
  // child keeps what completed, as a copy in the terminal's group would.
  auto exit = child->wait(process::kNoDeadline, &g_interrupted);
  if (!exit) return make_error(ErrorKind::Failed, "waiting for the second process: " + exit.error().message);
  return exit->status();
}

// ---- the session ------------------------------------------------------------------------------

Session::Session(const OutputFlags& flags, const char* unit) : flags_(flags), unit_(unit) {
  display_ = std::make_unique<ProgressDisplay>(flags_.quiet      ? ProgressMode::Never
                                               : flags_.progress ? ProgressMode::Always
                                                                 : ProgressMode::Auto);
  // Ctrl-Z is an unbounded pause: no ETA while stopped, and the stopped time is not counted as the
  // running benchmark's duration (job_control.hpp). A child (--repro's second process) is in a
  // group of its own, which the terminal does not stop: it is stopped and continued with us.
  ProgressDisplay* d = display_.get();
  stop_watcher_ = std::make_unique<StopWatcher>(
      [d] {
        d->pause("stopped (job control)");
        process::signal_all(SIGTSTP);
      },
      [d] {
        process::signal_all(SIGCONT);
        d->resume();
      });
}

Status Session::check_before_work() const {
  if (!flags_.submit_url.empty()) {
    if (auto url = store::parse_server_url(flags_.submit_url); !url) return url.error();
  }
  return ok();
}

void Session::note(const std::string& line) const {
  if (!flags_.quiet) std::cerr << line << '\n';
}

Status Session::write_first(const report::ResultDocument& doc) {
  return report::write_outputs(flags_.json_path, flags_.csv_path, doc);
}

void Session::write(const report::ResultDocument& doc) {
  if (auto st = report::write_outputs(flags_.json_path, flags_.csv_path, doc); !st && io_) io_ = st;
}

SecondRun Session::run_second_process() const {
  SecondRun s;
  // A private file of our own for the second document (mkstemp: no other process can claim it).
  std::string tmpl = (std::filesystem::temp_directory_path() / "webgpu-bench-repro-XXXXXX.json").string();
  const int fd = mkstemps(tmpl.data(), 5);
  if (fd < 0) {
    s.failure = fmt::format("cannot create a file for the second process's document in {}: {}",
                            std::filesystem::temp_directory_path().string(), std::strerror(errno));
    s.document = make_error(ErrorKind::Io, s.failure);
    return s;
  }
  close(fd);
  std::vector<std::string> args(command_line().begin() + (command_line().empty() ? 0 : 1), command_line().end());
  s.arguments = report::second_run_arguments(args, tmpl);
  s.started_at = report::utc_now_iso8601();
  auto code = run_self(s.arguments, &s.executed);
  s.finished_at = report::utc_now_iso8601();
  if (!code) {
    s.failure = code.error().message;
    s.document = code.error();
  } else {
    s.exit_code = *code;
    s.document = report::load_document(tmpl);
    if (!s.document) {
      s.failure = fmt::format("the second process (exit code {}) left no usable document: {}", *code,
                              s.document.error().message);
    }
  }
  std::error_code ec;
  std::filesystem::remove(tmpl, ec);
  return s;
}

report::ReproSummary Session::reproduce(report::ResultDocument& doc, double tolerance) const {
  note("repro: running the whole procedure again in a second process...");
  const SecondRun run = run_second_process();
  report::ReproSecondRun second{.command = run.arguments,
                                .exec = run.executed,
                                .started_at = run.started_at,
                                .finished_at = run.finished_at,
                                .exit_code = run.exit_code};
  report::ReproSummary summary;
  if (!run.exit_code || !run.document) {
    summary = report::repro_incomplete(doc.rows(), run.failure, tolerance);
  } else {
    const int code = *run.exit_code;
    const report::Document& loaded = *run.document;
    const std::string& state = loaded.state;
    second.state = state;
    if (!loaded.test_perturbation.empty()) second.test_perturbation = loaded.test_perturbation;
    second.rows = loaded.rows.size();
    if (state != "complete") {
      summary = report::repro_incomplete(
          doc.rows(), fmt::format("the second process ended '{}' (exit code {})", state.empty() ? "?" : state, code),
          tolerance);
    } else {
      summary = report::apply_repro(doc.rows(), loaded.rows, tolerance);
      const report::PointsCompared points = report::compare_points(doc.rows(), loaded.rows, tolerance);
      if (points.compared > 0) {
        second.points_compared = points.compared;
        second.points_disagreeing = points.disagreeing;
      }
    }
  }
  doc.set_repro(summary, second);
  std::string rows;
  for (const auto& key : summary.disagreeing) rows += (rows.empty() ? ": disagreeing rows: " : ", ") + key;
  note("repro: " + summary.verdict + rows);
  return summary;
}

Status TerminalFrontEnd::started(frontend::Job& job) {
  // An unwritable file fails before any work.
  if (auto st = s_.write_first(job.document()); !st) return st;
  const gpu::Context* gpu = job.device();
  // Informational, like the bar: only where the bar is drawn (a terminal, or --progress). Short
  // lines rather than one that wraps at 100 columns: the adapter's name and the driver string can
  // each fill a line.
  if (gpu != nullptr && s_.display().enabled()) {
    const auto& a = gpu->adapter();
    std::cerr << fmt::format("adapter: {} ({}, {})\n  Dawn {}, robustness {}, clock {}\n  driver: {}\n",
                             a.device.empty() ? a.description : a.device, a.backend, a.adapter_type,
                             gpu->options().configuration,
                             gpu->options().robustness ? "on" : "off",
                             gpu->has_timestamps() ? "gpu-timestamp" : "wall-clock", a.driver);
  }
  return ok();
}

void TerminalFrontEnd::header(const std::string& table_header) {
  if (layout_.stream_table) std::cout << table_header << std::flush;
}

void TerminalFrontEnd::begin(std::size_t count, std::vector<double> estimates_s) {
  if (layout_.bar) s_.display().begin(count, std::move(estimates_s));
}

void TerminalFrontEnd::row(const BenchmarkResult& row, const std::string& table_line, const std::string& progress_line,
                           const report::ResultDocument& doc) {
  s_.write(doc);  // after every row, atomically
  // Each row is printed on stdout as it completes, in columns sized up front; where stdout is not
  // the terminal the bar is on (or there is no table), the row's one-line summary is shown above
  // the bar too.
  static const bool stdout_is_terminal = ::isatty(STDOUT_FILENO) != 0;
  auto print = [&] {
    if (layout_.stream_table) std::cout << table_line << std::flush;
  };
  const bool note = row.status != RowStatus::Cancelled && (!layout_.stream_table || !stdout_is_terminal);
  if (!layout_.bar) {
    print();
    return;
  }
  if (note && layout_.notes_without_bar && !s_.display().enabled()) s_.note(progress_line);
  s_.display().on_result(row.index, note ? progress_line : "", print);
}

void TerminalFrontEnd::end(bool completed) {
  if (!layout_.bar) return;
  // Only a run that completed reaches 100 %; an interrupted one stops drawing where it was.
  if (completed) {
    s_.display().finish();
  } else {
    s_.display().stop();
  }
}

int submit_exit_code(const Error& e) {
  // The client's own check of the document before anything is sent, and a malformed URL, are the
  // user's input; everything after the request left (no connection, an HTTP error) is the network.
  if (e.kind == ErrorKind::Usage && e.message.find("(HTTP ") == std::string::npos) return kExitUsage;
  return kExitNetwork;
}

int Session::finish(const nlohmann::json& document, const Outcome& o) {
  if (!io_) return fail(io_.error());
  if (!flags_.submit_url.empty() && !o.cancelled && o.ran) {
    // Nothing is sent anywhere unless the user asked (--submit).
    if (auto st = store::submit_document(document, flags_.submit_url, flags_.submit_token); !st) {
      fail(st.error());
      return submit_exit_code(st.error());
    }
    // Always said, --quiet or not: the document left this machine.
    std::cerr << fmt::format("submitted to {}\n", flags_.submit_url);
  }
  if (o.cancelled) {
    return fail(ErrorKind::Cancelled, fmt::format("interrupted; {} completed {}{} kept{}", o.completed, unit_,
                                                  o.completed == 1 ? " was" : "s were",
                                                  flags_.json_path.empty() ? "" : " in " + flags_.json_path));
  }
  if (o.fatal) return fail(*o.fatal);
  if (!o.failure.empty()) {
    fail(ErrorKind::Failed, o.failure);
    return kExitBenchmarkFailed;
  }
  return o.any_error ? kExitBenchmarkFailed : kExitOk;
}

int run_to_end(Session& session, frontend::Job& job, TerminalFrontEnd& terminal, std::size_t width, const char* unit,
               const std::function<void(Outcome&)>& before_end) {
  Outcome outcome = frontend::run(job, terminal, width);
  if (!outcome.ran) {
    return outcome.cancelled ? fail(ErrorKind::Cancelled, fmt::format("interrupted before any {} ran", unit))
                             : fail(*outcome.fatal);
  }
  if (before_end) before_end(outcome);
  session.write(job.document());
  std::cout << job.summary(width);
  return session.finish(job.document().json(), outcome);
}

}  // namespace wgb::cli
