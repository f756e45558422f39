// Curves, not points: one benchmark run over a parameter range, each point a separate run_suite
// call on the same gpu::Context with one SuiteOptions field varied.
//   size      SuiteOptions::bandwidth_bytes and working_set_bytes (bandwidth, gather, latency):
//             16 KiB .. 1 GiB in powers of two by default
//   threads   SuiteOptions::compute_threads (ALU and streaming bandwidth probes): 64 .. 1Mi
//   workgroup SuiteOptions::compute_workgroup_size (ALU probes: the WGSL override of their
//             workgroup size): 32 .. 1024
// Points the adapter cannot run (a size above its largest storage binding, a workgroup above its
// workgroup limit) stay in the series as `skipped` rows naming the limit; they are never measured
// at another value in their place. A benchmark that ignores the varied option (its parameters and
// work model stay the same from one point to the next) is reported as having no such knob and the
// sweep stops there.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "webgpu_bench/definition.hpp"
#include "webgpu_bench/expected.hpp"
#include "webgpu_bench/options.hpp"
#include "webgpu_bench/result.hpp"

namespace wgb {

// "4096", "16K", "16KiB", "16kb", "1M", "1MiB", "1G", "1GiB" (binary multiples). Usage error otherwise.
Expected<std::uint64_t> parse_size(std::string_view text);

struct SweepSpec {
  std::string parameter;              // "size", "threads" or "workgroup"
  std::vector<std::uint64_t> values;  // every point, in order (skipped ones included)
  std::vector<std::string> notes;     // what a person should know about the series
  std::map<std::uint64_t, std::string> skipped;  // points the adapter cannot run, and why
};

// The points: `list` (comma-separated, sizes may carry suffixes) when given, else the powers of two
// from..to (inclusive; defaults per parameter). Usage errors for unknown parameters, empty or
// inverted ranges, zero values.
Expected<SweepSpec> make_sweep_spec(const std::string& parameter, const std::string& from, const std::string& to,
                                    const std::string& list);
// Marks size points above `limit` (the adapter's binding/buffer limit) or workgroup points above
// `limit` (its workgroup size limit) as skipped: "1 GiB is above the adapter's <limit_name>: 128 MiB".
// Thread counts are left alone.
void limit_sweep(SweepSpec& spec, std::uint64_t limit, const std::string& limit_name);
// A point's value as a person reads it: "16 KiB", "256", ...
std::string sweep_value_text(const std::string& parameter, std::uint64_t value);
// What the parameter varies, in words: "buffer or working-set size", "invocations in flight",
// "invocations per workgroup".
std::string sweep_parameter_text(const std::string& parameter);
// The SuiteOptions field(s) the parameter sets (recorded in the document).
std::string sweep_option_name(const std::string& parameter);
void apply_sweep_value(SuiteOptions& options, const std::string& parameter, std::uint64_t value);

// The sweep, pull style: each next() runs one point (run_suite with `base`, whose context must be set,
// and the point's value) and returns its row, skipped points included, with parameters.sweep =
// {parameter, value, option} added. It ends early when the benchmark does not respond to the
// parameter (a note in the spec says so), on cancel, or at a point's fatal error. Progress events of
// each point's run are renumbered to the point and put on one clock; a skipped point is announced as
// resolved (it costs nothing).
class SweepRun {
 public:
  SweepRun(BenchmarkDefinition def, SuiteOptions base, SweepSpec& spec);
  std::optional<BenchmarkResult> next();
  const std::optional<Error>& fatal() const { return fatal_; }
  // The budget-based estimate of one measured point, and 0 for the skipped ones, for SuiteProgress.
  std::vector<double> estimates_s() const;

 private:
  BenchmarkDefinition def_;
  SuiteOptions base_;
  SweepSpec& spec_;
  std::size_t i_ = 0;
  bool done_ = false;
  std::optional<BenchmarkResult> previous_;  // the last measured point
  std::uint64_t previous_value_ = 0;
  std::optional<Error> fatal_;
  double t0_s_ = 0;
};

// Runs the sweep to its end (SweepRun), calling on_row for each row and `on_point(i, n)` before each
// point; returns the fatal error of a point, if any (a cancel is one).
Status run_sweep(const BenchmarkDefinition& def, const SuiteOptions& base, SweepSpec& spec,
                 const std::function<void(BenchmarkResult&)>& on_row,
                 const std::function<void(std::size_t, std::size_t)>& on_point = {});

// The document's "sweep" object.
nlohmann::json sweep_json(const std::string& benchmark, const SweepSpec& spec);

}  // namespace wgb
