// The engine beside the program (web_assets.hpp).
#include "store/web_assets.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace wgb::web {

namespace {

struct Engine {
  std::string bytes;
  std::string location;  // the file read, or what was looked at
};

// Looked up once: WGB_ENGINE (a file), then beside the program, then the build tree's web/ folder
// next to the program's cli/ folder (build/release/cli/webgpu-bench, build/release/web/), then the
// build tree this was compiled in (a test binary serving /run in-process).
Engine load_engine() {
  std::vector<std::filesystem::path> candidates;
  if (const char* env = std::getenv("WGB_ENGINE"); env != nullptr && *env != '\0') candidates.emplace_back(env);
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    candidates.push_back(exe.parent_path() / kEngineFile);
    candidates.push_back(exe.parent_path().parent_path() / "web" / kEngineFile);
  }
#ifdef WGB_ENGINE_BUILD_PATH
  candidates.emplace_back(WGB_ENGINE_BUILD_PATH);
#endif
  std::string looked;
  for (const auto& p : candidates) {
    std::ifstream in(p, std::ios::binary);
    if (in) {
      std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (!bytes.empty()) return {std::move(bytes), p.string()};
    }
    looked += (looked.empty() ? "" : ", ") + p.string();
  }
  return {{},
          "this program was built without the browser engine (" + std::string(kEngineFile) +
              "): build it with `scripts/build.sh wgb_engine_wasm` (needs the WebAssembly toolchain of "
              "scripts/bootstrap.sh), or put the file beside the program or name it in WGB_ENGINE; looked at " +
              (looked.empty() ? std::string("nothing") : looked)};
}

const Engine& engine() {
  static const Engine e = load_engine();  // thread-safe once
  return e;
}

}  // namespace

std::string_view find(std::string_view name) {
  if (name == kEngineFile) return engine().bytes;
  return embedded::find(name);
}

std::string engine_location() { return engine().location; }

}  // namespace wgb::web
