# Embeds the browser runner (web/*.html, *.js, *.css) into the program, so that a copied program
# serves /run's page and scripts with no file beside it. Defines, in a generated source added to
# <target>:
#   wgb::web::embedded::find(name) -> std::string_view   ("run.html", ...; empty: none)
# The engine compiled to WebAssembly is NOT embedded: the program reads it at run time from beside
# itself (src/store/web_assets.cpp), so building the program never waits for the engine. The
# target wgb_engine_wasm (built by every full build, scripts/build.sh with no target, and the test
# build) writes it to ${CMAKE_BINARY_DIR}/web/webgpu-bench-engine.wasm, where the program finds it.
set(_wgb_embed_web_script "${CMAKE_CURRENT_LIST_DIR}/embed_web_script.cmake")

function(wgb_embed_web target)
  file(GLOB files CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/web/*.html" "${PROJECT_SOURCE_DIR}/web/*.js"
       "${PROJECT_SOURCE_DIR}/web/*.css")
  set(out "${CMAKE_BINARY_DIR}/web/wgb_web_assets.cpp")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} "-DOUT=${out}" "-DFILES=${files}" -P "${_wgb_embed_web_script}"
    DEPENDS ${files} "${_wgb_embed_web_script}" "${PROJECT_SOURCE_DIR}/cmake/embed_table.cmake"
    COMMENT "Embedding the browser runner (web/) into ${target}"
    VERBATIM)
  target_sources(${target} PRIVATE "${out}")
endfunction()
