// What the bandwidth probes' prepare steps share (bandwidth.cpp: gather and scatter; linear.cpp:
// read-linear and write-linear): the size check, the pair of hashed buffers, bind groups, the work
// knob (whole passes per dispatch) and the launch cost of the prepared grid, which the launch-bound
// rule compares with the measured dispatch (docs/method.md#streaming).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "webgpu_bench/definition.hpp"

namespace wgb::catalog::bandwidth {

inline constexpr std::uint32_t kWorkgroup = 256;
// Fill seeds of the two alternated buffers, and the seed of the address/value streams.
inline constexpr std::uint32_t kSeedA = 0xA11CE5EDu, kSeedB = 0xB0B5EED5u;
inline constexpr std::uint32_t kStreamSeed = 0x5EED0F1Cu;

struct Grid {
  std::uint32_t groups, threads;
};
// Steps of four vec4 per invocation that one workgroup's share of a pass holds: one on a GPU
// (bandwidth.hpp, kGpuBlockSteps); on a CPU adapter, which runs each workgroup on one thread and
// pays a fixed cost per workgroup (measured on lavapipe: an empty dispatch of 4096 workgroups took
// half as long as a gather pass over 64 MiB), kCpuBlockSteps.
std::uint32_t block_steps(const gpu::Context& gpu);
// Steps per block of read-linear and write-linear on this adapter: kGpuLinearBlockSteps on a GPU,
// kCpuBlockSteps on a CPU adapter (bandwidth.hpp says why).
std::uint32_t linear_block_steps(const gpu::Context& gpu);
// The streaming kernels' column width (bandwidth.hpp, kGpuRun and kCpuRun) on this adapter.
std::uint32_t block_run(const gpu::Context& gpu);

// Grid of a grid-stride kernel over `elements` vec4: by default block_steps() steps of four
// elements per invocation, as many invocations as that needs (1M at 64 MiB on a GPU, 16K on a CPU
// adapter); SuiteOptions::compute_threads, when set, asks for that many invocations instead
// (rounded up to whole workgroups; each then walks its grid-stride share). Either way capped by
// the dispatch limit.
Grid stream_grid(PrepareContext& pc, std::uint64_t elements);
// Grid of a kernel that takes its blocks from a ticket counter: by default one workgroup per block
// of a pass (on a GPU the 1M invocations of stream_grid at 64 MiB); compute_threads overrides it.
// Workgroups beyond those the device runs at once find the work taken and stop at once.
Grid block_grid(PrepareContext& pc, std::uint32_t blocks);

Status check_size(gpu::Context& gpu, std::uint64_t bytes, std::uint64_t buffer_bytes);

struct BufferPair {
  wgpu::Buffer a, b;
};
// Two storage buffers of `bytes`, filled with hashed data of seeds kSeedA and kSeedB.
Expected<BufferPair> filled_pair(gpu::Context& gpu, std::uint64_t bytes, const std::string& label);

// `pipeline` over `groups` workgroups, its repetitions alternating between the pair's buffers (bound
// at 0, `rest` after them at 1..n).
KernelSpec alternating_spec(gpu::Context& gpu, const wgpu::ComputePipeline& pipeline, const BufferPair& pair,
                            std::initializer_list<wgpu::Buffer> rest, std::uint32_t groups);

Status dispatch_once(gpu::Context& g, const wgpu::ComputePipeline& pipeline, const wgpu::BindGroup& group,
                     std::uint32_t groups);

// The read validators point a kernel's sentinels at one invocation's fold; the kernel writes its
// fold into its sink slot only on a match. clear_sink empties the sink (256 vec4) before such a
// dispatch; check_sink then compares slot `slot` with `want` ("<who> folded X, expected Y" when not).
void clear_sink(gpu::Context& g, const wgpu::Buffer& sink);
Status check_sink(gpu::Context& g, const wgpu::Buffer& sink, std::uint32_t slot, const std::array<std::uint32_t, 4>& want,
                  const std::string& who);

// The footprint parameters plausibility reads (src/suite/plausibility.cpp): the unique bytes two
// consecutive dispatches touch decide whether a DRAM ceiling applies.
void add_footprint(nlohmann::json& p, std::uint64_t footprint);

// The work knob of every bandwidth probe: whole passes over its buffer per dispatch, grown by the
// scheduler until a dispatch takes --target-dispatch-ms, written as a u32 at `offset` of `uniform`.
void set_passes_knob(KernelSpec& spec, const wgpu::Buffer& uniform, std::uint64_t offset, std::uint32_t max_passes);

// Measures what launching and draining one dispatch of `spec`'s grid costs when it has no work (the
// knob at 0 passes, every other binding as timed; the fastest of three passes of 32), and records it
// in spec.parameters as `launch_ms` with `dispatches_per_repetition` 1. Call before make_kernel_workload, which writes the
// knob's initial value back.
Status add_launch_cost(gpu::Context& gpu, KernelSpec& spec);

// A bandwidth row: the median (memory traffic), in the default suite, sweepable by size and threads.
BenchmarkDefinition bandwidth_definition(std::string id, std::string label, std::string description, Metric metric,
                                         std::string kernel,
                                         std::function<Expected<std::unique_ptr<Workload>>(PrepareContext&)> prepare);

// read-linear and write-linear (linear.cpp), first in the bandwidth family.
std::vector<BenchmarkDefinition> linear_benchmarks();

}  // namespace wgb::catalog::bandwidth
