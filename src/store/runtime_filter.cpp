// The store's runtimes (runtime_filter.hpp).
#include "store/runtime_filter.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "report/files.hpp"
#include "report/implementation.hpp"

namespace wgb::store {

namespace {

// The runtimes a document may name; "browser" is a browser that is none of these.
const std::vector<std::string>& runtimes() {
  static const std::vector<std::string> all = {"chromium", "firefox", "deno", "safari", "browser"};
  return all;
}

bool known(const std::string& r) { return std::find(runtimes().begin(), runtimes().end(), r) != runtimes().end(); }

// At most 64 bytes, no control character ("" stands for null).
bool short_text(const std::string& s) {
  return s.size() <= 64 && std::none_of(s.begin(), s.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; });
}

}  // namespace

bool valid_runtime_filter(const std::string& value) { return value.empty() || value == "native" || known(value); }

const char* runtime_filter_error() {
  return "runtime must be native, browser (every runtime but native), chromium, firefox, deno or safari (leave it out "
         "for all)";
}

const std::vector<std::pair<std::string, std::string>>& runtime_choices() {
  static const std::vector<std::pair<std::string, std::string>> all = {
      {"", "anywhere"},        {"native", "natively"},   {"browser", "in any browser"}, {"chromium", "in Chromium"},
      {"firefox", "in Firefox"}, {"deno", "in Deno"}, {"safari", "in Safari"}};
  return all;
}

Status check_implementation(const report::Document& document) {
  if (!document.recorded_implementation) return ok();
  const report::Implementation& i = *document.recorded_implementation;
  for (const auto& [key, value] : {std::pair{"runtime", &i.runtime}, std::pair{"runtime_version", &i.runtime_version},
                                   std::pair{"webgpu", &i.webgpu}, std::pair{"webgpu_version", &i.webgpu_version},
                                   std::pair{"source", &i.source}}) {
    if (!short_text(*value)) {
      return make_error(ErrorKind::Usage, fmt::format("implementation.{} must be a short string or null", key));
    }
  }
  if (i.runtime != "native" && !known(i.runtime)) {
    return make_error(ErrorKind::Usage, "implementation.runtime must be native, chromium, firefox, deno, safari or browser");
  }
  const bool browser = document.browser.has_value();
  if ((i.runtime == "native") == browser) {
    return make_error(ErrorKind::Usage,
                      browser ? "implementation.runtime \"native\" in a document measured in a browser"
                              : fmt::format("implementation.runtime \"{}\" without machine.browser", i.runtime));
  }
  return ok();
}

std::string stored_runtime(const report::Document& document) {
  if (!document.browser) return "native";
  const std::string& r = document.implementation.runtime;
  return known(r) ? r : "browser";
}

}  // namespace wgb::store
