// The implementation record of implementation.hpp.
#include "report/implementation.hpp"

#include <cctype>
#include <optional>

#include "report/field_reader.hpp"

namespace wgb::report {

namespace {

std::string string_field(const nlohmann::json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

// The version after `product` ("Firefox/") in a user agent, when the product is named there as a
// word of its own; nullopt when it is not. `all`: everything up to the next blank, else digits and dots.
std::optional<std::string> version_of(const std::string& ua, const std::string& product, bool all = false) {
  for (auto at = ua.find(product); at != std::string::npos; at = ua.find(product, at + 1)) {
    if (at > 0 && std::isalnum(static_cast<unsigned char>(ua[at - 1])) != 0) continue;
    std::string v;
    for (std::size_t i = at + product.size(); i < ua.size(); ++i) {
      const char c = ua[i];
      if (all ? c == ' ' : !(std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '.')) break;
      v += c;
    }
    return v;
  }
  return std::nullopt;
}

}  // namespace

Implementation implementation_from_user_agent(const std::string& ua) {
  // Order matters: Chromium's user agents also name Safari, Edge's also name Chrome.
  if (auto v = version_of(ua, "Deno/", true)) return {"deno", *v, "wgpu", "", "user agent"};
  if (auto v = version_of(ua, "Firefox/")) return {"firefox", *v, "wgpu", "", "user agent"};
  // Headless Chromium (how tests and `browser` drive it) says HeadlessChrome, not Chrome.
  for (const char* p : {"Chrome/", "HeadlessChrome/", "Chromium/", "Edg/"}) {
    if (auto v = version_of(ua, p)) {
      const auto chrome = version_of(ua, "Chrome/");
      return {"chromium", chrome ? *chrome : *v, "Dawn", "", "user agent"};
    }
  }
  if (version_of(ua, "Safari/")) return {"safari", version_of(ua, "Version/").value_or(""), "WebKit", "", "user agent"};
  return {"browser", "", "", "", "user agent"};
}

Implementation native_implementation(const std::string& program_version, const std::string& dawn_version) {
  return {"native", program_version, "Dawn", dawn_version, "build"};
}

nlohmann::json implementation_json(const Implementation& i) {
  return {{"runtime", i.runtime},
          {"runtime_version", i.runtime_version},
          {"webgpu", i.webgpu},
          {"webgpu_version", i.webgpu_version.empty() ? nlohmann::json(nullptr) : nlohmann::json(i.webgpu_version)},
          {"source", i.source}};
}

Expected<std::optional<Implementation>> recorded_implementation(const nlohmann::json& doc) {
  if (!doc.is_object()) return std::optional<Implementation>{};
  const auto it = doc.find("implementation");
  if (it == doc.end()) return std::optional<Implementation>{};
  std::string error;
  const FieldReader root(doc, "", &error);
  if (!root.is_object("implementation")) {
    if (error.empty()) error = "\"implementation\" is null, expected an object";
    return make_error(ErrorKind::Usage, error);
  }
  const FieldReader in = root.child("implementation");
  Implementation i;
  in.get("runtime", i.runtime), in.get("runtime_version", i.runtime_version), in.get("webgpu", i.webgpu);
  in.get("webgpu_version", i.webgpu_version), in.get("source", i.source);
  if (!error.empty()) return make_error(ErrorKind::Usage, error);
  return std::optional<Implementation>{std::move(i)};
}

Implementation implementation_of(const nlohmann::json& doc) {
  if (!doc.is_object()) return {};
  if (const auto it = doc.find("implementation");
      it != doc.end() && it->is_object() && !string_field(*it, "runtime").empty()) {
    return {string_field(*it, "runtime"), string_field(*it, "runtime_version"), string_field(*it, "webgpu"),
            string_field(*it, "webgpu_version"),
            string_field(*it, "source").empty() ? "recorded" : string_field(*it, "source")};
  }
  const nlohmann::json machine = doc.value("machine", nlohmann::json::object());
  if (machine.is_object() && machine.contains("browser")) {
    return implementation_from_user_agent(string_field(machine["browser"], "user_agent"));
  }
  const nlohmann::json build = doc.value("build", nlohmann::json::object());
  if (machine.is_object() && machine.contains("adapter")) {
    const std::string dawn =
        machine.contains("dawn") ? string_field(machine["dawn"], "version") : string_field(build, "dawn_version");
    return native_implementation(string_field(build, "version"), dawn);
  }
  return {"native", string_field(build, "version"), "", "", "build"};  // the host CPU: no WebGPU under it
}

std::string implementation_text(const Implementation& i) {
  if (i.runtime == "native") {
    return i.webgpu.empty() ? "native" : "native " + i.webgpu + (i.webgpu_version.empty() ? "" : " " + i.webgpu_version);
  }
  static const std::pair<const char*, const char*> names[] = {
      {"chromium", "Chromium"}, {"firefox", "Firefox"}, {"deno", "Deno"}, {"safari", "Safari"}, {"browser", "a browser"}};
  std::string product = i.runtime;
  for (const auto& [key, name] : names) {
    if (i.runtime == key) product = name;
  }
  std::string out = product + (i.runtime_version.empty() ? "" : " " + i.runtime_version);
  if (!i.webgpu.empty()) out += " (" + i.webgpu + (i.webgpu_version.empty() ? "" : " " + i.webgpu_version) + ")";
  return out;
}

}  // namespace wgb::report
