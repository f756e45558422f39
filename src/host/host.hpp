// The host CPU as a second device (docs/host.md): runs the host definitions with the harness protocol,
// as curves over thread count and working-set size, and writes them into the same result document
// as GPU runs (suite "host", rows of category "host", curves in row.parameters.series), with every
// item the document records of the host in machine.host and in each row.
//
//   wgb::host::HostOptions o;                  // or quick_options() for small CI-sized runs
//   wgb::report::ResultDocument doc("host", argv);
//   auto run = wgb::host::run_host(o, doc);    // rows also land in doc as they complete
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "host/definitions.hpp"
#include "host/harness.hpp"
#include "host/team.hpp"
#include "report/document.hpp"
#include "webgpu_bench/defaults.hpp"
#include "webgpu_bench/expected.hpp"
#include "webgpu_bench/options.hpp"
#include "webgpu_bench/result.hpp"

namespace wgb::host {

// Comma-separated globs over the ids of `catalog`; empty = all. A glob matching nothing is a usage
// error.
Expected<std::vector<std::string>> select_host_benchmarks(const std::string& filter,
                                                          const std::vector<HostDefinition>& catalog = host_benchmarks());

struct HostOptions {
  std::string filter;                 // globs over host ids; empty = all
  unsigned threads = 0;               // headline thread count; 0 = one per allowed physical core
  std::vector<unsigned> thread_list;  // thread-count sweep; empty = default (1, 2, ... threads)
  bool thread_sweep = true;           // false: only `threads`
  bool size_sweep = defaults::host::kSizeSweep;  // STREAM and latency curves over working-set size
  Affinity affinity = defaults::host::kPinToCores ? Affinity::Cores : Affinity::None;
  std::uint64_t array_bytes = 0;         // each STREAM array; 0 = 4 x last-level cache (at least 64 MiB)
  // Size sweeps start here (STREAM: per array; latency: working set).
  std::uint64_t sweep_min_bytes = defaults::host::kSweepMinBytes;
  std::uint64_t sweep_max_bytes = 0;     // STREAM size sweep end per array; 0 = array_bytes
  std::uint64_t latency_max_bytes = 0;   // latency sweep end; 0 = 4 x last-level cache (>= 64 MiB)
  int points_per_octave = defaults::host::kPointsPerOctave;
  ProtocolConfig protocol;          // R, warm-up, 1 ms minimum region
  bool huge_pages = defaults::host::kHugePages;  // madvise(MADV_HUGEPAGE) on every buffer
  std::string isa;                  // FMA: "" = widest available, or avx512f / avx2 / scalar
  std::uint64_t seed = 0x5eedc0de;  // Sattolo cycle
  double memory_fraction = 0.6;     // refuse buffers larger than this share of MemAvailable
  double clock_probe_ms = 1.0;      // add-chain clock reading after each point (0: none)
  CancelToken cancel;
  std::function<void(const std::string&)> on_progress;  // one line per measured point
  std::function<void(const ProgressEvent&)> on_event;   // the driver's progress events (one per group)
  std::function<void(const BenchmarkResult&)> on_row;   // after each row is added to the document
  const std::vector<HostDefinition>* definitions = nullptr;  // the catalog; nullptr: host_benchmarks()
};

// Small sizes and few repetitions: the whole suite in seconds (CI, smoke tests). Arrays are far
// below 4x the last-level cache, so rows say they are not DRAM measurements.
HostOptions quick_options();


struct HostRun {
  std::vector<BenchmarkResult> rows;
  bool cancelled = false;
  int failed_rows = 0;
};

// The host suite, pull style: start() checks the options (usage errors), characterises the machine
// and records it and the options in `doc`; next() measures the next definition (a group sharing a
// fixture: every point of its curves, each member in turn) through the one driver and returns its
// rows one at a time; finish() adds the measured roofline and the derived quantities of every row to
// `doc`, whose rows must be the ones next() returned.
class HostSuite {
 public:
  explicit HostSuite(HostOptions options);
  ~HostSuite();
  HostSuite(const HostSuite&) = delete;
  HostSuite& operator=(const HostSuite&) = delete;
  Status start(report::ResultDocument& doc);
  std::optional<BenchmarkResult> next();
  std::optional<Error> fatal() const;
  std::vector<BenchmarkResult> planned() const;  // after start()
  void finish(report::ResultDocument& doc);
  const HostRun& result() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Runs the selected host benchmarks; sets doc.machine.host.* and doc.options, appends rows
// (calling `checkpoint` after each so a cancelled run keeps what completed), and at the end adds
// the derived quantities (fraction of the measured roofline).
// Errors: Usage (bad options), OutOfMemory (buffers exceed the allowed share of memory).
Expected<HostRun> run_host(const HostOptions& options, report::ResultDocument& doc,
                           const std::function<Status()>& checkpoint = {});

// Default thread sweep up to n: every count to 8, then steps of n/8, always ending at n.
std::vector<unsigned> default_thread_list(unsigned n);

}  // namespace wgb::host
