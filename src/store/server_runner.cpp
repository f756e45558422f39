// The browser runner's files (docs/browser.md): /run is the page, /run/NAME its scripts, style,
// workers and the engine, all embedded at build time (web_assets.hpp). The only answers with
// scripts, so they carry their own Content-Security-Policy and the cross-origin isolation headers.
#include <string_view>

#include "store/server_handlers.hpp"
#include "store/web_assets.hpp"

namespace wgb::store {

namespace {

// The /run page runs scripts and WebAssembly of its own origin and nothing else. Cross-origin
// isolation (COOP + COEP) is what gives it SharedArrayBuffer, which the engine's blocking channel needs.
constexpr const char* kRunCsp =
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; "
    "style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

void browser_headers(httplib::Response& res) {
  res.headers.erase("Content-Security-Policy");
  res.set_header("Content-Security-Policy", kRunCsp);
  res.set_header("Cross-Origin-Opener-Policy", "same-origin");
  res.set_header("Cross-Origin-Embedder-Policy", "require-corp");
  res.set_header("Cross-Origin-Resource-Policy", "same-origin");
}

// The content type of a file of the browser runner, by its extension; nullptr: not served.
const char* web_content_type(std::string_view name) {
  auto ends = [name](std::string_view ext) {
    return name.size() > ext.size() && name.substr(name.size() - ext.size()) == ext;
  };
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".js")) return "text/javascript; charset=utf-8";
  if (ends(".css")) return "text/css; charset=utf-8";
  if (ends(".wasm")) return "application/wasm";
  return nullptr;
}

void serve_file(const std::string& name, httplib::Response& res) {
  browser_headers(res);
  const char* type = web_content_type(name);
  const std::string_view bytes = type != nullptr ? web::find(name) : std::string_view{};
  if (bytes.empty()) {
    res.status = 404;
    const bool engine = name == "webgpu-bench-engine.wasm";
    res.set_content(engine ? "this program was built without the browser engine (webgpu-bench-engine.wasm)\n"
                           : "no such file\n",
                    "text/plain; charset=utf-8");
    return;
  }
  res.set_content(std::string(bytes), type);
}

}  // namespace

void runner_page(Site&, Exchange& ex) { serve_file("run.html", ex.res); }

void runner_file(Site&, Exchange& ex) { serve_file(ex.captures.at(0), ex.res); }

}  // namespace wgb::store
