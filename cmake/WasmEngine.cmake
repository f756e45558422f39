# wgb_engine_wasm: the browser engine, this project's C++ compiled to WebAssembly (src/web/,
# docs/browser.md). A second CMake tree under ${CMAKE_BINARY_DIR}/wasm-engine configured with
# cmake/wasm32-wasi.cmake (clang-16, wasi-libc, libc++ for wasm32; scripts/bootstrap.sh installs
# them); the module lands at ${WGB_ENGINE_WASM}. Without the toolchain the build says so once and
# goes on without the target (the page then says the program was built without the browser engine).
set(WGB_ENGINE_WASM "${CMAKE_BINARY_DIR}/web/webgpu-bench-engine.wasm")
option(WGB_BUILD_ENGINE_WASM "Build the browser engine (WebAssembly) when its toolchain is installed" ON)

function(_wgb_wasm_toolchain_missing out)
  set(missing "")
  find_program(_wgb_clangxx16 clang++-16)
  find_program(_wgb_wasm_ld16 NAMES wasm-ld-16 wasm-ld)
  if(NOT _wgb_clangxx16)
    list(APPEND missing "clang-16")
  endif()
  if(NOT _wgb_wasm_ld16)
    list(APPEND missing "lld-16")
  endif()
  foreach(pair "wasi-libc=/usr/lib/wasm32-wasi/libc.a"
               "libc++-16-dev-wasm32=/usr/lib/llvm-16/include/wasm32-wasi/c++/v1/vector"
               "libc++abi-16-dev-wasm32=/usr/lib/llvm-16/lib/wasm32-wasi/libc++abi.a"
               "libclang-rt-16-dev-wasm32=/usr/lib/llvm-16/lib/clang/16/lib/wasi/libclang_rt.builtins-wasm32.a")
    string(REPLACE "=" ";" kv "${pair}")
    list(GET kv 0 package)
    list(GET kv 1 file)
    if(NOT EXISTS "${file}")
      list(APPEND missing "${package}")
    endif()
  endforeach()
  set(${out} "${missing}" PARENT_SCOPE)
endfunction()

if(NOT WGB_BUILD_ENGINE_WASM)
  message(STATUS "Browser engine: off (WGB_BUILD_ENGINE_WASM=OFF); the program is built without it")
  return()
endif()
_wgb_wasm_toolchain_missing(_wgb_wasm_missing)
if(_wgb_wasm_missing)
  string(REPLACE ";" " " _wgb_wasm_missing "${_wgb_wasm_missing}")
  message(STATUS "Browser engine: not built, missing ${_wgb_wasm_missing} (scripts/bootstrap.sh installs them); "
                 "the program is built without it")
  return()
endif()

include(ExternalProject)
set(_wgb_wasm_args
    -DCMAKE_TOOLCHAIN_FILE=${PROJECT_SOURCE_DIR}/cmake/wasm32-wasi.cmake
    -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG"
    -DWGB_ROOT=${PROJECT_SOURCE_DIR}
    -DWGB_ENGINE_OUTPUT=${WGB_ENGINE_WASM})
if(CMAKE_CXX_COMPILER_LAUNCHER)
  list(APPEND _wgb_wasm_args -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER})
endif()
file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/web")
ExternalProject_Add(wgb_engine_wasm_tree
  SOURCE_DIR "${PROJECT_SOURCE_DIR}/src/web"
  BINARY_DIR "${CMAKE_BINARY_DIR}/wasm-engine"
  CMAKE_GENERATOR "${CMAKE_GENERATOR}"
  CMAKE_ARGS ${_wgb_wasm_args}
  BUILD_ALWAYS ON  # the sub-build knows which of this tree's sources changed
  INSTALL_COMMAND ""
  BUILD_BYPRODUCTS "${WGB_ENGINE_WASM}")
add_custom_target(wgb_engine_wasm ALL DEPENDS wgb_engine_wasm_tree)
message(STATUS "Browser engine: ${WGB_ENGINE_WASM} (target wgb_engine_wasm)")
