// Replacing built-in kernels by files, for one process (`--kernel-dir DIR`): DIR mirrors kernels/
// ("DIR/bandwidth/write_linear.wgsl" replaces "bandwidth/write_linear"). For people who work on a
// WebGPU implementation or a shader form and want the suite's timing, validation and report around
// their variant of a kernel without rebuilding. Every replaced kernel is listed in the result
// document (`kernel_overrides`, with each file's hash), and rows carry the hash of the source they
// ran, so a replaced kernel's number is never mistaken for the shipped kernel's.
#pragma once

#include <nlohmann/json.hpp>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "webgpu_bench/expected.hpp"

namespace wgb::gpu {

struct KernelOverride {
  std::string name;  // "bandwidth/write_linear"
  std::string path;  // the file it was read from
  std::string hash;  // source_hash of its text
};

// Reads every *.wgsl file below `dir` once. A file whose name is not a built-in kernel (`known`
// says no) is a usage error naming it, as is a missing or unreadable directory, or a folder with
// no .wgsl file at all. Replaces any earlier setting; an empty path clears it.
Status set_kernel_dir(const std::string& dir, const std::function<bool(std::string_view)>& known);

// The replacing text for a kernel name, if a file replaces it.
std::optional<std::string> overridden_kernel(std::string_view name);

// The source a kernel runs: the replacing file's text, else `embedded` (the built-in text), else a
// stub naming the missing kernel that fails to compile (so the row says which kernel is missing).
std::string kernel_text(std::string_view name, std::string_view embedded);

// Every kernel replaced in this process (sorted by name), and the directory given.
const std::vector<KernelOverride>& kernel_overrides();
const std::string& kernel_dir();
// What a result document records about them (`kernel_overrides`: the directory and every replaced
// kernel with its file and hash); null when no kernel is replaced.
nlohmann::json kernel_overrides_json();

}  // namespace wgb::gpu
