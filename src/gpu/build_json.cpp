// The `build` object of every result document, from the generated build information.
#include <fmt/format.h>

#include "gpu/build_info.hpp"

namespace wgb {

nlohmann::json build_json() {
  const auto& b = build_info();
  return {{"version", b.version},
          {"git_revision", b.git_revision},
          {"compiler", fmt::format("{} {}", b.compiler_id, b.compiler_version)},
          {"compiler_vendor", b.compiler_id},
          {"compiler_version", b.compiler_version},
          {"compiler_path", b.compiler_path},
          {"build_type", b.build_type},
          {"flags", b.flags},
          {"compile_command", b.compile_command},
          {"dawn_version", b.dawn_version},
          {"dawn_source", b.dawn_source}};
}

}  // namespace wgb
