// The host references of the ALU probes (probes.cpp): each replays a kernel step by step, integer
// probes bit for bit, float probes in double precision (compared within the probe's tolerance), and
// returns what each invocation stores. Used by the probe table only.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "catalog/compute/alu.hpp"
#include "gpu/hash.hpp"

namespace wgb::catalog::alu::reference {

using u32 = std::uint32_t;
using i32 = std::int32_t;

// ---- host twins of prelude.wgsl ------------------------------------------------------------------
inline u32 bits(const Params& p, u32 t, u32 k) { return gpu::hash32((t * 64u + k) ^ p.seed); }
inline double start(const Params& p, u32 t, u32 k) { return 1.0 + static_cast<double>(bits(p, t, k) >> 22) / 1024.0; }
inline double small(const Params& p, u32 t, u32 k) {
  return static_cast<double>(static_cast<i32>(bits(p, t, k) >> 27) - 16) / 1024.0;
}

// Twins of prelude.wgsl's trip_word / trip_frac: the per-trip operand of the probes that settle
// within a trip.
inline u32 trip_word(const Params& p, u32 n) { return (p.ib + n) * 0x9e3779b9u; }
inline double trip_frac(const Params& p, u32 n) { return static_cast<double>(trip_word(p, n) >> 24) / 256.0; }

inline Expectation exact(u32 v) { return Expectation{.exact = true, .bits = v}; }

// What the integer chains store: the wrapping u32 sum of their final values.
template <class T, std::size_t N>
u32 wrapping_sum(const T (&x)[N]) {
  u32 sum = 0;
  for (T v : x) sum += static_cast<u32>(v);
  return sum;
}

// The starting values of eight u32 chains, bits(t, 0..7), and their per-chain operands, bits(t, 8..15).
inline void chains_and_operands(const Params& p, u32 t, u32 (&x)[8], u32 (&c)[8]) {
  for (u32 k = 0; k < 8; ++k) {
    x[k] = bits(p, t, k);
    c[k] = bits(p, t, 8 + k);
  }
}

// f32 -> f16 -> f32 of a normal f16 value, rounding to nearest with ties to even (nearbyint under
// the default rounding mode).
inline double round_to_f16(double x) {
  const double ulp = std::ldexp(1.0, std::ilogb(x) - 10);
  return std::nearbyint(x / ulp) * ulp;
}

template <std::size_t N>
Expectation float_sum(const double (&x)[N]) {
  Expectation e;
  for (double v : x) {
    e.value += v;
    e.scale += std::abs(v);
  }
  return e;
}

// Steps every chain `steps` times; a step may take the chain's lane (fma_vec4's operand vectors).
template <class T, std::size_t N, class Step>
void step_chains(T (&x)[N], std::uint64_t steps, Step step) {
  for (std::uint64_t s = 0; s < steps; ++s) {
    for (u32 k = 0; k < N; ++k) {
      if constexpr (std::is_invocable_v<Step, T, u32>) {
        x[k] = step(x[k], k);
      } else {
        x[k] = step(x[k]);
      }
    }
  }
}

inline std::uint64_t chain_steps(const Params& p, u32 steps_per_trip) {
  return static_cast<std::uint64_t>(p.iterations) * steps_per_trip;
}

// Independent float chains: `lanes` values starting at start(t, 0..lanes-1), each stepped
// `steps_per_trip` times per loop trip by `step`.
template <std::size_t N, class Step>
Expectation float_chains(const Params& p, u32 t, u32 steps_per_trip, Step step) {
  double x[N];
  for (u32 k = 0; k < N; ++k) x[k] = start(p, t, k);
  step_chains(x, chain_steps(p, steps_per_trip), step);
  return float_sum(x);
}

// Like float_chains for the maps that take the per-trip operand: `step(x, d)` with
// d = f[3] x trip_frac(trip), 32 steps per trip (float_unary.wgsl, f32_f16_convert.wgsl).
template <std::size_t N, class Step>
Expectation float_trip_chains(const Params& p, u32 t, Step step) {
  double x[N];
  for (u32 k = 0; k < N; ++k) x[k] = start(p, t, k);
  for (u32 n = 0; n < p.iterations; ++n) {
    const double d = static_cast<double>(p.f[3]) * trip_frac(p, n);
    for (u32 s = 0; s < 32; ++s) {
      for (auto& v : x) v = step(v, d);
    }
  }
  return float_sum(x);
}

// Independent u32 chains starting at bits(t, 0..N-1), stored as their wrapping sum.
template <std::size_t N, class Step>
Expectation int_chains(const Params& p, u32 t, u32 steps_per_trip, Step step) {
  u32 x[N];
  for (u32 k = 0; k < N; ++k) x[k] = bits(p, t, k);
  step_chains(x, chain_steps(p, steps_per_trip), step);
  return exact(wrapping_sum(x));
}

// ---- matrix references ---------------------------------------------------------------------------

// S' = M S + C, `updates` times, on a 4x4 state s[column][row] with m, c laid out as the uniform
// holds them (m[4 column + row]): fma_mat4.wgsl in double for the float probe, mad_mat4.wgsl wrapping.
template <class T, class U>
void mat4_updates(T (&s)[4][4], const U (&m)[16], const U (&c)[16], std::uint64_t updates) {
  for (std::uint64_t u = 0; u < updates; ++u) {
    for (u32 j = 0; j < 4; ++j) {
      T next[4];
      for (u32 i = 0; i < 4; ++i) {
        next[i] = c[4 * j + i];
        for (u32 k = 0; k < 4; ++k) next[i] += static_cast<T>(m[4 * k + i]) * s[j][k];
      }
      std::copy(std::begin(next), std::end(next), std::begin(s[j]));
    }
  }
}

// x' = A x + c on each of two vectors, `updates` times, a[column][row] (fma_matvec.wgsl,
// mad_matvec.wgsl).
template <class T>
void matvec_updates(const T (&a)[4][4], T c, T (&v)[2][4], std::uint64_t updates) {
  for (std::uint64_t u = 0; u < updates; ++u) {
    for (auto& x : v) {
      T next[4];
      for (u32 i = 0; i < 4; ++i) {
        next[i] = c;
        for (u32 k = 0; k < 4; ++k) next[i] += a[k][i] * x[k];
      }
      std::copy(std::begin(next), std::end(next), std::begin(x));
    }
  }
}

inline Expectation fma_mat4_ref(const Params& p, u32 t) {
  double s[4][4];  // s[column][row]
  for (u32 j = 0; j < 4; ++j) {
    for (u32 i = 0; i < 4; ++i) s[j][i] = start(p, t, 4 * j + i);
  }
  mat4_updates(s, p.M, p.C, static_cast<std::uint64_t>(p.iterations) * 4);
  double flat[16];
  for (u32 j = 0; j < 4; ++j) std::copy(std::begin(s[j]), std::end(s[j]), flat + 4 * j);
  return float_sum(flat);
}

// Off-diagonal entry (row i, column k) of the matvec probes' per-invocation matrix, as laid out in
// fma_matvec.wgsl: small(t, 16..27) column by column, skipping the diagonal.
inline u32 offdiag_index(u32 i, u32 k) { return 16 + 3 * k + (i < k ? i : i - 1); }

inline Expectation fma_matvec_ref(const Params& p, u32 t) {
  const double d = p.f[0], c = p.f[1];
  double a[4][4];  // a[column][row]
  for (u32 k = 0; k < 4; ++k) {
    for (u32 i = 0; i < 4; ++i) a[k][i] = i == k ? d : small(p, t, offdiag_index(i, k));
  }
  double v[2][4];
  for (u32 i = 0; i < 4; ++i) {
    v[0][i] = start(p, t, i);
    v[1][i] = start(p, t, 4 + i);
  }
  matvec_updates(a, c, v, static_cast<std::uint64_t>(p.iterations) * 8);
  double flat[8];
  std::copy(std::begin(v[0]), std::end(v[0]), flat);
  std::copy(std::begin(v[1]), std::end(v[1]), flat + 4);
  return float_sum(flat);
}

inline Expectation mad_mat4_ref(const Params& p, u32 t) {
  u32 s[4][4];
  for (u32 j = 0; j < 4; ++j) {
    for (u32 i = 0; i < 4; ++i) s[j][i] = bits(p, t, 4 * j + i);
  }
  mat4_updates(s, p.IM, p.IC, static_cast<std::uint64_t>(p.iterations) * 4);
  u32 sum = 0;
  for (const auto& col : s) sum += wrapping_sum(col);
  return exact(sum);
}

inline Expectation mad_matvec_ref(const Params& p, u32 t) {
  u32 a[4][4];  // a[column][row] = bits(t, 16 + 4 column + row)
  for (u32 k = 0; k < 4; ++k) {
    for (u32 i = 0; i < 4; ++i) a[k][i] = bits(p, t, 16 + 4 * k + i);
  }
  u32 v[2][4];
  for (u32 i = 0; i < 4; ++i) {
    v[0][i] = bits(p, t, i);
    v[1][i] = bits(p, t, 4 + i);
  }
  matvec_updates(a, p.ib, v, static_cast<std::uint64_t>(p.iterations) * 8);
  return exact(wrapping_sum(v[0]) + wrapping_sum(v[1]));
}

// ---- packed 8-bit dot products -------------------------------------------------------------------

inline u32 dot4_i8(u32 a, u32 b) {
  i32 sum = 0;
  for (u32 byte = 0; byte < 4; ++byte) {
    sum += static_cast<i32>(static_cast<std::int8_t>(a >> (8 * byte))) *
           static_cast<i32>(static_cast<std::int8_t>(b >> (8 * byte)));
  }
  return static_cast<u32>(sum);
}
inline u32 dot4_u8(u32 a, u32 b) {
  u32 sum = 0;
  for (u32 byte = 0; byte < 4; ++byte) sum += ((a >> (8 * byte)) & 0xFFu) * ((b >> (8 * byte)) & 0xFFu);
  return sum;
}

// The dp4a chains (kernels/compute/dp4a.wgsl): x_k = x_k + dot(x_k, x_(k+1 mod 8)), k = 0..7 in
// order (x_7 reads x_0 as just updated), kDp4aSteps steps per loop trip.
constexpr u32 kDp4aSteps = 128;

template <u32 (*Dot)(u32, u32)>
Expectation dp4a_ref(const Params& p, u32 t) {
  u32 x[8];
  for (u32 k = 0; k < 8; ++k) x[k] = bits(p, t, k);
  const std::uint64_t steps = static_cast<std::uint64_t>(p.iterations) * kDp4aSteps;
  for (std::uint64_t s = 0; s < steps; ++s) {
    for (u32 k = 0; k < 8; ++k) x[k] += Dot(x[k], x[(k + 1) % 8]);
  }
  return exact(wrapping_sum(x));
}

inline Expectation dp4a_matvec_ref(const Params& p, u32 t) {
  u32 w[4][4];  // w[row][word]
  for (u32 r = 0; r < 4; ++r) {
    for (u32 j = 0; j < 4; ++j) w[r][j] = bits(p, t, 8 + 4 * r + j);
  }
  u32 x[4];
  for (u32 j = 0; j < 4; ++j) x[j] = bits(p, t, j);
  const std::uint64_t updates = static_cast<std::uint64_t>(p.iterations) * 16;
  for (std::uint64_t u = 0; u < updates; ++u) {
    u32 y[4];
    for (u32 r = 0; r < 4; ++r) {
      y[r] = p.IC[r];
      for (u32 j = 0; j < 4; ++j) y[r] += dot4_i8(w[r][j], x[j]);
    }
    std::copy(std::begin(y), std::end(y), std::begin(x));
  }
  return exact(wrapping_sum(x));
}

// ---- shifts, branches ----------------------------------------------------------------------------

inline Expectation shift_ref(const Params& p, u32 t) {
  u32 x[8], c[8];
  chains_and_operands(p, t, x, c);
  for (u32 n = 0; n < p.iterations; ++n) {
    for (u32 s = 0; s < 32; ++s) {
      const u32 a = (p.ib + n + s) & 31u;
      for (u32 k = 0; k < 4; ++k) x[k] = (x[k] << a) ^ c[k];
      for (u32 k = 4; k < 8; ++k) x[k] = (x[k] >> a) ^ c[k];
    }
  }
  return exact(wrapping_sum(x));
}

enum class Branch { None, Uniform, Coherent, Divergent };

template <Branch B>
Expectation branch_ref(const Params& p, u32 t) {
  const double m = p.f[0], c = p.f[1], m2 = p.f[2], c2 = p.f[3];
  double x[8];
  for (u32 k = 0; k < 8; ++k) x[k] = start(p, t, k);
  const u32 lid = t % p.workgroup, wid = t / p.workgroup;  // the grid's workgroup size
  for (u32 n = 0; n < p.iterations; ++n) {
    bool side_a = true;
    if (B == Branch::Uniform) side_a = ((n ^ p.ib) & 1u) == 0;
    if (B == Branch::Coherent) side_a = ((n ^ wid) & 1u) == 0;
    if (B == Branch::Divergent) side_a = ((n ^ lid) & 1u) == 0;
    for (u32 s = 0; s < 32; ++s) {
      if (side_a) {
        for (auto& v : x) v = v * m + c;
      } else {
        for (u32 k = 0; k < 8; k += 2) {
          const double y = x[k];
          x[k] = x[k + 1] * m2 + c2;
          x[k + 1] = y * m2 + c2;
        }
      }
    }
  }
  return float_sum(x);
}

// ---- conversions and bit operations --------------------------------------------------------------

inline Expectation i32_f32_ref(const Params& p, u32 t) {
  const double h = p.f[0];
  i32 x[8];
  double c[8];
  for (u32 k = 0; k < 8; ++k) {
    x[k] = static_cast<i32>(bits(p, t, k) >> 20);
    c[k] = p.f[1] + static_cast<double>(bits(p, t, 8 + k) >> 22);
  }
  for (u32 n = 0; n < p.iterations; ++n) {
    const double dn = static_cast<double>(trip_word(p, n) >> 24);
    for (u32 s = 0; s < 32; ++s) {
      // Exact in f32 too: |x| < 2^13, h = 0.5 and c + dn a small integer.
      for (u32 k = 0; k < 8; ++k) x[k] = static_cast<i32>(std::trunc(static_cast<double>(x[k]) * h + c[k] + dn));
    }
  }
  return exact(wrapping_sum(x));
}

inline Expectation i32_div_ref(const Params& p, u32 t) {
  const i32 a = static_cast<i32>(p.ia >> 12);
  i32 x[8];
  for (u32 k = 0; k < 8; ++k) x[k] = static_cast<i32>(bits(p, t, k) >> 17) + 1;
  for (u32 n = 0; n < p.iterations; ++n) {
    const i32 b = 5 + static_cast<i32>(trip_word(p, n) >> 24);
    for (u32 s = 0; s < 32; ++s) {
      for (auto& v : x) v = a / v + b;  // positive operands: C++ and WGSL both truncate
    }
  }
  return exact(wrapping_sum(x));
}

inline u32 repack(u32 v, u32 e) {
  u32 out = 0;
  for (u32 byte = 0; byte < 4; ++byte) out |= (((v >> (8 * byte)) + e) & 0xFFu) << (8 * byte);
  return out;
}

inline Expectation packunpack_ref(const Params& p, u32 t) {
  u32 x[8], c[8];
  chains_and_operands(p, t, x, c);
  for (u32 n = 0; n < p.iterations; ++n) {
    const u32 w = trip_word(p, n);
    for (u32 k = 0; k < 8; ++k) {
      const u32 e = ((c[k] + w) >> 24) | 1u;
      for (u32 s = 0; s < 32; ++s) x[k] = repack(x[k], e) + c[k];
    }
  }
  return exact(wrapping_sum(x));
}

inline u32 first_leading_bit(u32 x) { return x == 0 ? 0xFFFFFFFFu : 31u - static_cast<u32>(std::countl_zero(x)); }
inline u32 reverse_bits(u32 x) {
  u32 r = 0;
  for (u32 i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}

}  // namespace wgb::catalog::alu::reference
