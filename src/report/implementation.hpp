// Which WebGPU implementation a result document measured: the runtime (this program natively, or
// Chromium, Firefox, Deno, Safari running the engine in JavaScript), its version, and the WebGPU
// implementation under it (Dawn, wgpu, WebKit's) with its version where the runtime says it.
// Documents record it as "implementation" (docs/results-schema.md); for documents written before
// that, it is derived from what they do record (the runtime, the user agent, the Dawn version).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "webgpu_bench/expected.hpp"

namespace wgb::report {

struct Implementation {
  std::string runtime;          // "native", "chromium", "firefox", "deno", "safari", "browser" (unknown)
  std::string runtime_version;  // "" when unknown
  std::string webgpu;           // "Dawn", "wgpu", "WebKit"; "" when unknown or none (the host CPU)
  std::string webgpu_version;   // "" when the runtime does not say
  std::string source;           // how it is known: "recorded", "user agent", "build"
};

// From a user agent: Deno -> wgpu, Firefox -> wgpu, Chrome/Chromium/Edge -> Dawn, Safari -> WebKit.
Implementation implementation_from_user_agent(const std::string& user_agent);
// This program natively: Dawn at `dawn_version`.
Implementation native_implementation(const std::string& program_version, const std::string& dawn_version);
// The document's "implementation" object (webgpu_version null when unknown).
nlohmann::json implementation_json(const Implementation& i);
// What a document says, or what can be derived for one that predates the field.
Implementation implementation_of(const nlohmann::json& document);
// The "implementation" object as the document records it (none when it records none): each field a
// string or null (read as ""). One of another type, or an "implementation" that is not an object, is
// an error naming it.
Expected<std::optional<Implementation>> recorded_implementation(const nlohmann::json& document);
// "Firefox 153.0 (wgpu)", "native Dawn 0.0~git20260909", "Deno 2.9.6 (wgpu)".
std::string implementation_text(const Implementation& i);

}  // namespace wgb::report
