// The one front-end loop (docs/ARCHITECTURE.md "Front ends"): what every front end does with a run,
// written once for the command line and the browser engine alike. A Job is a run (the default suite
// or a filter of the catalog, the memory suite, the host CPU's suite) with its result document; a
// FrontEnd is where it shows (a terminal and files, or the page's events). run() starts the job,
// lays out the table, streams every row as it completes (document first, then the table line and
// the progress), ends the progress honestly (100 % only when the run completed), finishes the
// document and returns how the run ended; exit_status() turns that into the exit code the
// architecture page lists, the same everywhere.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "report/document.hpp"
#include "webgpu_bench/context.hpp"
#include "webgpu_bench/expected.hpp"
#include "webgpu_bench/options.hpp"
#include "webgpu_bench/progress.hpp"
#include "webgpu_bench/result.hpp"

namespace wgb::frontend {

// Documented in README.md, docs/ARCHITECTURE.md and `webgpu-bench --help`.
enum ExitCode : int {
  kExitOk = 0,
  kExitBenchmarkFailed = 1,  // at least one row is an error (others completed)
  kExitUsage = 2,            // bad option, unknown benchmark id, unreadable/corrupt input file, WGSL that fails
  kExitNoAdapter = 3,        // no usable adapter (or none matches --adapter/--backend)
  kExitDeviceLost = 4,       // the device was lost or a GPU error aborted the run (partial results kept)
  kExitIo = 5,               // an output file could not be written
  kExitNetwork = 6,          // --submit/submit: the server could not be reached or answered an HTTP error
  kExitCancelled = 130,      // interrupted (Ctrl-C, Cancel on the page); completed rows were kept
};

// The one mapping from an error to an exit code.
int exit_code_for(ErrorKind kind);

// How a run ended, for the exit code and the last line a person reads.
struct Outcome {
  bool cancelled = false;
  std::optional<Error> fatal;  // the run stopped early (device lost, no adapter, ...)
  std::size_t completed = 0;   // rows (phases, points) that really completed
  bool any_error = false;      // at least one row is an error: exit code 1
  std::string failure;         // a one-line reason for exit code 1 (printed when non-empty)
  bool ran = true;             // false: nothing was measured (nothing to submit)
};

// 130 when cancelled, the fatal error's code, 1 when a row failed (or `failure` is set), else 0.
int exit_status(const Outcome& o);
// The fatal or cancel line of an outcome ("cancelled; 3 completed rows were kept"), empty when none.
std::string ending_message(const Outcome& o, const char* unit);

// What a job is given by its front end: the cancel flag and where progress goes.
struct JobContext {
  CancelToken cancel;
  std::function<void(const ProgressEvent&)> progress;
};

class Job {
 public:
  virtual ~Job() = default;
  // The GPU the job measures on (nullptr for the host CPU, or before start()).
  virtual const gpu::Context* device() const { return nullptr; }
  // Opens the device, selects and prepares. An error ends the run before any row (no adapter, a
  // usage error); the rows the job could not run are never reported as measured.
  virtual Status start(const JobContext& context) = 0;
  virtual report::ResultDocument& document() = 0;
  // The rows that will come, in run order, with their ids and units: the table is laid out up front.
  virtual std::vector<BenchmarkResult> planned() const = 0;
  // Per-row initial estimates (s) for the progress estimate: 0 costs nothing, negative is unknown.
  virtual std::vector<double> estimates_s() const = 0;
  virtual std::optional<BenchmarkResult> next() = 0;
  virtual std::optional<Error> fatal() const = 0;
  // Adds a completed row to the document (with the numbers derived from it).
  virtual void record(BenchmarkResult& row) = 0;
  // The one-line summary of a completed row for progress output ("read-linear 2.1 TB/s ...").
  virtual std::string progress_line(const BenchmarkResult& row) const = 0;
  // After the last row: the device is released and the document gets its end state.
  virtual void finish(const Outcome& outcome) = 0;
  // What follows the rows, laid out for `width` columns: roofline, reproducibility, summary,
  // verdicts, scope. Read after finish() (and after a second process's verdicts, where there is one).
  virtual std::string summary(std::size_t width) const = 0;
};

class FrontEnd {
 public:
  virtual ~FrontEnd() = default;
  virtual CancelToken cancel() const = 0;
  // The job started: its device is open and its document exists. An error (an unwritable output
  // file) ends the run before any work.
  virtual Status started(Job& /*job*/) { return ok(); }
  virtual void header(const std::string& table_header) = 0;
  virtual void begin(std::size_t count, std::vector<double> estimates_s) = 0;
  virtual void progress(const ProgressEvent& e) = 0;
  // A row completed and is in the document: `table_line` is its line of the streamed table,
  // `progress_line` its one-line summary.
  virtual void row(const BenchmarkResult& row, const std::string& table_line, const std::string& progress_line,
                   const report::ResultDocument& doc) = 0;
  // Between rows: a front end that can pause (a hidden page) waits here, never inside a timed batch.
  virtual void between_rows() {}
  // The progress ends: at 100 % only when `completed`; an interrupted run stops where it was.
  virtual void end(bool completed) = 0;
};

// The loop. `width`: the columns the table is laid out for.
Outcome run(Job& job, FrontEnd& front_end, std::size_t width);

}  // namespace wgb::frontend
