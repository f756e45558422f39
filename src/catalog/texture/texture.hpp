// The texture probes (texture-interp-builtin, texture-interp-manual): linear interpolation of a
// one-row rgba32float texture by the texture unit (a filtering sampler) against the same
// interpolation written in the shader from unfiltered textureLoad. The definitions (texture.cpp)
// and the tests use this header; nothing here is part of the public API.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "catalog/common.hpp"
#include "webgpu_bench/context.hpp"
#include "webgpu_bench/definition.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::catalog::texture {

enum class Interp { Builtin, Manual };

// Host mirror of kernels/texture/prelude.wgsl `Params`, 32 bytes.
struct Params {
  std::uint32_t iterations = 1, threads = 0, width = 0, seed = 0;
  float inv = 0;  // 1 / (4 width)
  std::uint32_t pad[3] = {0, 0, 0};
};
static_assert(sizeof(Params) == 32, "Params must match the WGSL uniform layout");

inline constexpr std::uint32_t kWidth = 4096;            // texels in the row: 64 KiB of rgba32float
inline constexpr std::uint32_t kSamplesPerIteration = 256;
inline constexpr std::uint32_t kBytesPerSample = 32;     // two rgba32float texels
inline constexpr std::uint32_t kWorkgroup = 256;
// Validation tolerance, relative to the sum of the samples' magnitudes: every sample is exact and
// the f32 sums are exact until they pass 2^12, so the only error is rounding of long sums.
inline constexpr double kTolerance = 1e-5;

const char* id(Interp which);
std::string source(Interp which);  // the generated WGSL (prelude + the kernel, unrolled)
Params params(std::uint32_t threads, std::uint32_t iterations);

// The texels: component c of texel i is (hash32((4 i + c) ^ seed) >> 22) / 1024 - 0.5, in
// [-0.5, 0.5) on a 2^-10 grid (exact in f32, and so is every quarter-weight blend of two).
std::vector<float> texels(std::uint32_t width);

// The work model of one dispatch: 256 samples per invocation per loop trip, 32 bytes each.
WorkModel work_model(std::uint32_t threads, std::uint64_t iterations);

// What invocation t stores: the sum of its samples' components (double precision), and the sum
// of their magnitudes (the tolerance's scale).
struct Expectation {
  double value = 0, scale = 0;
};
Expectation reference(const Params& params, std::span<const float> texels, std::uint32_t t);

// Compares stored words with the reference for the given invocations (kTolerance).
Expected<std::string> check_outputs(const Params& params, std::span<const float> texels,
                                    std::span<const std::uint32_t> invocations, std::span<const std::uint32_t> stored);

// A compiled probe on a device: pipeline, texture (and sampler for the builtin path), output and
// uniform buffers. run() dispatches once at `iterations` and reads every stored word back.
class Runner {
 public:
  static Expected<Runner> create(gpu::Context& gpu, Interp which, std::uint32_t threads);
  Expected<std::vector<std::uint32_t>> run(gpu::Context& gpu, std::uint32_t iterations);
  const Params& params() const { return params_; }
  std::span<const float> texels() const { return texels_; }
  std::uint32_t workgroups() const { return (params_.threads + kWorkgroup - 1) / kWorkgroup; }
  const wgpu::ComputePipeline& pipeline() const { return pipeline_; }
  const wgpu::BindGroup& bind_group() const { return group_; }
  const wgpu::Buffer& uniform() const { return uniform_; }

 private:
  Params params_;
  std::vector<float> texels_;
  wgpu::ComputePipeline pipeline_;
  wgpu::Buffer out_, uniform_;
  wgpu::Texture texture_;
  wgpu::Sampler sampler_;
  wgpu::BindGroup group_;
};

// The prepare step of the probe's definition: texture-interp-builtin skips, naming the
// float32-filterable feature, where the device lacks it (`has_feature` defaults to the device's
// own; the tests pass one that hides it).
Expected<std::unique_ptr<Workload>> prepare(PrepareContext& pc, Interp which, const FeatureProbe& has_feature = {});

}  // namespace wgb::catalog::texture
