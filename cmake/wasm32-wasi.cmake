# Toolchain for the browser engine: C++20 to a wasm32-wasi reactor module with Debian 12's clang-16,
# lld-16, wasi-libc and libc++ for wasm32 (scripts/bootstrap.sh installs them). No exceptions, no
# threads: the engine runs in one Web Worker and blocks on the page's channel.
set(CMAKE_SYSTEM_NAME Generic)  # CMake 3.25 has no WASI platform; nothing here needs one
set(CMAKE_SYSTEM_PROCESSOR wasm32)
set(CMAKE_SYSTEM_VERSION 1)
set(WGB_WASM_TRIPLE wasm32-wasi)

find_program(WGB_WASM_CLANGXX NAMES clang++-16 REQUIRED)
set(CMAKE_CXX_COMPILER "${WGB_WASM_CLANGXX}")
set(CMAKE_CXX_COMPILER_TARGET ${WGB_WASM_TRIPLE})
set(CMAKE_CXX_COMPILER_WORKS ON)  # a reactor has no main(): CMake's link test would fail
set(CMAKE_EXECUTABLE_SUFFIX ".wasm")

set(WGB_WASM_LIBCXX_INCLUDE /usr/lib/llvm-16/include/wasm32-wasi/c++/v1)
set(WGB_WASM_SYSROOT_INCLUDE /usr/include/wasm32-wasi)
set(CMAKE_CXX_FLAGS_INIT "-fno-exceptions -isystem ${WGB_WASM_LIBCXX_INCLUDE} -isystem ${WGB_WASM_SYSROOT_INCLUDE}")
# wasm-ld's default stack is 64 KiB, in linear memory with nothing to catch an overflow: give the
# engine 8 MiB (JSON documents and CPU references recurse and keep large locals).
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "-mexec-model=reactor -L/usr/lib/llvm-16/lib/wasm32-wasi -L/usr/lib/wasm32-wasi -Wl,--strip-all -Wl,-z,stack-size=8388608")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
