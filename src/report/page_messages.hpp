// The messages between this program and a WebGPU runtime's JavaScript, typed: what the device host
// (web/device-host.js, web/deno.js) answers the WebAssembly engine (its init reply, each pass's
// reply, an error), what the engine is asked to run, and what the driver reads back from a page or a
// runtime (the page's state, the runtime's init record) (docs/browser.md). Each is read here once,
// for both sides; a field missing or of another type reads as its default.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report/adapter_identity.hpp"
#include "report/document.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::report {

// A request to the device host: {"op": op} with the operation's fields.
nlohmann::json page_request(std::string_view op, const nlohmann::json& fields);

// The device host's answer to `init` (the page's), or a runtime's adapter record (Deno's
// `--adapter`): the adapter, what the device enables, and which implementation it is.
struct PageInit {
  bool has_adapter = false;  // `adapter` is an object: the record is whole
  nlohmann::json adapter;    // as the runtime wrote it (a comparison's column records it)
  AdapterIdentity identity;  // read from it
  std::uint32_t subgroup_min_size = 0, subgroup_max_size = 0;
  std::vector<std::string> features, wgsl_features;
  std::vector<std::pair<std::string, std::uint64_t>> limits;  // by WebGPU name
  std::optional<bool> timestamps;                             // false: timestamp queries exist but cannot be used
  std::optional<double> timestamp_quantization_ns;
  nlohmann::json implementation;  // the runtime's own record of itself (implementation_of reads it); null if none
  std::string runtime_version;    // implementation.runtime_version
  // What the runtime says of itself where the page's request does not (the page's request wins).
  std::optional<std::string> user_agent, webgpu_thread, adapter_source;
};
PageInit read_page_init(const nlohmann::json& init);

// The adapter as the page shows it: the document's record, and whether timestamps are used.
nlohmann::json page_adapter_json(const gpu::AdapterDescription& adapter, bool timestamps);

// The device host's answer to one timed pass.
struct PassReply {
  std::optional<double> wall_ms;    // the round trip on the page's clock
  std::optional<double> gpu_ms;     // where the pass was timed with timestamps
  std::vector<std::string> errors;  // uncaptured GPU errors since the last reply
};
PassReply read_pass_reply(const nlohmann::json& reply);

// An error answer: {"error": KIND, "message": text}; none when the reply is not one. A kind that is
// not a string reads as "internal"; a missing message as the kind.
struct ErrorReply {
  std::string kind, message;
};
std::optional<ErrorReply> read_error_reply(const nlohmann::json& reply);

// What the engine is asked to run (the /run page's query, Deno's arguments): the suite, its
// selection, and what only the page knows of the browser.
struct RunRequest {
  std::string suite = "default";  // "default" or "memory"
  std::string filter;             // globs; empty: the default suite
  std::uint64_t memory_bytes = 0;
  bool accuracy = false;
  std::optional<std::string> user_agent, webgpu_thread, adapter_source;
  std::optional<std::int64_t> logical_cpus;
};
// A usage error names the field ("\"memory_bytes\" must be a whole number of bytes").
Expected<RunRequest> read_run_request(std::string_view text);

// The /run page's state as the driver polls it (window.wgbState): its phase ("running", "done",
// "error", "cancelled"), its status line and its error.
struct PageState {
  std::string phase;
  std::optional<std::string> line;  // the status line, where it is text
  std::string line_shown;           // the line as JSON, for messages and for noticing change ("starting" before any)
  std::optional<std::string> error;
};
PageState read_page_state(const nlohmann::json& state);

// The page's first answer when it opens: its init record once the engine is loaded, or why it
// failed.
struct PageOpened {
  std::optional<std::string> error;
  nlohmann::json init;
};
PageOpened read_page_opened(const nlohmann::json& first);

}  // namespace wgb::report
