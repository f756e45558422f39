// WebGPU names for Dawn's enums, as `devices` prints them and result documents record them.
#pragma once

#include <webgpu/webgpu_cpp.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace wgb::gpu {

std::string backend_name(wgpu::BackendType t);
std::string adapter_type_name(wgpu::AdapterType t);
std::string feature_name(wgpu::FeatureName f);
std::string wgsl_feature_name(wgpu::WGSLLanguageFeatureName f);
std::string error_type_name(wgpu::ErrorType t);
std::string subgroup_matrix_component_name(wgpu::SubgroupMatrixComponentType t);
// Every field of wgpu::Limits, by its WebGPU name.
std::vector<std::pair<std::string, std::uint64_t>> limit_list(const wgpu::Limits& l);

// The optional features a benchmark run requests when the adapter offers them (besides
// chromium-experimental-subgroup-matrix, requested only with --experimental).
const std::vector<wgpu::FeatureName>& requested_features();
// Every feature the adapter offers / the device enabled, WebGPU names, sorted.
std::vector<std::string> feature_names(const wgpu::Adapter& adapter);
std::vector<std::string> feature_names(const wgpu::Device& device);
// The features a run's device enables on an adapter offering `offered` (WebGPU names).
std::vector<std::string> enabled_features(const std::vector<std::string>& offered, bool experimental);

}  // namespace wgb::gpu
