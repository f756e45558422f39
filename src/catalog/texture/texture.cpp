// The texture probes: the texture's data, the host reference of the scan, the runner, and the two
// definitions (category "texture"). Both kernels scan the same texture the same way and store the
// same sums, so one reference validates both: the filtering hardware and the shader's own
// interpolation must agree with the host exactly, up to the rounding of long f32 sums.
#include "catalog/texture/texture.hpp"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstddef>

#include "catalog/compute/alu.hpp"
#include "catalog/families.hpp"
#include "gpu/hash.hpp"
#include "report/facts.hpp"
#include "webgpu_bench/options.hpp"

namespace wgb::catalog {

namespace texture {

namespace {

constexpr std::uint32_t kTexelSeed = 0x7E47E1u;
constexpr std::uint32_t kScanSeed = 0x5CA11EDu;

constexpr const char* kStatisticReason =
    "best (fastest) run: the 64 KiB texture stays in cache, so the rate is the texture path's, and noise "
    "only ever slows a run down";

const Metric kMetric{"bytes", "B", "Texel bytes fetched (two rgba32float texels, 32 B, per interpolated sample)"};

}  // namespace

const char* id(Interp which) {
  return which == Interp::Builtin ? "texture-interp-builtin" : "texture-interp-manual";
}

std::string source(Interp which) {
  const std::string name = which == Interp::Builtin ? "texture/interp_builtin" : "texture/interp_manual";
  auto body = alu::expand(kernel_source(name), {});
  if (!body) {
    return fmt::format("// template error: {}\n@compute @workgroup_size(1) fn main() {{ template_error(); }}\n",
                       body.error().message);
  }
  return kernel_source("texture/prelude") + "\n" + *body;
}

Params params(std::uint32_t threads, std::uint32_t iterations) {
  Params p;
  p.iterations = iterations;
  p.threads = threads;
  p.width = kWidth;
  p.seed = kScanSeed;
  p.inv = 1.0f / static_cast<float>(4 * kWidth);
  return p;
}

std::vector<float> texels(std::uint32_t width) {
  std::vector<float> v(static_cast<std::size_t>(width) * 4);
  for (std::uint32_t i = 0; i < v.size(); ++i) {
    v[i] = static_cast<float>(gpu::hash32(i ^ kTexelSeed) >> 22) / 1024.0f - 0.5f;
  }
  return v;
}

WorkModel work_model(std::uint32_t threads, std::uint64_t iterations) {
  return WorkModel{.bytes_read = static_cast<double>(threads) * static_cast<double>(iterations) *
                                 kSamplesPerIteration * kBytesPerSample};
}

Expectation reference(const Params& params, std::span<const float> tex, std::uint32_t t) {
  // Sample q sits q / 4 texels past the first texel's centre (prelude.wgsl `coordinate`): texels
  // q / 4 and the next (wrapped, as the repeat sampler does), weight (q mod 4) / 4 on the second.
  Expectation e;
  const std::uint32_t mask = 4 * params.width - 1;
  const std::uint32_t start = gpu::hash32(t ^ params.seed);
  const std::uint64_t samples = static_cast<std::uint64_t>(params.iterations) * kSamplesPerIteration;
  for (std::uint64_t j = 0; j < samples; ++j) {
    const std::uint32_t q = (start + static_cast<std::uint32_t>(j)) & mask;
    const std::uint32_t i0 = q >> 2, i1 = (i0 + 1) & (params.width - 1);
    const double w = static_cast<double>(q & 3) / 4.0;
    for (std::uint32_t c = 0; c < 4; ++c) {
      const double v = tex[4 * i0 + c] * (1.0 - w) + tex[4 * i1 + c] * w;
      e.value += v;
      e.scale += std::abs(v);
    }
  }
  return e;
}

Expected<std::string> check_outputs(const Params& params, std::span<const float> tex,
                                    std::span<const std::uint32_t> invocations, std::span<const std::uint32_t> stored) {
  double worst = 0;
  for (std::uint32_t t : invocations) {
    if (t >= stored.size()) return make_error(ErrorKind::Failed, fmt::format("invocation {} has no stored result", t));
    const Expectation want = reference(params, tex, t);
    const double got = static_cast<double>(std::bit_cast<float>(stored[t]));
    if (!std::isfinite(got)) {
      return make_error(ErrorKind::Failed, fmt::format("invocation {} stored a non-finite value ({} loop trips)", t,
                                                       params.iterations));
    }
    const double err = std::abs(got - want.value) / std::max(want.scale, 1e-30);
    worst = std::max(worst, err);
    if (!(err <= kTolerance)) {
      return make_error(ErrorKind::Failed,
                        fmt::format("invocation {} stored {:.9g}, the host computed {:.9g}: error {:.3g} of the "
                                    "samples' magnitudes > {:.3g} ({} loop trips)",
                                    t, got, want.value, err, kTolerance, params.iterations));
    }
  }
  return fmt::format("{} invocations matched the host's interpolation at {} loop trips ({} samples each; worst "
                     "error {:.2g} of the samples' magnitudes, tolerance {:.2g})",
                     invocations.size(), params.iterations,
                     static_cast<std::uint64_t>(params.iterations) * kSamplesPerIteration, worst, kTolerance);
}

Expected<Runner> Runner::create(gpu::Context& gpu, Interp which, std::uint32_t threads) {
  const std::uint64_t max_threads = static_cast<std::uint64_t>(gpu.limits().maxComputeWorkgroupsPerDimension) * kWorkgroup;
  if (threads == 0 || threads > max_threads) {
    return make_error(ErrorKind::Usage, fmt::format("compute threads {} out of range (1..{} on this adapter)", threads,
                                                    max_threads));
  }
  Runner r;
  r.params_ = texture::params(threads, 1);
  r.texels_ = texture::texels(kWidth);
  auto pipeline = gpu.pipeline(source(which), id(which));
  if (!pipeline) return std::move(pipeline).error();
  r.pipeline_ = *pipeline;
  const std::string name = id(which);
  auto out = gpu.buffer(static_cast<std::uint64_t>(threads) * 4, kStorage, name + " out");
  if (!out) return std::move(out).error();
  r.out_ = *out;
  auto uniform = gpu.buffer_with(std::span<const Params>(&r.params_, 1), kUniform, name + " params");
  if (!uniform) return std::move(uniform).error();
  r.uniform_ = *uniform;
  const gpu::TextureData data{.format = wgpu::TextureFormat::RGBA32Float,
                              .width = kWidth,
                              .height = 1,
                              .bytes_per_texel = 16,
                              .texels = std::as_bytes(std::span<const float>(r.texels_))};
  auto tex = gpu.texture_with_data(data, name + " texels");
  if (!tex) return std::move(tex).error();
  r.texture_ = *tex;
  std::vector<gpu::BindingResource> resources{r.out_, r.uniform_, r.texture_};
  if (which == Interp::Builtin) {
    auto s = gpu.sampler({.linear = true, .repeat = true}, name + " sampler");
    if (!s) return std::move(s).error();
    r.sampler_ = *s;
    resources.emplace_back(r.sampler_);
  }
  auto group = gpu.bind_group(r.pipeline_, resources, name);
  if (!group) return std::move(group).error();
  r.group_ = *group;
  return r;
}

Expected<std::vector<std::uint32_t>> Runner::run(gpu::Context& gpu, std::uint32_t iterations) {
  // Poison the output first, so a dispatch that stored nothing cannot pass on stale results.
  std::vector<std::uint32_t> poison(params_.threads, 0x7fc0dead);
  gpu.write(out_, 0, poison.data(), poison.size() * 4);
  params_.iterations = iterations;
  gpu.write(uniform_, offsetof(Params, iterations), &params_.iterations, sizeof(params_.iterations));
  auto st = gpu.run_pass([&](wgpu::ComputePassEncoder& pass) {
    pass.SetPipeline(pipeline_);
    pass.SetBindGroup(0, group_);
    pass.DispatchWorkgroups(workgroups());
  });
  if (!st) return std::move(st).error();
  return gpu.read_as<std::uint32_t>(out_, 0, params_.threads);
}

Expected<std::unique_ptr<Workload>> prepare(PrepareContext& pc, Interp which, const FeatureProbe& has_feature) {
  auto& gpu = pc.gpu;
  if (which == Interp::Builtin) {
    if (auto st = require_feature(gpu, "float32-filterable", has_feature); !st) return std::move(st).error();
  }
  const std::uint32_t threads =
      pc.options.compute_threads != 0 ? pc.options.compute_threads : alu::default_threads(gpu.adapter());
  auto created = Runner::create(gpu, which, threads);
  if (!created) return std::move(created).error();
  auto runner = std::make_shared<Runner>(std::move(*created));

  KernelSpec spec;
  spec.pipeline = runner->pipeline();
  spec.bind_groups = {runner->bind_group()};
  spec.workgroups = {runner->workgroups(), 1, 1};
  spec.knob = KnobSpec{.name = "iterations", .min = 1, .max = 1 << 14, .initial = 1};
  spec.knob_uniform = runner->uniform();
  spec.knob_offset = offsetof(Params, iterations);
  spec.work = [threads](std::uint64_t knob) { return work_model(threads, knob); };
  spec.validate = [runner](gpu::Context& g, std::uint64_t knob) -> Expected<std::string> {
    auto stored = runner->run(g, static_cast<std::uint32_t>(knob));
    if (!stored) return std::move(stored).error();
    return check_outputs(runner->params(), runner->texels(), alu::sample_invocations(runner->params().threads),
                         *stored);
  };
  spec.parameters = report::with_facts(
      nlohmann::json({{"invocations", threads},
                      {"workgroup_size", kWorkgroup},
                      {"samples_per_invocation_per_iteration", kSamplesPerIteration},
                      {"bytes_per_sample", kBytesPerSample},
                      {"work_model", "256 samples x 2 rgba32float texels (32 B) per invocation per loop trip"},
                      {"texture", fmt::format("rgba32float, {} x 1 texels", kWidth)},
                      {"interpolation",
                       which == Interp::Builtin ? "sampler (linear filter, repeat)" : "shader (two textureLoad + mix)"},
                      {"kernel", which == Interp::Builtin ? "texture/interp_builtin" : "texture/interp_manual"}}),
      {.peak_class = "memory", .footprint_bytes = kWidth * 16});
  return make_kernel_workload(gpu, std::move(spec));
}

}  // namespace texture

std::vector<BenchmarkDefinition> texture_benchmarks() {
  using texture::Interp;
  const std::string scan =
      "Each invocation scans a one-row rgba32float texture of 4096 texels (64 KiB, cache-resident) from a hashed "
      "start, a quarter of a texel per sample (slowly scrolling across a magnified texture: neighbouring samples "
      "blend the same or adjacent texel pairs), 256 samples per loop trip into four vec4 accumulators, and "
      "stores their sum, checked against the host's interpolation. ";
  const std::string counts =
      " Counts 32 bytes per sample (two rgba32float texels: the interpolated pair), the same for both probes so "
      "they compare directly.";
  std::vector<BenchmarkDefinition> v;
  for (const Interp which : {Interp::Builtin, Interp::Manual}) {
    const bool builtin = which == Interp::Builtin;
    v.push_back(BenchmarkDefinition{
        .id = texture::id(which),
        .label = builtin ? "texture interpolation, sampler" : "texture interpolation, in the shader",
        .description =
            scan +
            (builtin ? "The texture unit interpolates: textureSampleLevel through a linear sampler (repeat "
                       "addressing), the fixed-function bilinear filtering path. Needs float32-filterable (linear "
                       "filtering of 32-bit float textures is not core WebGPU); skipped, naming it, without."
                     : "The shader interpolates: the two neighbouring texels fetched unfiltered with textureLoad "
                       "and blended with mix(), what the sampler path competes against. Needs no sampler and no "
                       "filterable format.") +
            counts,
        .category = "texture",
        .metric = texture::kMetric,
        .source = texture::source(which),
        .statistic = Statistic::Best,
        .statistic_reason = texture::kStatisticReason,
        .requires_features = builtin ? std::vector<std::string>{"float32-filterable"} : std::vector<std::string>{},
        .family = "",
        .in_default_suite = true,
        .prepare = [which](PrepareContext& pc) { return texture::prepare(pc, which); },
        .sweep_parameters = {"threads"},
    });
  }
  return v;
}

}  // namespace wgb::catalog
