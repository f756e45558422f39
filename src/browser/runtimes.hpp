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
  std::string flag;     // the option that names its program: "--chromium"
  std::string env;      // the environment variable that names it: "WGB_CHROMIUM"
  std::vector<std::string> programs;  // the names it is looked for by on PATH, in order
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

// The runtime's program: the one `given` (its --flag) or its $env names, else the first of its
// programs on PATH; "" when none is found (then the caller may look further), an error when the
// named one is no executable program.
Expected<std::string> find_runtime_program(const RuntimeInfo& runtime, const std::string& given);
// find_runtime_program's result, with "" turned into a NoAdapter error saying what was looked for.
Expected<std::string> require_runtime_program(const char* name, const std::string& given);
// The Chromium / Firefox program LaunchOptions / FirefoxOptions name (require_runtime_program).
Expected<std::string> find_chromium(const std::string& given);
Expected<std::string> find_firefox(const std::string& given);

// A fresh private folder for a browser's profile, `<tmp>/<prefix>-XXXXXX`.
Expected<std::string> make_profile_folder(const char* prefix);

// A browser's program (as its find_ function gave it) and a fresh profile folder for it.
struct ProgramAndProfile {
  std::string program, profile;
};
Expected<ProgramAndProfile> program_and_profile(Expected<std::string> program, const char* profile_prefix);

// The Vulkan driver file of the CPU driver this program adds to the system's drivers
// ($WGB_CPU_DRIVER_ICD, else the one the build found), or "" when there is none: runtimes started
// by this program are given the same drivers as its native runs.
std::string cpu_driver_icd();

// The environment changes that give a runtime the Vulkan drivers a native run of this program
// sees: none when the user chose drivers (VK_DRIVER_FILES, VK_ICD_FILENAMES), else the CPU driver
// added to the system's (VK_ADD_DRIVER_FILES).
std::vector<std::string> runtime_vulkan_env();

}  // namespace wgb::browser
