// A benchmark definition is data plus two small functions: identity and meaning (id,
// label, description, category, metric), the WGSL it measures, a prepare step that builds a
// Workload on a device, and the Workload's work model and validator. Users extend the catalog with
// their own definitions using this header alone (see examples/custom_kernel.cpp).
#pragma once

#include <webgpu/webgpu_cpp.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "webgpu_bench/context.hpp"
#include "webgpu_bench/metric.hpp"
#include "webgpu_bench/vocabulary.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb {

struct SuiteOptions;

// The work knob (loop count) the scheduler calibrates toward its target dispatch time.
struct KnobSpec {
  std::string name = "iterations";
  std::uint64_t min = 1, max = 1, initial = 1;  // max == min: fixed work (only batching calibrates)
  bool enabled() const { return max > min; }
};

// The clock a workload's batches are timed on (docs/method.md#clocks). Pass: GPU timestamps where
// the adapter has them, cross-checked against the wall clock, else the wall clock minus the
// empty-submit cost (a compute pass, or GPU work bracketed by timestamps). WholeOperation: the host
// wall clock around the whole API operation, nothing subtracted, because the submit and its
// completion are part of what is measured (an upload, a read-back, a submit, a pipeline compile);
// rows record it as `operation-wall-clock`.
enum class BatchClock { Pass, WholeOperation };

// A prepared benchmark, ready to time.
class Workload {
 public:
  virtual ~Workload() = default;
  virtual KnobSpec knob() const { return {}; }
  virtual void set_knob(std::uint64_t /*value*/) {}
  // Records `repetitions` repetitions of the workload into one compute pass. Must not submit.
  virtual void encode(wgpu::ComputePassEncoder& pass, std::uint32_t repetitions) = 0;
  // Times `repetitions` repetitions as one batch; the timed loop calls this for every batch. The
  // default encodes them into one compute pass that Context::time_pass submits and times. A workload
  // whose work is not a compute pass (WebGPU's own API: uploads, copies, submits, pipeline creation)
  // overrides it, and clock(), and times itself through the Context's timed operations
  // (time_upload, time_readback, time_copy, time_submit, time_pipelines).
  virtual Expected<gpu::RawTiming> time(gpu::Context& gpu, std::uint32_t repetitions) {
    return gpu.time_pass([&](wgpu::ComputePassEncoder& pass) { encode(pass, repetitions); });
  }
  virtual BatchClock clock() const { return BatchClock::Pass; }
  // Work of one repetition at the current knob.
  virtual WorkModel work() const = 0;
  // Reads results back and checks them (CPU reference, sentinels). Returns what was checked.
  virtual Expected<std::string> validate(gpu::Context& gpu) = 0;
  // Sizes and shapes for the result row (input size/shape, workgroup size, ...).
  virtual nlohmann::json parameters() const { return nlohmann::json::object(); }
  // The WGSL this workload compiled where prepare chose it for the adapter instead of the
  // definition's `source` (empty: the definition's). The row's hash is of this one.
  virtual std::string source() const { return {}; }
};

// A workload that is an API operation rather than a compute pass: it times itself (time()) and
// has no pass to encode.
class OperationWorkload : public Workload {
 public:
  void encode(wgpu::ComputePassEncoder& /*pass*/, std::uint32_t /*repetitions*/) final {}
  Expected<gpu::RawTiming> time(gpu::Context& gpu, std::uint32_t repetitions) override = 0;
};

struct PrepareContext {
  gpu::Context& gpu;
  const SuiteOptions& options;
};

struct BenchmarkDefinition {
  std::string id;           // public name, e.g. "read-linear"; never renamed
  std::string label;        // short human name
  std::string description;  // what it measures and how it counts
  std::string category;     // "bandwidth", "compute", "technique", "latency", or the user's own
  Metric metric;
  std::string source;       // the WGSL that is timed (its hash goes into every result)
  Statistic statistic = Statistic::Best;
  std::string statistic_reason;  // why that statistic (stated in every table)
  std::vector<std::string> requires_features;  // informational: WebGPU / WGSL feature names
  std::string family;       // technique family ("workgroup", ...), empty for raw probes
  bool in_default_suite = true;
  // Builds the workload; ErrorKind::Skipped (with the missing feature named) when unsupported.
  std::function<Expected<std::unique_ptr<Workload>>(PrepareContext&)> prepare;
  // The `webgpu-bench sweep --param` values whose SuiteOptions field `prepare` reads: "size"
  // (bandwidth_bytes / working_set_bytes), "threads" (compute_threads). A sweep of any other
  // parameter is refused instead of repeating one measurement. Set it to what your prepare reads.
  std::vector<std::string> sweep_parameters = {"size", "threads"};
};

// ---- prepareKernelBenchmark: the common shape of a kernel benchmark --------------------------

// One pipeline dispatched once per repetition, with the work knob written into a uniform.
struct KernelSpec {
  wgpu::ComputePipeline pipeline;
  // Bind group for repetition r is bind_groups[r % size()] (alternation between buffers).
  std::vector<wgpu::BindGroup> bind_groups;
  std::array<std::uint32_t, 3> workgroups{1, 1, 1};
  KnobSpec knob;
  wgpu::Buffer knob_uniform;        // optional: receives the knob as a u32 at knob_offset
  std::uint64_t knob_offset = 0;
  std::function<WorkModel(std::uint64_t knob)> work;
  std::function<Expected<std::string>(gpu::Context&, std::uint64_t knob)> validate;
  nlohmann::json parameters = nlohmann::json::object();
  std::string source;  // Workload::source(): set where the pipeline is not the definition's source
};

std::unique_ptr<Workload> make_kernel_workload(gpu::Context& gpu, KernelSpec spec);

// Builds a bind group from buffers bound at 0..n-1 of group 0 of `pipeline`.
wgpu::BindGroup bind_buffers(gpu::Context& gpu, const wgpu::ComputePipeline& pipeline,
                             std::initializer_list<wgpu::Buffer> buffers);

}  // namespace wgb
