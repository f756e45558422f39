// The one suite driver (docs/ARCHITECTURE.md "The driver"). Every definition reaches it bound to the
// device it runs on, as an Entry: a catalog kernel on a GPU (Dawn natively, the page's channel in a
// browser), a memory phase on the memory suite's fixture, a host kernel on the CPU's threads. The
// driver prepares every entry, orders them, times each entry's points through the one timed loop
// (runner.hpp), reports progress, and turns what was recorded into the entry's rows (record -> row,
// validation, plausibility). One definition failing never stops the run: it becomes a row that says
// why; only an error that leaves the device unusable (device lost, an uncaptured GPU error) ends it,
// and the rows not yet run then say "not run". Pull style: start(), then next() until nullopt.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "measure/clocked_sampler.hpp"
#include "measure/record.hpp"
#include "suite/runner.hpp"
#include "webgpu_bench/expected.hpp"
#include "webgpu_bench/options.hpp"
#include "webgpu_bench/progress.hpp"
#include "webgpu_bench/result.hpp"

namespace wgb {

// What the timed loop runs for one member at one point: the protocol behind its clock, the host that
// times its batches, and the stage a batch shows in progress ("calibrate", "sample 3/10").
struct TimedPoint {
  measure::ClockedSampler* sampler = nullptr;
  PassHost* host = nullptr;
  std::function<std::string(const measure::Action&, int recorded)> stage;
};

// Where an error happened, for Entry::ends_run.
enum class Step { Prepare, SetUp, Timing, Validation };

// A definition bound to its device. Most entries are one definition measured at one point; an entry
// may measure several definitions together (`members`: the host's STREAM kernels share one set of
// arrays per point, measured one after another on it) at several points (a host kernel's curve). The
// driver times every member at every point, in point order, then makes each member's row.
class Entry {
 public:
  virtual ~Entry() = default;
  virtual std::size_t members() const { return 1; }
  // A member's row before anything is measured: id, names, category, metric, statistic and why, the
  // kernel's hash.
  virtual BenchmarkResult identity(std::size_t member) const = 0;
  // Before any timing, for every entry in order: an error resolves the entry at once (skipped when the
  // adapter lacks what it needs, else error) so the estimate knows it costs nothing.
  virtual Status prepare() { return ok(); }
  // Seconds the entry is expected to take, for the progress estimate; negative: unknown.
  virtual double estimate_s() const { return -1; }
  virtual std::size_t points() const { return 1; }
  // Point `p`'s set-up before its members are timed: an idle transition, a fixture, a thread team.
  // `stage` names what is happening in progress.
  virtual Status set_up(std::size_t /*p*/, const std::function<void(std::string)>& /*stage*/) { return ok(); }
  // What the timed loop runs for `member` at point `p`; owned by the entry until record() is called.
  virtual Expected<TimedPoint> timing(std::size_t p, std::size_t member) = 0;
  virtual void record(std::size_t p, std::size_t member, measure::Record record) = 0;
  // After the timed loop of a point for every member: the point's check and anything else it records.
  virtual void end_point(std::size_t /*p*/) {}
  // Whether a cancelled member still has enough for a row (the host keeps a row whose first curve
  // completed); otherwise its row is `cancelled`.
  virtual bool usable_when_cancelled(std::size_t /*member*/) const { return false; }
  // The member's row from its records (record -> row, parameters). False: nothing usable (the row is
  // an error that says why) and it is not validated.
  virtual bool fill(std::size_t member, BenchmarkResult& row) = 0;
  // Reads results back and checks them; what was checked.
  virtual Expected<std::string> validate(std::size_t member) = 0;
  // After validation: plausibility against the device's ceilings, the throttle verdict.
  virtual void judge(std::size_t /*member*/, BenchmarkResult& /*row*/) {}
  // Whether an error at this step leaves the device unusable, so the run ends there.
  virtual bool ends_run(Step /*step*/, const Error& e) const {
    return e.kind == ErrorKind::DeviceLost || e.kind == ErrorKind::GpuError;
  }
};

struct DriverOptions {
  CancelToken cancel;
  std::function<void(const ProgressEvent&)> on_progress;
  bool reverse = false;  // run the entries in reverse order (order independence checks)
  int max_timing_notes = 8;
};

class Driver {
 public:
  Driver(std::vector<std::unique_ptr<Entry>> entries, DriverOptions options);
  ~Driver();
  Driver(Driver&&) noexcept;
  Driver& operator=(Driver&&) noexcept;

  // Prepares every entry (unsupported ones resolve before any timing) and starts the progress
  // stream. Fails only when a preparation left the device unusable.
  Status start();
  // The next completed row (rows keep their entries' order, or its reverse), or nullopt at the end.
  // After a cancel or a fatal error the remaining rows come back `cancelled`, saying why.
  std::optional<BenchmarkResult> next();
  const std::optional<Error>& fatal_error() const;
  std::size_t row_count() const;
  // The rows' identities in the order they will come (ids and units for a table laid out up front).
  std::vector<BenchmarkResult> identities() const;
  // Per-entry initial estimates (s) for SuiteProgress: 0 for a resolved entry, negative when unknown.
  std::vector<double> estimates_s() const;
  std::size_t entry_count() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One point of an entry timed outside a suite (a protocol check, a host region in a test): the same
// timed loop, with the same cancel and progress, for one TimedPoint.
Expected<measure::Record> time_point(const TimedPoint& point, const CancelToken& cancel);

}  // namespace wgb
