// How the host kernels were compiled (the compiler's vendor and exact version, and the complete
// command line of flags). Generated at configure time by src/host/CMakeLists.txt.
#pragma once

namespace wgb::host {

// The compiler and every option CMake passes when compiling the host kernels (include paths and
// output names left out): compiler path, CMAKE_CXX_FLAGS, the build type's flags, the language
// standard, and the target's own compile options.
const char* host_compile_command();
// The compiler's own __VERSION__ string, as compiled into the kernels.
const char* host_compiler_version();

}  // namespace wgb::host
