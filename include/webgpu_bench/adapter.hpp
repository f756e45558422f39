// What a run records about its device, independent of any WebGPU implementation: the adapter as
// `webgpu-bench devices` prints it and every result document records it, and the device record a
// document is given (natively from Dawn through gpu::device_record, in a browser from the device
// host's reply). Standard library and nlohmann-json only, so the report area needs no Dawn.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace wgb::gpu {

// One subgroup-matrix configuration the adapter reports (Dawn's experimental subgroup matrices):
// component and result types ("f16", "f32", "i8", "i32", "u8", "u32") and the M x N x K shape.
struct SubgroupMatrixShape {
  std::string component, result;
  std::uint32_t m = 0, n = 0, k = 0;
};

// One adapter as `webgpu-bench devices` prints it and as every result document records it.
struct AdapterDescription {
  std::size_t index = 0;
  std::string vendor, architecture, device, description;
  std::string backend;       // "vulkan", "null", ...
  std::string adapter_type;  // "discrete-gpu", "integrated-gpu", "cpu", "unknown"
  std::string driver;        // driver description as the backend reports it
  std::uint32_t vendor_id = 0, device_id = 0;
  std::uint32_t subgroup_min_size = 0, subgroup_max_size = 0;
  std::vector<std::pair<std::string, std::uint64_t>> limits;  // the limits that matter, by WebGPU name
  std::vector<std::string> features;                          // device features, WebGPU names
  std::vector<std::string> wgsl_features;                     // WGSL language features (instance-wide)
  std::vector<std::string> adapter_toggles;                   // toggles in force on the adapter
  // Reported only with --experimental (allow_unsafe_apis) on adapters that have the feature.
  std::vector<SubgroupMatrixShape> subgroup_matrix_configs;
  // The adapter's memory heaps (Dawn's adapter-properties-memory-heaps, a native feature: WebGPU in
  // a browser does not expose them): size and properties ("device-local", "host-visible",
  // "host-coherent", "host-uncached", "host-cached"). Empty where the adapter does not report them.
  struct MemoryHeap {
    std::uint64_t size = 0;
    std::vector<std::string> properties;
  };
  std::vector<MemoryHeap> memory_heaps;
  bool is_fallback_null() const { return backend == "null"; }
};

// What a result document records about the device a run used (machine.adapter and machine.dawn).
struct DeviceRecord {
  AdapterDescription adapter;                 // `features`: what the device enabled
  std::vector<std::string> adapter_features;  // what the adapter offers
  // machine.dawn: the implementation's settings (version, device toggles, timestamp quantization,
  // robustness, experimental, timestamps, empty_submit_ms); a browser records what it knows.
  nlohmann::json implementation = nlohmann::json::object();
};

}  // namespace wgb::gpu
