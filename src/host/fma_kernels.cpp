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

// One kernel: K independent chains of W-lane vectors x <- x*m + a, loaded from and stored to
// `state`, every step one FMA instruction of the function's target.
#define WGB_FMA_KERNEL(NAME, TARGET, T, V, K, W, LOAD, SET1, FMADD, STORE) \
  TARGET void NAME(T* state, T m, T a, std::uint64_t iterations) {          \
    V x[K];                                                                 \
    WGB_UNROLL for (int k = 0; k < K; ++k) x[k] = LOAD(state + W * k);      \
    const V vm = SET1(m), va = SET1(a);                                     \
    for (std::uint64_t i = 0; i < iterations; ++i) {                        \
      WGB_UNROLL for (int k = 0; k < K; ++k) x[k] = FMADD(x[k], vm, va);    \
    }                                                                       \
    WGB_UNROLL for (int k = 0; k < K; ++k) STORE(state + W * k, x[k]);      \
  }

namespace {
template <class T>
inline T load1(const T* p) {
  return *p;
}
template <class T>
inline T same(T v) {
  return v;
}
template <class T>
inline T fma1(T x, T m, T a) {
  return std::fma(x, m, a);
}
template <class T>
inline void store1(T* p, T v) {
  *p = v;
}
}  // namespace

#define WGB_AVX512 __attribute__((target("avx512f")))
#define WGB_AVX2 __attribute__((target("avx2,fma")))

extern "C" {

#if defined(WGB_HOST_X86)
WGB_FMA_KERNEL(wgb_host_fma_f32_avx512, WGB_AVX512, float, __m512, 16, 16, _mm512_loadu_ps, _mm512_set1_ps,
               _mm512_fmadd_ps, _mm512_storeu_ps)
WGB_FMA_KERNEL(wgb_host_fma_f64_avx512, WGB_AVX512, double, __m512d, 16, 8, _mm512_loadu_pd, _mm512_set1_pd,
               _mm512_fmadd_pd, _mm512_storeu_pd)
WGB_FMA_KERNEL(wgb_host_fma_f32_avx2, WGB_AVX2, float, __m256, 12, 8, _mm256_loadu_ps, _mm256_set1_ps,
               _mm256_fmadd_ps, _mm256_storeu_ps)
WGB_FMA_KERNEL(wgb_host_fma_f64_avx2, WGB_AVX2, double, __m256d, 12, 4, _mm256_loadu_pd, _mm256_set1_pd,
               _mm256_fmadd_pd, _mm256_storeu_pd)
#endif  // WGB_HOST_X86

// Portable fallback: 8 scalar chains through std::fma. Correct, not a peak (no vectors; a
// software fma where the CPU has none); rows say so.
WGB_FMA_KERNEL(wgb_host_fma_f32_scalar, , float, float, 8, 1, load1, same, fma1, store1)
WGB_FMA_KERNEL(wgb_host_fma_f64_scalar, , double, double, 8, 1, load1, same, fma1, store1)

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

namespace {

#if defined(WGB_HOST_X86)
#define WGB_IF_X86(f) f
#else
#define WGB_IF_X86(f) nullptr
#endif

template <class T>
using FmaFn = void (*)(T*, T, T, std::uint64_t);

template <class T>
void run_fma(FmaIsa isa, FmaFn<T> avx512, FmaFn<T> avx2, FmaFn<T> scalar, T* state, T m, T a, std::uint64_t n) {
  const FmaFn<T> f = isa == FmaIsa::Avx512 && avx512 ? avx512 : isa == FmaIsa::Avx2 && avx2 ? avx2 : scalar;
  f(state, m, a, n);
}

template <class T>
void reference(T* state, std::size_t n, T m, T a, std::uint64_t iterations) {
  for (std::size_t j = 0; j < n; ++j) {
    T x = state[j];
    for (std::uint64_t i = 0; i < iterations; ++i) x = std::fma(x, m, a);
    state[j] = x;
  }
}

}  // namespace

void fma_f32(FmaIsa isa, float* state, float m, float a, std::uint64_t iterations) {
  run_fma<float>(isa, WGB_IF_X86(wgb_host_fma_f32_avx512), WGB_IF_X86(wgb_host_fma_f32_avx2), wgb_host_fma_f32_scalar,
                 state, m, a, iterations);
}

void fma_f64(FmaIsa isa, double* state, double m, double a, std::uint64_t iterations) {
  run_fma<double>(isa, WGB_IF_X86(wgb_host_fma_f64_avx512), WGB_IF_X86(wgb_host_fma_f64_avx2), wgb_host_fma_f64_scalar,
                  state, m, a, iterations);
}

void fma_reference_f32(float* state, std::size_t n, float m, float a, std::uint64_t iterations) {
  reference(state, n, m, a, iterations);
}

void fma_reference_f64(double* state, std::size_t n, double m, double a, std::uint64_t iterations) {
  reference(state, n, m, a, iterations);
}

}  // namespace wgb::host
