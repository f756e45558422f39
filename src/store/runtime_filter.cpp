// The store's runtimes (runtime_filter.hpp).
#include "store/runtime_filter.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "report/implementation.hpp"

namespace wgb::store {

namespace {

// The runtimes a document may name; "browser" is a browser that is none of these.
const std::vector<std::string>& runtimes() {
  static const std::vector<std::string> all = {"chromium", "firefox", "deno", "safari", "browser"};
  return all;
}

bool known(const std::string& r) { return std::find(runtimes().begin(), runtimes().end(), r) != runtimes().end(); }

bool short_text(const nlohmann::json& v) {
  if (v.is_null()) return true;
  if (!v.is_string() || v.get<std::string>().size() > 64) return false;
  const std::string s = v.get<std::string>();
  return std::none_of(s.begin(), s.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; });
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

Status check_implementation(const nlohmann::json& document, bool browser) {
  const auto it = document.find("implementation");
  if (it == document.end()) return ok();
  const nlohmann::json& i = *it;
  if (!i.is_object()) return make_error(ErrorKind::Usage, "\"implementation\" must be an object");
  for (const char* key : {"runtime", "runtime_version", "webgpu", "webgpu_version", "source"}) {
    if (i.contains(key) && !short_text(i[key])) {
      return make_error(ErrorKind::Usage, fmt::format("implementation.{} must be a short string or null", key));
    }
  }
  const std::string runtime = i.value("runtime", "");
  if (runtime != "native" && !known(runtime)) {
    return make_error(ErrorKind::Usage, "implementation.runtime must be native, chromium, firefox, deno, safari or browser");
  }
  if ((runtime == "native") == browser) {
    return make_error(ErrorKind::Usage, browser ? "implementation.runtime \"native\" in a document measured in a browser"
                                                : fmt::format("implementation.runtime \"{}\" without machine.browser", runtime));
  }
  return ok();
}

std::string stored_runtime(const nlohmann::json& document) {
  const bool browser = document.contains("machine") && document["machine"].is_object() &&
                       document["machine"].contains("browser");
  if (!browser) return "native";
  const std::string r = report::implementation_of(document).runtime;
  return known(r) ? r : "browser";
}

}  // namespace wgb::store
