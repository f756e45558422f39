// Which implementation measured a stored run, as the store records and filters it: "native" (this
// program through Dawn), or the runtime that ran the engine in JavaScript: "chromium", "firefox",
// "deno", "safari", or "browser" when the document does not say which. The pages and the API filter
// with ?runtime=VALUE, where "browser" means every runtime but native.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "webgpu_bench/expected.hpp"

namespace wgb::store {

// "" (all), "browser", "native" or one runtime.
bool valid_runtime_filter(const std::string& value);
const char* runtime_filter_error();
// The filter's choices for the pages: (value, words), "" first.
const std::vector<std::pair<std::string, std::string>>& runtime_choices();

// A document's "implementation" record, when it has one: an object whose runtime is one of the
// store's and agrees with where it was measured (`browser`: it has machine.browser), short strings.
Status check_implementation(const nlohmann::json& document, bool browser);
// The runtime the store records for a checked document.
std::string stored_runtime(const nlohmann::json& document);

}  // namespace wgb::store
