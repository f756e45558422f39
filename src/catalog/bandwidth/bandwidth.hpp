// Host twins of the bandwidth kernels (kernels/bandwidth/*.wgsl): the address streams, the
// permutation and the stored values, and the checks the validators apply to read-back data. They
// live in a header so tests can run a check on corrupted data and see it fail.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "webgpu_bench/expected.hpp"

namespace wgb::catalog::bandwidth {

// Nominal window of the gather/scatter probes, in bytes (16 KiB, 4 MiB, 64 MiB).
inline constexpr std::uint64_t kWindow16k = 16ull << 10;
inline constexpr std::uint64_t kWindow4m = 4ull << 20;
inline constexpr std::uint64_t kWindow64m = 64ull << 20;
// vec4 elements past the scatter window that must stay untouched (256 bytes).
inline constexpr std::uint32_t kSentinelElements = 16;

// The window actually used: the nominal window clamped to the buffer, rounded down to a power of
// two (the kernels mask addresses), in vec4 elements; at least 1.
std::uint32_t window_elements(std::uint64_t nominal_bytes, std::uint64_t buffer_bytes);
std::uint32_t log2_exact(std::uint32_t power_of_two);

// The row's `shape` text for a buffer of `bytes` (a multiple of 16): "4096x4096 4-byte words
// (64 MiB)" when the word count is a square, else "<n> 4-byte words (<size>)"; the default size
// (SuiteOptions::bandwidth_bytes, --bandwidth-mib) says so.
std::string buffer_shape(std::uint64_t bytes);

// What one dispatch of write-scatter does: the window (elements), how many rounds (whole windows
// per bandwidth size, at least 1), and the bytes written (the work model).
struct ScatterPlan {
  std::uint32_t n;
  std::uint32_t rounds;
  std::uint64_t bytes_written;
};
ScatterPlan scatter_plan(std::uint64_t bandwidth_bytes, std::uint64_t nominal_window);

// The shift that turns a 32-bit LCG state into an element index of a window of 2^bits elements.
std::uint32_t gather_shift(std::uint32_t bits);

// read-linear and write-linear hand their work out in blocks, in order, through a ticket counter
// (kernels/bandwidth/read_linear.wgsl, docs/method.md#streaming). A block is `steps` steps of four
// vec4 per invocation of a 256-invocation workgroup (1024 elements per step); a pass is one buffer's
// blocks; a dispatch is `passes` passes alternating between the two buffers.
struct LinearPlan {
  std::uint32_t count = 0;   // vec4 elements per buffer
  std::uint32_t steps = 1;   // steps per block
  std::uint32_t run = 256;   // invocations whose accesses of one step are contiguous (the kernel's column width)
  std::uint32_t blocks = 0;  // blocks per buffer (the last one may be partial)
  std::uint64_t block_bytes() const { return std::uint64_t{steps} * 1024 * 16; }
};
// Steps per invocation of the gather and scatter grids: one on a GPU. On a CPU adapter, whose
// workgroups run one per thread and whose workgroup barrier switches between every invocation, 64,
// and read-linear's and write-linear's block is 64 steps (1 MiB) so the barrier per ticket costs
// little.
inline constexpr std::uint32_t kGpuBlockSteps = 1, kCpuBlockSteps = 64;
// read-linear's and write-linear's block on a GPU: two steps (32 KiB per ticket). Each block costs a
// ticket and a workgroup barrier; on an H200 at 64 MiB, blocks of one step read 4.13 TB/s, two
// 4.52 and four 4.63 (CUDA at 1 GiB: 4.55). Four steps put about 66 MiB in flight, so a byte's reuse
// distance (two buffers less that) comes near the 60 MiB L2, and write-linear then wrote 5 % faster
// at 64 MiB than at 1 GiB; with two, both stay within 2 % of 1 GiB
// (results/first-rows-h200-2026-12-04.md).
inline constexpr std::uint32_t kGpuLinearBlockSteps = 2;
// A GPU's workgroup issues a step for all 256 invocations at once: one column of 1024 consecutive
// elements keeps neighbouring invocations on neighbouring addresses. A CPU driver runs a workgroup
// with a barrier eight invocations (one vector) at a time, one group after another: columns 8 wide
// let each group stream its own contiguous stretch instead of 128 bytes every 4 KiB.
inline constexpr std::uint32_t kGpuRun = 256, kCpuRun = 8;
LinearPlan linear_plan(std::uint64_t buffer_bytes, std::uint32_t steps, std::uint32_t run = kGpuRun);
// The largest pass count whose tickets (passes x blocks, plus one per workgroup) fit in 32 bits,
// capped at 2^20.
std::uint32_t max_passes(const LinearPlan& plan, std::uint32_t workgroups);
// Invocation `lane`'s XOR fold of block `block` of a buffer filled with `fill_seed`.
std::array<std::uint32_t, 4> block_fold(std::uint32_t block, std::uint32_t lane, const LinearPlan& plan,
                                        std::uint32_t fill_seed);
// The ticket counter after one dispatch of `passes` passes by `workgroups` workgroups must read
// passes x blocks + workgroups: every block handed out once, every workgroup stopped once.
Expected<std::string> check_tickets(std::uint32_t counter, const LinearPlan& plan, std::uint32_t passes,
                                    std::uint32_t workgroups);

// read-gather: invocation t's XOR fold, replaying its four LCG address streams over `passes` passes.
struct GatherStream {
  std::uint32_t count, threads, seed, mask, shift, fill_seed;
  std::uint32_t passes = 1;
};
std::array<std::uint32_t, 4> gather_fold(std::uint32_t t, const GatherStream& g);

// write-linear: the value element i holds after pass 0 of a dispatch ran.
std::array<std::uint32_t, 4> linear_value(std::uint32_t i, std::uint32_t seed);
// Checks every element of a write-linear buffer (4 words per element).
Expected<std::string> check_write_linear(std::span<const std::uint32_t> words, std::uint32_t seed);

// write-scatter: the permutation of round r and the value element i of round r stores.
struct ScatterShape {
  std::uint32_t n;     // window elements (a power of two)
  std::uint32_t seed;
  std::uint32_t s1, s2;  // xorshift amounts, from scatter_shifts()
};
ScatterShape scatter_shape(std::uint32_t n, std::uint32_t seed);
std::uint32_t scatter_perm(std::uint32_t i, std::uint32_t r, const ScatterShape& s);
std::array<std::uint32_t, 4> scatter_value(std::uint32_t i, std::uint32_t r, std::uint32_t g,
                                           std::uint32_t seed);
// Checks a buffer after ONE round of write-scatter: words holds the window and the sentinel
// elements after it (4 words per element). Every destination must hold the value of its unique
// source (so each was written exactly once: a destination written twice would leave another one
// unwritten, still holding the hashed fill), and the sentinel must still hold the fill of seed
// `fill_seed` at its element positions.
Expected<std::string> check_scatter(std::span<const std::uint32_t> words, const ScatterShape& s,
                                    std::uint32_t fill_seed);

}  // namespace wgb::catalog::bandwidth
