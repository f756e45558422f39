// What readers interpret of a row's parameters, read once into types. A workload writes its row's
// parameters as JSON (they are open-ended: each records its own procedure); everything that reads
// them back to decide something (plausibility, --ceilings, the curves of the host and memory suites
// and --repro's comparison of their points) reads them here, and the few facts written into them
// after the workload (the launch share, a second process's points) are written here too, so no
// other file indexes a row's parameters by key (docs/results-schema.md "Rows").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "webgpu_bench/expected.hpp"
#include "webgpu_bench/result.hpp"

namespace wgb::report {

// One point of a curve (`parameters.series[].points[]`): the fields its readers show; which are
// present depends on the curve (a bandwidth curve over the working set, a latency curve, a curve
// over the thread count).
struct CurvePoint {
  std::optional<double> working_set_bytes, threads, array_bytes;  // where the point stands
  std::optional<double> value, time_ms, iqr_relative, repeat, cpu_share;
  std::optional<std::pair<double, double>> value_iqr;  // the rate at q3 and q1 of the times
  std::optional<double> ns_per_load, cycles_per_load;  // latency curves
  std::optional<bool> valid;
  std::optional<double> clock_mhz;  // the host's clock during the point (median of its members)
  // Written by --repro: the second process's time at the same point and whether the two agree.
  std::optional<double> repro_second_ms;
  std::optional<bool> repro_agree;

  // The point's coordinate on the curve's axis (`x`: "working_set_bytes" or "threads").
  std::optional<double> at(const std::string& x) const;
  // The rate at the q3..q1 times widened to include the point's own rate (a minimum-time point's
  // rate lies above that range); (0, 0) when the point records no range.
  std::pair<double, double> rate_range() const;
};

// One curve of a row (`parameters.series[]`).
struct Curve {
  std::string name;       // "working_set", "threads"
  std::string x;          // the key of the points' coordinate
  std::string statistic;  // "best" or "median"
  std::optional<double> threads;
  // A host curve over the working set: the cache levels its threads' CPUs can use.
  struct CacheBoundary {
    int level = 0;
    double total_bytes = 0;  // all instances the threads use
  };
  std::optional<std::vector<CacheBoundary>> cache_boundaries;  // none when not recorded
  std::vector<CurvePoint> points;
};

// A sweep's point (`parameters.sweep`): the swept parameter, its value at this row and the option
// that sets it.
struct SweepPoint {
  std::string parameter;  // "size", "threads", "workgroup"
  std::uint64_t value = 0;
  std::string option;  // "--size", ...
};

struct RowFacts {
  std::string peak_class;  // "memory", "alu", "fp32", "fp16", "int32", "int8-dot"; "" when the row names none
  std::string access;      // "linear", "gather", ...
  std::string precision;   // "f32", "f64", ...: the FLOPs a compute row counts, where it names them
  std::optional<double> footprint_bytes;
  int operand_bits = 32;            // 16 for packed 16-bit operands
  std::optional<double> launch_ms;  // an empty dispatch of the same grid, where measured
  double dispatches_per_repetition = 1;
  std::optional<double> working_set_bytes, buffers;  // the memory suite's phases
  std::int64_t samples = 0, rejected_samples = 0;
  std::optional<double> cv, ns_per_load, g_accesses_per_s;
  std::optional<double> last60_median_gbps, first20_median_gbps;  // memory-sustain's retention
  std::optional<double> window_bytes;                             // gather and scatter rows
  std::vector<Curve> curves;
  std::optional<SweepPoint> sweep;
  // A stored run unranked for its options: each row says so, and why.
  std::optional<bool> unranked;
  std::string unranked_reason;
  // memory-sustain: bandwidth (B/s) over time (s), and the retention of its end over its start.
  // Older documents wrote the timeline with other keys (t_s|time_s|t|seconds and
  // gbps|GBps|gb_s|gb_per_s|bytes_per_second|value|rate, or [t, value] pairs): read here, in B/s.
  std::vector<std::pair<double, double>> timeline;
  std::optional<double> retention;
  std::string retention_reading;  // absent in older documents
  // The host suite's rows: the thread count (`threads.count`), the clock during the run
  // (`frequency.sustained_mhz_median`) and the share of the timed wall time the threads held their
  // CPUs (`timing.cpu_share`).
  std::optional<double> host_threads, sustained_mhz_median, cpu_share;
};

// What a GPU probe writes into its row's parameters that readers interpret (RowFacts reads them
// back), and the facts every probe may record beside its own description: each written where
// present. A probe's own description (its sizes, shapes and kernels, in its own words) is written
// with them, as an object it states once.
struct ProbeFacts {
  std::optional<std::string> peak_class, access;
  std::optional<std::uint64_t> footprint_bytes, buffers, operand_bits, working_set_bytes;
  std::optional<std::uint64_t> window_bytes, nominal_window_bytes, loads_per_pass;  // gather and scatter
  std::optional<double> launch_ms;  // an empty dispatch of the same grid
  std::optional<std::uint64_t> dispatches_per_repetition, repetitions_per_batch;
  std::optional<std::array<std::uint32_t, 3>> workgroups;
  std::optional<std::pair<std::string, std::uint64_t>> knob;  // the calibrated knob, under its own name
  std::optional<std::string> note;
  std::optional<std::string> kernel_form, experimental, wgsl_variant, f16;  // which kernel and features ran
  // An FMA probe: whether the driver fuses `x * m + c` and `fma()`, or why that was not checked.
  struct Contraction {
    std::string not_checked;           // non-empty: the reason, and nothing else is known
    std::string mul_add, fma_builtin;  // "fused", "separate", ...
  };
  std::optional<Contraction> fma_contraction;
  // A transfer row: each stage's time per operation, and how it was taken.
  std::optional<std::vector<std::pair<std::string, double>>> time_split_ms;
  std::optional<std::string> time_split;
};

// Writes the facts present into `parameters` (an object: a probe's own description, or empty).
void write_facts(nlohmann::json& parameters, const ProbeFacts& facts);
nlohmann::json with_facts(nlohmann::json parameters, const ProbeFacts& facts);

// Reads `parameters` (an object, or null for none). A field present with another type than its
// documented one is an error naming it.
Expected<RowFacts> read_row_facts(const nlohmann::json& parameters);
// The same for a row this program wrote: malformed facts read as none.
RowFacts row_facts(const BenchmarkResult& row);

// The sweep's point of a row (a light read of `parameters.sweep` alone; none when the row is not a
// sweep's or its point is malformed), and its writing by the sweep.
std::optional<SweepPoint> sweep_point(const nlohmann::json& parameters);
void set_sweep_point(BenchmarkResult& row, const SweepPoint& point);

// A stored document whose run is unranked: each of its rows says so (`parameters.unranked`), as the
// memory suite's capped rows do, so that every reader of the rows sees it.
void mark_rows_unranked(nlohmann::json& document);

// Written after the workload: the measured dispatch time beside the launch cost, and its share.
void set_launch_share(BenchmarkResult& row, double dispatch_ms);
// --repro: the second process's time at point `p` of curve `c`, and whether the two agree.
void set_point_repro(BenchmarkResult& row, std::size_t c, std::size_t p, double second_ms, bool agree);

}  // namespace wgb::report
