// The subgroup-matrix family: multiply-accumulate throughput of Dawn's experimental
// subgroup matrices (tensor cores where the backend maps them), one benchmark per configuration an
// adapter reports: subgroup-matrix-<component>-<result>-<M>x<N>x<K>.
//
// The built-in catalog is static (it exists before any device), so it holds the configurations
// known from real adapters (kKnownShapes: the H200's ten); with_adapter_shapes() adds the ones a
// new adapter reports, so its shapes appear without code changes. Everything here except
// prepare() is pure and unit-tested with fabricated configuration lists.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "webgpu_bench/context.hpp"
#include "webgpu_bench/definition.hpp"

namespace wgb::catalog::subgroup_matrix {

// ---- shapes
// ---------------------------------------------------------------------------------------

enum class Scalar { F16, F32, I8, U8, I32, U32 };

std::optional<Scalar> parse_scalar(std::string_view name);
const char* name(Scalar s);
// The WGSL type of the storage array that holds matrices of this component type: i8/u8 are packed
// four to a 32-bit word (array<i32>/array<u32>), where offset and stride count 32-bit words.
const char* storage_type(Scalar s);
bool is_float(Scalar s);
bool is_signed(Scalar s);
bool is_packed(Scalar s);  // i8, u8

// A configuration the kernels can run: result matrix M x N, left M x K, right K x N.
struct Shape {
  Scalar component = Scalar::F16, result = Scalar::F32;
  std::uint32_t m = 0, n = 0, k = 0;
  bool uses_f16() const { return component == Scalar::F16 || result == Scalar::F16; }
  double ops_per_mma() const { return 2.0 * m * n * k; }  // a multiply-add counts 2
};

// Checks an adapter-reported configuration; nullopt (with the reason in *why) for one these kernels
// cannot express: an unknown type, a zero or huge dimension, an i8/u8 result, or packed operands
// whose rows are not whole 32-bit words.
std::optional<Shape> to_shape(const gpu::SubgroupMatrixShape& s, std::string* why = nullptr);
gpu::SubgroupMatrixShape to_config(const Shape& s);

// "subgroup-matrix-f16-f32-16x16x16" (component, result, M x N x K).
std::string benchmark_id(const Shape& s);
// "f16->f32 16x16x16"
std::string describe(const Shape& s);

// The configurations the static catalog holds: those an NVIDIA H200 reports through Vulkan.
const std::vector<gpu::SubgroupMatrixShape>& known_shapes();

// ---- the kernel
// -----------------------------------------------------------------------------------

// How one kernel is built. Each workgroup is one subgroup; it loads A, B0, B1 and its accumulators
// once, then runs `iterations` x `unroll` multiply-accumulates on each of `accumulators`
// independent accumulators (alternating B0 and B1), plus one final multiply-accumulate with B0 on
// each.
struct KernelConfig {
  std::uint32_t subgroup_size =
      32;                          // workgroup size x: Dawn requires a multiple of maxSubgroupSize
  std::uint32_t accumulators = 8;  // independent dependency chains per subgroup
  std::uint32_t unroll = 4;        // multiply-accumulates per accumulator per loop iteration (even)
  // 16384 x 4 workgroups of one subgroup each: about 500 per SM on a 132-SM GPU, so the last
  // partial wave of a dispatch costs a few percent at most; within the per-dimension limit (65535)
  // every WebGPU device has.
  std::uint32_t workgroups_x = 16384, workgroups_y = 4;
  std::uint64_t workgroups() const {
    return static_cast<std::uint64_t>(workgroups_x) * workgroups_y;
  }
};
inline constexpr std::uint32_t kProbeSlots = 4;  // workgroups whose results are stored and checked

// The WGSL of one shape (closely following Dawn's own SubgroupMatrixTests shaders).
std::string kernel_wgsl(const Shape& s, const KernelConfig& cfg = {});

// Multiply-accumulates one workgroup (= one subgroup) executes at `iterations`.
double mma_per_workgroup(const KernelConfig& cfg, std::uint64_t iterations);
// The work model of one dispatch: operations = workgroups x MMAs x 2*M*N*K.
WorkModel work_model(const Shape& s, const KernelConfig& cfg, std::uint64_t iterations);
// The workgroups whose accumulators are stored and checked: the first, two inner ones, the last.
std::array<std::uint32_t, kProbeSlots> probe_workgroups(const KernelConfig& cfg);

// ---- host data and reference
// ---------------------------------------------------------------------

// Small integers, so every product and partial sum is exact in every result type.
struct Operands {
  std::vector<std::int64_t> a;   // M x K, row-major
  std::vector<std::int64_t> b0;  // K x N, row-major
  std::vector<std::int64_t> b1;  // K x N, row-major (= b0, or -b0 in cancel mode)
  std::vector<std::int64_t> c;  // accumulators x (M x N), row-major: the accumulators' start values
};

// Accumulate: b1 = b0, so the result grows by `unroll` x A*B0 per iteration and the closed form
// proves how many iterations ran; the knob is capped so it stays exact. Cancel: b1 = -b0 (for
// result types too narrow to grow, i.e. f16), so the accumulators return to C every two steps and
// stay small; the final A*B0 step still checks the multiply exactly.
enum class Mode { Accumulate, Cancel };
const char* name(Mode m);

struct Plan {
  Mode mode = Mode::Accumulate;
  Operands operands;
  std::uint64_t max_iterations = 1;  // the largest knob for which every value stays exact
};

// Largest magnitude every integer up to which the result type holds exactly (and below the 2^31
// sentinel the validator pre-fills integer outputs with).
double exact_limit(Scalar result);
// Seeded operands for `s` and the mode/knob bound that keeps the result exact. nullopt when no
// mode can keep it exact (cannot happen for the types to_shape accepts).
std::optional<Plan> make_plan(const Shape& s, const KernelConfig& cfg, std::uint32_t seed);

// The closed form of every accumulator after `iterations`:
//   C + A*B0 + iterations * (unroll/2) * (A*B0 + A*B1)
std::vector<std::int64_t> expected_results(const Shape& s, const KernelConfig& cfg,
                                           const Operands& ops, std::uint64_t iterations);
// The same by stepping the kernel's loop one multiply-accumulate at a time (tests only).
std::vector<std::int64_t> simulate_results(const Shape& s, const KernelConfig& cfg,
                                           const Operands& ops, std::uint64_t iterations);

// Encodes values as the storage array of type `s` holds them (f16 bits, packed i8/u8 bytes, ...),
// padded to whole 32-bit words. Values must be representable.
std::vector<std::byte> encode(Scalar s, const std::vector<std::int64_t>& values);
// Decodes `count` values of result type `s` (f16/f32 as their exact value, NaN stays NaN).
std::vector<double> decode(Scalar s, const std::vector<std::byte>& bytes, std::size_t count);
std::uint16_t f16_from_int(std::int64_t v);  // exact for |v| <= 2048
double f16_to_double(std::uint16_t bits);

// Compares decoded results with the closed form; the error names the first mismatch (slot,
// accumulator, row, column, got, expected) and how many differ.
Status compare_results(const Shape& s, const KernelConfig& cfg, const std::vector<double>& got,
                       const std::vector<std::int64_t>& expected_one_slot, std::uint32_t slots);

// ---- the workload
// ---------------------------------------------------------------------------------

// Builds the timed workload for `s` from `source` on `gpu` without checking support (prepare()
// checks first): operands, the pipeline, the knob (iterations, capped by the plan) and the
// validator. The WGSL must keep the generated kernel's bindings: 0 A, 1 B0, 2 B1, 3 C (storage,
// read), 4 results (storage, read_write), 5 params {iterations, 3 x pad, probes: vec4<u32>}.
// `variant_note`, if any, goes into the row's parameters.wgsl_variant.
Expected<std::unique_ptr<Workload>> build_workload(gpu::Context& gpu, const Shape& s,
                                                   const KernelConfig& cfg, const std::string& id,
                                                   const std::string& source,
                                                   const std::string& variant_note = "");

// ---- definitions
// ----------------------------------------------------------------------------------

// One definition per distinct valid configuration, in the given order (unusable ones are left out).
// `subgroup_size` is the workgroup size written into each definition's WGSL; prepare() regenerates
// the kernel for the device's real maximum subgroup size when it differs.
std::vector<BenchmarkDefinition> definitions_for(
    const std::vector<gpu::SubgroupMatrixShape>& shapes, std::uint32_t subgroup_size = 32);

// Definitions for the configurations `adapter` reports that `catalog` does not already hold.
std::vector<BenchmarkDefinition> adapter_only_definitions(
    const std::vector<BenchmarkDefinition>& catalog, const gpu::AdapterDescription& adapter);
// `catalog` with adapter_only_definitions inserted after its last subgroup-matrix definition (or at
// the end): the hook for `run --experimental` to measure a new GPU's shapes.
std::vector<BenchmarkDefinition> with_adapter_shapes(std::vector<BenchmarkDefinition> catalog,
                                                     const gpu::AdapterDescription& adapter);

inline constexpr const char* kFeature = "chromium-experimental-subgroup-matrix";
inline constexpr const char* kIdPrefix = "subgroup-matrix-";

}  // namespace wgb::catalog::subgroup_matrix
