# Script mode: fills build_info.cpp.in with the git revision and the build configuration.
execute_process(COMMAND git -C "${SRC}" rev-parse --short=12 HEAD
                OUTPUT_VARIABLE GIT_REV ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
execute_process(COMMAND git -C "${SRC}" status --porcelain --untracked-files=no
                OUTPUT_VARIABLE GIT_DIRTY ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT GIT_REV)
  set(GIT_REV "unknown")
elseif(GIT_DIRTY)
  string(APPEND GIT_REV "-dirty")
endif()
# The complete compiler command line of one measured source (the scheduler), from the compilation
# database, with its input, output and dependency-file arguments removed: a result records the
# complete command line (docs/method.md#record), and FLAGS alone leaves out warnings, standard and
# definitions.
set(COMPILE_COMMAND "not recorded (no compile_commands.json)")
if(EXISTS "${COMPILE_DB}")
  file(READ "${COMPILE_DB}" db)
  string(JSON count LENGTH "${db}")
  math(EXPR last "${count} - 1")
  foreach(i RANGE 0 ${last})
    string(JSON file GET "${db}" ${i} file)
    if(file MATCHES "src/suite/suite\\.cpp$")
      string(JSON COMPILE_COMMAND GET "${db}" ${i} command)
      string(REGEX REPLACE " -o [^ ]+" "" COMPILE_COMMAND "${COMPILE_COMMAND}")
      string(REGEX REPLACE " -c [^ ]+" "" COMPILE_COMMAND "${COMPILE_COMMAND}")
      string(REGEX REPLACE " -M(T|F) [^ ]+" "" COMPILE_COMMAND "${COMPILE_COMMAND}")
      string(REPLACE " -MD" "" COMPILE_COMMAND "${COMPILE_COMMAND}")
      break()
    endif()
  endforeach()
endif()
configure_file("${IN}" "${OUT}.tmp" @ONLY)
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
