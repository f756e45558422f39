// The memory suite (seeds 001 and 002), `webgpu-bench memory`: the effective throughput WebGPU
// compute moves through GPU-visible memory. Two storage buffers, alternated so no cache holds the
// reuse distance; six phases (read, write, copy, random, latency, sustain), each calibrated, warmed
// up, sampled, outlier-filtered and validated by the phase engine; failures (out of memory, device
// lost, uncaptured GPU error, cancel) end as values with the completed phases kept.
//
//   memory::MemoryOptions o;                 // 256 MiB, every phase, default budgets
//   o.on_row = [](const BenchmarkResult& r) { ... };   // one row per phase, as it completes
//   memory::MemoryRun run = memory::run_memory(gpu, o);
//
// run_memory() blocks; the CLI runs it on its own thread and draws progress on another, so the
// display never submits GPU work or delays a timing callback. The observers are called on the
// engine thread between passes and must return quickly.
#pragma once

#include <webgpu/webgpu_cpp.h>

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memory/geometry.hpp"
#include "webgpu_bench/context.hpp"
#include "webgpu_bench/expected.hpp"
#include "webgpu_bench/options.hpp"
#include "webgpu_bench/progress.hpp"
#include "webgpu_bench/result.hpp"

namespace wgb::memory {

enum class Phase { Read, Write, Copy, Random, Latency, Sustain };
inline constexpr std::array<Phase, 6> kAllPhases = {Phase::Read,   Phase::Write,   Phase::Copy,
                                                    Phase::Random, Phase::Latency, Phase::Sustain};
const char* phase_name(Phase p) noexcept;  // "read", "write", ...
std::string phase_id(Phase p);             // "memory-read", ... (public ids: never renamed)
// "all" or a comma-separated list of phase names; the suite always runs them in kAllPhases order.
Expected<std::vector<Phase>> parse_phases(std::string_view text);

using Allocator = std::function<Expected<wgpu::Buffer>(gpu::Context&, std::uint64_t size, wgpu::BufferUsage,
                                                       std::string_view label)>;

struct WorkingSet {
  std::uint64_t requested_bytes = 0;
  std::uint64_t bytes = 0;             // per buffer, as used
  std::uint64_t floor_bytes = 0;
  Geometry geometry;
  std::vector<std::string> reductions; // one line per halving and why (adapter cap, out of memory)
  bool ranked = false;
  std::string unranked_reason;         // empty when ranked
};

struct MemoryOptions {
  std::uint64_t working_set_mib = kDefaultWorkingSetMiB;  // per buffer; power of two, 16..512
  std::uint64_t min_working_set_mib = kDefaultFloorMiB;   // halving floor (out of memory, caps)
  std::vector<Phase> phases{kAllPhases.begin(), kAllPhases.end()};
  // Seed 001: GPU work per sample with timestamps; twice this when only the wall clock exists.
  double sample_ms = 40;
  double latency_sample_ms = 45;   // hops per latency sample are calibrated to this (x2 on the wall clock)
  double budget_ms = 3000;         // sampling budget of read, write, copy and random
  double latency_budget_ms = 3000;
  double sustain_ms = 18000;       // how long sustain runs the copy kernel (sampling budget)
  double warmup_ms = 500;          // warm-up per phase: up to this, never more than a tenth of its budget
  double transition_ms = 650;      // idle GPU between phases
  std::size_t min_samples = 8;
  double hard_stop_factor = 2.5;   // a phase stops at this times its budget, even short of min_samples
  std::uint64_t cycle_seed = 0x5A770106u;  // the latency cycle's RNG seed (recorded in the row)

  CancelToken cancel;              // checked before every submission and during transitions
  std::function<void(const ProgressEvent&)> on_progress;
  std::function<void(const WorkingSet&)> on_working_set;  // once, after allocation
  std::function<void(const BenchmarkResult&)> on_row;             // each phase row as it completes
  // Test seams: called before every timed pass (tests force a loss or an error there), and the
  // allocator of every buffer (default Context::buffer; tests simulate out-of-memory with it).
  std::function<void(Phase, std::uint64_t pass_index)> before_pass;
  Allocator allocate;
};

// Usage errors (exit code 2) for options out of range; run_memory() checks this first.
Status validate_options(const MemoryOptions& o);

struct MemoryRun {
  std::optional<WorkingSet> working_set;  // absent when allocation never succeeded
  std::vector<BenchmarkResult> rows;      // one per selected phase, in order (not-run phases: cancelled)
  // Why the run stopped early: DeviceLost, GpuError, Cancelled, OutOfMemory (below the floor),
  // Usage, or Failed. Completed rows stay valid.
  std::optional<Error> fatal;
  std::string end_state() const;          // "complete", "cancelled", "device-lost", "gpu-error", ...
};

MemoryRun run_memory(gpu::Context& gpu, const MemoryOptions& options);

// Expected seconds per selected phase (transition, calibration, warm-up, sampling), for the
// progress display before anything ran.
std::vector<double> estimate_phase_seconds(const MemoryOptions& options, bool timestamps);

// Seed 002's scope statement, natively: what a result measures and what it does not.
struct ScopeLine {
  std::string measured, not_measured;
};
std::vector<ScopeLine> scope_statement(const MemoryOptions& options);

}  // namespace wgb::memory
