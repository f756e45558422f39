// ALU probes (the arithmetic throughput probes, plus divisions, transcendentals, conversions
// and bit operations): one definition per probe of the table in probes.cpp. Each runs a runtime
// loop count (the work knob, calibrated toward the scheduler's target dispatch time) over
// independent chains per invocation, stores one result per invocation, and is validated after
// timing by a fresh dispatch at the calibrated loop count compared with the host reference.
#include <fmt/format.h>

#include <memory>

#include "catalog/common.hpp"
#include "catalog/compute/alu.hpp"
#include "catalog/families.hpp"
#include "report/facts.hpp"
#include "webgpu_bench/options.hpp"

namespace wgb::catalog {

namespace {

constexpr const char* kComputeStatisticReason =
    "best (fastest) run: compute-bound, and noise only ever slows a run down";

// The row of a probe whose kernel writes a multiply-add in `form` records whether the driver fuses
// it (alu::check_contraction), and says so in a note where it does not: the FLOPs are still
// counted 2 per step, but they ran as two operations (docs/method.md#validation).
void record_contraction(gpu::Context& gpu, const std::string& form, nlohmann::json& parameters) {
  auto checked = alu::check_contraction(gpu);
  if (!checked) {
    report::write_facts(parameters, {.fma_contraction = report::ProbeFacts::Contraction{
                                         .not_checked = fmt::format("not checked: {}", checked.error().message)}});
    return;
  }
  report::ProbeFacts facts{.fma_contraction = report::ProbeFacts::Contraction{.mul_add = checked->mul_add,
                                                                              .fma_builtin = checked->fma_builtin}};
  const std::string& verdict = checked->of(form);
  if (verdict == "separate") {
    facts.note = fmt::format(
        "this driver evaluates {} as a multiply and a separate add, not as one FMA (checked when the probe "
        "was prepared): the 2 FLOP counted per step ran as two operations",
        form);
  } else if (verdict != "fused") {
    facts.note = fmt::format("this driver's {} is not one FMA: the check gave {}", form, verdict);
  }
  report::write_facts(parameters, facts);
}

}  // namespace

Expected<std::unique_ptr<Workload>> alu::prepare(PrepareContext& pc, const alu::Probe& probe,
                                                 const FeatureProbe& has_feature,
                                                 const FeatureProbe& has_wgsl_feature) {
  auto& gpu = pc.gpu;
  if (probe.f16) {
    if (auto st = require_feature(gpu, "shader-f16", has_feature); !st) return std::move(st).error();
  }
  if (probe.dot4) {
    if (auto st = require_wgsl_feature(gpu, "packed_4x8_integer_dot_product", has_wgsl_feature); !st) {
      return std::move(st).error();
    }
  }
  const std::uint32_t threads =
      pc.options.compute_threads != 0 ? pc.options.compute_threads : alu::default_threads(gpu.adapter());
  const std::uint32_t workgroup =
      pc.options.compute_workgroup_size != 0 ? pc.options.compute_workgroup_size : alu::kDefaultWorkgroup;
  auto created = alu::Runner::create(gpu, probe, threads, workgroup);
  if (!created) return std::move(created).error();
  auto runner = std::make_shared<alu::Runner>(std::move(*created));

  KernelSpec spec;
  spec.pipeline = runner->pipeline();
  spec.bind_groups = {runner->bind_group()};
  spec.workgroups = {runner->workgroups(), 1, 1};
  spec.knob = KnobSpec{.name = "iterations", .min = 1, .max = probe.max_iterations, .initial = probe.initial_iterations};
  spec.knob_uniform = runner->uniform();
  spec.knob_offset = 0;  // Params::iterations
  spec.work = [&probe, threads](std::uint64_t knob) { return alu::work_model(probe, threads, knob); };
  spec.validate = [runner, &probe](gpu::Context& g, std::uint64_t knob) -> Expected<std::string> {
    auto stored = runner->run(g, static_cast<std::uint32_t>(knob));
    if (!stored) return std::move(stored).error();
    alu::Params params = runner->params();
    params.iterations = static_cast<std::uint32_t>(knob);
    const auto sample = alu::sample_invocations(runner->threads());
    return alu::check_outputs(probe, params, sample, *stored);
  };
  spec.parameters = report::with_facts(nlohmann::json({{"invocations", threads},
                                                       {"workgroup_size", workgroup},
                                                       {"ops_per_invocation_per_iteration", probe.ops_per_iteration},
                                                       {"work_model", probe.work_note},
                                                       {"kernel", "compute/" + probe.kernel}}),
                                       {.peak_class = probe.peak_class, .operand_bits = probe.f16 ? 16 : 32});
  if (!probe.cpu_substitutions.empty()) {
    // The probe has a body for CPU drivers: the row says which ran, and hashes the WGSL that did.
    report::write_facts(spec.parameters, {.kernel_form = alu::to_string(runner->form())});
    spec.source = runner->source();
  }
  if (!probe.fused_form.empty()) record_contraction(gpu, probe.fused_form, spec.parameters);
  // On NVIDIA, shader-f16 exists only through the experimental adapter toggle: the row says so, and
  // its outputs are checked against the host on every run (the validator always runs).
  if (probe.f16 && gpu.options().experimental && gpu.adapter().vendor_id == 0x10de) {
    report::write_facts(spec.parameters,
                        {.experimental = "shader-f16 through Dawn's vulkan_enable_f16_on_nvidia (--experimental)"});
  }
  return make_kernel_workload(gpu, std::move(spec));
}

std::vector<BenchmarkDefinition> compute_benchmarks() {
  std::vector<BenchmarkDefinition> v;
  for (const alu::Probe& probe : alu::probes()) {
    std::vector<std::string> features;
    if (probe.f16) features.emplace_back("shader-f16");
    if (probe.dot4) features.emplace_back("packed_4x8_integer_dot_product");
    v.push_back(BenchmarkDefinition{
        .id = probe.id,
        .label = probe.label,
        .description = probe.description,
        .category = "compute",
        .metric = probe.metric,
        .source = probe.source(),
        .statistic = Statistic::Best,
        .statistic_reason = kComputeStatisticReason,
        .requires_features = std::move(features),
        .family = "",
        .in_default_suite = true,
        .prepare = [&probe](PrepareContext& pc) { return alu::prepare(pc, probe); },
        .sweep_parameters = {"threads", "workgroup"},
    });
  }
  return v;
}

}  // namespace wgb::catalog
