// How this program was built (generated at build time from cmake/build_info.cpp.in).
#pragma once

#include <nlohmann/json.hpp>

namespace wgb {

struct BuildInfo {
  const char* version;
  const char* git_revision;
  const char* compiler_id;
  const char* compiler_version;
  const char* compiler_path;
  const char* build_type;
  const char* flags;             // CMAKE_CXX_FLAGS + the build type's flags
  const char* compile_command;   // the complete compiler command line of a measured source
  const char* dawn_version;
  const char* dawn_source;
};

const BuildInfo& build_info();
// The `build` object of every result document.
nlohmann::json build_json();

}  // namespace wgb
