// Kernel sources in the browser engine (gpu/kernel_override.hpp): always the built-in kernels;
// replacing them from a folder (--kernel-dir) is a command-line experiment with no browser form.
#include <fmt/format.h>

#include "gpu/kernel_override.hpp"

namespace wgb::gpu {

std::string kernel_text(std::string_view name, std::string_view embedded) {
  if (embedded.empty()) return fmt::format("// missing embedded kernel '{}'\n@compute fn main() {{ missing(); }}", name);
  return std::string(embedded);
}

std::optional<std::string> overridden_kernel(std::string_view) { return std::nullopt; }

const std::vector<KernelOverride>& kernel_overrides() {
  static const std::vector<KernelOverride> none;
  return none;
}

const std::string& kernel_dir() {
  static const std::string none;
  return none;
}

nlohmann::json kernel_overrides_json() { return nullptr; }

}  // namespace wgb::gpu
