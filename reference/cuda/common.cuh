// Definitions shared by the CUDA reference's kernels and its host validators: the fill hash (the
// same lowbias32 as gpu::filled_word and WGSL hash32, so buffers hold the same words as the suite's),
// the write pattern, the ALU probes' shapes and start values, and the tensor-core fragment layouts.
// Everything here is __host__ __device__ so the host recomputes exactly what a kernel computed.
#pragma once

#include <cstdint>

namespace wgbref {

// Chris Wellons' lowbias32; identical to wgb::gpu::hash32 and the WGSL fill kernel.
__host__ __device__ constexpr std::uint32_t hash32(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// Word i of a buffer filled with `seed` (wgb::gpu::filled_word).
__host__ __device__ constexpr std::uint32_t filled_word(std::uint64_t i, std::uint32_t seed) {
  return hash32(static_cast<std::uint32_t>(i) ^ seed);
}

// Word i written by the write kernel: varies per element, one XOR per word to compute (a hash per
// word would make the write probe partly ALU-bound).
__host__ __device__ constexpr std::uint32_t written_word(std::uint64_t i, std::uint32_t seed) {
  return static_cast<std::uint32_t>(i) ^ seed;
}

// Word i as the suite's WGSL write-linear writes it: element e = i / 4 holds (e, e ^ seed, ~e,
// e + seed) (kernels/bandwidth/write_linear.wgsl), for the data-pattern experiments.
__host__ __device__ constexpr std::uint32_t wgsl_written_word(std::uint64_t i, std::uint32_t seed) {
  const auto e = static_cast<std::uint32_t>(i >> 2);
  switch (i & 3U) {
    case 0:
      return e;
    case 1:
      return e ^ seed;
    case 2:
      return ~e;
    default:
      return e + seed;
  }
}

// What a write probe writes: CUDA's pattern (word index XOR seed), the suite's WGSL pattern, or the
// hashed fill (filled_word: nothing for a compressor to find).
enum class WriteData { Index, Wgsl, Hashed };

__host__ __device__ constexpr std::uint32_t expected_word(WriteData d, std::uint64_t i, std::uint32_t seed) {
  return d == WriteData::Index  ? written_word(i, seed)
         : d == WriteData::Wgsl ? wgsl_written_word(i, seed)
                                : filled_word(i, seed);
}

inline constexpr std::uint32_t kMagic0 = 0x9e3779b9U;  // the suite's sentinels (catalog/common.hpp)
inline constexpr std::uint32_t kMagic1 = 0x7f4a7c15U;
inline constexpr std::uint32_t kSeedA = 0xA11CE5EDU;    // the suite's bandwidth seeds
inline constexpr std::uint32_t kSeedB = 0xB0B5EED5U;
inline constexpr std::uint32_t kSeedWriteA = 0x5EED0A0AU;
inline constexpr std::uint32_t kSeedWriteB = 0x5EED0B0BU;
inline constexpr std::uint32_t kSeedCoef = 0xC0EFF1C1U;
inline constexpr std::uint32_t kSeedChase = 0xC4A5E000U;
inline constexpr std::uint32_t kSeedTiles = 0x711E5EEDU;

// ALU probes: every invocation runs kChains independent chains, kUnroll steps each per loop
// iteration (chains * unroll = 256 operations per iteration: long bodies so loop overhead vanishes,
// the shape that reached the hardware rate through Dawn as well). Coefficients come from a small
// global table indexed by lane, so they sit in registers (not constant-bank operands) and differ
// between lanes; start values depend on the invocation and the chain.
inline constexpr int kCoefSlots = 64;

// Start value of chain k of invocation t for the float probes: a multiple of 1/64 in [-0.5, 0.5),
// exact in f32 and f16 alike.
__host__ __device__ constexpr float chain_start_f(std::uint32_t t, int k) {
  return static_cast<float>(static_cast<int>((t * 7U + static_cast<std::uint32_t>(k) * 13U) & 63U) - 32) *
         (1.0f / 64.0f);
}
// Start value of chain k of invocation t for the integer probes.
__host__ __device__ constexpr std::uint32_t chain_start_u(std::uint32_t t, int k) {
  return hash32(t * 64U + static_cast<std::uint32_t>(k) + 0x1234567U);
}

// Tensor-core probes. PTX ISA "Matrix Fragments for mma.m16n8k16 with floating point type" and
// "... for mma.m16n8k32" (integer): g = lane >> 2 (groupID), q = lane & 3 (threadID_in_group).
// The accumulator (C/D, 16x8, f32 or s32) is the same for both: element e (0..3) of a lane is
// row g + 8 * (e >> 1), column 2q + (e & 1).
__host__ __device__ constexpr int acc_row(int lane, int e) { return (lane >> 2) + 8 * (e >> 1); }
__host__ __device__ constexpr int acc_col(int lane, int e) { return 2 * (lane & 3) + (e & 1); }

// f16 m16n8k16: A (16x16, row) register r (0..3) holds elements (row, col) and (row, col + 1) in
// its low and high halves, row g + 8 * (r & 1), col 2q + 8 * (r >> 1). B (16x8, col) register r
// (0..1) holds (k, n) and (k + 1, n), k = 2q + 8r, n = g.
__host__ __device__ constexpr int f16_a_row(int lane, int r) { return (lane >> 2) + 8 * (r & 1); }
__host__ __device__ constexpr int f16_a_col(int lane, int r) { return 2 * (lane & 3) + 8 * (r >> 1); }
__host__ __device__ constexpr int f16_b_k(int lane, int r) { return 2 * (lane & 3) + 8 * r; }

// s8 m16n8k32: A (16x32, row) register r (0..3) holds bytes (row, col..col + 3), row g + 8 * (r & 1),
// col 4q + 16 * (r >> 1). B (32x8, col) register r (0..1) holds (k..k + 3, n), k = 4q + 16r, n = g.
__host__ __device__ constexpr int i8_a_row(int lane, int r) { return (lane >> 2) + 8 * (r & 1); }
__host__ __device__ constexpr int i8_a_col(int lane, int r) { return 4 * (lane & 3) + 16 * (r >> 1); }
__host__ __device__ constexpr int i8_b_k(int lane, int r) { return 4 * (lane & 3) + 16 * r; }

// Initial accumulator element e of accumulator j: small integers, exact in f32 and s32.
__host__ __device__ constexpr int acc_start(int j, int e) { return ((j * 4 + e) % 7) - 3; }

// Distinct operand tiles; warp w uses tile w % kTiles.
inline constexpr int kTiles = 16;

}  // namespace wgbref
