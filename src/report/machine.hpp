// What a result document records about where it ran, given to it as a value: the document measures
// nothing itself. Natively the caller builds it from the host probes and the build information
// (host::native_machine()); in a browser, from what the page and the device host report.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace wgb::report {

struct MachineRecord {
  nlohmann::json host = nlohmann::json::object();   // machine.host at the start of the run
  nlohmann::json build = nlohmann::json::object();  // build: compiler, flags, revision, ...
  std::string build_runtime;                        // "browser": written as build.runtime
  nlohmann::json kernel_overrides;                  // null: every kernel is the shipped one
  // What the host measures again when the run finishes (its clocks), merged into machine.host:
  // with the start values, what the CPU sustained. Empty: nothing is measured at the end.
  std::function<nlohmann::json()> host_at_finish;
};

}  // namespace wgb::report
