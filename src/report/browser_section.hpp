// What a document measured in a browser records of it, typed both ways: `machine.browser` (the user
// agent, the thread WebGPU ran on, the timer's observed step, where the adapter's name came from)
// and `machine.host` (what a page may know of the computer). The page's engine fills these types
// and writes them through `to_json`; the results store reads `machine.browser` back through
// `read_browser_record` before it admits the document, so no other file picks these keys by hand
// (docs/results-schema.md "machine.browser").
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "webgpu_bench/expected.hpp"

namespace wgb::report {

struct BrowserRecord {
  std::string user_agent;
  std::string webgpu_thread;                               // "worker" or "main"
  std::optional<std::uint64_t> timestamp_quantization_ns;  // null where the page could not observe it
  std::string adapter_source;  // adapter.info, a WebGL renderer string, ...; written only when known
};

// machine.host of a document measured in a browser ("runtime": "browser").
struct BrowserHostRecord {
  std::string user_agent;
  std::optional<std::int64_t> logical_cpus;  // navigator.hardwareConcurrency, when the page reports it
};

nlohmann::json to_json(const BrowserRecord& b);
nlohmann::json to_json(const BrowserHostRecord& h);

// Reads machine.browser back. Strict, because the store admits documents from anywhere: a missing
// user agent or thread, or a field of another type, is an error naming the field.
Expected<BrowserRecord> read_browser_record(const nlohmann::json& browser);

}  // namespace wgb::report
