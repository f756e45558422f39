// The sections of a browser's document, written and read (browser_section.hpp).
#include "report/browser_section.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace wgb::report {

namespace {

using json = nlohmann::json;

Error refused(const char* what) { return make_error(ErrorKind::Usage, what); }

}  // namespace

json to_json(const BrowserRecord& b) {
  json j = {
      {"user_agent", b.user_agent},
      {"webgpu_thread", b.webgpu_thread},
      {"timestamp_quantization_ns", b.timestamp_quantization_ns ? json(*b.timestamp_quantization_ns) : json(nullptr)}};
  if (!b.adapter_source.empty()) j["adapter_source"] = b.adapter_source;
  return j;
}

json to_json(const BrowserHostRecord& h) {
  json j = {{"runtime", "browser"}, {"user_agent", h.user_agent}};
  if (h.logical_cpus) j["logical_cpus"] = *h.logical_cpus;
  return j;
}

Expected<BrowserRecord> read_browser_record(const json& browser) {
  if (!browser.is_object()) return refused("machine.browser must be an object");
  BrowserRecord b;
  const auto ua = browser.find("user_agent");
  if (ua == browser.end() || !ua->is_string()) return refused("machine.browser.user_agent must be a string");
  b.user_agent = ua->get<std::string>();
  const auto thread = browser.find("webgpu_thread");
  if (thread == browser.end() || !thread->is_string()) {
    return refused("machine.browser.webgpu_thread must be \"worker\" or \"main\"");
  }
  b.webgpu_thread = thread->get<std::string>();
  if (const auto q = browser.find("timestamp_quantization_ns"); q != browser.end() && !q->is_null()) {
    if (!q->is_number() || !(q->get<double>() >= 0) || !std::isfinite(q->get<double>())) {
      return refused("machine.browser.timestamp_quantization_ns must be null or a number >= 0");
    }
    b.timestamp_quantization_ns = static_cast<std::uint64_t>(std::llround(std::min(q->get<double>(), 1e18)));
  }
  if (const auto s = browser.find("adapter_source"); s != browser.end() && !s->is_null()) {
    if (!s->is_string()) return refused("machine.browser.adapter_source must be a string");
    b.adapter_source = s->get<std::string>();
  }
  return b;
}

}  // namespace wgb::report
