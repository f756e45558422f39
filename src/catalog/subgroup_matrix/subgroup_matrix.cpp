// The subgroup-matrix family's definitions and prepare step. See docs/subgroup-matrix.md
// for what is measured and why the Vulkan path tops out at HMMA/IMMA rates.
#include "catalog/subgroup_matrix/subgroup_matrix.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "catalog/common.hpp"
#include "catalog/families.hpp"
#include "gpu/hash.hpp"
#include "report/facts.hpp"
#include "webgpu_bench/options.hpp"

namespace wgb::catalog {

namespace subgroup_matrix {

namespace {

constexpr const char* kToggleF16Nvidia = "vulkan_enable_f16_on_nvidia";
constexpr const char* kStatisticReason =
    "best: register-resident multiply-accumulates are compute-bound; the fastest run is the least "
    "disturbed one";

struct Params {
  std::uint32_t iterations, pad0, pad1, pad2;
  std::uint32_t probes[kProbeSlots];
};

bool same_config(const gpu::SubgroupMatrixShape& a, const gpu::SubgroupMatrixShape& b) {
  return a.component == b.component && a.result == b.result && a.m == b.m && a.n == b.n &&
         a.k == b.k;
}

std::string offered_list(const std::vector<gpu::SubgroupMatrixShape>& configs) {
  std::string out;
  for (const auto& c : configs) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{}->{} {}x{}x{}", c.component, c.result, c.m, c.n, c.k);
  }
  return out.empty() ? "none" : out;
}

bool has_toggle(const gpu::AdapterDescription& a, std::string_view toggle) {
  return std::find(a.adapter_toggles.begin(), a.adapter_toggles.end(), toggle) !=
         a.adapter_toggles.end();
}

// Why this device cannot run `s`, or ok(). Every reason names what would enable it.
Status check_support(gpu::Context& gpu, const Shape& s) {
  if (!gpu.has_feature(kFeature)) {
    if (!gpu.options().experimental) {
      return make_error(
          ErrorKind::Skipped,
          fmt::format("needs --experimental and an adapter offering {} (Dawn's allow_unsafe_apis)",
                      kFeature));
    }
    return make_error(
        ErrorKind::Skipped,
        fmt::format("the adapter does not offer {}, even with --experimental", kFeature));
  }
  const auto& configs = gpu.adapter().subgroup_matrix_configs;
  const auto want = to_config(s);
  if (std::none_of(configs.begin(), configs.end(),
                   [&](const auto& c) { return same_config(c, want); })) {
    return make_error(ErrorKind::Skipped,
                      fmt::format("the adapter's subgroup-matrix configurations do not "
                                  "include {} (offered: {})",
                                  describe(s), offered_list(configs)));
  }
  if (s.uses_f16() && !gpu.has_feature("shader-f16")) {
    return make_error(ErrorKind::Skipped,
                      "needs shader-f16 (on NVIDIA, --experimental turns on Dawn's "
                      "vulkan_enable_f16_on_nvidia to expose it)");
  }
  const std::uint32_t sg = gpu.adapter().subgroup_max_size;
  if (sg == 0) return make_error(ErrorKind::Skipped, "the adapter reports no subgroup size");
  if (sg > gpu.limits().maxComputeWorkgroupSizeX ||
      sg > gpu.limits().maxComputeInvocationsPerWorkgroup) {
    return make_error(ErrorKind::Skipped,
                      fmt::format("a workgroup of the subgroup size {} exceeds the "
                                  "device's workgroup limits",
                                  sg));
  }
  return ok();
}

Expected<std::unique_ptr<Workload>> prepare(PrepareContext& pc, const Shape& s,
                                            const std::string& id, const KernelConfig& base,
                                            const std::string& base_source) {
  auto& gpu = pc.gpu;
  if (auto st = check_support(gpu, s); !st) return std::move(st).error();
  KernelConfig cfg = base;
  cfg.subgroup_size = gpu.adapter().subgroup_max_size;
  if (cfg.subgroup_size == base.subgroup_size) return build_workload(gpu, s, cfg, id, base_source);
  // The definition's WGSL is written for a subgroup size of base.subgroup_size; another size needs
  // its own workgroup_size (Dawn requires a multiple of maxSubgroupSize), which the row records.
  const std::string source = kernel_wgsl(s, cfg);
  return build_workload(
      gpu, s, cfg, id, source,
      fmt::format("workgroup_size {} (the definition's WGSL has {}); timed source hash {}",
                  cfg.subgroup_size, base.subgroup_size, gpu::source_hash(source)));
}

}  // namespace

Expected<std::unique_ptr<Workload>> build_workload(gpu::Context& gpu, const Shape& s,
                                                   const KernelConfig& cfg, const std::string& id,
                                                   const std::string& source,
                                                   const std::string& variant_note) {
  const std::uint32_t max_groups = gpu.limits().maxComputeWorkgroupsPerDimension;
  if (cfg.workgroups() < 2 * kProbeSlots || cfg.workgroups_x > max_groups ||
      cfg.workgroups_y > max_groups) {
    return make_error(ErrorKind::Usage,
                      fmt::format("a grid of {} x {} workgroups is not usable (at least {}, "
                                  "at most {} per dimension)",
                                  cfg.workgroups_x, cfg.workgroups_y, 2 * kProbeSlots, max_groups));
  }
  const auto seed = static_cast<std::uint32_t>(gpu::fnv1a64(id));
  auto plan = make_plan(s, cfg, seed);
  if (!plan) {
    return make_error(ErrorKind::Failed,
                      fmt::format("no operand plan keeps {} results exact", name(s.result)));
  }
  auto pipeline = gpu.pipeline(source, id);
  if (!pipeline) return std::move(pipeline).error();

  auto upload = [&](Scalar type, const std::vector<std::int64_t>& values, const char* what) {
    const auto bytes = encode(type, values);
    return gpu.buffer_with_data(bytes, kStorage, fmt::format("{} {}", id, what));
  };
  auto a = upload(s.component, plan->operands.a, "A");
  if (!a) return std::move(a).error();
  auto b0 = upload(s.component, plan->operands.b0, "B0");
  if (!b0) return std::move(b0).error();
  auto b1 = upload(s.component, plan->operands.b1, "B1");
  if (!b1) return std::move(b1).error();
  auto c = upload(s.result, plan->operands.c, "C");
  if (!c) return std::move(c).error();
  const std::size_t per_slot = static_cast<std::size_t>(s.m) * s.n * cfg.accumulators;
  const std::size_t result_count = per_slot * kProbeSlots;
  const std::uint64_t result_bytes =
      encode(s.result, std::vector<std::int64_t>(result_count, 0)).size();
  auto results = gpu.buffer(result_bytes, kStorage, fmt::format("{} results", id));
  if (!results) return std::move(results).error();
  Params params{};
  params.iterations = 1;
  const auto probes = probe_workgroups(cfg);
  std::copy(probes.begin(), probes.end(), params.probes);
  auto uniform =
      gpu.buffer_with(std::span<const Params>(&params, 1), kUniform, fmt::format("{} params", id));
  if (!uniform) return std::move(uniform).error();

  KernelSpec spec;
  spec.pipeline = *pipeline;
  spec.bind_groups = {bind_buffers(gpu, *pipeline, {*a, *b0, *b1, *c, *results, *uniform})};
  spec.workgroups = {cfg.workgroups_x, cfg.workgroups_y, 1};
  spec.knob = KnobSpec{"iterations", 1, plan->max_iterations,
                       std::min<std::uint64_t>(8, plan->max_iterations)};
  spec.knob_uniform = *uniform;
  spec.knob_offset = 0;
  spec.work = [s, cfg](std::uint64_t iterations) { return work_model(s, cfg, iterations); };

  // Validation after timing: a fresh dispatch at the final knob into results pre-filled with a
  // sentinel no correct result can equal (NaN for floats, 2^31 for integers), then an exact
  // comparison of every probed workgroup's accumulators with the closed form.
  spec.validate = [s, cfg, ops = plan->operands, mode = plan->mode, pipeline = *pipeline,
                   group = spec.bind_groups[0], results = *results, result_bytes, result_count](
                      gpu::Context& g, std::uint64_t iterations) -> Expected<std::string> {
    const std::uint32_t sentinel = is_float(s.result) ? 0xFFFFFFFFu : 0x80000000u;
    const std::vector<std::uint32_t> fill(result_bytes / 4, sentinel);
    g.write(results, 0, fill.data(), result_bytes);
    auto st = g.run_pass([&](wgpu::ComputePassEncoder& pass) {
      pass.SetPipeline(pipeline);
      pass.SetBindGroup(0, group);
      pass.DispatchWorkgroups(cfg.workgroups_x, cfg.workgroups_y, 1);
    });
    if (!st) return std::move(st).error();
    auto bytes = g.read(results, 0, result_bytes);
    if (!bytes) return std::move(bytes).error();
    const auto got = decode(s.result, *bytes, result_count);
    const auto want = expected_results(s, cfg, ops, iterations);
    if (auto cmp = compare_results(s, cfg, got, want, kProbeSlots); !cmp)
      return std::move(cmp).error();
    return fmt::format(
        "{} values ({} accumulators x {} probed workgroups) equal the closed form "
        "C + A*B0 + {}*{}*(A*B0 + A*B1) exactly ({} mode)",
        result_count, cfg.accumulators, kProbeSlots, iterations, cfg.unroll / 2, name(mode));
  };

  const auto& adapter = gpu.adapter();
  nlohmann::json p = {
      {"experimental", fmt::format("{} via allow_unsafe_apis", kFeature)},
      {"component", name(s.component)},
      {"result", name(s.result)},
      {"m", s.m},
      {"n", s.n},
      {"k", s.k},
      {"shape",
       fmt::format("result {}x{} += left {}x{} * right {}x{}", s.m, s.n, s.m, s.k, s.k, s.n)},
      {"ops_per_mma", s.ops_per_mma()},
      {"accumulators", cfg.accumulators},
      {"mma_per_iteration", cfg.accumulators * cfg.unroll},
      {"workgroup_size", cfg.subgroup_size},
      {"subgroup_size", {{"min", adapter.subgroup_min_size}, {"max", adapter.subgroup_max_size}}},
      {"counted_subgroups_per_workgroup", 1},
      {"workgroups_total", cfg.workgroups()},
      {"operands", is_signed(s.component) && is_signed(s.result) ? "integers in [-2, 2]"
                                                                 : "integers in [0, 3]"},
      {"mode", name(plan->mode)},
      {"max_iterations_exact", plan->max_iterations},
  };
  report::ProbeFacts facts;
  if (s.uses_f16()) {
    facts.f16 = has_toggle(adapter, kToggleF16Nvidia)
                    ? "shader-f16 exposed by vulkan_enable_f16_on_nvidia (experimental)"
                    : "shader-f16";
  }
  if (!variant_note.empty()) facts.wgsl_variant = variant_note;
  spec.parameters = report::with_facts(std::move(p), facts);
  return make_kernel_workload(gpu, std::move(spec));
}

namespace {

BenchmarkDefinition definition(const Shape& s, std::uint32_t subgroup_size) {
  KernelConfig cfg;
  cfg.subgroup_size = subgroup_size;
  const std::string id = benchmark_id(s);
  std::string source = kernel_wgsl(s, cfg);
  const bool fp = is_float(s.component);
  std::vector<std::string> features{kFeature, "subgroups"};
  if (s.uses_f16()) features.emplace_back("shader-f16");
  BenchmarkDefinition d{
      .id = id,
      .label = fmt::format("Subgroup-matrix MMA {}", describe(s)),
      .description = fmt::format(
          "Experimental subgroup matrices (tensor cores where the backend maps them): each "
          "workgroup is one "
          "subgroup that loads a {}x{} {} left and two {}x{} right matrices once, then runs {} "
          "independent "
          "{}x{} {} accumulators through subgroupMatrixMultiplyAccumulate in registers ({} per "
          "loop "
          "iteration, runtime loop count). Counts 2*M*N*K = {} {} per multiply-accumulate. Needs "
          "--experimental. Every run checks the probed accumulators exactly against a host closed "
          "form.",
          s.m, s.k, name(s.component), s.k, s.n, cfg.accumulators, s.m, s.n, name(s.result),
          cfg.accumulators * cfg.unroll, s.ops_per_mma(), fp ? "FLOP" : "OP"),
      .category = "matrix",
      .metric = fp ? Metric{"flops", "FLOP", "Floating-point ops (a multiply-add counts 2)"}
                   : Metric{"ops", "OP", "Integer ops (a multiply-add counts 2)"},
      .source = source,
      .statistic = Statistic::Best,
      .statistic_reason = kStatisticReason,
      .requires_features = std::move(features),
      .family = "",
      .in_default_suite = true,
      .prepare = {},
      .sweep_parameters = {},  // its grid comes from the kernel configuration, not SuiteOptions
  };
  d.prepare = [s, id, cfg, source = std::move(source)](PrepareContext& pc) {
    return prepare(pc, s, id, cfg, source);
  };
  return d;
}

}  // namespace

std::vector<BenchmarkDefinition> definitions_for(
    const std::vector<gpu::SubgroupMatrixShape>& shapes, std::uint32_t subgroup_size) {
  std::vector<BenchmarkDefinition> out;
  std::set<std::string> seen;
  if (subgroup_size == 0) return out;
  for (const auto& c : shapes) {
    const auto s = to_shape(c);
    if (!s || !make_plan(*s, KernelConfig{}, 1)) continue;
    if (!seen.insert(benchmark_id(*s)).second) continue;
    out.push_back(definition(*s, subgroup_size));
  }
  return out;
}

std::vector<BenchmarkDefinition> adapter_only_definitions(
    const std::vector<BenchmarkDefinition>& catalog, const gpu::AdapterDescription& adapter) {
  std::set<std::string> have;
  for (const auto& d : catalog) have.insert(d.id);
  std::vector<gpu::SubgroupMatrixShape> missing;
  for (const auto& c : adapter.subgroup_matrix_configs) {
    const auto s = to_shape(c);
    if (s && have.count(benchmark_id(*s)) == 0) missing.push_back(c);
  }
  // Definitions keep the catalog's WGSL convention (subgroup size 32); prepare() adapts it.
  return definitions_for(missing);
}

std::vector<BenchmarkDefinition> with_adapter_shapes(std::vector<BenchmarkDefinition> catalog,
                                                     const gpu::AdapterDescription& adapter) {
  auto extra = adapter_only_definitions(catalog, adapter);
  if (extra.empty()) return catalog;
  auto last = catalog.end();
  for (auto it = catalog.begin(); it != catalog.end(); ++it) {
    if (it->id.rfind(kIdPrefix, 0) == 0) last = it + 1;
  }
  catalog.insert(last, std::make_move_iterator(extra.begin()),
                 std::make_move_iterator(extra.end()));
  return catalog;
}

}  // namespace subgroup_matrix

std::vector<BenchmarkDefinition> subgroup_matrix_benchmarks() {
  return subgroup_matrix::definitions_for(subgroup_matrix::known_shapes());
}

}  // namespace wgb::catalog
