// The native configurations (context.hpp): which Dawn device toggles each one sets beyond Dawn's own
// choice for the adapter. Standard library only, so the browser matrix and its tests can list them
// without a device. What each one is, and why the default is the default: docs/implementations.md.
#include <string_view>
#include <vector>

#include "webgpu_bench/context.hpp"

namespace wgb::gpu {

const std::vector<NativeConfiguration>& native_configurations() {
  // "shipped": what Chromium's Dawn runs a page's WebGPU with. Compared on SwiftShader, the
  // two build the same Vulkan device (robustBufferAccess, pipelineRobustness, no per-pipeline
  // override) and emit the same SPIR-V for every kernel measured, so no toggle beyond Dawn's
  // adapter defaults is needed. Timestamp quantization is off in every configuration (a measurement
  // setting, as Chromium's --enable-unsafe-webgpu; Context::create applies it).
  static const std::vector<NativeConfiguration> all = {
      {"shipped", "Dawn as a browser ships it: robustness on (bounds clamping, loop guards, the driver's robust access)",
       {}, {}, true},
      {"no-robustness", "Dawn without WebGPU's bounds checks (disable_robustness): what the checks cost",
       {"disable_robustness"}, {}, false},
  };
  return all;
}

const NativeConfiguration* find_native_configuration(std::string_view name) {
  const auto& all = native_configurations();
  if (name.empty()) return &all.front();
  for (const auto& c : all) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

}  // namespace wgb::gpu
