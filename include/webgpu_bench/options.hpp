// SuiteOptions: every tunable of the scheduler and sampler (docs/method.md#sampling), the
// device choice, and what to run. Each field is also a CLI option of `webgpu-bench run`.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "webgpu_bench/context.hpp"
#include "webgpu_bench/defaults.hpp"
#include "webgpu_bench/progress.hpp"
#include "webgpu_bench/sampling.hpp"

namespace wgb {

struct BenchmarkDefinition;
struct BenchmarkResult;

// Ceilings measured earlier on the same adapter (`webgpu-bench run --ceilings FILE`; read from a
// result document by src/suite/plausibility.hpp's measured_ceilings_from). The plausibility check
// compares rows with them like with like (docs/ARCHITECTURE.md "Plausibility"). Zero: not measured.
struct MeasuredCeilings {
  std::string source;  // the document, named in every reason
  // Linear streaming rates (the memory suite's read/copy, read-linear, write-linear), each with the
  // footprint it was measured at: a row is compared only with those of no larger footprint.
  struct Stream {
    double bytes_per_s = 0;
    double footprint_bytes = 0;
    std::string from;  // the row id
  };
  std::vector<Stream> streams;
  // The adapter's peak 32-bit lane-instruction rate: the best f32 FMA or i32 MAD rate / 2 (one
  // instruction per FMA or MAD, counted 2).
  double peak32_per_s = 0;
  std::string peak32_from;
  // Best measured rate per peak class ("fp32", "fp16", "int32", "int8-dot") and the row it came from.
  struct Peak {
    double per_s = 0;
    std::string from;
  };
  std::vector<std::pair<std::string, Peak>> class_peaks;
  // The adapter it was measured on (the CLI refuses another).
  std::uint32_t vendor_id = 0, device_id = 0;
  std::string device, backend;
};

// Cancellation: set from a signal handler or another thread; checked between batches.
struct CancelToken {
  std::atomic<bool>* flag = nullptr;
  bool cancelled() const { return flag != nullptr && flag->load(); }
};

struct SuiteOptions {
  gpu::ContextOptions device;            // which adapter, robustness, experimental
  gpu::Context* context = nullptr;       // use this device instead of creating one
  // What to run: empty = the built-in catalog's default suite.
  std::vector<BenchmarkDefinition> benchmarks;
  SamplingOptions sampling;
  // Sizes of the raw probes (technique comparisons are fixed and ignore these).
  std::uint64_t bandwidth_bytes = defaults::run::kBandwidthBytes;  // 4096x4096 f32
  // Invocations of ALU and streaming bandwidth probes; 0: default.
  std::uint32_t compute_threads = defaults::run::kComputeThreads;
  // Workgroup size of the ALU probes (their WGSL `override wg_size`, set through pipeline
  // constants); 0: 256. `webgpu-bench sweep --param workgroup` sets it.
  std::uint32_t compute_workgroup_size = 0;
  // Working set of the probes whose footprint is not bandwidth_bytes (gather windows, the
  // dependent-chain buffer); 0: the probe's default. `webgpu-bench sweep --param size` sets it
  // together with bandwidth_bytes.
  std::uint64_t working_set_bytes = 0;
  // Ceilings measured earlier on this adapter, for the plausibility check (`run --ceilings`).
  std::optional<MeasuredCeilings> measured_ceilings;
  // Run the selection in reverse order: a rate that moves with its position in the run is not a
  // property of the kernel (`run --reverse`, the order-independence check).
  bool reverse = false;
  CancelToken cancel;
  std::function<void(const ProgressEvent&)> on_progress;
};

}  // namespace wgb
