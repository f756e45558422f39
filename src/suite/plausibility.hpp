// Plausibility: a rate above what the adapter can do means the kernel was optimised away or the
// work model is wrong; such a row is marked `suspect` with the reason instead of reported silently.
//
// A row is judged by the `peak_class` its workload puts into the row's parameters ("memory" with
// a "footprint_bytes", or "fp32", "fp16", "int32", "int8-dot", "alu" for the ALU probes); rows
// without one (technique comparisons, user definitions) are never judged.
//
// Ceilings come from three places: published values for known devices, physical bounds for any
// device, and (`run --ceilings FILE`) rates measured earlier on the same adapter, which are compared
// only like with like: a linear streaming row with streaming rates measured at no larger footprint,
// an ALU row with the adapter's measured peak instruction rate or the best rate of its own class.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "webgpu_bench/context.hpp"
#include "webgpu_bench/expected.hpp"
#include "webgpu_bench/options.hpp"
#include "webgpu_bench/result.hpp"

namespace wgb {

// Ceilings of one adapter, per second, in the units the catalog counts (an FMA or MAD counts 2,
// a 4-wide 8-bit dot product with accumulate counts 8).
struct Ceilings {
  std::string source;                         // where the ALU numbers come from (stated in the reason)
  std::string memory_source;                  // where the memory numbers come from
  std::optional<double> memory_bytes_per_s;   // DRAM bandwidth
  double memory_margin = 1.10;                // how far above memory_bytes_per_s a rate may go
  std::optional<double> last_level_cache_bytes;  // footprints below 2x this may be cache-resident
  std::optional<double> fp32_flops, fp16_flops, int32_ops, int8_dot_ops;
  double alu_margin = 1.10;
};

// Published reference values (vendor datasheets, at the maximum boost clock) for an adapter whose
// device name contains a known model; nullopt for every other adapter.
std::optional<Ceilings> published_ceilings(std::string_view device_name);

// Ceilings from a measured memory-copy rate on this adapter (for the memory suite to pass in). A
// copy is slower than a pure read or write on HBM (measured on the H200: copy 4.14 TB/s, read 4.57,
// write 4.50), so the margin over a measured copy is 1.25, not 1.10.
Ceilings measured_copy_ceilings(double copy_bytes_per_s);

// Physical bounds that hold for any adapter (see plausibility.cpp for the numbers and why).
inline constexpr double kAnyDramBytesPerS = 20e12;
inline constexpr double kAnyCacheBytesPerS = 200e12;
inline constexpr double kAnyFootprintPastCaches = 256.0 * (1 << 20);
inline constexpr double kAnyAluOpsPerS = 2e15;

// The reason a completed row's rate is implausible, or nullopt. `known` are the adapter's ceilings
// when known; the physical bounds always apply.
std::optional<std::string> implausibility(const BenchmarkResult& row, const std::optional<Ceilings>& known);

// Checks a completed row against the ceilings known for this adapter (published values for its
// device name; the memory fields of `measured`, when given, replace the published ones) and the
// physical bounds; may set status Suspect.
void apply_plausibility(BenchmarkResult& row, const gpu::Context& gpu,
                        const std::optional<Ceilings>& measured = std::nullopt);

// ---- ceilings measured in an earlier result document (`run --ceilings FILE`) --------------------

// How far above a rate measured earlier on the same adapter a row may go. Wider than the published
// margin: the earlier run may have met a lower boost clock or a warmer GPU, and a copy or a write
// stream is up to ~10% slower than a read stream on HBM (H200: copy 4.14, read 4.57 TB/s); an
// eliminated kernel or an overcounting work model still shows up as an integer factor.
inline constexpr double kMeasuredMargin = 1.25;

// The measured ceilings themselves are read from a result document by report/ceilings.hpp.

// Usage error, one line, when the ceilings were measured on another adapter (vendor and device ids,
// device name, backend).
Status check_same_adapter(const MeasuredCeilings& m, const gpu::AdapterDescription& adapter);

// The reason a completed row's rate is above a ceiling measured earlier (x kMeasuredMargin), or
// nullopt. Streaming rows: only rows with parameters.access "linear" (never a gather or scatter
// window, which caches may hold), against the measured streams of footprint no larger than the
// row's. "alu" rows: the peak 32-bit instruction rate (x 2 for rows with operand_bits 16, which
// may pack two per lane): no single-operation result issues faster than one FMA. Other ALU classes:
// the best rate of the same class.
std::optional<std::string> measured_implausibility(const BenchmarkResult& row, const MeasuredCeilings& m);

// apply_plausibility with the published and physical ceilings, then the measured ones when given,
// then the launch-bound rule.
void apply_plausibility(BenchmarkResult& row, const gpu::Context& gpu, const std::optional<MeasuredCeilings>& measured);

// ---- launch-bound rows (docs/method.md#streaming) ----------------------------------------------

// A dispatch is launch-bound when launching and draining an empty dispatch of the same grid costs
// more than this share of it: its rate then understates the device by about that share. The
// bandwidth probes calibrate their passes so a dispatch takes --target-dispatch-ms (10 ms), where
// the share is a few hundredths of a percent on a GPU.
inline constexpr double kLaunchBoundShare = 0.05;

// The reason a dispatch of `dispatch_ms` is launch-bound when the empty dispatch of its grid costs
// `launch_ms`, or nullopt (also when either is unknown: not positive).
std::optional<std::string> launch_bound_reason(double dispatch_ms, double launch_ms,
                                               double threshold = kLaunchBoundShare);

// Rows whose parameters carry `launch_ms` (the bandwidth probes: prepare measures it) get
// `dispatch_ms` (the fastest measured time of one dispatch: the fastest repetition over the
// dispatches per repetition) and `launch_share` in their parameters; an ok
// row that is launch-bound becomes suspect with the reason, so no ceiling is taken from it.
void apply_launch_rule(BenchmarkResult& row);

}  // namespace wgb
