// Host twins of the reference kernels: what a kernel must have produced, computed on the CPU with
// the same IEEE operations (fused f32 FMA, f16 FMA with one rounding, wrapping integer arithmetic,
// exact integer matrix products), plus the Sattolo cycle of the dependent-load probes.
#pragma once

#include <cuda_fp16.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "common.cuh"

namespace wgbref::host {

// Thread t's XOR fold over a buffer of `count` vec4 filled with `seed` (read_kernel).
inline std::array<std::uint32_t, 4> read_fold(std::uint32_t t, std::uint32_t threads, std::uint32_t count,
                                              std::uint32_t seed) {
  std::array<std::uint32_t, 4> acc{};
  for (std::uint64_t i = t; i < count; i += threads) {
    for (int c = 0; c < 4; ++c) acc[c] ^= filled_word(i * 4 + c, seed);
  }
  return acc;
}

// fma_f32_kernel's store for thread t: `steps` fused multiply-adds per chain, then the chain sum in
// chain order (the kernel adds in the same order, without contraction).
inline float f32_chains(std::uint32_t t, int chains, std::uint64_t steps, float a, float b) {
  float s = 0.0f;
  for (int k = 0; k < chains; ++k) {
    float x = chain_start_f(t, k);
    for (std::uint64_t n = 0; n < steps; ++n) x = std::fma(x, a, b);
    s += x;
  }
  return s;
}

inline std::uint32_t i32_chains(std::uint32_t t, int chains, std::uint64_t steps, std::uint32_t a,
                                std::uint32_t b) {
  std::uint32_t s = 0;
  for (int k = 0; k < chains; ++k) {
    std::uint32_t x = chain_start_u(t, k);
    for (std::uint64_t n = 0; n < steps; ++n) x = x * a + b;
    s += x;
  }
  return s;
}

inline std::uint32_t div_chains(std::uint32_t t, int chains, std::uint64_t steps, std::int32_t a, std::int32_t b) {
  std::uint32_t s = 0;
  for (int k = 0; k < chains; ++k) {
    std::int32_t x = static_cast<std::int32_t>(chain_start_u(t, k) >> 17) + 1;
    for (std::uint64_t n = 0; n < steps; ++n) x = a / x + b;
    s += static_cast<std::uint32_t>(x);
  }
  return s;
}

// The four bytes of v, each plus e (wrapping within the byte), then the word plus c (carrying).
inline std::uint32_t repack_add(std::uint32_t v, std::uint32_t e, std::uint32_t c) {
  std::uint32_t r = 0;
  for (int i = 0; i < 4; ++i) r |= (((v >> (8 * i)) + e) & 0xFFU) << (8 * i);
  return r + c;
}

inline std::uint32_t packunpack_chains(std::uint32_t t, int chains, std::uint64_t steps, std::uint32_t e,
                                       std::uint32_t c) {
  std::uint32_t s = 0;
  for (int k = 0; k < chains; ++k) {
    std::uint32_t x = chain_start_u(t, k);
    for (std::uint64_t n = 0; n < steps; ++n) x = repack_add(x, e, c);
    s += x;
  }
  return s;
}

inline float select_chains(std::uint32_t t, int chains, std::uint64_t steps, float a, float b) {
  float s = 0.0f;
  for (int k = 0; k < chains; ++k) {
    float x = chain_start_f(t, k);
    for (std::uint64_t n = 0; n < steps; ++n) x = x > 1.0f ? x - a : x + b;
    s += x;
  }
  return s;
}

inline float clamp_chains(std::uint32_t t, int chains, std::uint64_t steps, float a, float b) {
  float s = 0.0f;
  for (int k = 0; k < chains; ++k) {
    float x = chain_start_f(t, k);
    for (std::uint64_t n = 0; n < steps; ++n) x = std::fmin(std::fmax(std::fma(x, a, b), 0.0f), 1.0f);
    s += x;
  }
  return s;
}

// The texture probes' texels (the WebGPU probes' own: component c of texel i is
// (hash32((4 i + c) ^ 0x7E47E1) >> 22) / 1024 - 0.5) and what thread t stores after `samples`
// samples, summed in the kernels' order: every sample and every partial sum is exact in f32 as long
// as the sums stay below 2^12 (they do at the loop counts a 10 ms launch reaches), so this is exact.
inline std::vector<float> texture_texels(std::uint32_t width) {
  std::vector<float> v(static_cast<std::size_t>(width) * 4);
  for (std::uint32_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(hash32(i ^ 0x7E47E1U) >> 22) / 1024.0f - 0.5f;
  return v;
}

inline float texture_sum(const std::vector<float>& tex, std::uint32_t width, std::uint32_t t, std::uint64_t samples,
                         std::uint32_t scan_seed) {
  float s[4][4] = {};
  const std::uint32_t mask = 4 * width - 1, start = hash32(t ^ scan_seed);
  for (std::uint64_t j = 0; j < samples; ++j) {
    const std::uint32_t q = (start + static_cast<std::uint32_t>(j)) & mask;
    const std::uint32_t i0 = q >> 2, i1 = (i0 + 1) & (width - 1);
    const float w = static_cast<float>(q & 3) / 4.0f;
    for (int c = 0; c < 4; ++c) s[j % 4][c] += tex[4 * i0 + c] * (1.0f - w) + tex[4 * i1 + c] * w;
  }
  float v[4];
  for (int c = 0; c < 4; ++c) v[c] = s[0][c] + s[1][c] + s[2][c] + s[3][c];
  return v[0] + v[1] + v[2] + v[3];
}

// __dp4a(a, b, c) with signed bytes: c + sum of the four byte products, wrapping at 32 bits.
inline std::uint32_t dp4a(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  std::int64_t dot = 0;
  for (int i = 0; i < 4; ++i) {
    dot += static_cast<std::int64_t>(static_cast<std::int8_t>(a >> (8 * i))) *
           static_cast<std::int8_t>(b >> (8 * i));
  }
  return c + static_cast<std::uint32_t>(dot);
}

inline std::uint32_t dp4a_chains(std::uint32_t t, int chains, std::uint64_t steps, std::uint32_t m) {
  std::uint32_t s = 0;
  for (int k = 0; k < chains; ++k) {
    std::uint32_t x = chain_start_u(t, k);
    for (std::uint64_t n = 0; n < steps; ++n) x = dp4a(x, m, x);
    s += x;
  }
  return s;
}

// One f16 fused multiply-add: the exact x * a + b (f16 operands: it fits a double for the value
// ranges used here, |a| < 1, |b| <= 1, so the double FMA is exact) rounded once to f16.
inline float hfma(float x, float a, float b) {
  return __half2float(__double2half(std::fma(static_cast<double>(x), static_cast<double>(a), static_cast<double>(b))));
}

// hfma2_kernel's store for thread t: half2 chain k holds start values (2k, 2k + 1); lanes use the
// low and high halves of a and b.
inline float f16_chains(std::uint32_t t, int half2_chains, std::uint64_t steps, float a_lo, float a_hi,
                        float b_lo, float b_hi) {
  float s = 0.0f;
  for (int k = 0; k < half2_chains; ++k) {
    float lo = __half2float(__float2half_rn(chain_start_f(t, 2 * k)));
    float hi = __half2float(__float2half_rn(chain_start_f(t, 2 * k + 1)));
    for (std::uint64_t n = 0; n < steps; ++n) {
      lo = hfma(lo, a_lo, b_lo);
      hi = hfma(hi, a_hi, b_hi);
    }
    s += lo;
    s += hi;
  }
  return s;
}

// Operand tiles of the tensor-core probes (small integers, so f32/s32 accumulation is exact) and
// their per-lane fragments, packed with the PTX fragment layouts from common.cuh.
struct MmaTiles {
  int m = 16, n = 8, k = 16;
  std::vector<int> a;  // kTiles x m x k
  std::vector<int> b;  // kTiles x k x n
  std::vector<std::uint32_t> a_frag;  // kTiles x 32 lanes x 4 registers
  std::vector<std::uint32_t> b_frag;  // kTiles x 32 lanes x 2 registers
  std::vector<std::int64_t> ab;       // kTiles x m x n: A * B
};

inline std::uint16_t f16_bits_of_small_int(int v) {  // -1, 0, 1 only
  return v == 0 ? 0x0000 : (v > 0 ? 0x3C00 : 0xBC00);
}

inline void multiply(MmaTiles& t) {
  t.ab.assign(static_cast<std::size_t>(kTiles) * t.m * t.n, 0);
  for (int s = 0; s < kTiles; ++s) {
    for (int r = 0; r < t.m; ++r) {
      for (int c = 0; c < t.n; ++c) {
        std::int64_t acc = 0;
        for (int q = 0; q < t.k; ++q) {
          acc += static_cast<std::int64_t>(t.a[(s * t.m + r) * t.k + q]) * t.b[(s * t.k + q) * t.n + c];
        }
        t.ab[(s * t.m + r) * t.n + c] = acc;
      }
    }
  }
}

// f16 m16n8k16: entries in {-1, 0, 1}, so |(A * B)[r][c]| <= 16.
inline MmaTiles make_f16_tiles() {
  MmaTiles t;
  t.m = 16, t.n = 8, t.k = 16;
  t.a.resize(kTiles * 16 * 16);
  t.b.resize(kTiles * 16 * 8);
  for (std::size_t i = 0; i < t.a.size(); ++i) t.a[i] = static_cast<int>(hash32(static_cast<std::uint32_t>(i) ^ kSeedTiles) % 3) - 1;
  for (std::size_t i = 0; i < t.b.size(); ++i) t.b[i] = static_cast<int>(hash32(static_cast<std::uint32_t>(i) ^ ~kSeedTiles) % 3) - 1;
  t.a_frag.resize(kTiles * 32 * 4);
  t.b_frag.resize(kTiles * 32 * 2);
  for (int s = 0; s < kTiles; ++s) {
    for (int lane = 0; lane < 32; ++lane) {
      for (int r = 0; r < 4; ++r) {
        const int row = f16_a_row(lane, r), col = f16_a_col(lane, r);
        const int* p = &t.a[(s * 16 + row) * 16 + col];
        t.a_frag[(s * 32 + lane) * 4 + r] =
            f16_bits_of_small_int(p[0]) | (static_cast<std::uint32_t>(f16_bits_of_small_int(p[1])) << 16);
      }
      for (int r = 0; r < 2; ++r) {
        const int k = f16_b_k(lane, r), n = lane >> 2;
        t.b_frag[(s * 32 + lane) * 2 + r] =
            f16_bits_of_small_int(t.b[(s * 16 + k) * 8 + n]) |
            (static_cast<std::uint32_t>(f16_bits_of_small_int(t.b[(s * 16 + k + 1) * 8 + n])) << 16);
      }
    }
  }
  multiply(t);
  return t;
}

// s8 m16n8k32: entries in [-2, 2], so |(A * B)[r][c]| <= 128.
inline MmaTiles make_i8_tiles() {
  MmaTiles t;
  t.m = 16, t.n = 8, t.k = 32;
  t.a.resize(kTiles * 16 * 32);
  t.b.resize(kTiles * 32 * 8);
  for (std::size_t i = 0; i < t.a.size(); ++i) t.a[i] = static_cast<int>(hash32(static_cast<std::uint32_t>(i) ^ kSeedTiles) % 5) - 2;
  for (std::size_t i = 0; i < t.b.size(); ++i) t.b[i] = static_cast<int>(hash32(static_cast<std::uint32_t>(i) ^ ~kSeedTiles) % 5) - 2;
  t.a_frag.resize(kTiles * 32 * 4);
  t.b_frag.resize(kTiles * 32 * 2);
  auto byte = [](int v) { return static_cast<std::uint32_t>(static_cast<std::uint8_t>(static_cast<std::int8_t>(v))); };
  for (int s = 0; s < kTiles; ++s) {
    for (int lane = 0; lane < 32; ++lane) {
      for (int r = 0; r < 4; ++r) {
        const int row = i8_a_row(lane, r), col = i8_a_col(lane, r);
        std::uint32_t w = 0;
        for (int i = 0; i < 4; ++i) w |= byte(t.a[(s * 16 + row) * 32 + col + i]) << (8 * i);
        t.a_frag[(s * 32 + lane) * 4 + r] = w;
      }
      for (int r = 0; r < 2; ++r) {
        const int k = i8_b_k(lane, r), n = lane >> 2;
        std::uint32_t w = 0;
        for (int i = 0; i < 4; ++i) w |= byte(t.b[(s * 32 + k + i) * 8 + n]) << (8 * i);
        t.b_frag[(s * 32 + lane) * 2 + r] = w;
      }
    }
  }
  multiply(t);
  return t;
}

// Accumulator element e of accumulator j held by `lane` of warp `warp` after `steps` MMAs.
inline std::int64_t mma_expected(const MmaTiles& t, std::uint32_t warp, int j, int lane, int e,
                                 std::uint64_t steps) {
  const int tile = static_cast<int>(warp % kTiles);
  return acc_start(j, e) +
         static_cast<std::int64_t>(steps) * t.ab[(tile * t.m + acc_row(lane, e)) * t.n + acc_col(lane, e)];
}

// splitmix64: a seeded, portable generator for the Sattolo shuffle.
struct SplitMix64 {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
};

// Sattolo's algorithm: a uniformly random permutation that is one single cycle through all slots.
inline std::vector<std::uint32_t> sattolo_cycle(std::uint32_t slots, std::uint64_t seed) {
  std::vector<std::uint32_t> next(slots);
  std::iota(next.begin(), next.end(), 0U);
  SplitMix64 rng{seed};
  for (std::uint32_t i = slots - 1; i > 0; --i) {
    const auto j = static_cast<std::uint32_t>(rng.next() % i);  // j < i: this is what makes one cycle
    std::swap(next[i], next[j]);
  }
  return next;
}

// Length of the cycle through slot 0 (must equal the slot count).
inline std::uint64_t cycle_length(const std::vector<std::uint32_t>& next) {
  std::uint64_t n = 0;
  std::uint32_t s = 0;
  do {
    s = next[s];
    ++n;
  } while (s != 0 && n <= next.size());
  return n;
}

// The word index reached after `hops` dependent loads from word index `start` (chase_kernel).
inline std::uint32_t walk(const std::vector<std::uint32_t>& next, std::uint32_t start, std::uint64_t hops) {
  std::uint32_t w = start;
  for (std::uint64_t n = 0; n < hops; ++n) w = next[w / 16] * 16U;
  return w;
}

}  // namespace wgbref::host
