// The browser runner's files (docs/browser.md): the /run page, its script, style and workers,
// embedded at build time (cmake/EmbedWeb.cmake), and the engine compiled to WebAssembly, read at run
// time from beside the program (so that building the program never waits for the engine). `find`
// answers the bytes of a file by name, empty when the program has none.
#pragma once

#include <string>
#include <string_view>

namespace wgb::web {

inline constexpr std::string_view kEngineFile = "webgpu-bench-engine.wasm";

std::string_view find(std::string_view name);  // "run.html", "webgpu-bench-engine.wasm", ...

// Where the engine was read from, or, when it was not found, the places looked at and how to build
// it: one line for an error message.
std::string engine_location();

namespace embedded {
std::string_view find(std::string_view name);  // generated: the files of web/
}  // namespace embedded

}  // namespace wgb::web
