// ALU probe machinery shared by every probe: WGSL generation, operands, the grid, the runner that
// dispatches once and reads back, and the comparison with the host reference.
#include "catalog/compute/alu.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>

#include "catalog/common.hpp"
#include "gpu/hash.hpp"

namespace wgb::catalog::alu {

namespace {
constexpr std::uint32_t kWorkgroup = 256;
constexpr std::uint32_t kSeed = 0x5EED1234u;
}  // namespace

Form form_for(const gpu::AdapterDescription& adapter) { return adapter.adapter_type == "cpu" ? Form::Cpu : Form::Gpu; }

const char* to_string(Form form) { return form == Form::Cpu ? "cpu" : "gpu"; }

std::string Probe::source(Form form) const {
  std::string header = f16 ? "enable f16;\nalias T = f16;\n" : "alias T = f32;\n";
  Substitutions chosen = substitutions;
  if (form == Form::Cpu) {
    for (const auto& [name, value] : cpu_substitutions) {
      auto it = std::find_if(chosen.begin(), chosen.end(), [&](const auto& s) { return s.first == name; });
      if (it != chosen.end()) {
        it->second = value;
      } else {
        chosen.emplace_back(name, value);
      }
    }
  }
  auto body = expand(kernel_source("compute/" + kernel), chosen);
  if (!body) {
    // A template bug: return WGSL that fails to compile with the reason, so the row says it.
    return fmt::format("// template error: {}\n@compute @workgroup_size(1) fn main() {{ template_error(); }}\n",
                       body.error().message);
  }
  return header + kernel_source("compute/prelude") + "\n" + *body;
}

Params Probe::params(std::uint32_t threads, std::uint32_t iterations) const {
  Params p;
  p.iterations = iterations;
  p.seed = kSeed;
  p.ia = 0x2545F491u;  // odd: an invertible multiplier for the MAD chains
  p.ib = 0x6A09E667u;
  p.threads = threads;
  std::copy(std::begin(f), std::end(f), std::begin(p.f));
  // M: diagonal 0.875 plus off-diagonal entries in [-16, 15] / 1024, so every row and column sum
  // of magnitudes is at most 0.922 (a contraction); C in {1, 2, 3, 4} / 16. All exact in f16.
  for (std::uint32_t col = 0; col < 4; ++col) {
    for (std::uint32_t row = 0; row < 4; ++row) {
      const std::uint32_t i = 4 * col + row;
      p.M[i] = row == col ? 0.875f
                          : static_cast<float>(static_cast<std::int32_t>(gpu::hash32(0xA0u + i) >> 27) - 16) / 1024.0f;
      p.C[i] = static_cast<float>(1 + (gpu::hash32(0xC0u + i) >> 30)) / 16.0f;
      p.IM[i] = gpu::hash32(0x100u + i);
      p.IC[i] = gpu::hash32(0x140u + i);
    }
  }
  return p;
}

WorkModel work_model(const Probe& probe, std::uint32_t threads, std::uint64_t iterations) {
  return WorkModel{.operations = static_cast<double>(threads) * static_cast<double>(iterations) * probe.ops_per_iteration};
}

const Probe* find_probe(std::string_view id) {
  for (const auto& p : probes()) {
    if (p.id == id) return &p;
  }
  return nullptr;
}

std::uint32_t default_threads(const gpu::AdapterDescription& adapter) {
  if (adapter.adapter_type == "cpu") return 64 * kWorkgroup;
  return 6336 * kWorkgroup;
}

std::vector<std::uint32_t> sample_invocations(std::uint32_t threads) {
  std::vector<std::uint32_t> v;
  if (threads <= 32) {
    for (std::uint32_t t = 0; t < threads; ++t) v.push_back(t);
    return v;
  }
  // Fixed corners (both lane parities, a workgroup boundary, the last invocation) plus hashed picks.
  for (std::uint32_t t : {0u, 1u, 2u, 3u, 255u, 256u, 257u, threads - 1}) {
    if (t < threads) v.push_back(t);
  }
  for (std::uint32_t k = 0; v.size() < 32; ++k) v.push_back(gpu::hash32(0xD00Du + k) % threads);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

Expected<std::string> check_outputs(const Probe& probe, const Params& params, std::span<const std::uint32_t> invocations,
                                    std::span<const std::uint32_t> stored) {
  double worst = 0;
  for (std::uint32_t t : invocations) {
    if (t >= stored.size()) {
      return make_error(ErrorKind::Failed, fmt::format("invocation {} has no stored result", t));
    }
    const Expectation want = probe.reference(params, t);
    const std::uint32_t got = stored[t];
    if (want.exact) {
      if (got != want.bits) {
        return make_error(ErrorKind::Failed, fmt::format("invocation {} stored {:#010x}, the host computed {:#010x} "
                                                         "({} loop trips)",
                                                         t, got, want.bits, params.iterations));
      }
      continue;
    }
    const double value = static_cast<double>(std::bit_cast<float>(got));
    if (!std::isfinite(value)) {
      return make_error(ErrorKind::Failed, fmt::format("invocation {} stored a non-finite value ({} loop trips)", t,
                                                       params.iterations));
    }
    const double err = std::abs(value - want.value) / std::max(want.scale, 1e-30);
    worst = std::max(worst, err);
    if (!(err <= probe.tolerance)) {
      return make_error(ErrorKind::Failed,
                        fmt::format("invocation {} stored {:.9g}, the host (double precision) computed {:.9g}: relative "
                                    "error {:.3g} > {:.3g} ({} loop trips)",
                                    t, value, want.value, err, probe.tolerance, params.iterations));
    }
  }
  if (probe.tolerance == 0) {
    return fmt::format("{} invocations matched the host's integer reference exactly at {} loop trips",
                       invocations.size(), params.iterations);
  }
  return fmt::format("{} invocations matched the host's double-precision reference at {} loop trips (worst relative "
                     "error {:.2g}, tolerance {:.2g})",
                     invocations.size(), params.iterations, worst, probe.tolerance);
}

Expected<Contraction> check_contraction(gpu::Context& gpu) {
  // x = m = 1 + 3 * 2^-13 and c = -(x * m rounded to f32): fused, 2^-26 remains; unfused, 0
  // (contraction.wgsl says why).
  Probe check;
  check.id = "contraction check";
  check.kernel = "contraction";
  const float x = 1.0f + 0x3p-13f;
  check.f[0] = x;
  check.f[1] = x;
  check.f[2] = -(1.0f + 0x3p-12f + 0x1p-23f);
  auto runner = Runner::create(gpu, check, 2);
  if (!runner) return std::move(runner).error();
  auto stored = runner->run(gpu, 1);
  if (!stored) return std::move(stored).error();
  const auto verdict = [](std::uint32_t bits) -> std::string {
    if (bits == std::bit_cast<std::uint32_t>(0x1p-26f)) return "fused";
    if ((bits & 0x7fffffffu) == 0) return "separate";
    return fmt::format("neither fused nor separate: stored {:#010x}", bits);
  };
  return Contraction{.mul_add = verdict((*stored)[0]), .fma_builtin = verdict((*stored)[1])};
}

Expected<Runner> Runner::create(gpu::Context& gpu, const Probe& probe, std::uint32_t threads, std::uint32_t workgroup,
                                std::optional<Form> form) {
  const auto& limits = gpu.limits();
  const bool by_x = limits.maxComputeWorkgroupSizeX < limits.maxComputeInvocationsPerWorkgroup;
  const std::uint32_t max_workgroup = by_x ? limits.maxComputeWorkgroupSizeX : limits.maxComputeInvocationsPerWorkgroup;
  if (workgroup == 0) {
    return make_error(ErrorKind::Usage, "workgroup size 0: a workgroup has at least one invocation");
  }
  if (workgroup > max_workgroup) {
    return make_error(
        ErrorKind::Skipped,
        fmt::format("workgroup size {} exceeds the adapter's {} ({})", workgroup,
                    by_x ? "maxComputeWorkgroupSizeX" : "maxComputeInvocationsPerWorkgroup", max_workgroup));
  }
  const std::uint64_t max_threads = static_cast<std::uint64_t>(limits.maxComputeWorkgroupsPerDimension) * workgroup;
  if (threads == 0 || threads > max_threads) {
    return make_error(ErrorKind::Usage,
                      fmt::format("compute threads {} out of range (1..{} on this adapter at workgroup size {})",
                                  threads, max_threads, workgroup));
  }
  Runner r;
  r.params_ = probe.params(threads, static_cast<std::uint32_t>(probe.initial_iterations));
  r.params_.workgroup = workgroup;
  r.form_ = form.value_or(form_for(gpu.adapter()));
  r.source_ = probe.source(r.form_);
  // The default size compiles exactly as before (no constants); any other sets the override.
  const gpu::Context::Constant wg_size{"wg_size", static_cast<double>(workgroup)};
  auto pipeline = workgroup == kDefaultWorkgroup
                      ? gpu.pipeline(r.source_, probe.id)
                      : gpu.pipeline(r.source_, probe.id, "main", std::span(&wg_size, 1));
  if (!pipeline) {
    Error e = std::move(pipeline).error();
    if (workgroup != kDefaultWorkgroup) e.message += fmt::format(" (workgroup size {})", workgroup);
    return e;
  }
  r.pipeline_ = *pipeline;
  auto out = gpu.buffer(static_cast<std::uint64_t>(threads) * 4, kStorage, probe.id + " out");
  if (!out) return std::move(out).error();
  r.out_ = *out;
  auto uniform = gpu.buffer_with(std::span<const Params>(&r.params_, 1), kUniform, probe.id + " params");
  if (!uniform) return std::move(uniform).error();
  r.uniform_ = *uniform;
  r.group_ = bind_buffers(gpu, r.pipeline_, {r.out_, r.uniform_});
  return r;
}

Expected<std::vector<std::uint32_t>> Runner::run(gpu::Context& gpu, std::uint32_t iterations, std::uint32_t active) {
  // Poison the output first, so a dispatch that stored nothing cannot pass on stale results.
  std::vector<std::uint32_t> poison(params_.threads, 0x7fc0dead);
  gpu.write(out_, 0, poison.data(), poison.size() * 4);
  params_.iterations = iterations;
  gpu.write(uniform_, offsetof(Params, iterations), &params_.iterations, sizeof(params_.iterations));
  const std::uint32_t computing = active != 0 ? std::min(active, params_.threads) : params_.threads;
  gpu.write(uniform_, offsetof(Params, threads), &computing, sizeof(computing));
  auto st = gpu.run_pass([&](wgpu::ComputePassEncoder& pass) {
    pass.SetPipeline(pipeline_);
    pass.SetBindGroup(0, group_);
    pass.DispatchWorkgroups(workgroups());
  });
  gpu.write(uniform_, offsetof(Params, threads), &params_.threads, sizeof(params_.threads));
  if (!st) return std::move(st).error();
  return gpu.read_as<std::uint32_t>(out_, 0, computing);
}

}  // namespace wgb::catalog::alu
