// The engine's side of the page's channel (docs/browser.md "Engine ABI"): every GPU operation is one
// request frame to the device host and one blocking wait for its reply, so the suite's synchronous
// loops run unchanged in the engine's worker. Also the page's clock, timer, flags and event stream.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "webgpu_bench/expected.hpp"

namespace wgb::web {

struct Reply {
  nlohmann::json json;
  std::vector<std::byte> payload;
};

// Sends {"op": op, ...fields} (+ binary payload) and waits for the host's reply. A reply {"error": KIND,
// "message": s} becomes an Error of the matching kind ("unsupported" -> Skipped, "compile" ->
// Compile, "out-of-memory" -> OutOfMemory, "lost" -> DeviceLost, "validation" -> GpuError,
// anything else -> Failed); a closed channel is DeviceLost.
Expected<Reply> request(std::string_view op, const nlohmann::json& fields = nlohmann::json::object(),
                        std::span<const std::byte> payload = {});

// A JSON event for the page (posted without blocking).
void emit(const nlohmann::json& event);

// The page's flags, read afresh: Cancel pressed, the tab hidden. cancel_requested() stays true once
// seen; cancel_flag() is the flag the suite's CancelToken reads (updated by every flags() read).
bool cancel_requested();
bool paused();
std::atomic<bool>* cancel_flag();

double now_ms();          // performance.now()
void sleep_for_ms(double ms);  // blocks the worker (Atomics.wait with a timeout)

}  // namespace wgb::web
