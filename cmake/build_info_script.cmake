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
configure_file("${IN}" "${OUT}.tmp" @ONLY)
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
