// The CUDA reference kernels: the same access patterns and arithmetic as the suite's WGSL kernels
// (docs/cuda-reference.md has the mapping), plus the setup and verification kernels they need.
// Nothing here is timed except the probe kernels; setup and verification run outside the events.
#pragma once

#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "common.cuh"

namespace wgbref {

inline constexpr int kBlock = 256;  // threads per block everywhere (the suite's workgroup size)

// ---------------------------------------------------------------------------------------------
// Setup and verification (not timed)

__global__ void fill_hashed_kernel(std::uint32_t* buf, std::uint64_t words, std::uint32_t seed) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < words;
       i += stride) {
    buf[i] = filled_word(i, seed);
  }
}

// Counts words that differ from the expected pattern (hashed fill or write pattern) and records the
// first differing index, so a validator can check a whole 1 GiB buffer without copying it back.
__global__ void verify_kernel(const std::uint32_t* buf, std::uint64_t words, std::uint32_t seed,
                              WriteData pattern, unsigned long long* mismatches, unsigned long long* first) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  unsigned long long bad = 0;
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < words;
       i += stride) {
    const std::uint32_t want = expected_word(pattern, i, seed);
    if (buf[i] != want) {
      ++bad;
      atomicMin(first, static_cast<unsigned long long>(i));
    }
  }
  if (bad) atomicAdd(mismatches, bad);
}

// Scatters a host-built Sattolo cycle into the chase buffer: slot s (64 bytes = 16 words) holds the
// word index of the next slot in its first word; the other words are hashed filler (never zero).
__global__ void expand_chase_kernel(std::uint32_t* buf, const std::uint32_t* next_slot, std::uint32_t slots,
                                    std::uint32_t seed) {
  const std::uint64_t words = static_cast<std::uint64_t>(slots) * 16;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < words;
       i += stride) {
    buf[i] = (i & 15) == 0 ? next_slot[i >> 4] * 16U : filled_word(i, seed);
  }
}

// Keeps the GPU busy for `cycles` SM cycles. Enqueued before each timing's start event, so the
// host's cudaEventRecord + launch of the timed kernel overlap it: the start event is then reached
// with the timed kernel already queued, and the host's launch latency is not in the measurement.
__global__ void spin_kernel(long long cycles) {
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}

// The API-cost probes' minimal kernel (the twin of kernels/api/dispatch_minimal.wgsl): one thread
// adds 1 to a counter, so the count after timing proves every launch ran.
__global__ void count_kernel(unsigned int* counter) { atomicAdd(counter, 1U); }

// ---------------------------------------------------------------------------------------------
// Bandwidth (memory suite "Read"/"Write"/"Copy", read-linear/write-linear): grid-stride over vec4
// of u32, four independent 16-byte accesses per invocation per step, neighbouring threads on
// neighbouring addresses. With threads = count / 4 each thread runs exactly one step, as in WGSL.

__device__ __forceinline__ uint4 xor4(uint4 a, uint4 b) {
  return make_uint4(a.x ^ b.x, a.y ^ b.y, a.z ^ b.z, a.w ^ b.w);
}

// XOR-fold of four independent loads; the sentinel compare keeps every load (a match is practically
// impossible, but the compiler cannot prove it). The validator sets the sentinels to one thread's
// true fold and checks that thread wrote it.
__global__ void __launch_bounds__(kBlock)
    read_kernel(const uint4* src, uint4* sink, std::uint32_t count, std::uint32_t threads, std::uint32_t magic0,
                std::uint32_t magic1) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t T = threads;
  uint4 acc = make_uint4(0, 0, 0, 0);
  std::uint32_t i = t;
  while (i + 3U * T < count) {
    const uint4 a = src[i];
    const uint4 b = src[i + T];
    const uint4 c = src[i + 2U * T];
    const uint4 d = src[i + 3U * T];
    acc = xor4(acc, xor4(xor4(a, b), xor4(c, d)));
    i += 4U * T;
  }
  while (i < count) {  // tail, for sizes that are not a multiple of 4 * threads
    acc = xor4(acc, src[i]);
    i += T;
  }
  if (acc.x == magic0 && acc.y == magic1) sink[t & 255U] = acc;
}

__device__ __forceinline__ uint4 written_vec4(std::uint32_t i, std::uint32_t seed) {
  const std::uint32_t w = i * 4U;  // i * 4 + c == (i * 4) ^ c, so each word costs one XOR
  return make_uint4(w ^ seed, w ^ (seed ^ 1U), w ^ (seed ^ 2U), w ^ (seed ^ 3U));
}

// Element i of a write probe's data (WriteData): CUDA's pattern above, the WGSL kernel's, or hashed.
template <WriteData D>
__device__ __forceinline__ uint4 write_value(std::uint32_t i, std::uint32_t seed) {
  if constexpr (D == WriteData::Index) {
    return written_vec4(i, seed);
  } else if constexpr (D == WriteData::Wgsl) {
    return make_uint4(i, i ^ seed, ~i, i + seed);
  } else {
    const std::uint64_t w = static_cast<std::uint64_t>(i) * 4U;
    return make_uint4(filled_word(w, seed), filled_word(w + 1, seed), filled_word(w + 2, seed),
                      filled_word(w + 3, seed));
  }
}

// Store flavours of the write probe. Weak: a plain st.global (what CUDA C++ emits). RelaxedGpu:
// st.relaxed.gpu, a "strong" store at GPU scope, the PTX form closest to a SPIR-V store marked
// NonPrivatePointer under the Vulkan memory model, which is how Dawn's SPIR-V writes every
// read_write storage buffer (results/h200-2026-11-30.md, write gap).
struct WeakStore {
  __device__ __forceinline__ void operator()(uint4* p, uint4 v) const { *p = v; }
};
struct RelaxedGpuStore {
  __device__ __forceinline__ void operator()(uint4* p, uint4 v) const {
    asm volatile("st.relaxed.gpu.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z),
                 "r"(v.w)
                 : "memory");
  }
};
// The element as two 8-byte stores / four 4-byte stores (forced with PTX, so the compiler cannot
// merge them back into one 16-byte store): the write-linear-v2/-u32 experiments ask whether the
// suite's write rate is that of narrower stores than its vec4<u32> ones.
struct TwoV2Store {
  __device__ __forceinline__ void operator()(uint4* p, uint4 v) const {
    asm volatile("st.global.v2.u32 [%0], {%1, %2};" ::"l"(p), "r"(v.x), "r"(v.y) : "memory");
    asm volatile("st.global.v2.u32 [%0], {%1, %2};" ::"l"(reinterpret_cast<char*>(p) + 8), "r"(v.z), "r"(v.w)
                 : "memory");
  }
};
struct FourU32Store {
  __device__ __forceinline__ void operator()(uint4* p, uint4 v) const {
    auto* q = reinterpret_cast<char*>(p);
    asm volatile("st.global.u32 [%0], %1;" ::"l"(q), "r"(v.x) : "memory");
    asm volatile("st.global.u32 [%0], %1;" ::"l"(q + 4), "r"(v.y) : "memory");
    asm volatile("st.global.u32 [%0], %1;" ::"l"(q + 8), "r"(v.z) : "memory");
    asm volatile("st.global.u32 [%0], %1;" ::"l"(q + 12), "r"(v.w) : "memory");
  }
};

// Four independent 16-byte stores per step; the data varies per element (written_word).
template <class Store, WriteData D = WriteData::Index>
__device__ __forceinline__ void write_body(uint4* dst, std::uint32_t count, std::uint32_t threads, std::uint32_t seed,
                                           Store store) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t T = threads;
  std::uint32_t i = t;
  while (i + 3U * T < count) {
    store(dst + i, write_value<D>(i, seed));
    store(dst + i + T, write_value<D>(i + T, seed));
    store(dst + i + 2U * T, write_value<D>(i + 2U * T, seed));
    store(dst + i + 3U * T, write_value<D>(i + 3U * T, seed));
    i += 4U * T;
  }
  while (i < count) {
    store(dst + i, write_value<D>(i, seed));
    i += T;
  }
}

__global__ void __launch_bounds__(kBlock)
    write_kernel(uint4* dst, std::uint32_t count, std::uint32_t threads, std::uint32_t seed) {
  write_body(dst, count, threads, seed, WeakStore{});
}

__global__ void __launch_bounds__(kBlock)
    write_relaxed_kernel(uint4* dst, std::uint32_t count, std::uint32_t threads, std::uint32_t seed) {
  write_body(dst, count, threads, seed, RelaxedGpuStore{});
}

template <class Store>
__global__ void __launch_bounds__(kBlock)
    write_split_kernel(uint4* dst, std::uint32_t count, std::uint32_t threads, std::uint32_t seed) {
  write_body(dst, count, threads, seed, Store{});
}

template <WriteData D>
__global__ void __launch_bounds__(kBlock)
    write_data_kernel(uint4* dst, std::uint32_t count, std::uint32_t threads, std::uint32_t seed) {
  write_body<WeakStore, D>(dst, count, threads, seed, WeakStore{});
}

// Four independent 16-byte loads, then their four stores, per step.
__global__ void __launch_bounds__(kBlock)
    copy_kernel(const uint4* src, uint4* dst, std::uint32_t count, std::uint32_t threads) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t T = threads;
  std::uint32_t i = t;
  while (i + 3U * T < count) {
    const uint4 a = src[i];
    const uint4 b = src[i + T];
    const uint4 c = src[i + 2U * T];
    const uint4 d = src[i + 3U * T];
    dst[i] = a;
    dst[i + T] = b;
    dst[i + 2U * T] = c;
    dst[i + 3U * T] = d;
    i += 4U * T;
  }
  while (i < count) {
    dst[i] = src[i];
    i += T;
  }
}

// ---------------------------------------------------------------------------------------------
// The SM a thread runs on (%smid: the physical SM, 0 .. SM count - 1 on an H100/H200).
__device__ __forceinline__ std::uint32_t sm_id() {
  std::uint32_t id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

// Dependent loads (memory suite "Latency", read-dependent-chain): one thread follows the cycle;
// each address is the previous load's value. The end position is stored, so the next launch
// continues the walk instead of replaying a warm path.
__global__ void chase_kernel(const std::uint32_t* chain, std::uint32_t start, std::uint32_t hops,
                             std::uint32_t* state) {
  std::uint32_t idx = start;
  for (std::uint32_t n = 0; n < hops; ++n) idx = chain[idx];
  state[0] = idx;
  state[1] = sm_id() + 1U;  // where <<<1, 1>>> ran (the per-SM probes compare SMs)
}

// The walk of chase_kernel from one chosen SM: launched with several blocks of one thread per SM,
// the first block that finds itself on `target_sm` (claim[0] from 0 to 1) walks, every other block
// returns at once. state[1] = 1 + the SM that walked (0 when no block landed on the target), so the
// host knows whether the launch measured that SM. The host resets claim[0] before each launch.
__global__ void chase_on_sm_kernel(const std::uint32_t* chain, std::uint32_t start, std::uint32_t hops,
                                   std::uint32_t target_sm, std::uint32_t* claim, std::uint32_t* state) {
  if (sm_id() != target_sm || atomicCAS(claim, 0U, 1U) != 0U) return;
  std::uint32_t idx = start;
  for (std::uint32_t n = 0; n < hops; ++n) idx = chain[idx];
  state[0] = idx;
  state[1] = target_sm + 1U;
}

// The same walk through ld.relaxed.gpu (a strong load at GPU scope, the PTX form closest to a SPIR-V
// load marked NonPrivatePointer: what a read_write storage binding gets from Dawn).
__global__ void chase_relaxed_kernel(const std::uint32_t* chain, std::uint32_t start, std::uint32_t hops,
                                     std::uint32_t* state) {
  std::uint32_t idx = start;
  for (std::uint32_t n = 0; n < hops; ++n) {
    std::uint32_t next;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(next) : "l"(chain + idx) : "memory");
    idx = next;
  }
  state[0] = idx;
}

// ---------------------------------------------------------------------------------------------
// ALU probes. One store per thread after the loop keeps every chain alive; the host recomputes
// chosen threads' stores exactly. The iteration count is a runtime argument, calibrated per GPU.

// f32: x = fma(x, a, b) on kChains independent chains (FFMA).
template <int kChains, int kUnroll>
__global__ void __launch_bounds__(kBlock)
    fma_f32_kernel(const float* coef, float* out, std::uint32_t iters) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const float a = coef[2 * (t % kCoefSlots)];
  const float b = coef[2 * (t % kCoefSlots) + 1];
  float x[kChains];
#pragma unroll
  for (int k = 0; k < kChains; ++k) x[k] = chain_start_f(t, k);
#pragma unroll 1
  for (std::uint32_t it = 0; it < iters; ++it) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
#pragma unroll
      for (int k = 0; k < kChains; ++k) x[k] = fmaf(x[k], a, b);
    }
  }
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < kChains; ++k) s += x[k];
  out[t] = s;
}

// i32: x = x * a + b, wrapping (IMAD).
template <int kChains, int kUnroll>
__global__ void __launch_bounds__(kBlock)
    mad_i32_kernel(const std::uint32_t* coef, std::uint32_t* out, std::uint32_t iters) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t a = coef[2 * (t % kCoefSlots)];
  const std::uint32_t b = coef[2 * (t % kCoefSlots) + 1];
  std::uint32_t x[kChains];
#pragma unroll
  for (int k = 0; k < kChains; ++k) x[k] = chain_start_u(t, k);
#pragma unroll 1
  for (std::uint32_t it = 0; it < iters; ++it) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
#pragma unroll
      for (int k = 0; k < kChains; ++k) x[k] = x[k] * a + b;
    }
  }
  std::uint32_t s = 0;
#pragma unroll
  for (int k = 0; k < kChains; ++k) s += x[k];
  out[t] = s;
}

// i32 division: x = a / x + b, the divisor loop-carried so no reciprocal of an invariant can be
// hoisted (WebGPU's i32-div). a, b > 0 and x starts positive, so x stays in [b, a / b + b]: never
// zero, never negative. sm_90 has no integer divide instruction; nvcc emits its reciprocal-based
// sequence per division, as the Vulkan driver does for OpSDiv. Counted 2 ops per divide-add.
template <int kChains, int kUnroll>
__global__ void __launch_bounds__(kBlock)
    div_i32_kernel(const std::uint32_t* coef, std::uint32_t* out, std::uint32_t iters) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const int a = static_cast<int>(coef[2 * (t % kCoefSlots)]);
  const int b = static_cast<int>(coef[2 * (t % kCoefSlots) + 1]);
  int x[kChains];
#pragma unroll
  for (int k = 0; k < kChains; ++k) x[k] = static_cast<int>(chain_start_u(t, k) >> 17) + 1;
#pragma unroll 1
  for (std::uint32_t it = 0; it < iters; ++it) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
#pragma unroll
      for (int k = 0; k < kChains; ++k) x[k] = a / x[k] + b;
    }
  }
  std::uint32_t s = 0;
#pragma unroll
  for (int k = 0; k < kChains; ++k) s += static_cast<std::uint32_t>(x[k]);
  out[t] = s;
}

// u32 byte unpack / add / repack with shifts and masks, then a whole-word add of c whose carries
// cross the bytes, so the bytes cannot be kept unpacked between steps (WebGPU's u32-packunpack,
// the same expression). Counted 2 ops per step (an unpack and a pack).
__device__ __forceinline__ std::uint32_t repack_add(std::uint32_t v, std::uint32_t e, std::uint32_t c) {
  const std::uint32_t b0 = (v & 0xFFU) + e, b1 = ((v >> 8) & 0xFFU) + e, b2 = ((v >> 16) & 0xFFU) + e,
                      b3 = (v >> 24) + e;
  return ((b0 & 0xFFU) | ((b1 & 0xFFU) << 8) | ((b2 & 0xFFU) << 16) | (b3 << 24)) + c;
}

template <int kChains, int kUnroll>
__global__ void __launch_bounds__(kBlock)
    packunpack_kernel(const std::uint32_t* coef, std::uint32_t* out, std::uint32_t iters) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t e = coef[2 * (t % kCoefSlots)];
  const std::uint32_t c = coef[2 * (t % kCoefSlots) + 1];
  std::uint32_t x[kChains];
#pragma unroll
  for (int k = 0; k < kChains; ++k) x[k] = chain_start_u(t, k);
#pragma unroll 1
  for (std::uint32_t it = 0; it < iters; ++it) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
#pragma unroll
      for (int k = 0; k < kChains; ++k) x[k] = repack_add(x[k], e, c);
    }
  }
  std::uint32_t s = 0;
#pragma unroll
  for (int k = 0; k < kChains; ++k) s += x[k];
  out[t] = s;
}

// f32 select: x = x > 1 ? x - a : x + b, a bounded walk whose direction is a runtime compare
// (WebGPU's f32-select). a = 1 and b on a 1/64 grid, starts on a 1/64 grid: exact. 1 op per step.
template <int kChains, int kUnroll>
__global__ void __launch_bounds__(kBlock)
    select_f32_kernel(const float* coef, float* out, std::uint32_t iters) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const float a = coef[2 * (t % kCoefSlots)];
  const float b = coef[2 * (t % kCoefSlots) + 1];
  float x[kChains];
#pragma unroll
  for (int k = 0; k < kChains; ++k) x[k] = chain_start_f(t, k);
#pragma unroll 1
  for (std::uint32_t it = 0; it < iters; ++it) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
#pragma unroll
      for (int k = 0; k < kChains; ++k) x[k] = x[k] > 1.0f ? x[k] - a : x[k] + b;
    }
  }
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < kChains; ++k) s += x[k];
  out[t] = s;
}

// f32 clamp to [0, 1] of a multiply-add (WebGPU's f32-clamp and f32-minmax). kMinMax false: the
// clamp as native code writes it, __saturatef(fma(x, a, b)), 1 op per step; true: WGSL's
// max(min(v, 1), 0) in that order, 2 ops per step (a min and a max). nvcc 13.0 turns both into one
// FFMA.SAT per step (SASS of an H200 run, results/probes-2026-12-01.md): native code pays one
// instruction for the min-and-max form too.
template <int kChains, int kUnroll, bool kMinMax>
__global__ void __launch_bounds__(kBlock)
    clamp_f32_kernel(const float* coef, float* out, std::uint32_t iters) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const float a = coef[2 * (t % kCoefSlots)];
  const float b = coef[2 * (t % kCoefSlots) + 1];
  float x[kChains];
#pragma unroll
  for (int k = 0; k < kChains; ++k) x[k] = chain_start_f(t, k);
#pragma unroll 1
  for (std::uint32_t it = 0; it < iters; ++it) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
#pragma unroll
      for (int k = 0; k < kChains; ++k) {
        if constexpr (kMinMax) {
          x[k] = fmaxf(fminf(fmaf(x[k], a, b), 1.0f), 0.0f);
        } else {
          x[k] = __saturatef(fmaf(x[k], a, b));
        }
      }
    }
  }
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < kChains; ++k) s += x[k];
  out[t] = s;
}

// Texture interpolation (WebGPU's texture-interp-builtin and -manual): each thread scans a one-row
// float4 texture of `width` texels (a power of two) from a hashed start, a quarter texel per sample,
// 256 samples per loop iteration into four float4 accumulators, and stores the sum of their
// components, as kernels/texture/*.wgsl do. Sample q sits at u = (q + 2) / (4 width): q / 4 texels
// past the first texel's centre, a filter weight of 0, 1/4, 1/2 or 3/4 (exact in the texture
// unit's 8-bit weight fraction), so every sample, and every sum, is exact and equal in both forms.
inline constexpr std::uint32_t kTexScanSeed = 0x5CA11EDU;  // the WebGPU probes' scan seed
inline constexpr int kTexSamplesPerIter = 256;

__device__ __forceinline__ float tex_coordinate(std::uint32_t q, std::uint32_t mask, float inv) {
  return static_cast<float>(q & mask) * inv + 2.0f * inv;
}

// The texture unit interpolates: tex2D through a linear filter, wrap addressing, normalized coordinates.
__global__ void __launch_bounds__(kBlock)
    tex_interp_kernel(cudaTextureObject_t tex, float* out, std::uint32_t iters, std::uint32_t width, float inv) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t mask = 4 * width - 1;
  const std::uint32_t start = hash32(t ^ kTexScanSeed);
  float4 s[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) s[k] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll 1
  for (std::uint32_t it = 0; it < iters; ++it) {
    const std::uint32_t base = start + it * kTexSamplesPerIter;
#pragma unroll
    for (int j = 0; j < kTexSamplesPerIter / 4; ++j) {
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const float4 v = tex2D<float4>(tex, tex_coordinate(base + 4 * j + k, mask, inv), 0.5f);
        s[k].x += v.x; s[k].y += v.y; s[k].z += v.z; s[k].w += v.w;
      }
    }
  }
  const float4 v = make_float4(s[0].x + s[1].x + s[2].x + s[3].x, s[0].y + s[1].y + s[2].y + s[3].y,
                               s[0].z + s[1].z + s[2].z + s[3].z, s[0].w + s[1].w + s[2].w + s[3].w);
  out[t] = v.x + v.y + v.z + v.w;
}

// The kernel interpolates: the two neighbouring texels fetched unfiltered and blended
// (a * (1 - f) + b * f), texel space u * width - 0.5 wrapped to the row like the wrap address mode.
// Fetch::Texture reads them through a point-sampled texture object (unnormalized coordinates, the
// texel's centre), the counterpart of WGSL's textureLoad; Fetch::Global from a plain buffer with
// __ldg (an experiment: what native code gets by keeping the data out of a texture).
enum class Fetch { Texture, Global };

template <Fetch kFetch>
__global__ void __launch_bounds__(kBlock)
    manual_interp_kernel(cudaTextureObject_t tex, const float4* texels, float* out, std::uint32_t iters,
                         std::uint32_t width, float inv) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t mask = 4 * width - 1;
  const std::uint32_t start = hash32(t ^ kTexScanSeed);
  float4 s[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) s[k] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll 1
  for (std::uint32_t it = 0; it < iters; ++it) {
    const std::uint32_t base = start + it * kTexSamplesPerIter;
#pragma unroll
    for (int j = 0; j < kTexSamplesPerIter / 4; ++j) {
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const float pos = tex_coordinate(base + 4 * j + k, mask, inv) * static_cast<float>(width) - 0.5f;
        const float fl = floorf(pos);
        const float f = pos - fl;
        const std::uint32_t i0 = static_cast<std::uint32_t>(static_cast<int>(fl) + static_cast<int>(width)) & (width - 1);
        const std::uint32_t i1 = (i0 + 1) & (width - 1);
        float4 a, b;
        if constexpr (kFetch == Fetch::Texture) {
          a = tex2D<float4>(tex, static_cast<float>(i0) + 0.5f, 0.5f);
          b = tex2D<float4>(tex, static_cast<float>(i1) + 0.5f, 0.5f);
        } else {
          a = __ldg(&texels[i0]);
          b = __ldg(&texels[i1]);
        }
        s[k].x += a.x * (1.0f - f) + b.x * f;
        s[k].y += a.y * (1.0f - f) + b.y * f;
        s[k].z += a.z * (1.0f - f) + b.z * f;
        s[k].w += a.w * (1.0f - f) + b.w * f;
      }
    }
  }
  const float4 v = make_float4(s[0].x + s[1].x + s[2].x + s[3].x, s[0].y + s[1].y + s[2].y + s[3].y,
                               s[0].z + s[1].z + s[2].z + s[3].z, s[0].w + s[1].w + s[2].w + s[3].w);
  out[t] = v.x + v.y + v.z + v.w;
}

// Packed int8 dot product: x = dp4a(x, m, x), signed bytes, 32-bit wrapping accumulate (IDP.4A):
// 4 multiplies + 4 adds per instruction. The chain feeds its own bytes back in, so no two steps
// are alike and nothing folds.
template <int kChains, int kUnroll>
__global__ void __launch_bounds__(kBlock)
    dp4a_kernel(const std::uint32_t* coef, std::uint32_t* out, std::uint32_t iters) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const int m = static_cast<int>(coef[t % kCoefSlots]);
  int x[kChains];
#pragma unroll
  for (int k = 0; k < kChains; ++k) x[k] = static_cast<int>(chain_start_u(t, k));
#pragma unroll 1
  for (std::uint32_t it = 0; it < iters; ++it) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
#pragma unroll
      for (int k = 0; k < kChains; ++k) x[k] = __dp4a(x[k], m, x[k]);
    }
  }
  std::uint32_t s = 0;
#pragma unroll
  for (int k = 0; k < kChains; ++k) s += static_cast<std::uint32_t>(x[k]);
  out[t] = s;
}

// f16: x = fma(x, a, b) on half2 (HFMA2), with x, a and b three DISTINCT registers: a HFMA2 that
// reads one register twice (e.g. x * x + x or a == b) issues at half rate on NVIDIA.
template <int kChains, int kUnroll>
__global__ void __launch_bounds__(kBlock)
    hfma2_kernel(const __half2* coef, float* out, std::uint32_t iters) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const __half2 a = coef[2 * (t % kCoefSlots)];
  const __half2 b = coef[2 * (t % kCoefSlots) + 1];
  __half2 x[kChains];
#pragma unroll
  for (int k = 0; k < kChains; ++k) {
    x[k] = __floats2half2_rn(chain_start_f(t, 2 * k), chain_start_f(t, 2 * k + 1));
  }
#pragma unroll 1
  for (std::uint32_t it = 0; it < iters; ++it) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
#pragma unroll
      for (int k = 0; k < kChains; ++k) x[k] = __hfma2(x[k], a, b);
    }
  }
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < kChains; ++k) {
    s += __low2float(x[k]);
    s += __high2float(x[k]);
  }
  out[t] = s;
}

// ---------------------------------------------------------------------------------------------
// Tensor cores (subgroup-matrix probes): each warp loads its A and B fragments once (host-packed
// per lane) and accumulates into kAcc independent accumulators, D = A * B + D, iters * kUnroll
// times each. Every accumulator is stored, so the host can check any warp's tile exactly (integer
// data keeps f32 accumulation exact while iters * kUnroll * 16 < 2^24).

__device__ __forceinline__ void mma_f16_f32_16816(float (&d)[4], const std::uint32_t (&a)[4],
                                                  const std::uint32_t (&b)[2]) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__device__ __forceinline__ void mma_s8_s32_16832(int (&d)[4], const std::uint32_t (&a)[4],
                                                 const std::uint32_t (&b)[2]) {
  asm("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// The body of both MMA kernels; Acc picks the instruction (float: f16 -> f32 m16n8k16, int: s8 ->
// s32 m16n8k32).
template <class Acc, int kAcc, int kUnroll>
__device__ __forceinline__ void mma_body(const std::uint32_t* a_frag, const std::uint32_t* b_frag, Acc* out,
                                         std::uint32_t iters) {
  const std::uint32_t lane = threadIdx.x & 31U;
  const std::uint32_t warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const std::uint32_t tile = warp % kTiles;
  std::uint32_t a[4], b[2];
#pragma unroll
  for (int r = 0; r < 4; ++r) a[r] = a_frag[(tile * 32U + lane) * 4U + r];
#pragma unroll
  for (int r = 0; r < 2; ++r) b[r] = b_frag[(tile * 32U + lane) * 2U + r];
  Acc d[kAcc][4];
#pragma unroll
  for (int j = 0; j < kAcc; ++j) {
#pragma unroll
    for (int e = 0; e < 4; ++e) d[j][e] = static_cast<Acc>(acc_start(j, e));
  }
#pragma unroll 1
  for (std::uint32_t it = 0; it < iters; ++it) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
#pragma unroll
      for (int j = 0; j < kAcc; ++j) {
        if constexpr (std::is_same_v<Acc, float>) {
          mma_f16_f32_16816(d[j], a, b);
        } else {
          mma_s8_s32_16832(d[j], a, b);
        }
      }
    }
  }
#pragma unroll
  for (int j = 0; j < kAcc; ++j) {
#pragma unroll
    for (int e = 0; e < 4; ++e) out[((static_cast<std::uint64_t>(warp) * kAcc + j) * 32U + lane) * 4U + e] = d[j][e];
  }
}

template <int kAcc, int kUnroll>
__global__ void __launch_bounds__(kBlock)
    mma_f16_kernel(const std::uint32_t* a_frag, const std::uint32_t* b_frag, float* out, std::uint32_t iters) {
  mma_body<float, kAcc, kUnroll>(a_frag, b_frag, out, iters);
}

template <int kAcc, int kUnroll>
__global__ void __launch_bounds__(kBlock)
    mma_i8_kernel(const std::uint32_t* a_frag, const std::uint32_t* b_frag, int* out, std::uint32_t iters) {
  mma_body<int, kAcc, kUnroll>(a_frag, b_frag, out, iters);
}

}  // namespace wgbref
