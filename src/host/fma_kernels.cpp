// Peak FMA kernels: `accumulators` independent vector chains x <- x*m + a, all in registers, with
// explicit FMA intrinsics inside functions compiled for that ISA (target attributes), so the
// instruction is vfmadd whatever the global -march is. Checked in the disassembly (docs/host.md).
#include <cmath>

#include "host/kernels.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define WGB_HOST_X86 1
#endif

// Fully unrolled so the accumulator arrays become registers (no loads/stores in the loop).
#define WGB_UNROLL _Pragma("GCC unroll 16")

extern "C" {

#if defined(WGB_HOST_X86)

__attribute__((target("avx512f"))) void wgb_host_fma_f32_avx512(float* state, float m, float a,
                                                                std::uint64_t iterations) {
  constexpr int K = 16;
  __m512 x[K];
  WGB_UNROLL for (int k = 0; k < K; ++k) x[k] = _mm512_loadu_ps(state + 16 * k);
  const __m512 vm = _mm512_set1_ps(m), va = _mm512_set1_ps(a);
  for (std::uint64_t i = 0; i < iterations; ++i) {
    WGB_UNROLL for (int k = 0; k < K; ++k) x[k] = _mm512_fmadd_ps(x[k], vm, va);
  }
  WGB_UNROLL for (int k = 0; k < K; ++k) _mm512_storeu_ps(state + 16 * k, x[k]);
}

__attribute__((target("avx512f"))) void wgb_host_fma_f64_avx512(double* state, double m, double a,
                                                                std::uint64_t iterations) {
  constexpr int K = 16;
  __m512d x[K];
  WGB_UNROLL for (int k = 0; k < K; ++k) x[k] = _mm512_loadu_pd(state + 8 * k);
  const __m512d vm = _mm512_set1_pd(m), va = _mm512_set1_pd(a);
  for (std::uint64_t i = 0; i < iterations; ++i) {
    WGB_UNROLL for (int k = 0; k < K; ++k) x[k] = _mm512_fmadd_pd(x[k], vm, va);
  }
  WGB_UNROLL for (int k = 0; k < K; ++k) _mm512_storeu_pd(state + 8 * k, x[k]);
}

__attribute__((target("avx2,fma"))) void wgb_host_fma_f32_avx2(float* state, float m, float a,
                                                               std::uint64_t iterations) {
  constexpr int K = 12;
  __m256 x[K];
  WGB_UNROLL for (int k = 0; k < K; ++k) x[k] = _mm256_loadu_ps(state + 8 * k);
  const __m256 vm = _mm256_set1_ps(m), va = _mm256_set1_ps(a);
  for (std::uint64_t i = 0; i < iterations; ++i) {
    WGB_UNROLL for (int k = 0; k < K; ++k) x[k] = _mm256_fmadd_ps(x[k], vm, va);
  }
  WGB_UNROLL for (int k = 0; k < K; ++k) _mm256_storeu_ps(state + 8 * k, x[k]);
}

__attribute__((target("avx2,fma"))) void wgb_host_fma_f64_avx2(double* state, double m, double a,
                                                               std::uint64_t iterations) {
  constexpr int K = 12;
  __m256d x[K];
  WGB_UNROLL for (int k = 0; k < K; ++k) x[k] = _mm256_loadu_pd(state + 4 * k);
  const __m256d vm = _mm256_set1_pd(m), va = _mm256_set1_pd(a);
  for (std::uint64_t i = 0; i < iterations; ++i) {
    WGB_UNROLL for (int k = 0; k < K; ++k) x[k] = _mm256_fmadd_pd(x[k], vm, va);
  }
  WGB_UNROLL for (int k = 0; k < K; ++k) _mm256_storeu_pd(state + 4 * k, x[k]);
}

#endif  // WGB_HOST_X86

// Portable fallback: 8 scalar chains through std::fma. Correct, not a peak (no vectors; a
// software fma where the CPU has none); rows say so.
void wgb_host_fma_f32_scalar(float* state, float m, float a, std::uint64_t iterations) {
  constexpr int K = 8;
  float x[K];
  WGB_UNROLL for (int k = 0; k < K; ++k) x[k] = state[k];
  for (std::uint64_t i = 0; i < iterations; ++i) {
    WGB_UNROLL for (int k = 0; k < K; ++k) x[k] = std::fma(x[k], m, a);
  }
  WGB_UNROLL for (int k = 0; k < K; ++k) state[k] = x[k];
}

void wgb_host_fma_f64_scalar(double* state, double m, double a, std::uint64_t iterations) {
  constexpr int K = 8;
  double x[K];
  WGB_UNROLL for (int k = 0; k < K; ++k) x[k] = state[k];
  for (std::uint64_t i = 0; i < iterations; ++i) {
    WGB_UNROLL for (int k = 0; k < K; ++k) x[k] = std::fma(x[k], m, a);
  }
  WGB_UNROLL for (int k = 0; k < K; ++k) state[k] = x[k];
}

}  // extern "C"

namespace wgb::host {

const char* to_string(FmaIsa isa) noexcept {
  switch (isa) {
    case FmaIsa::Avx512: return "avx512f";
    case FmaIsa::Avx2: return "avx2+fma";
    case FmaIsa::Scalar: return "scalar-std-fma";
  }
  return "";
}

std::vector<FmaIsa> available_fma_isas() {
  std::vector<FmaIsa> out;
#if defined(WGB_HOST_X86)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) out.push_back(FmaIsa::Avx512);
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) out.push_back(FmaIsa::Avx2);
#endif
  out.push_back(FmaIsa::Scalar);
  return out;
}

FmaShape fma_shape(FmaIsa isa, bool f64) noexcept {
  switch (isa) {
    case FmaIsa::Avx512: return {f64 ? 8u : 16u, 16};
    case FmaIsa::Avx2: return {f64 ? 4u : 8u, 12};
    case FmaIsa::Scalar: return {1, 8};
  }
  return {1, 8};
}

void fma_f32(FmaIsa isa, float* state, float m, float a, std::uint64_t iterations) {
  switch (isa) {
#if defined(WGB_HOST_X86)
    case FmaIsa::Avx512: wgb_host_fma_f32_avx512(state, m, a, iterations); return;
    case FmaIsa::Avx2: wgb_host_fma_f32_avx2(state, m, a, iterations); return;
#endif
    default: wgb_host_fma_f32_scalar(state, m, a, iterations); return;
  }
}

void fma_f64(FmaIsa isa, double* state, double m, double a, std::uint64_t iterations) {
  switch (isa) {
#if defined(WGB_HOST_X86)
    case FmaIsa::Avx512: wgb_host_fma_f64_avx512(state, m, a, iterations); return;
    case FmaIsa::Avx2: wgb_host_fma_f64_avx2(state, m, a, iterations); return;
#endif
    default: wgb_host_fma_f64_scalar(state, m, a, iterations); return;
  }
}

void fma_reference_f32(float* state, std::size_t n, float m, float a, std::uint64_t iterations) {
  for (std::size_t j = 0; j < n; ++j) {
    float x = state[j];
    for (std::uint64_t i = 0; i < iterations; ++i) x = std::fma(x, m, a);
    state[j] = x;
  }
}

void fma_reference_f64(double* state, std::size_t n, double m, double a, std::uint64_t iterations) {
  for (std::size_t j = 0; j < n; ++j) {
    double x = state[j];
    for (std::uint64_t i = 0; i < iterations; ++i) x = std::fma(x, m, a);
    state[j] = x;
  }
}

}  // namespace wgb::host
