# Embeds the browser runner (web/*.html, *.js, *.css) and the engine compiled to WebAssembly into
# the program, so that a copied program serves /run with no file beside it. Defines, in a
# generated source added to <target>:
#   wgb::web::find(name) -> std::string_view   ("run.html", "webgpu-bench-engine.wasm"; empty: none)
# The engine comes from ${CMAKE_BINARY_DIR}/web/webgpu-bench-engine.wasm, built by the target
# wgb_engine_wasm when the WebAssembly toolchain is installed. That target may be defined anywhere
# in the project, so the check runs once the whole project is configured (cmake_language DEFER);
# without it the program embeds no engine and the page says so.
set(_wgb_embed_web_script "${CMAKE_CURRENT_LIST_DIR}/embed_web_script.cmake")

function(wgb_embed_web target)
  # A deferred call reads its arguments when it runs: put the target's name in now.
  cmake_language(EVAL CODE "cmake_language(DEFER DIRECTORY [[${PROJECT_SOURCE_DIR}]] CALL _wgb_embed_web_now [[${target}]])")
endfunction()

function(_wgb_embed_web_now target)
  file(GLOB files CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/web/*.html" "${PROJECT_SOURCE_DIR}/web/*.js"
       "${PROJECT_SOURCE_DIR}/web/*.css")
  set(out "${CMAKE_BINARY_DIR}/web/wgb_web_assets.cpp")
  set(wasm "${CMAKE_BINARY_DIR}/web/webgpu-bench-engine.wasm")
  set(depends ${files} "${_wgb_embed_web_script}" "${PROJECT_SOURCE_DIR}/cmake/embed_table.cmake")
  set(wasm_arg "")
  if(TARGET wgb_engine_wasm)
    list(APPEND depends "${wasm}" wgb_engine_wasm)
    set(wasm_arg "${wasm}")
    message(STATUS "webgpu-bench: /run embeds the engine (${wasm})")
  else()
    message(STATUS "webgpu-bench: no wgb_engine_wasm target: /run will say the program was built without the browser engine")
  endif()
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} "-DOUT=${out}" "-DFILES=${files}" "-DWASM=${wasm_arg}" -P "${_wgb_embed_web_script}"
    DEPENDS ${depends}
    COMMENT "Embedding the browser runner (web/) into ${target}"
    VERBATIM)
  # The command runs in the top directory's scope (the deferred call), the target lives elsewhere:
  # a target here owns the rule, and the consumer waits for it.
  add_custom_target(${target}_web_assets DEPENDS "${out}")
  add_dependencies(${target} ${target}_web_assets)
  target_sources(${target} PRIVATE "${out}")
endfunction()
