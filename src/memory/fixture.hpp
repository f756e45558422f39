// The memory suite's fixture (docs/method.md#memory-workload), shared by its phase definitions: the
// working-set plan and its halving on out-of-memory down to the floor, the two alternating storage
// buffers A and B with their hashed fill, the latency chain (Sattolo's single cycle scattered into
// 64-byte slots), the compiled kernels, and what each buffer holds now (the host twin every
// validator compares with). One fixture per run; each phase's workload borrows it.
#pragma once

#include <webgpu/webgpu_cpp.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "memory/geometry.hpp"
#include "memory/host_model.hpp"
#include "memory/memory.hpp"

namespace wgb::memory {

inline constexpr wgpu::BufferUsage kStorage =
    wgpu::BufferUsage::Storage | wgpu::BufferUsage::CopySrc | wgpu::BufferUsage::CopyDst;
inline constexpr wgpu::BufferUsage kUniform = wgpu::BufferUsage::Uniform | wgpu::BufferUsage::CopyDst;
// Sentinels the folds are compared with: never zero, practically never equal to a fold, and
// unprovable for the compiler, so no load is removed.
inline constexpr std::uint32_t kMagic0 = 0x9e3779b9u, kMagic1 = 0x7f4a7c15u;

struct Params4 {
  std::uint32_t a = 0, b = 0, c = 0, d = 0;
};

// A memory kernel's WGSL by name ("memory/read"): the embedded one, or --kernel-dir's.
std::string kernel_source(std::string_view name);

std::string hex(const Vec4& v);

class Fixture {
 public:
  Fixture(gpu::Context& gpu, const MemoryOptions& o) : gpu_(gpu), o_(o) {}

  // Plans the working set, compiles `kernels`, allocates A, B and the sink (and, with `chain`, the
  // latency chain), halving on out of memory down to the floor, fills A and B with hashed data and
  // builds the latency cycle. `stage` names each step for the progress display.
  Status set_up(const std::vector<std::string>& kernels, bool chain, const std::function<void(std::string)>& stage);
  void release();

  gpu::Context& gpu() { return gpu_; }
  const MemoryOptions& options() const { return o_; }
  const Geometry& geometry() const { return g_; }
  const WorkingSet& working_set() const { return ws_; }

  const wgpu::ComputePipeline& pipeline(std::string_view kernel) const;
  wgpu::BindGroup bind(std::string_view kernel, std::initializer_list<wgpu::Buffer> buffers);
  // A 16-byte uniform holding `p`, allocated through the options' allocator.
  Expected<wgpu::Buffer> uniform(const Params4& p, std::string_view label);
  void write(const wgpu::Buffer& buffer, const Params4& p);

  // Copy validation needs A and B to differ: refills B with a fresh hash when they do not.
  Status make_buffers_differ();
  // One pass of `units` dispatches of `kernel`, dispatch k bound to groups[k mod 2] across the
  // phase (alternation: no cache holds the reuse distance).
  void alternate(wgpu::ComputePassEncoder& pass, std::string_view kernel, const wgpu::BindGroup (&groups)[2],
                 std::uint32_t workgroups, std::uint32_t units);

  // Sets the sentinels of `params` to invocation t's true fold, runs one dispatch, and checks that
  // the kernel stored exactly that value (every load of t happened and read what the host expects).
  Expected<std::string> probe_sink(std::string_view kernel, const wgpu::BindGroup& group, std::uint32_t workgroups,
                                   const wgpu::Buffer& params, const Params4& probe, const Params4& restore,
                                   std::uint32_t t, const Vec4& want, std::string_view what);
  // Compares kSpotWindows windows of 4 KiB of `buffer` with `c`; the number of elements checked.
  Expected<std::uint64_t> spot_check(const wgpu::Buffer& buffer, const Content& c, std::string_view name);
  static constexpr int kSpotWindows = 8;
  // spot_check of A and B against what they hold; `against` says what that is, for the row.
  Expected<std::string> spot_check_both(std::string_view against);

  wgpu::Buffer a, b, sink, chain, state;
  Content content_a, content_b;        // what A and B hold now
  std::vector<std::uint32_t> next;     // the latency cycle: next[slot] = successor slot
  std::uint64_t total_hops = 0;        // every hop the chase was asked for, timed or not
  std::uint64_t alternation = 0;       // dispatches of the current phase (selects A/B)

 private:
  Expected<wgpu::Buffer> alloc(std::uint64_t size, wgpu::BufferUsage usage, std::string_view label);
  Status allocate(std::uint64_t bytes, bool chain);
  Status build_chain();

  gpu::Context& gpu_;
  const MemoryOptions& o_;
  WorkingSet ws_;
  Geometry g_;
  std::map<std::string, wgpu::ComputePipeline, std::less<>> pipelines_;
  std::uint32_t refills_ = 0;
};

}  // namespace wgb::memory
