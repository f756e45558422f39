// The ALU probes (arithmetic, divisions, transcendentals, conversions, bit operations): a table of probes, each a
// WGSL template (kernels/compute/<kernel>.wgsl) unrolled at catalog construction, its work model,
// its operands, and a host reference of the one value each invocation stores. The definitions
// (compute.cpp) and the tests use this header; nothing here is part of the public API.
//
// How the WGSL that runs is formed (and hashed into every row): `enable f16;` when the probe needs
// it, `alias T = f16;` or `alias T = f32;`, kernels/compute/prelude.wgsl, then the probe's
// template with its `$NAME` substitutions applied and its `//#repeat var N` ... `//#end` blocks
// unrolled (`$var` becomes 0..N-1). The result is a constant string per probe and form: the GPU
// form is stored in BenchmarkDefinition::source; on a CPU adapter a probe with CPU substitutions
// compiles its CPU form, and the row's hash is of the string that was compiled.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/common.hpp"
#include "webgpu_bench/context.hpp"
#include "webgpu_bench/definition.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::catalog::alu {

using Substitutions = std::vector<std::pair<std::string, std::string>>;

// Applies `$NAME` substitutions, then unrolls `//#repeat var N` ... `//#end` blocks (nestable).
// Fails on an unterminated block or on a `$` left over (a template bug, caught by the tests).
Expected<std::string> expand(std::string_view tmpl, const Substitutions& subst);

// Host mirror of the kernels' uniform block (prelude.wgsl `Params`), 304 bytes.
struct Params {
  std::uint32_t iterations = 1, seed = 0, ia = 0, ib = 0, threads = 0, workgroup = 256, pad1 = 0, pad2 = 0;
  float f[4] = {0, 0, 0, 0};
  float M[16] = {};  // column-major: M[4 * column + row]
  float C[16] = {};
  std::uint32_t IM[16] = {};  // IM[4 * column + row]
  std::uint32_t IC[16] = {};
};
static_assert(sizeof(Params) == 304, "Params must match the WGSL uniform layout");

// What the host expects invocation t to store.
struct Expectation {
  bool exact = false;
  std::uint32_t bits = 0;      // exact: the stored word
  double value = 0;            // float: the reference (in double precision)
  double scale = 0;            // float: sum of the magnitudes of the summed terms (tolerance scale)
};

// The shape of a probe's kernel for the adapter that runs it. Most probes have one form; a few run
// a body shaped for CPU drivers there (Probe::cpu_substitutions), where the GPU's fastest body is
// slow (docs/method.md#alu-forms).
enum class Form { Gpu, Cpu };
Form form_for(const gpu::AdapterDescription& adapter);
const char* to_string(Form form);

struct Probe {
  std::string id, label, description;
  std::string kernel;          // template name below kernels/compute/
  Substitutions substitutions;
  // On CPU adapters these replace the substitutions of the same name (empty: one form everywhere).
  Substitutions cpu_substitutions;
  bool f16 = false;            // needs the shader-f16 device feature (`enable f16;`)
  bool dot4 = false;           // needs the packed_4x8_integer_dot_product WGSL language feature
  Metric metric;
  std::string peak_class;      // "fp32", "fp16", "int32", "int8-dot", "alu" (plausibility)
  double ops_per_iteration = 0;  // metric units per invocation per loop trip
  std::string work_note;       // how ops_per_iteration is counted
  std::uint64_t max_iterations = 1 << 16;
  std::uint64_t initial_iterations = 4;
  float f[4] = {0, 0, 0, 0};   // float operands (Params::f)
  double tolerance = 0;        // relative to Expectation::scale; 0 for exact probes
  // The multiply-add form the kernel writes ("x * m + c" or "fma()") when the row records whether the
  // driver fuses it (check_contraction); empty for the other probes.
  std::string fused_form;
  std::function<Expectation(const Params&, std::uint32_t t)> reference;

  std::string source(Form form = Form::Gpu) const;  // the generated WGSL (see the header comment)
  Params params(std::uint32_t threads, std::uint32_t iterations) const;
};

// The work model of one dispatch: threads x iterations x ops_per_iteration, in metric units.
WorkModel work_model(const Probe& probe, std::uint32_t threads, std::uint64_t iterations);

// The probes' workgroup size unless SuiteOptions::compute_workgroup_size says otherwise.
inline constexpr std::uint32_t kDefaultWorkgroup = 256;

// Every ALU probe, in catalog order.
const std::vector<Probe>& probes();
const Probe* find_probe(std::string_view id);

// The prepare step of the probe's definition (compute.cpp): skips, naming the feature, when the
// device lacks shader-f16 or packed_4x8_integer_dot_product that the probe needs. The feature
// lookups default to the device's own; the tests pass ones that hide a feature.
Expected<std::unique_ptr<Workload>> prepare(PrepareContext& pc, const Probe& probe,
                                            const FeatureProbe& has_feature = {},
                                            const FeatureProbe& has_wgsl_feature = {});

// Invocations per dispatch when SuiteOptions::compute_threads is 0. On GPUs: 6336 workgroups of
// 256 = 1,622,016 invocations, a multiple of 132 SMs x 2048 resident threads / (1, 2, 3, 4, 6, 8
// workgroups per SM) so every occupancy level an H100/H200-class part reaches ends in whole waves
// (no partly empty last wave), and at least 6 waves anywhere smaller. On CPU adapters: 64
// workgroups (16,384 invocations), because a CPU driver runs a few invocations at a time and the
// full grid would take seconds per loop trip.
std::uint32_t default_threads(const gpu::AdapterDescription& adapter);

// The invocations the validator checks: up to 32, spread over the grid (first and last included,
// both lanes parities and several workgroups).
std::vector<std::uint32_t> sample_invocations(std::uint32_t threads);

// Compares stored words with the host reference for the given invocations.
Expected<std::string> check_outputs(const Probe& probe, const Params& params, std::span<const std::uint32_t> invocations,
                                    std::span<const std::uint32_t> stored);

// Whether the driver evaluates a multiply-add as one fused operation (one rounding) or as a
// multiply and a separate add (docs/method.md#validation): a one-workgroup kernel
// (kernels/compute/contraction.wgsl) whose operands make the two evaluations differ, run when a
// probe that records it is prepared. Each form reads "fused", "separate", or what was stored.
struct Contraction {
  std::string mul_add;      // x * m + c, which WGSL lets a compiler contract
  std::string fma_builtin;  // fma()
  const std::string& of(std::string_view form) const { return form == "fma()" ? fma_builtin : mul_add; }
};
Expected<Contraction> check_contraction(gpu::Context& gpu);

// A compiled probe on a device: pipeline, output and uniform buffers. run() dispatches once at
// `iterations` and reads every stored word back (the validator and the tests use it); with
// `active` non-zero only the first `active` invocations compute (a cheap run at a huge loop count).
// `workgroup` sets the kernel's `wg_size` override through the pipeline constants; a size above
// the adapter's maxComputeInvocationsPerWorkgroup or maxComputeWorkgroupSizeX is Skipped, naming it.
// The kernel's form is the adapter's (form_for) unless `form` says otherwise (the tests run both).
class Runner {
 public:
  static Expected<Runner> create(gpu::Context& gpu, const Probe& probe, std::uint32_t threads,
                                 std::uint32_t workgroup = kDefaultWorkgroup, std::optional<Form> form = {});
  Expected<std::vector<std::uint32_t>> run(gpu::Context& gpu, std::uint32_t iterations, std::uint32_t active = 0);
  const Params& params() const { return params_; }
  std::uint32_t threads() const { return params_.threads; }
  std::uint32_t workgroup_size() const { return params_.workgroup; }
  std::uint32_t workgroups() const { return (params_.threads + params_.workgroup - 1) / params_.workgroup; }
  const wgpu::ComputePipeline& pipeline() const { return pipeline_; }
  const wgpu::BindGroup& bind_group() const { return group_; }
  const wgpu::Buffer& uniform() const { return uniform_; }
  const std::string& source() const { return source_; }  // the WGSL that was compiled
  Form form() const { return form_; }

 private:
  Params params_;
  std::string source_;
  Form form_ = Form::Gpu;
  wgpu::ComputePipeline pipeline_;
  wgpu::Buffer out_, uniform_;
  wgpu::BindGroup group_;
};

}  // namespace wgb::catalog::alu
