// The WebGPU implementations `webgpu-bench browser` puts side by side: the runtimes it can drive
// (each with the WebGPU implementation under it and how to install it) and the native
// configurations every runtime is compared with, both as data: adding one is one entry.
#pragma once

#include <string>
#include <vector>

#include "webgpu_bench/expected.hpp"

namespace wgb::browser {

struct RuntimeInfo {
  std::string name;     // "chromium", "firefox", "deno": the --runtime names
  std::string product;  // "Chromium", "Firefox", "Deno"
  std::string webgpu;   // the WebGPU implementation under it: "Dawn", "wgpu"
  std::string install;  // one line: how to get it where it is missing
};

// chromium, firefox, deno, in this order.
const std::vector<RuntimeInfo>& runtimes();
const RuntimeInfo* find_runtime(const std::string& name);

// "chromium,deno" -> their entries in the given order, duplicates removed. An unknown or empty
// name is a usage error listing the runtimes.
Expected<std::vector<RuntimeInfo>> parse_runtimes(const std::string& list);

// One native configuration: a column of native Dawn runs with these options. The first is the
// reference every runtime and every other configuration is compared with ("native Dawn").
struct NativeConfig {
  std::string name;                  // "dawn", "dawn-no-robustness": the column's name
  std::string label;                 // "native Dawn", "native Dawn --no-robustness"
  std::vector<std::string> options;  // passed to `run` / `memory`
  std::string why;                   // what the column shows
};
const std::vector<NativeConfig>& native_configs();

// The Vulkan driver file of the CPU driver this program adds to the system's drivers
// ($WGB_CPU_DRIVER_ICD, else the one the build found), or "" when there is none: runtimes started
// by this program are given the same drivers as its native runs.
std::string cpu_driver_icd();

// The environment changes that give a runtime the Vulkan drivers a native run of this program
// sees: none when the user chose drivers (VK_DRIVER_FILES, VK_ICD_FILENAMES), else the CPU driver
// added to the system's (VK_ADD_DRIVER_FILES).
std::vector<std::string> runtime_vulkan_env();

}  // namespace wgb::browser
