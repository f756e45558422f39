// A user's own benchmark, written against the public headers alone, run beside a built-in one.
//
//   custom_kernel [--quick]
//
// The custom definition measures a dependent chain of u32 multiply-xorshift steps: the loop count
// comes from a uniform (the work knob the scheduler calibrates), operands from the invocation id,
// and every invocation stores its result, so nothing can be folded away. Its validator recomputes
// a few invocations on the host.
#include <webgpu_bench/definition.hpp>
#include <webgpu_bench/progress.hpp>
#include <webgpu_bench/suite.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr char kWgsl[] = R"(
struct Params { iters: u32, seed: u32, pad0: u32, pad1: u32 }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<uniform> p: Params;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  var x = gid.x ^ p.seed;
  for (var i = 0u; i < p.iters; i++) {
    x = x * 1664525u + 1013904223u;
    x = x ^ (x >> 13u);
  }
  out[gid.x] = x;
}
)";

constexpr std::uint32_t kThreads = 64 * 256;
constexpr std::uint32_t kSeed = 0x1234567u;

std::uint32_t host_chain(std::uint32_t id, std::uint64_t iters) {
  std::uint32_t x = id ^ kSeed;
  for (std::uint64_t i = 0; i < iters; ++i) {
    x = x * 1664525u + 1013904223u;
    x ^= x >> 13u;
  }
  return x;
}

wgb::BenchmarkDefinition my_kernel() {
  wgb::BenchmarkDefinition d;
  d.id = "my-lcg-chain";
  d.label = "My LCG chain";
  d.description = "Dependent u32 multiply-add + xorshift steps; counts 3 integer ops per step.";
  d.category = "custom";
  d.metric = {"ops", "OP", "Integer ops (mul, add, xorshift = 3 per step)"};
  d.source = kWgsl;
  d.statistic = wgb::Statistic::Best;
  d.statistic_reason = "compute-bound: interference only adds time";
  d.prepare = [](wgb::PrepareContext& pc) -> wgb::Expected<std::unique_ptr<wgb::Workload>> {
    auto& gpu = pc.gpu;
    auto pipeline = gpu.pipeline(kWgsl, "my-lcg-chain");
    if (!pipeline) return std::move(pipeline).error();
    auto out = gpu.buffer(kThreads * 4, wgpu::BufferUsage::Storage | wgpu::BufferUsage::CopySrc, "out");
    if (!out) return std::move(out).error();
    const std::uint32_t params[4] = {16, kSeed, 0, 0};
    auto uniform = gpu.buffer_with(std::span<const std::uint32_t>(params),
                                   wgpu::BufferUsage::Uniform | wgpu::BufferUsage::CopyDst, "params");
    if (!uniform) return std::move(uniform).error();
    wgb::KernelSpec spec;
    spec.pipeline = *pipeline;
    spec.bind_groups = {wgb::bind_buffers(gpu, *pipeline, {*out, *uniform})};
    spec.workgroups = {kThreads / 64, 1, 1};
    spec.knob = {"iterations", 1, 1u << 20, 16};
    spec.knob_uniform = *uniform;
    spec.knob_offset = 0;
    spec.work = [](std::uint64_t iters) { return wgb::WorkModel{.operations = 3.0 * kThreads * iters}; };
    spec.validate = [out = *out](wgb::gpu::Context& g, std::uint64_t iters) -> wgb::Expected<std::string> {
      auto got = g.read_as<std::uint32_t>(out, 0, kThreads);
      if (!got) return std::move(got).error();
      for (std::uint32_t id : {0u, 1u, 4097u, kThreads - 1}) {
        if ((*got)[id] != host_chain(id, iters)) {
          return wgb::make_error(wgb::ErrorKind::Failed, "invocation " + std::to_string(id) + " is wrong");
        }
      }
      return std::string("4 invocations matched the host chain");
    };
    return wgb::make_kernel_workload(gpu, std::move(spec));
  };
  return d;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  wgb::SuiteOptions options;
  for (const auto& d : wgb::builtin_benchmarks()) {
    if (d.id == "read-linear") options.benchmarks.push_back(d);  // a filtered built-in ...
  }
  options.benchmarks.push_back(my_kernel());  // ... and the user's own
  if (quick) {
    options.bandwidth_bytes = 1 << 20;
    options.sampling.target_dispatch_ms = 2;
    options.sampling.measurement_ms = 5;
    options.sampling.idle_gap_ms = 0;
    options.sampling.max_rounds = 3;
  }
  // The suite's progress display (estimated time left, refined by each row), from the public headers too.
  wgb::SuiteProgress progress(options.benchmarks.size());
  options.on_progress = [&progress](const wgb::ProgressEvent& e) { progress.on_progress(e); };
  int failures = 0;
  auto status = wgb::run_suite(options, [&](const wgb::BenchmarkResult& r) {
    progress.on_result(r.index);
    std::printf("%-16s %-8s %12.4g %s/s  %s\n", r.id.c_str(), wgb::to_string(r.status), r.value,
                r.metric.unit.c_str(), r.status == wgb::RowStatus::Ok ? r.validation.c_str() : r.message.c_str());
    const auto left = progress.remaining_seconds();
    // Floored: display_fraction stays below 1 until finish(), and so must the percentage.
    std::printf("  %zu/%zu done, %d%%, %s%.1f s left\n", progress.completed_benchmarks(), progress.benchmark_count(),
                static_cast<int>(100 * progress.display_fraction()), progress.is_approximate() ? "~" : "",
                left ? *left : 0.0);
    if (r.status != wgb::RowStatus::Ok) ++failures;
  });
  progress.finish();
  if (!status) {
    std::fprintf(stderr, "custom_kernel: %s\n", status.error().message.c_str());
    return 3;
  }
  return failures == 0 ? 0 : 1;
}
