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

namespace wgb::report {
struct Document;
}  // namespace wgb::report

namespace wgb::store {

// "" (all), "browser", "native" or one runtime.
bool valid_runtime_filter(const std::string& value);
const char* runtime_filter_error();
// The filter's choices for the pages: (value, words), "" first.
const std::vector<std::pair<std::string, std::string>>& runtime_choices();

// A document's "implementation" record, when it has one (read by report::read_document): short
// strings, a runtime that is one of the store's and agrees with where it was measured (a document
// with machine.browser was measured in a browser).
Status check_implementation(const report::Document& document);
// The runtime the store records for a checked document.
std::string stored_runtime(const report::Document& document);

}  // namespace wgb::store
