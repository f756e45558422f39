# Embeds WGSL kernels (kernels/**/*.wgsl) into the program at build time: editing a .wgsl file
# rebuilds. wgb_embed_wgsl(<target> <files...>) adds a generated source defining
# wgb::kernels::find(name) -> std::string_view, where name is the path below kernels/ without
# the extension ("bandwidth/read_linear"). A second target that embeds its own kernels passes
# NAMESPACE <ns> so its find() (then <ns>::find) cannot collide with the catalog's at link time.
function(wgb_embed_wgsl target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "NAMESPACE" "")
  set(files ${arg_UNPARSED_ARGUMENTS})
  if(NOT arg_NAMESPACE)
    set(arg_NAMESPACE "wgb::kernels")
  endif()
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}_embedded_wgsl.cpp")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} "-DOUT=${out}" "-DROOT=${PROJECT_SOURCE_DIR}/kernels"
            "-DFILES=${files}" "-DNAMESPACE=${arg_NAMESPACE}"
            -P "${PROJECT_SOURCE_DIR}/cmake/embed_wgsl_script.cmake"
    DEPENDS ${files} "${PROJECT_SOURCE_DIR}/cmake/embed_wgsl_script.cmake" "${PROJECT_SOURCE_DIR}/cmake/embed_table.cmake"
    COMMENT "Embedding WGSL kernels into ${target}"
    VERBATIM)
  target_sources(${target} PRIVATE "${out}")
endfunction()
