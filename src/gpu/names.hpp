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
// The limits that matter for compute benchmarks, by their WebGPU names.
std::vector<std::pair<std::string, std::uint64_t>> limit_list(const wgpu::Limits& l);

}  // namespace wgb::gpu
