# Records how the program was built, for every result document (a number without its compiler, flags
# and source revision is not a measurement; docs/method.md#record). The git revision is read at
# build time so it is never stale.
string(TOUPPER "${CMAKE_BUILD_TYPE}" _wgb_bt)
set(WGB_BUILD_FLAGS "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${_wgb_bt}}")
string(STRIP "${WGB_BUILD_FLAGS}" WGB_BUILD_FLAGS)
if(_wgb_bt STREQUAL "RELEASE" AND NOT CMAKE_CROSSCOMPILING)
  # The engine's flags; the parts outside every timed region are built at -O1 (cmake/FrontEnd.cmake).
  string(APPEND WGB_BUILD_FLAGS " (front end: ${WGB_FRONT_END_OPT})")
endif()
set(WGB_BUILD_INFO_IN "${PROJECT_SOURCE_DIR}/cmake/build_info.cpp.in")
set(WGB_BUILD_INFO_OUT "${PROJECT_BINARY_DIR}/generated/build_info.cpp")
add_custom_target(wgb_build_info_gen
  COMMAND ${CMAKE_COMMAND}
          "-DIN=${WGB_BUILD_INFO_IN}" "-DOUT=${WGB_BUILD_INFO_OUT}" "-DSRC=${PROJECT_SOURCE_DIR}"
          "-DCOMPILER_ID=${CMAKE_CXX_COMPILER_ID}" "-DCOMPILER_VERSION=${CMAKE_CXX_COMPILER_VERSION}"
          "-DCOMPILER_PATH=${CMAKE_CXX_COMPILER}" "-DBUILD_TYPE=${CMAKE_BUILD_TYPE}"
          "-DFLAGS=${WGB_BUILD_FLAGS}" "-DDAWN_VERSION=${WGB_DAWN_VERSION}"
          "-DDAWN_SOURCE=${WGB_DAWN_SOURCE}" "-DVERSION=${PROJECT_VERSION}"
          "-DCOMPILE_DB=${PROJECT_BINARY_DIR}/compile_commands.json"
          -P "${PROJECT_SOURCE_DIR}/cmake/build_info_script.cmake"
  BYPRODUCTS "${WGB_BUILD_INFO_OUT}"
  VERBATIM)
