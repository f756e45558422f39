// Curves, not points (seed 004 "Common errors"): one benchmark run over a parameter range, each
// point a separate run_suite call on the same gpu::Context with one SuiteOptions field varied.
//   size     SuiteOptions::bandwidth_bytes and working_set_bytes (bandwidth, gather, latency):
//            16 KiB .. 1 GiB in powers of two by default, clamped to the adapter's storage
//            binding and buffer limits with a note
//   threads  SuiteOptions::compute_threads (ALU and streaming bandwidth probes): 64 .. 1Mi in powers of two by default
//   workgroup SuiteOptions::compute_workgroup_size (ALU probes: the WGSL override of their workgroup
//            size): 32 .. 1024 in powers of two by default, capped by the adapter's
//            maxComputeInvocationsPerWorkgroup / maxComputeWorkgroupSizeX with a note
// A benchmark that ignores the varied option (its parameters and work model stay the same from
// one point to the next) is reported as having no such knob and the sweep stops there.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "report/model.hpp"
#include "webgpu_bench/context.hpp"
#include "webgpu_bench/definition.hpp"
#include "webgpu_bench/expected.hpp"
#include "webgpu_bench/options.hpp"

namespace wgb::report {

// "4096", "16K", "16KiB", "16kb", "1M", "1MiB", "1G", "1GiB" (binary multiples). Usage error otherwise.
Expected<std::uint64_t> parse_size(std::string_view text);

struct SweepSpec {
  std::string parameter;              // "size", "threads" or "workgroup"
  std::vector<std::uint64_t> values;  // in order
  std::vector<std::string> notes;     // clamping and the like
};

// The points: `list` (comma-separated, sizes may carry suffixes) when given, else the powers of two
// from..to (inclusive; defaults per parameter). Usage errors for unknown parameters, empty or
// inverted ranges, zero values.
Expected<SweepSpec> make_sweep_spec(const std::string& parameter, const std::string& from, const std::string& to,
                                    const std::string& list);
// Clamps size points above `limit` (the adapter's binding/buffer limit; a multiple of 256 below it)
// or workgroup points above `limit` (the adapter's workgroup size limit) to it, drops duplicates,
// and says so in spec.notes. Thread counts are left alone.
void clamp_sweep(SweepSpec& spec, std::uint64_t limit, const std::string& limit_name);
// The SuiteOptions field(s) the parameter sets.
std::string sweep_option_name(const std::string& parameter);
void apply_sweep_value(SuiteOptions& options, const std::string& parameter, std::uint64_t value);

// Runs the sweep: one run_suite per point with `base` (its context must be set), calling
// on_row for each row (with parameters.sweep = {parameter, value, option} added). Stops early when
// the benchmark does not respond to the parameter (a note says so) or on cancel; returns the
// fatal error of a point, if any.
Status run_sweep(const BenchmarkDefinition& def, const SuiteOptions& base, SweepSpec& spec,
                 const std::function<void(BenchmarkResult&)>& on_row);

nlohmann::json sweep_json(const std::string& benchmark, const SweepSpec& spec);

// The series as a table: the parameter value, status, rate, statistic, dispersion, and the time
// per unit (latency) for dependent-load rows.
void write_sweep_table(std::ostream& out, const std::vector<ReportRow>& rows, const std::string& parameter);

}  // namespace wgb::report
