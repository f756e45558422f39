// The runtimes `webgpu-bench browser` puts beside native Dawn, as data (adding one is one entry):
// each with the WebGPU implementation under it and how to install it. The native columns are
// gpu::native_configurations(), one column each.
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

// The program `--flag PATH` names (`given`), else the one $`env` names: its path; an error (one line
// naming where it was named) when that is no executable program; "" when neither names one.
Expected<std::string> named_program(const char* flag, const std::string& given, const char* env);

// A fresh private folder for a browser's profile, `<tmp>/<prefix>-XXXXXX`.
Expected<std::string> make_profile_folder(const char* prefix);

// The Vulkan driver file of the CPU driver this program adds to the system's drivers
// ($WGB_CPU_DRIVER_ICD, else the one the build found), or "" when there is none: runtimes started
// by this program are given the same drivers as its native runs.
std::string cpu_driver_icd();

// The environment changes that give a runtime the Vulkan drivers a native run of this program
// sees: none when the user chose drivers (VK_DRIVER_FILES, VK_ICD_FILENAMES), else the CPU driver
// added to the system's (VK_ADD_DRIVER_FILES).
std::vector<std::string> runtime_vulkan_env();

}  // namespace wgb::browser
