# How the parts outside the timed loop are compiled (docs/ARCHITECTURE.md, Build). The command line,
# reports, the results store, the browser driver, child processes, the front-end loop and the
# catalog's definitions (preparing buffers, host references, validation; inside a timed region a
# workload only records Dawn's calls, which Dawn's own build compiles) parse, format, serve and check.
# In a Release build they are compiled at -O1 (the last -O on the command line wins), with one
# precompiled header of the heavy headers nearly every file includes ({fmt}, nlohmann-json, the
# standard containers; CLI11 for the command line): together about half the compile time. The engine
# (measure, gpu, suite, memory, host: the timed loop, the device, the host kernels) keeps the build
# type's flags and no precompiled header (GCC 12 at -O3 reads the standard headers' inlined code
# differently through one and raises false -Warray-bounds errors). The flags are recorded beside the
# engine's in every result document. The first result from a clean clone waits for this build.
set(WGB_FRONT_END_OPT "-O1")

# The precompiled header of a front-end library (not in the WebAssembly engine's cross build, whose
# toolchain is another compiler).
function(wgb_precompiled target)
  if(CMAKE_CROSSCOMPILING)
    return()
  endif()
  target_precompile_headers(${target} PRIVATE <fmt/format.h> <nlohmann/json.hpp> <string> <vector> <map>
                            <optional> <memory> <functional> ${ARGN})
endfunction()

# A front-end library: the precompiled header, and -O1 in Release.
function(wgb_front_end target)
  wgb_precompiled(${target} ${ARGN})
  target_compile_options(${target} PRIVATE $<$<CONFIG:Release>:${WGB_FRONT_END_OPT}>)
  # Six files to a translation unit: the templates every file instantiates ({fmt}, json) are
  # compiled once per six. A file's contents are then "included", which makes GCC warn about its own
  # anonymous-namespace types in its classes: not a defect there.
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 6)
  target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
endfunction()
