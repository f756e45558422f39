// Starting each runtime of `webgpu-bench browser` and asking it for its adapter: Chromium (DevTools
// protocol) and Firefox (WebDriver BiDi) open the results server's /run page and wait until the
// page shows its adapter and has loaded the engine; Deno runs the entry script (web/deno.js, served
// by the same server, so a copied program needs nothing beside it) with --adapter. What comes back
// makes that runtime's column.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "browser/columns.hpp"
#include "browser/runtimes.hpp"
#include "report/page_messages.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::browser {

struct LaunchSettings {
  std::string base;                       // the results server, "http://127.0.0.1:PORT"
  std::string chromium, firefox, deno;    // programs given on the command line (empty: look for them)
  std::vector<std::string> vulkan_env;    // what the wgpu runtimes need to see the native drivers
  std::filesystem::path folder;           // a private folder (Deno's module cache)
  std::filesystem::path program;          // this program's executable (Deno is looked for near it)
};

// What runs each round: the same selection everywhere.
struct Selection {
  std::string suite = "default";
  std::string filter;              // empty: the suite's default benchmarks
  std::uint64_t memory_bytes = 0;  // the memory suite's working set (0: its own plan)
  bool accuracy = false;           // also the builtins' accuracy, as run --accuracy
};
// The /run page's URL parameters for it ("suite=default&filter=read-linear"), and deno.js's options.
std::string run_query(const Selection& s);
std::vector<std::string> deno_arguments(const Selection& s);

struct OpenedRuntime {
  RuntimeInfo info;
  std::string version;   // "156.0.7632.116", "153.8.0", "2.9.6"
  std::string program;   // the executable started
  report::PageInit init;  // the device host's init reply (adapter, implementation)
  const nlohmann::json& adapter() const { return init.adapter; }  // as the runtime wrote it
  std::string warning;  // what went wrong after its adapter record was whole (a crash at exit)
  std::string label() const;                       // "Firefox 153.8 (wgpu)"
  // Makes the runtime's column (named `name`) for a selection.
  std::function<std::unique_ptr<Column>(const std::string& name, const Selection& selection)> column;
};

// Starts `info`'s runtime (NoAdapter error, one line with the reason, when it is missing, fails to
// start or offers no adapter).
Expected<OpenedRuntime> open_runtime(const RuntimeInfo& info, const LaunchSettings& settings);

// The Deno program: `given`, else $WGB_DENO, else deno on PATH, else the copy scripts/bootstrap.sh
// installs into .deps/deno of the tree `program` was built in (looked for up to four folders up).
Expected<std::string> find_deno(const std::string& given, const std::filesystem::path& program);

}  // namespace wgb::browser
