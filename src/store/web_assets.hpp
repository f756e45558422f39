// The browser runner's files, embedded at build time (cmake/EmbedWeb.cmake): the /run page, its
// script, style and workers, and the engine compiled to WebAssembly when the program was built with
// it. `find` answers the bytes of a file by name, empty when the program holds none.
#pragma once

#include <string_view>

namespace wgb::web {

std::string_view find(std::string_view name);  // "run.html", "webgpu-bench-engine.wasm", ...

}  // namespace wgb::web
