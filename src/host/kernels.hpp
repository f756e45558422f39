// The host kernels (timed by harness.hpp): STREAM copy/scale/add/triad (McCalpin),
// peak FMA rate in f32 and f64 with explicit vector FMA instructions, dependent loads through a
// single random cycle (Sattolo), and the dependent add chain that measures the core clock.
//
// The vector kernels are compiled per instruction set in one binary: STREAM with
// target_clones (the ifunc resolver picks the widest the CPU has), FMA with one function per ISA
// (target attributes + intrinsics) chosen at run time. The FMA functions have C names so their
// disassembly can be checked: objdump -d --disassemble=wgb_host_fma_f32_avx512 <binary>
// (see docs/host.md and tests/unit/host_kernels_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace wgb::host {

// ---- STREAM ----------------------------------------------------------------------------------

enum class StreamOp { Copy, Scale, Add, Triad };
const char* to_string(StreamOp op) noexcept;
// Arrays each kernel touches (BabelStream's weight): copy/scale 2, add/triad 3.
int arrays_touched(StreamOp op) noexcept;
// Floating-point operations per element: copy 0, scale 1, add 1, triad 2.
int flops_per_element(StreamOp op) noexcept;

inline constexpr double kStreamScalar = 3.0;  // STREAM's `scalar`

// One member's block, `repeat` times. copy c=a; scale b=q*c; add c=a+b; triad a=b+q*c. Between
// repeats the next pass's inputs are made to depend (for the compiler) on the previous pass's last
// output, so the loop cannot be hoisted or collapsed.
void stream_repeat(StreamOp op, double* a, double* b, double* c, std::size_t n, std::uint64_t repeat);
// The clone the ifunc resolver dispatches to on this CPU ("avx512f", "avx2", "default").
std::string stream_isa();

// The closed-form STREAM check (McCalpin's checkSTREAMresults): every element of each array
// holds the same value, and applying the kernels to scalars predicts it exactly.
struct StreamModel {
  double a = 1.0, b = 2.0, c = 0.0;  // STREAM's initial values
  void apply(StreamOp op) noexcept;
};
// Mean relative error of an array against its expected value (STREAM's test; epsilon 1e-13).
double stream_relative_error(const double* x, std::size_t n, double expected) noexcept;
inline constexpr double kStreamEpsilon = 1e-13;

// ---- FMA peak --------------------------------------------------------------------------------

enum class FmaIsa { Avx512, Avx2, Scalar };
const char* to_string(FmaIsa isa) noexcept;
// Widest first; Scalar (std::fma, not a peak) always present.
std::vector<FmaIsa> available_fma_isas();

// Independent accumulators >= FMA latency x FMA issue rate (4 cycles x 2 pipes on current x86
// cores = 8): AVX-512 uses 16 (of 32 registers), AVX2 12 (of 16), leaving room for the constants.
struct FmaShape {
  unsigned lanes = 1;         // elements per vector
  unsigned accumulators = 1;  // independent vector chains
  std::size_t state() const { return std::size_t{lanes} * accumulators; }
  double flops_per_iteration() const { return 2.0 * lanes * accumulators; }
};
FmaShape fma_shape(FmaIsa isa, bool f64) noexcept;

// state (fma_shape(...).state() values) <- state * m + a, iterations times, every step fused.
void fma_f32(FmaIsa isa, float* state, float m, float a, std::uint64_t iterations);
void fma_f64(FmaIsa isa, double* state, double m, double a, std::uint64_t iterations);
// Scalar reference with std::fma (one rounding per step): bit-identical to a true FMA kernel.
void fma_reference_f32(float* state, std::size_t n, float m, float a, std::uint64_t iterations);
void fma_reference_f64(double* state, std::size_t n, double m, double a, std::uint64_t iterations);

// ---- dependent-load latency --------------------------------------------------------------------

inline constexpr std::size_t kNodeStride = 64;  // one node per cache line

// Links `nodes` nodes spaced `stride` bytes apart into ONE random cycle (Sattolo's algorithm:
// every node is visited before the walk returns), each node holding the address of the next.
// Deterministic for a seed. Touches the buffer linearly first, then shuffles.
void build_cycle(void* base, std::size_t nodes, std::size_t stride, std::uint64_t seed);
// Follows `hops` pointers from p; each load depends on the previous one.
const void* chase(const void* p, std::uint64_t hops);
// Hops until the walk from `start` returns to it (at most `limit`; limit+1 means it did not).
std::size_t cycle_length(const void* start, std::size_t limit);

// ---- clock ------------------------------------------------------------------------------------

// kAddsPerIteration dependent integer adds per iteration (1 cycle each on current x86 and Arm
// cores), so cycles = adds and MHz = adds / microseconds. Returns the sum (= adds) for a check.
inline constexpr int kAddsPerIteration = 100;
std::uint64_t add_chain(std::uint64_t iterations);

}  // namespace wgb::host
