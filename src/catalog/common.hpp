// Helpers shared by the catalog's families: embedded kernel lookup, buffer usages, and the seeded
// host-side data generators that CPU references reuse.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "webgpu_bench/definition.hpp"

namespace wgb::kernels {
// Embedded WGSL by path below kernels/ without extension ("bandwidth/read_linear"); empty if none.
std::string_view find(std::string_view name);
}  // namespace wgb::kernels

namespace wgb::catalog {

// The embedded source, or a clearly failing shader if the name is wrong (a build bug, caught by
// the every-kernel-compiles test).
std::string kernel_source(std::string_view name);

inline constexpr wgpu::BufferUsage kStorage =
    wgpu::BufferUsage::Storage | wgpu::BufferUsage::CopySrc | wgpu::BufferUsage::CopyDst;
inline constexpr wgpu::BufferUsage kUniform = wgpu::BufferUsage::Uniform | wgpu::BufferUsage::CopyDst;

// Binds (binding, buffer) pairs, each buffer whole, to group 0 of the pipeline's automatic layout
// (only the bindings its entry point uses); bind_buffers numbers them 0..n-1.
wgpu::BindGroup bind_at(gpu::Context& gpu, const wgpu::ComputePipeline& pipeline,
                        const std::vector<std::pair<std::uint32_t, wgpu::Buffer>>& buffers);

// Sentinels that a kernel's folded result is compared with: drawn from a hash, never zero, so a
// match is practically impossible but unprovable for the compiler.
inline constexpr std::uint32_t kMagic0 = 0x9e3779b9U;
inline constexpr std::uint32_t kMagic1 = 0x7f4a7c15U;

// Feature lookup used by prepare steps; the tests substitute one that lacks a feature to prove the
// skip path (lavapipe has every optional feature the catalog uses). Empty: the device's own.
using FeatureProbe = std::function<bool(std::string_view name)>;

// Skips with the feature named when the device lacks it (as `has` says, when given).
Status require_feature(gpu::Context& gpu, std::string_view webgpu_feature, const FeatureProbe& has = {});
Status require_wgsl_feature(gpu::Context& gpu, std::string_view wgsl_feature, const FeatureProbe& has = {});

}  // namespace wgb::catalog
