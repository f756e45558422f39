// Enum-to-name tables. Feature names follow the WebGPU specification's spelling where one exists;
// Dawn-only features fall back to Dawn's own enumerator name in kebab case.
#include "gpu/names.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <webgpu/webgpu_cpp_print.h>

namespace wgb::gpu {

namespace {

// "FeatureName::ShaderF16" -> "shader-f16"; sep is '-' for features, '_' for WGSL features.
std::string from_printed(const std::string& printed, char sep) {
  std::string name = printed.substr(printed.find("::") == std::string::npos ? 0 : printed.find("::") + 2);
  std::string out;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (std::isupper(c) && i > 0) {
      const unsigned char prev = static_cast<unsigned char>(name[i - 1]);
      if (std::islower(prev) || std::isdigit(prev)) out += sep;
    } else if (std::isdigit(c) && i > 0 && std::isalpha(static_cast<unsigned char>(name[i - 1])) &&
               !std::isupper(static_cast<unsigned char>(name[i - 1]))) {
      out += sep;
    }
    out += static_cast<char>(std::tolower(c));
  }
  return out;
}

template <class E>
std::string printed(E e) {
  std::ostringstream s;
  s << e;
  return s.str();
}

}  // namespace

std::string backend_name(wgpu::BackendType t) {
  switch (t) {
    case wgpu::BackendType::Null: return "null";
    case wgpu::BackendType::WebGPU: return "webgpu";
    case wgpu::BackendType::D3D11: return "d3d11";
    case wgpu::BackendType::D3D12: return "d3d12";
    case wgpu::BackendType::Metal: return "metal";
    case wgpu::BackendType::Vulkan: return "vulkan";
    case wgpu::BackendType::OpenGL: return "opengl";
    case wgpu::BackendType::OpenGLES: return "opengles";
    default: return "undefined";
  }
}

std::string adapter_type_name(wgpu::AdapterType t) {
  switch (t) {
    case wgpu::AdapterType::DiscreteGPU: return "discrete-gpu";
    case wgpu::AdapterType::IntegratedGPU: return "integrated-gpu";
    case wgpu::AdapterType::CPU: return "cpu";
    default: return "unknown";
  }
}

std::string feature_name(wgpu::FeatureName f) {
  switch (f) {
    case wgpu::FeatureName::ShaderF16: return "shader-f16";
    case wgpu::FeatureName::TimestampQuery: return "timestamp-query";
    case wgpu::FeatureName::Subgroups: return "subgroups";
    case wgpu::FeatureName::Float32Filterable: return "float32-filterable";
    case wgpu::FeatureName::Float32Blendable: return "float32-blendable";
    case wgpu::FeatureName::TextureCompressionBC: return "texture-compression-bc";
    case wgpu::FeatureName::TextureCompressionETC2: return "texture-compression-etc2";
    case wgpu::FeatureName::TextureCompressionASTC: return "texture-compression-astc";
    case wgpu::FeatureName::Depth32FloatStencil8: return "depth32float-stencil8";
    case wgpu::FeatureName::RG11B10UfloatRenderable: return "rg11b10ufloat-renderable";
    case wgpu::FeatureName::BGRA8UnormStorage: return "bgra8unorm-storage";
    case wgpu::FeatureName::ChromiumExperimentalSubgroupMatrix: return "chromium-experimental-subgroup-matrix";
    default: return from_printed(printed(f), '-');
  }
}

std::string wgsl_feature_name(wgpu::WGSLLanguageFeatureName f) {
  switch (f) {
    case wgpu::WGSLLanguageFeatureName::Packed4x8IntegerDotProduct: return "packed_4x8_integer_dot_product";
    case wgpu::WGSLLanguageFeatureName::ReadonlyAndReadwriteStorageTextures:
      return "readonly_and_readwrite_storage_textures";
    default: return from_printed(printed(f), '_');
  }
}

std::string error_type_name(wgpu::ErrorType t) {
  switch (t) {
    case wgpu::ErrorType::NoError: return "no-error";
    case wgpu::ErrorType::Validation: return "validation";
    case wgpu::ErrorType::OutOfMemory: return "out-of-memory";
    case wgpu::ErrorType::Internal: return "internal";
    default: return "unknown";
  }
}

std::string subgroup_matrix_component_name(wgpu::SubgroupMatrixComponentType t) {
  switch (t) {
    case wgpu::SubgroupMatrixComponentType::F32: return "f32";
    case wgpu::SubgroupMatrixComponentType::F16: return "f16";
    case wgpu::SubgroupMatrixComponentType::U32: return "u32";
    case wgpu::SubgroupMatrixComponentType::I32: return "i32";
    case wgpu::SubgroupMatrixComponentType::U8: return "u8";
    case wgpu::SubgroupMatrixComponentType::I8: return "i8";
  }
  return "unknown";
}

std::vector<std::pair<std::string, std::uint64_t>> limit_list(const wgpu::Limits& l) {
  // Every field of wgpu::Limits, in the header's order, by its WebGPU name.
  return {
      {"maxTextureDimension1D", l.maxTextureDimension1D},
      {"maxTextureDimension2D", l.maxTextureDimension2D},
      {"maxTextureDimension3D", l.maxTextureDimension3D},
      {"maxTextureArrayLayers", l.maxTextureArrayLayers},
      {"maxBindGroups", l.maxBindGroups},
      {"maxBindGroupsPlusVertexBuffers", l.maxBindGroupsPlusVertexBuffers},
      {"maxBindingsPerBindGroup", l.maxBindingsPerBindGroup},
      {"maxDynamicUniformBuffersPerPipelineLayout", l.maxDynamicUniformBuffersPerPipelineLayout},
      {"maxDynamicStorageBuffersPerPipelineLayout", l.maxDynamicStorageBuffersPerPipelineLayout},
      {"maxSampledTexturesPerShaderStage", l.maxSampledTexturesPerShaderStage},
      {"maxSamplersPerShaderStage", l.maxSamplersPerShaderStage},
      {"maxStorageBuffersPerShaderStage", l.maxStorageBuffersPerShaderStage},
      {"maxStorageTexturesPerShaderStage", l.maxStorageTexturesPerShaderStage},
      {"maxUniformBuffersPerShaderStage", l.maxUniformBuffersPerShaderStage},
      {"maxUniformBufferBindingSize", l.maxUniformBufferBindingSize},
      {"maxStorageBufferBindingSize", l.maxStorageBufferBindingSize},
      {"minUniformBufferOffsetAlignment", l.minUniformBufferOffsetAlignment},
      {"minStorageBufferOffsetAlignment", l.minStorageBufferOffsetAlignment},
      {"maxVertexBuffers", l.maxVertexBuffers},
      {"maxBufferSize", l.maxBufferSize},
      {"maxVertexAttributes", l.maxVertexAttributes},
      {"maxVertexBufferArrayStride", l.maxVertexBufferArrayStride},
      {"maxInterStageShaderVariables", l.maxInterStageShaderVariables},
      {"maxColorAttachments", l.maxColorAttachments},
      {"maxColorAttachmentBytesPerSample", l.maxColorAttachmentBytesPerSample},
      {"maxComputeWorkgroupStorageSize", l.maxComputeWorkgroupStorageSize},
      {"maxComputeInvocationsPerWorkgroup", l.maxComputeInvocationsPerWorkgroup},
      {"maxComputeWorkgroupSizeX", l.maxComputeWorkgroupSizeX},
      {"maxComputeWorkgroupSizeY", l.maxComputeWorkgroupSizeY},
      {"maxComputeWorkgroupSizeZ", l.maxComputeWorkgroupSizeZ},
      {"maxComputeWorkgroupsPerDimension", l.maxComputeWorkgroupsPerDimension},
      {"maxImmediateSize", l.maxImmediateSize},
  };
}

const std::vector<wgpu::FeatureName>& requested_features() {
  static const std::vector<wgpu::FeatureName> f{
      wgpu::FeatureName::ShaderF16,
      wgpu::FeatureName::TimestampQuery,
      wgpu::FeatureName::Subgroups,
      wgpu::FeatureName::Float32Filterable,  // texture-interp-builtin: linear filtering of rgba32float
  };
  return f;
}

namespace {

std::vector<std::string> sorted_names(const wgpu::SupportedFeatures& features) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < features.featureCount; ++i) out.push_back(feature_name(features.features[i]));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<std::string> feature_names(const wgpu::Adapter& adapter) {
  wgpu::SupportedFeatures features;
  adapter.GetFeatures(&features);
  return sorted_names(features);
}

std::vector<std::string> feature_names(const wgpu::Device& device) {
  wgpu::SupportedFeatures features;
  device.GetFeatures(&features);
  return sorted_names(features);
}

std::vector<std::string> enabled_features(const std::vector<std::string>& offered, bool experimental) {
  std::vector<wgpu::FeatureName> wanted = requested_features();
  if (experimental) wanted.push_back(wgpu::FeatureName::ChromiumExperimentalSubgroupMatrix);
  std::vector<std::string> out;
  for (auto f : wanted) {
    const std::string name = feature_name(f);
    if (std::find(offered.begin(), offered.end(), name) != offered.end()) out.push_back(name);
  }
  // Dawn also enables the core features every device has (e.g. core-features-and-limits).
  for (const char* core : {"core-features-and-limits"}) {
    if (std::find(offered.begin(), offered.end(), core) != offered.end()) out.push_back(core);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace wgb::gpu
