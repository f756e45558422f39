# How the parts outside every timed region are compiled (docs/ARCHITECTURE.md, Build). The command
# line, reports, the results store, the browser driver, child processes and the front-end loop parse,
# format and serve; none of their code runs while a measurement is timed. In a Release build they are
# compiled at -O1 (the last -O on the command line wins), which halves their compile time and is
# recorded beside the engine's flags in every result document. Every library of the program, the
# engine included, compiles the heavy headers nearly every file includes ({fmt}, nlohmann-json, the
# standard containers; CLI11 for the command line) once, as a precompiled header, instead of once
# per file. The first result from a clean clone waits for this build (results/first-result-*.md).
set(WGB_FRONT_END_OPT "-O1")

# The precompiled header of a library of the program (not the WebAssembly engine's cross build,
# whose toolchain is another compiler).
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
endfunction()
