// The ALU probe table: for each probe its template and substitutions, what it counts (the work
// model per invocation per loop trip), its operands, and the host reference of what each
// invocation stores (references.hpp).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "catalog/compute/alu.hpp"
#include "catalog/compute/references.hpp"

namespace wgb::catalog::alu {

namespace {

using u32 = std::uint32_t;
using i32 = std::int32_t;
using namespace reference;  // NOLINT: the host references, by name in the table

// ---- the table -----------------------------------------------------------------------------------

const Metric kFlops{"flops", "FLOP", "Floating-point ops (an FMA counts 2)"};
const Metric kMadOps{"ops", "OP", "Integer ops (a multiply-add counts 2)"};
const Metric kConversions{"ops", "OP", "Conversions (each direction counts 1)"};
const char* const kConversionNote = "8 chains x 32 steps x 2 conversions per invocation per loop trip";
const Metric kDotOps{"ops", "OP", "Integer ops (a 4-wide 8-bit dot product with its accumulate counts 8)"};

using Reference = std::function<Expectation(const Params&, u32)>;

// The fields every probe states: what it is, its kernel, what it counts and how much per invocation
// per loop trip, and its host reference. The callers add what only some probes have (operands,
// substitutions, features, iteration cap, tolerance).
Probe probe(std::string id, std::string label, std::string description, std::string kernel, Metric metric,
            std::string peak_class, double ops_per_iteration, std::string work_note, Reference reference) {
  Probe p;
  p.id = std::move(id);
  p.label = std::move(label);
  p.description = std::move(description);
  p.kernel = std::move(kernel);
  p.metric = std::move(metric);
  p.peak_class = std::move(peak_class);
  p.ops_per_iteration = ops_per_iteration;
  p.work_note = std::move(work_note);
  p.reference = std::move(reference);
  return p;
}

// The vec4 FMA probe's step: even lanes x' = a x + b, odd lanes x' = b x + a (fma_vec4.wgsl).
auto vec4_step(const Params& p) {
  return [&p](double x, u32 lane) { return lane % 2 == 0 ? x * p.f[0] + p.f[1] : x * p.f[1] + p.f[0]; };
}

Probe fma_probe(std::string type, std::string shape, std::string kernel, std::string what,
                Reference ref, std::array<float, 4> f, Substitutions substitutions = {}) {
  const bool half = type == "f16";
  Probe p = probe(type + "-fma-" + shape, type + " FMA, " + shape,
                  what + (half ? " In f16 (needs shader-f16)." : "") +
                      " Counts results: 2 FLOP per FMA (256 FMAs per invocation per loop trip).",
                  std::move(kernel), kFlops, half ? "fp16" : "fp32", 512,
                  "256 FMAs x 2 FLOP per invocation per loop trip", std::move(ref));
  p.substitutions = std::move(substitutions);
  p.f16 = half;
  std::copy(f.begin(), f.end(), p.f);
  p.tolerance = half ? 0.015 : 1e-5;
  if (!half) p.fused_form = "fma()";  // the f32 rows record whether the driver fuses it
  return p;
}

Probe unary_probe(std::string type, std::string name, std::string op, std::string what, Metric metric,
                  double ops_per_step, std::function<double(double, double, const Params&)> step,
                  std::array<float, 4> f, double tol32, double tol16, std::uint64_t max_iterations) {
  const bool half = type == "f16";
  std::string description =
      what + (half ? " In f16 (needs shader-f16)." : "") +
      " Eight independent chains, 32 steps each per loop trip; d is a per-trip operand (the top byte "
      "of a hash of the trip index and a uniform, / 256, times a scale), so every trip moves the fixed "
      "point and the result depends on the trip count. Counts results: " +
      metric.name + ".";
  Probe p = probe(type + "-" + name, type + " " + name, std::move(description), "float_unary", std::move(metric),
                  "alu", 256 * ops_per_step,
                  ops_per_step == 1 ? "8 chains x 32 steps per invocation per loop trip"
                                    : "8 chains x 32 steps x 2 per invocation per loop trip",
                  [step = std::move(step)](const Params& prm, u32 t) {
                    return float_trip_chains<8>(prm, t, [&](double x, double d) { return step(x, d, prm); });
                  });
  // The steps of a trip in passes of four (f32) or one (f16): float_unary.wgsl says why.
  p.substitutions = {{"OP", std::move(op)}, {"GROUPS", half ? "32" : "8"}, {"GROUP_LEN", half ? "1" : "4"}};
  p.f16 = half;
  p.max_iterations = max_iterations;
  std::copy(f.begin(), f.end(), p.f);
  p.tolerance = half ? tol16 : tol32;
  return p;
}

// A conversion round trip: 8 chains x 32 steps x 2 conversions per invocation per loop trip, the
// chain x' = back(to(x)) * m + c with m = 0.5 and c = `addend`, at most 2^14 trips.
Probe conversion_probe(std::string id, std::string label, std::string description, std::string kernel,
                       float addend, Reference reference) {
  Probe p = probe(std::move(id), std::move(label), std::move(description), std::move(kernel), kConversions, "alu",
                  512, kConversionNote, std::move(reference));
  p.max_iterations = 1 << 14;
  p.f[0] = 0.5f;
  p.f[1] = addend;
  return p;
}

Probe bit_probe(std::string name, std::string op, std::string what, std::string counted, u32 (*fn)(u32)) {
  std::string description = what +
                            " Eight independent chains, 32 steps each per loop trip; the add of a per-chain operand c "
                            "after each keeps the chain varying, and c moves every trip (plus a hash of the trip index "
                            "and a uniform), so the result depends on the trip count. Counts results: 1 per " +
                            counted + " (the adds are not counted).";
  Probe p = probe("u32-" + name, "u32 " + name, std::move(description), "u32_unary",
                  {"ops", "OP", "Bit operations (the add after each is not counted)"}, "alu", 256,
                  "8 chains x 32 steps per invocation per loop trip", [fn](const Params& prm, u32 t) {
                    u32 x[8], c[8];
                    chains_and_operands(prm, t, x, c);
                    for (u32 n = 0; n < prm.iterations; ++n) {
                      const u32 w = trip_word(prm, n);
                      for (u32 s = 0; s < 32; ++s) {
                        for (u32 k = 0; k < 8; ++k) x[k] = fn(x[k]) + (c[k] + w);
                      }
                    }
                    return exact(wrapping_sum(x));
                  });
  p.substitutions = {{"OP", std::move(op)}};
  return p;
}

std::vector<Probe> build() {
  std::vector<Probe> v;
  const std::array<float, 4> chain_ops{0.9375f, 0.125f, 0.0f, 0.0f};  // x' = 0.9375 x + 0.125 -> 2
  const std::array<float, 4> matvec_ops{0.875f, 0.125f, 0.0f, 0.0f};  // diagonal, addend
  // vec4: (a, b) = (31/32, 1/16); even lanes step x' = a x + b (-> 2), odd lanes x' = b x + a
  // (-> 31/30), so each operand vector holds two distinct uniform values (kernels/compute/fma_vec4.wgsl
  // says why). a = 31/32 makes a 32-step trip contract as much as 16 steps of 0.9375 did, so f16
  // lanes still move between trips 1, 2 and 3. f[2], f[3] repeat (a, b) for the kernel's previous
  // form (bench/variants/alu-previous).
  const std::array<float, 4> vec4_ops{0.96875f, 0.0625f, 0.96875f, 0.0625f};
  for (const std::string type : {"f32", "f16"}) {
    const auto scalar_ref = [](const Params& p, u32 t) {
      return float_chains<8>(p, t, 32, [&](double x) { return x * p.f[0] + p.f[1]; });
    };
    // f32: the multiply-add written out, as webgpu-bench-core's f32-fma-scalar has it: WGSL lets the
    // compiler contract it into one FMA, and f32-fma-builtin beside it shows whether it does.
    const bool f32 = type == "f32";
    v.push_back(fma_probe(
        type, "scalar", "fma_scalar",
        f32 ? "Eight independent scalar chains x = x * m + c per invocation, 32 steps each per loop "
              "trip, four trips per pass of the kernel's loop; m, c from a uniform, starting values "
              "from the invocation id. Written as a multiply and an add, which WGSL lets the compiler "
              "contract into one FMA: f32-fma-builtin runs the same chains with fma() asked for by "
              "name, so equal rates mean the compiler contracts, and a lower rate here means it "
              "does not."
            : "Eight independent scalar FMA chains x = fma(x, m, c) per invocation, 32 steps each per "
              "loop trip, one trip per pass of the kernel's loop (a longer straight-line body ran "
              "slower on a CPU driver that converts around every f16 step); m, c from a uniform, "
              "starting values from the invocation id. Written with fma(), where webgpu-bench-core's "
              "f16-fma-scalar writes x * m + c and leaves the contraction to the compiler.",
        scalar_ref, chain_ops,
        {{"STEP", f32 ? "x$k * m + c" : "fma(x$k, m, c)"}, {"PASS_TRIPS", f32 ? "4" : "1"},
         {"PASS_LEN", f32 ? "128" : "32"}}));
    if (f32) {
      v.back().fused_form = "x * m + c";  // fma_probe set fma(); this kernel writes the multiply-add
      v.push_back(fma_probe(type, "builtin", "fma_scalar",
                            "The f32-fma-scalar chains with the fused multiply-add asked for by name: eight "
                            "independent scalar chains x = fma(x, m, c) per invocation, 32 steps each per loop "
                            "trip. Equal to f32-fma-scalar where the compiler contracts x * m + c into an FMA, "
                            "faster where it does not.",
                            scalar_ref, chain_ops,
                            {{"STEP", "fma(x$k, m, c)"}, {"PASS_TRIPS", "4"}, {"PASS_LEN", "128"}}));
      v.back().label = "f32 FMA, fma() builtin";
    }
    const char* const vec4_f32 =
        "Two independent vec4 FMA chains (8 lanes) per invocation, 32 steps each per loop trip, four trips per "
        "pass of the kernel's loop (256 vec4 FMAs straight-line: the fastest body on NVIDIA); operand vectors "
        "(a, b, a, b) and (b, a, b, a) from a uniform, two values in all, so a CPU driver keeps the chains "
        "interleaved (with four chains and four values lavapipe ran them one after another, 2x slower; the "
        "reference suite's vec4 probe uses eight chains and a 32-FMA body).";
    const char* const vec4_f16 =
        "Four independent vec4 FMA chains (16 lanes) per invocation, 16 steps each per loop trip; operand "
        "vectors (a, b, a, b) and (b, a, b, a) from a uniform. Four chains where f32 has two: NVIDIA's packed "
        "f16 FMAs need eight independent half2 chains per invocation (two chains ran at 0.82 of CUDA's rate on "
        "an H200). Two forms: on GPUs four trips per pass of the kernel's loop, the addend read from the "
        "uniform apart from the multiplier (0.99 of CUDA on an H200; one trip per pass 0.93, the addend built "
        "from the multiplier's values 0.51); on CPU adapters one trip per pass, the addend built from a and b, "
        "as the plain kernel has it (a CPU driver that computes f16 in f32 ran the GPU form at 0.36 of the "
        "plain kernel). The row's kernel_form says which ran.";
    const Reference vec4_ref =
        f32 ? Reference([](const Params& p, u32 t) { return float_chains<8>(p, t, 32, vec4_step(p)); })
            : Reference([](const Params& p, u32 t) { return float_chains<16>(p, t, 16, vec4_step(p)); });
    v.push_back(fma_probe(type, "vec4", "fma_vec4", f32 ? vec4_f32 : vec4_f16, vec4_ref, vec4_ops,
                          {{"CVEC", f32 ? "vec4<T>(b, a, b, a)" : "vec4<T>(T(p.f.w), T(p.f.z), T(p.f.w), T(p.f.z))"},
                           {"CHAINS", f32 ? "2" : "4"},
                           {"STEPS", f32 ? "32" : "16"},
                           {"PASS_TRIPS", "4"},
                           {"PASS_STEPS", f32 ? "128" : "64"}}));
    if (!f32) {
      v.back().cpu_substitutions = {{"CVEC", "vec4<T>(b, a, b, a)"}, {"PASS_TRIPS", "1"}, {"PASS_STEPS", "16"}};
    }
    v.push_back(fma_probe(type, "mat4", "fma_mat4",
                          "A 4x4 matrix state per invocation updated as S' = M S + C (M, C from a uniform; 64 FMAs "
                          "per update, written as column fma() so each multiply-add is one fused operation), four "
                          "updates per loop trip.",
                          fma_mat4_ref, {0, 0, 0, 0}));
    v.push_back(fma_probe(type, "matvec", "fma_matvec",
                          "A register-resident 4x4 matrix per invocation (hashed from the invocation id) applied to "
                          "two independent vectors, x' = A x + c (32 FMAs per update), eight updates per loop trip.",
                          fma_matvec_ref, matvec_ops));
  }
  auto mad = [&](std::string shape, std::string kernel, std::string what, Reference ref) {
    v.push_back(probe("i32-mad-" + shape, "i32 multiply-add, " + shape,
                      what + " Wrapping 32-bit integer arithmetic. Counts results: 2 ops per multiply-add (256 per "
                             "invocation per loop trip).",
                      std::move(kernel), kMadOps, "int32", 512, "256 multiply-adds x 2 ops per invocation per loop trip",
                      std::move(ref)));
  };
  mad("scalar", "mad_scalar", "Eight independent chains x = x * m + c per invocation (m odd), 32 steps each per loop trip.",
      [](const Params& p, u32 t) { return int_chains<8>(p, t, 32, [&](u32 x) { return x * p.ia + p.ib; }); });
  mad("vec4", "mad_vec4",
      "Two independent vec4<i32> chains x = x * m + c (8 lanes), 32 steps each per loop trip (with four chains a CPU "
      "driver, lavapipe, ran them one after another, bound by the multiply's latency).",
      [](const Params& p, u32 t) { return int_chains<8>(p, t, 32, [&](u32 x) { return x * p.ia + p.ib; }); });
  mad("mat4", "mad_mat4",
      "A 4x4 i32 matrix state per invocation updated as S' = M S + C (M, C from a uniform; 64 multiply-adds per "
      "update), four updates per loop trip.",
      mad_mat4_ref);
  mad("matvec", "mad_matvec",
      "A register-resident 4x4 i32 matrix per invocation applied to two independent vectors, x' = A x + c (32 "
      "multiply-adds per update), eight updates per loop trip.",
      mad_matvec_ref);

  auto dot = [&](std::string id, std::string label, std::string kernel, Substitutions subst, std::string what,
                 u32 dots_per_trip, Reference ref) {
    Probe p = probe(std::move(id), std::move(label),
                    what + fmt::format(" Needs the WGSL language feature packed_4x8_integer_dot_product. Counts "
                                       "results: 8 ops per dot product with its accumulate (4 multiplies, 4 adds; {} "
                                       "dot products per invocation per loop trip).",
                                       dots_per_trip),
                    std::move(kernel), kDotOps, "int8-dot", dots_per_trip * 8,
                    fmt::format("{} dot products x 8 ops per invocation per loop trip", dots_per_trip), std::move(ref));
    p.substitutions = std::move(subst);
    p.dot4 = true;
    v.push_back(std::move(p));
  };
  dot("i8-dp4a", "int8 dot product (dot4I8Packed)", "dp4a", {{"DOT", "dot4I8Packed"}, {"ACC", "i32"}},
      "Eight i32 accumulator chains per invocation, x_k = x_k + dot4I8Packed(x_k, x_(k+1 mod 8)): both operands "
      "change every step, so no dot product is loop-invariant, 128 steps each per loop trip.",
      8 * kDp4aSteps, dp4a_ref<dot4_i8>);
  dot("i8-dp4a-matvec", "int8 matvec (dot4I8Packed)", "dp4a_matvec", {},
      "A register-resident 4x16 int8 matrix per invocation times a 16-element int8 vector (x' = W x + c, the four "
      "i32 outputs' bytes being the next input; 16 dot products per update), 16 updates per loop trip.",
      256, dp4a_matvec_ref);
  dot("u8-dp4a", "uint8 dot product (dot4U8Packed)", "dp4a", {{"DOT", "dot4U8Packed"}, {"ACC", "u32"}},
      "Eight u32 accumulator chains per invocation, x_k = x_k + dot4U8Packed(x_k, x_(k+1 mod 8)), 128 steps each "
      "per loop trip.",
      8 * kDp4aSteps, dp4a_ref<dot4_u8>);

  v.push_back(probe(
      "u32-shift", "u32 variable shift",
      "Eight independent u32 chains per invocation, four shifting left and four right by a variable amount that "
      "cycles through all 32 values over the 32 steps of a loop trip; an XOR with a per-chain operand after each "
      "shift keeps the bits alive. Counts results: 1 per shift (256 per invocation per loop trip; the XOR is not counted).",
      "u32_shift", {"ops", "OP", "Shifts (the XOR after each is not counted)"}, "alu", 256,
      "8 chains x 32 shifts per invocation per loop trip", shift_ref));

  struct BranchKind {
    const char* name;
    const char* cond;
    const char* what;
    Expectation (*ref)(const Params&, u32);
  };
  const BranchKind branches[] = {
      {"none", "true", "with no branch (the condition is the constant true, so only side A remains)",
       branch_ref<Branch::None>},
      {"uniform", "((n ^ p.ib) & 1u) == 0u",
       "inside an if/else whose condition alternates per loop trip and agrees across all invocations",
       branch_ref<Branch::Uniform>},
      {"coherent", "((n ^ wid.x) & 1u) == 0u",
       "inside an if/else whose condition agrees within each workgroup and differs between neighbouring workgroups",
       branch_ref<Branch::Coherent>},
      {"divergent", "((n ^ lid) & 1u) == 0u",
       "inside an if/else whose condition flips from lane to lane (SIMT divergence: a SIMD group runs both sides)",
       branch_ref<Branch::Divergent>},
  };
  for (const auto& b : branches) {
    Probe p = probe(std::string("branch-") + b.name, std::string("Branch, ") + b.name,
                    std::string("The f32 scalar FMA chains (eight per invocation, 32 steps per loop trip) ") + b.what +
                        "; both sides do equal work (side B swaps chain pairs and uses other operands). Counts "
                        "results of the side taken: 2 FLOP per FMA (256 FMAs per invocation per loop trip).",
                    "branch", kFlops, "fp32", 512, "256 FMAs x 2 FLOP per invocation per loop trip (one side)", b.ref);
    p.substitutions = {{"COND", b.cond}};
    p.fused_form = "fma()";
    p.f[0] = 0.9375f;  // side A: x' = 0.9375 x + 0.125 -> 2
    p.f[1] = 0.125f;
    p.f[2] = 0.875f;  // side B: x' = 0.875 y + 0.375 -> 3
    p.f[3] = 0.375f;
    p.tolerance = 1e-5;
    v.push_back(std::move(p));
  }

  // Transcendental and division probes: each map contracts towards a fixed point that the per-trip
  // operand d in [0, 1) moves (cn = c + d).
  for (const std::string type : {"f32", "f16"}) {
    v.push_back(unary_probe(
        type, "div", "m / x$k + cn",
        "Division chains x = m / x + (c + d) (m = 1, c = 2, d in [0, 1): contracts towards a fixed "
        "point in [2.41, 3.30)).",
        {"ops", "OP", "Divisions (the add is not counted)"}, 1,
        [](double x, double d, const Params& p) { return p.f[0] / x + (p.f[1] + d); }, {1.0f, 2.0f, 0.0f, 1.0f}, 1e-5,
        0.015, 1 << 14));
    v.push_back(unary_probe(
        type, "sqrt", "sqrt(x$k) + d",
        "Square-root chains x = sqrt(x) + d (d in [0, 1): contracts towards a fixed point in "
        "[1, 2.62)).",
        {"ops", "OP", "Square roots (the add is not counted)"}, 1,
        [](double x, double d, const Params&) { return std::sqrt(x) + d; }, {0.0f, 0.0f, 0.0f, 1.0f}, 1e-5, 0.015,
        1 << 14));
    v.push_back(unary_probe(
        type, "rsqrt", "inverseSqrt(x$k) + d",
        "Inverse-square-root chains x = inverseSqrt(x) + d (d in [0, 1): contracts towards a fixed "
        "point in [1, 1.76)).",
        {"ops", "OP", "Inverse square roots (the add is not counted)"}, 1,
        [](double x, double d, const Params&) { return 1.0 / std::sqrt(x) + d; }, {0.0f, 0.0f, 0.0f, 1.0f}, 1e-5, 0.015,
        1 << 14));
    v.push_back(unary_probe(
        type, "log", "log(x$k) + cn",
        "Natural-logarithm chains x = log(x) + (c + d) (c = 2, d in [0, 1): contracts towards a "
        "fixed point in [3.14, 4.51)).",
        {"ops", "OP", "Logarithms (the add is not counted)"}, 1,
        [](double x, double d, const Params& p) { return std::log(x) + (p.f[1] + d); }, {0.0f, 2.0f, 0.0f, 1.0f}, 1e-3,
        0.05, 1 << 13));
    v.push_back(unary_probe(
        type, "pow", "pow(x$k, e) + d",
        "Power chains x = pow(x, e) + d (e = 0.75, d in [0, 1): contracts towards a fixed point "
        "in [1, 3.64)).",
        {"ops", "OP", "Powers (the add is not counted)"}, 1,
        [](double x, double d, const Params& p) { return std::pow(x, static_cast<double>(p.f[2])) + d; },
        {0.0f, 0.0f, 0.75f, 1.0f}, 1e-3, 0.05, 1 << 13));
    v.push_back(unary_probe(
        type, "sincos", "sin(x$k) + cos(x$k) + d",
        "Chains x = sin(x) + cos(x) + d, a sine and a cosine of the same argument per step "
        "(d in [0, 0.25): bounded by d +- sqrt(2), contracts towards a fixed point in [1.25, 1.41), "
        "below pi / 2 where the map stops contracting; webgpu-bench-core's probe of this id chains cos(sin(x)) "
        "instead, with the same count).",
        {"ops", "OP", "Sines and cosines (each counts 1; the adds are not counted)"}, 2,
        [](double x, double d, const Params&) { return std::sin(x) + std::cos(x) + d; }, {0.0f, 0.0f, 0.0f, 0.25f},
        1e-3, 0.05, 1 << 13));
  }
  // These ids are shared with webgpu-bench-core, which counts the add of these maps too (2 per step,
  // like a multiply-add; sincos counts its two operations in both): at equal speed its figure is
  // twice this one, and the description says so.
  for (auto& p : v) {
    if (p.kernel == "float_unary" && p.ops_per_iteration == 256) {
      p.description += " webgpu-bench-core's probe of this id counts the add as well (2 per step), so at equal "
                       "speed its figure is twice this one.";
    }
  }

  {
    Probe p = probe(
        "i32-div", "i32 division",
        "Eight independent i32 chains x = a / x + b per invocation, 32 steps each per loop trip: the divisor is "
        "the loop-carried value, so no reciprocal can be hoisted (a = 152,671 from a uniform; b = 5 + a per-trip "
        "0..255 hashed from the trip index, so every trip moves the chains; x stays in [5, 30,794]: no zero "
        "divisor, no overflow). Counts results: 2 ops per step (the division and the add, as a multiply-add "
        "counts 2; 512 per invocation per loop trip), as webgpu-bench-core counts its i32-div.",
        "i32_div", {"ops", "OP", "Integer ops (a divide-add counts 2, like a multiply-add)"}, "alu", 512,
        "8 chains x 32 divide-adds x 2 ops per invocation per loop trip", i32_div_ref);
    p.max_iterations = 1 << 14;
    v.push_back(std::move(p));
  }

  v.push_back(conversion_probe(
      "i32-f32-convert", "i32 <-> f32 conversion",
      "Eight independent chains x = i32(f32(x) * h + c) per invocation (h = 0.5, c = 1000 + a per-chain 0..1023 + a "
      "per-trip 0..255 hashed from the trip index, so every trip moves the chain: every intermediate exact), "
      "32 steps each per loop trip. Counts results: 2 conversions per step (i32 to f32 and back; the multiply-add "
      "is not counted).",
      "i32_f32_convert", 1000.0f, i32_f32_ref));
  {
    Probe p = conversion_probe(
        "f32-f16-convert", "f32 <-> f16 conversion",
        "Eight independent chains x = f32(f16(x)) * m + c per invocation (m = 0.5, c = 1 + 2^-12 + a per-trip d in [0, 1) "
        "hashed from the trip index: contracts towards 2c, which moves every trip), 32 steps each per loop trip. "
        "Needs shader-f16. c carries a bit below f16's precision, so the f16 rounding moves the chain's fixed "
        "point; the result is checked against a reference that rounds to nearest even, and dropped conversions "
        "fail validation. The 32 steps of a trip run unrolled whole on GPUs and in passes of one on CPU adapters (the row's "
        "kernel_form says which ran). Counts results: 2 conversions per step (f32 to f16 and back; the multiply-add "
        "is not counted). "
        "webgpu-bench-core's probe of this id converts through pack2x16float / unpack2x16float instead, which needs "
        "no shader-f16: the same count, another instruction path.",
        // c = 1 + 2^-12 carries a bit below f16's precision, so the chain's fixed point 2c is not an
        // f16 value: with the conversions a chain settles at h / 2 + c, h the f16 value next to 2c
        // (2^-11 away), without them at 2c, 2^-12 (about 1e-4 relative) off. Exact in f32.
        "f32_f16_convert", 1.0f + 0x1p-12f,
        // The reference rounds to f16 at every step (to nearest, ties to even: IEEE's default, what
        // NVIDIA's cvt.rn and LLVM's fptrunc do; no value here is a tie).
        [](const Params& prm, u32 t) {
          return float_trip_chains<8>(
              prm, t, [&](double x, double d) { return round_to_f16(x) * prm.f[0] + (prm.f[1] + d); });
        });
    p.f16 = true;
    // A trip unrolled whole on GPUs (an H200: 20.3 TOP/s, 18.9 in passes of one), passes of one
    // step on CPU adapters (lavapipe ran a whole trip 1.4x slower than the plain kernel; f32_f16_convert.wgsl).
    p.substitutions = {{"GROUPS", "1"}, {"GROUP_LEN", "32"}};
    p.cpu_substitutions = {{"GROUPS", "32"}, {"GROUP_LEN", "1"}};
    p.f[3] = 1.0f;  // the per-trip operand's scale
    // Beside the reference's f16 rounding every operation is exact in f32 (starts on a 2^-10 grid,
    // d on a 2^-8 grid, c on a 2^-12 grid), so the tolerance is tiny and a kernel whose conversions
    // were dropped or fused away fails (checked with such a kernel).
    p.tolerance = 1e-6;
    v.push_back(std::move(p));
  }
  v.push_back(bit_probe("countonebits", "countOneBits(x$k) + cn$k", "Population-count chains x = countOneBits(x) + c.",
                        "population count", [](u32 x) { return static_cast<u32>(std::popcount(x)); }));
  v.push_back(bit_probe("reversebits", "reverseBits(x$k) + cn$k", "Bit-reversal chains x = reverseBits(x) + c.",
                        "bit reversal", reverse_bits));
  v.push_back(bit_probe("firstleadingbit", "firstLeadingBit(x$k) + cn$k",
                        "Leading-bit chains x = firstLeadingBit(x) + c (0xFFFFFFFF for 0).", "leading-bit search",
                        first_leading_bit));
  v.push_back(probe(
      "u32-packunpack", "u32 byte unpack/pack",
      "Eight independent u32 chains per invocation, 32 steps each per loop trip; a step unpacks the word's four "
      "bytes with shifts and masks, adds e to each (wrapping within the byte) and packs them again: the bit "
      "operations of unpack4xU8 / pack4xU8, written out (no builtin). A whole-word add of a per-chain operand "
      "after each step carries across the bytes, so the bytes cannot be kept unpacked between steps (without "
      "it a compiler folds the 32 steps into one add per byte, as LLVM does on lavapipe). e is odd, per chain "
      "and per trip (hashed from the trip index), so every trip moves every byte. Counts results: 2 ops per "
      "step (one unpack and one pack of a whole u32, since the compiler is free to merge the individual shifts "
      "and masks; the add is not counted; 512 per invocation per loop trip), as webgpu-bench-core counts its "
      "u32-packunpack, whose kernel lacks the add.",
      "u32_packunpack", {"ops", "OP", "Byte unpacks and packs (each of a whole u32 counts 1; the add is not counted)"},
      "alu", 512, "8 chains x 32 steps x (1 unpack + 1 pack) per invocation per loop trip", packunpack_ref));

  // Select, clamp and min/max (f32): chains like float_unary's, with a per-trip operand, in their own
  // kernel (compare_select.wgsl). Operands and starts are on a 2^-11 grid, so select's chains are
  // exact in f32; clamp and min/max contract (m = 0.75) towards 4 cn in [0.25, 0.75), clamped to
  // [0, 1] in the first steps (starts are in [1, 2)).
  v.push_back(unary_probe(
      "f32", "select", "select(x$k + cn, x$k - m, x$k > 1.0)",
      "Chains x = select(x + cn, x - m, x > 1): a bounded walk whose direction is a runtime compare (m = 1, "
      "cn = c + d, c = 0.375, d in [0, 0.125): x stays in (0, 2), every value exact in f32), as webgpu-bench-core's "
      "f32-select steps.",
      {"ops", "OP", "Selects (the compare and the add or subtract are not counted)"}, 1,
      [](double x, double d, const Params& p) { return x > 1.0 ? x - p.f[0] : x + (p.f[1] + d); },
      {1.0f, 0.375f, 0.0f, 0.125f}, 1e-6, 0, 1 << 16));
  v.push_back(unary_probe(
      "f32", "clamp", "clamp(x$k * m + cn, 0.0, 1.0)",
      "Chains x = clamp(x * m + cn, 0, 1) (m = 0.75, cn = c + d, c = 0.0625, d in [0, 0.125): contracts towards "
      "4 cn in [0.25, 0.75); the clamp binds in the first steps, whose starts are in [1, 2)). Compare with "
      "f32-minmax, the same chains counting a min and a max per step: f32-minmax at twice this rate means the "
      "clamp compiles to a separate min and max; equal rates mean it is one instruction (or a saturate folded "
      "into the multiply-add).",
      {"ops", "OP", "Clamps (the multiply-add is not counted)"}, 1,
      [](double x, double d, const Params& p) { return std::clamp(x * p.f[0] + (p.f[1] + d), 0.0, 1.0); },
      {0.75f, 0.0625f, 0.0f, 0.125f}, 1e-5, 0, 1 << 16));
  v.push_back(unary_probe(
      "f32", "minmax", "max(min(x$k * m + cn, 1.0), 0.0)",
      "Chains x = max(min(x * m + cn, 1), 0): f32-clamp's chains written as a minimum and a maximum (same "
      "operands).",
      {"ops", "OP", "Minimums and maximums (each counts 1; the multiply-add is not counted)"}, 2,
      [](double x, double d, const Params& p) { return std::max(std::min(x * p.f[0] + (p.f[1] + d), 1.0), 0.0); },
      {0.75f, 0.0625f, 0.0f, 0.125f}, 1e-5, 0, 1 << 16));
  for (auto& p : v) {
    if (p.id == "f32-select" || p.id == "f32-clamp" || p.id == "f32-minmax") p.kernel = "compare_select";
  }
  return v;
}

}  // namespace

const std::vector<Probe>& probes() {
  static const std::vector<Probe> all = build();
  return all;
}

}  // namespace wgb::catalog::alu
