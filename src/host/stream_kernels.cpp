// STREAM kernels, multiversioned with target_clones (GCC's function multiversioning: one clone
// per ISA, an ifunc resolver picks the best the CPU supports at load time).
#include <cmath>

#include "host/harness.hpp"
#include "host/kernels.hpp"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define WGB_STREAM_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define WGB_STREAM_CLONES
#endif

extern "C" {

WGB_STREAM_CLONES void wgb_host_stream_copy(double* __restrict c, const double* __restrict a, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) c[i] = a[i];
}

WGB_STREAM_CLONES void wgb_host_stream_scale(double* __restrict b, const double* __restrict c, double q,
                                             std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) b[i] = q * c[i];
}

WGB_STREAM_CLONES void wgb_host_stream_add(double* __restrict c, const double* __restrict a, const double* __restrict b,
                                           std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

WGB_STREAM_CLONES void wgb_host_stream_triad(double* __restrict a, const double* __restrict b,
                                             const double* __restrict c, double q, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) a[i] = b[i] + q * c[i];
}

}  // extern "C"

namespace wgb::host {

namespace {

// The next pass's input pointers and scalar "depend" on the last element the previous pass
// wrote: the empty asm takes it as an input and may (for all the compiler knows) change the
// pointers and the scalar, so no pass can be hoisted, merged or deleted. Costs one load of a
// line that is already in L1.
inline void depend_one(double last, double*& p) noexcept { asm volatile("" : "+r"(p) : "rm"(last) : "memory"); }
template <class... P>
inline void depend_on(double last, P*&... ptrs) noexcept {
  (depend_one(last, ptrs), ...);
}

}  // namespace

const char* to_string(StreamOp op) noexcept {
  switch (op) {
    case StreamOp::Copy: return "copy";
    case StreamOp::Scale: return "scale";
    case StreamOp::Add: return "add";
    case StreamOp::Triad: return "triad";
  }
  return "";
}

int arrays_touched(StreamOp op) noexcept { return op == StreamOp::Copy || op == StreamOp::Scale ? 2 : 3; }

int flops_per_element(StreamOp op) noexcept {
  switch (op) {
    case StreamOp::Copy: return 0;
    case StreamOp::Scale:
    case StreamOp::Add: return 1;
    case StreamOp::Triad: return 2;
  }
  return 0;
}

void stream_repeat(StreamOp op, double* a, double* b, double* c, std::size_t n, std::uint64_t repeat) {
  if (n == 0) return;
  double q = kStreamScalar;
  for (std::uint64_t r = 0; r < repeat; ++r) {
    switch (op) {
      case StreamOp::Copy:
        wgb_host_stream_copy(c, a, n);
        depend_on(c[n - 1], a, c);
        break;
      case StreamOp::Scale:
        wgb_host_stream_scale(b, c, q, n);
        depend_on(b[n - 1], b, c);
        break;
      case StreamOp::Add:
        wgb_host_stream_add(c, a, b, n);
        depend_on(c[n - 1], a, b, c);
        break;
      case StreamOp::Triad:
        wgb_host_stream_triad(a, b, c, q, n);
        depend_on(a[n - 1], a, b, c);
        break;
    }
    // A data dependency on the scalar as well: q + 0*x is q for finite x, but the compiler may
    // not fold it (x could be NaN or infinite) so q depends on the previous pass's output.
    if (op == StreamOp::Scale || op == StreamOp::Triad) q = q + 0.0 * (op == StreamOp::Scale ? b[0] : a[0]);
  }
  keep(q);
}

std::string stream_isa() {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return "avx512f";
  if (__builtin_cpu_supports("avx2")) return "avx2";
#endif
  return "default";
}

void StreamModel::apply(StreamOp op) noexcept {
  switch (op) {
    case StreamOp::Copy: c = a; break;
    case StreamOp::Scale: b = kStreamScalar * c; break;
    case StreamOp::Add: c = a + b; break;
    case StreamOp::Triad: a = b + kStreamScalar * c; break;
  }
}

double stream_relative_error(const double* x, std::size_t n, double expected) noexcept {
  if (n == 0) return 0;
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += std::fabs(x[i] - expected);
  const double avg = sum / static_cast<double>(n);
  return expected != 0 ? std::fabs(avg / expected) : avg;
}

}  // namespace wgb::host
