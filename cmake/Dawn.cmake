# Finds Dawn (headers and library from the same build; see docs/DEPENDENCIES.md).
#  - WGB_DAWN_PREFIX (or .deps/dawn.prefix written by scripts/bootstrap.sh): a private prefix holding
#    Debian sid's libwebgpu-dawn0/-dev and sid's runtime (glibc, libstdc++, abseil). The program is
#    linked to start under that prefix's own loader, because the library needs a newer glibc.
#  - otherwise find_package(Dawn CONFIG) on a system that carries Debian's package.
# Defines the target wgb::dawn and the variables WGB_DAWN_VERSION and WGB_RUNTIME_LIBDIR.
set(WGB_DAWN_PREFIX "" CACHE PATH "Private prefix with Debian sid's Dawn and its runtime")
if(NOT WGB_DAWN_PREFIX AND EXISTS "${PROJECT_SOURCE_DIR}/.deps/dawn.prefix")
  file(STRINGS "${PROJECT_SOURCE_DIR}/.deps/dawn.prefix" _wgb_prefix LIMIT_COUNT 1)
  set(WGB_DAWN_PREFIX "${_wgb_prefix}" CACHE PATH "" FORCE)
endif()
set(WGB_MESA_PREFIX "${PROJECT_SOURCE_DIR}/.deps/mesa" CACHE PATH "Private prefix with Mesa lavapipe")
set(WGB_LVP_ICD "${PROJECT_SOURCE_DIR}/.deps/lvp_icd.json" CACHE FILEPATH
    "Vulkan ICD file of the CPU driver, added when no driver list is set in the environment")

add_library(wgb_dawn INTERFACE)
add_library(wgb::dawn ALIAS wgb_dawn)
if(WGB_DAWN_PREFIX)
  set(_lib "${WGB_DAWN_PREFIX}/usr/lib/x86_64-linux-gnu")
  if(NOT EXISTS "${_lib}/libwebgpu_dawn.so")
    message(FATAL_ERROR "WGB_DAWN_PREFIX=${WGB_DAWN_PREFIX} has no libwebgpu_dawn.so; run scripts/bootstrap.sh")
  endif()
  set(_mesa_lib "${WGB_MESA_PREFIX}/usr/lib/x86_64-linux-gnu")
  target_include_directories(wgb_dawn SYSTEM INTERFACE "${WGB_DAWN_PREFIX}/usr/include")
  # -L/-l, not the library's full path nor target_link_directories: CMake would add that directory,
  # absolute, to every build RPATH. The search path is set per program by wgb_relocatable_rpaths().
  target_link_options(wgb_dawn INTERFACE "-L${_lib}")
  target_link_libraries(wgb_dawn INTERFACE webgpu_dawn)
  # --disable-new-dtags: DT_RPATH also applies to the library's own dependencies (sid's libstdc++,
  # abseil); the dynamic linker is sid's, so the program starts directly on this machine. Where that
  # loader path does not exist (a copy of the tree elsewhere) start it as
  # <lib>/ld-linux-x86-64.so.2 --library-path ... (scripts/wgb does).
  target_link_options(wgb_dawn INTERFACE
    -Wl,--allow-shlib-undefined -Wl,--disable-new-dtags
    "-Wl,--dynamic-linker=${_lib}/ld-linux-x86-64.so.2")
  set(WGB_RUNTIME_LIBDIR "${_lib}")
  set(WGB_MESA_LIBDIR "${_mesa_lib}")
  if(EXISTS "${WGB_DAWN_PREFIX}/.version")
    file(STRINGS "${WGB_DAWN_PREFIX}/.version" WGB_DAWN_VERSION LIMIT_COUNT 1)
  endif()
  set(WGB_DAWN_SOURCE "private prefix ${WGB_DAWN_PREFIX} (Debian sid libwebgpu-dawn0)")
else()
  find_package(Dawn CONFIG REQUIRED)
  target_link_libraries(wgb_dawn INTERFACE dawn::webgpu_dawn)
  set(WGB_RUNTIME_LIBDIR "")
  execute_process(COMMAND dpkg-query -W -f=${Version} libwebgpu-dawn0
                  OUTPUT_VARIABLE WGB_DAWN_VERSION ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(WGB_DAWN_SOURCE "system package (find_package(Dawn CONFIG))")
endif()
if(NOT WGB_DAWN_VERSION)
  set(WGB_DAWN_VERSION "unknown")
endif()
message(STATUS "Dawn ${WGB_DAWN_VERSION} from ${WGB_DAWN_SOURCE}")

# Relocatable programs: every executable and shared library finds the private runtime through a
# DT_RPATH relative to its own location ($ORIGIN/../../../.deps/dawn/...), never through an absolute
# path into the folder it was built in. An absolute RPATH would be searched before the loader's
# --library-path, so a copy of the tree at another path would load the system's older libstdc++
# and libm ("GLIBC_2.43 not found"). No system directory is listed either: the loader's default
# directories come last, after the private runtime. Call once, after every add_subdirectory.
function(wgb_relocatable_rpaths)
  if(NOT WGB_RUNTIME_LIBDIR)
    return()
  endif()
  _wgb_relocatable_rpaths_in("${PROJECT_SOURCE_DIR}")
endfunction()

# The targets `target` links directly (its LINK_LIBRARIES; an interface library's
# INTERFACE_LINK_LIBRARIES), aliases resolved to the real names, $<LINK_ONLY:...> unwrapped, plain
# library names and flags left out. Also used by cmake/Architecture.cmake.
function(_wgb_linked_targets target out)
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    get_target_property(deps ${target} INTERFACE_LINK_LIBRARIES)
  else()
    get_target_property(deps ${target} LINK_LIBRARIES)
  endif()
  set(found "")
  if(deps)
    foreach(d IN LISTS deps)
      string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" d "${d}")
      if(TARGET "${d}")
        get_target_property(real "${d}" ALIASED_TARGET)
        if(real)
          list(APPEND found "${real}")
        else()
          list(APPEND found "${d}")
        endif()
      endif()
    endforeach()
  endif()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

# Whether `target` links wgb::dawn, directly or through other targets: only those programs start
# under the private prefix's loader, and only they may find its libc (a program started by the
# system's loader with the private libc on its path fails: "undefined symbol ... GLIBC_PRIVATE").
function(_wgb_links_dawn target out)
  get_target_property(real ${target} ALIASED_TARGET)
  if(real)
    set(target ${real})
  endif()
  if(target STREQUAL "wgb_dawn")
    set(${out} ON PARENT_SCOPE)
    return()
  endif()
  _wgb_linked_targets(${target} deps)
  foreach(d IN LISTS deps)
    _wgb_links_dawn("${d}" dep_uses_dawn)
    if(dep_uses_dawn)
      set(${out} ON PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} OFF PARENT_SCOPE)
endfunction()

function(_wgb_relocatable_rpaths_in dir)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    set(uses_dawn OFF)
    if(type STREQUAL "EXECUTABLE" OR type STREQUAL "SHARED_LIBRARY" OR type STREQUAL "MODULE_LIBRARY")
      _wgb_links_dawn(${t} uses_dawn)
    endif()
    if(uses_dawn)
      get_target_property(out ${t} RUNTIME_OUTPUT_DIRECTORY)
      if(NOT out)
        get_target_property(out ${t} BINARY_DIR)
      endif()
      file(RELATIVE_PATH rel_lib "${out}" "${WGB_RUNTIME_LIBDIR}")
      file(RELATIVE_PATH rel_mesa "${out}" "${WGB_MESA_LIBDIR}")
      set_property(TARGET ${t} APPEND PROPERTY BUILD_RPATH "\$ORIGIN/${rel_lib}" "\$ORIGIN/${rel_mesa}")
    endif()
  endforeach()
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _wgb_relocatable_rpaths_in("${sub}")
  endforeach()
endfunction()
