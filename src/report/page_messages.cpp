// The runtime's messages, read (page_messages.hpp).
#include "report/page_messages.hpp"

#include <fmt/format.h>

#include "report/field_reader.hpp"

namespace wgb::report {

namespace {

using json = nlohmann::json;

const json& member(const json& j, const char* key) { return json_member(j, key); }
std::optional<std::string> text(const json& j, const char* key) { return json_text(j, key); }
std::optional<double> number(const json& j, const char* key) { return json_number(j, key); }

// A non-negative number as a count; 0 otherwise.
std::uint64_t count(const json& j, const char* key) {
  const auto v = number(j, key);
  return v && *v >= 0 ? static_cast<std::uint64_t>(*v) : 0;
}

std::vector<std::string> strings(const json& j, const char* key) {
  std::vector<std::string> out;
  const json& v = member(j, key);
  if (!v.is_array()) return out;
  for (const auto& s : v) {
    if (s.is_string()) out.push_back(s.get<std::string>());
  }
  return out;
}

}  // namespace

json page_request(std::string_view op, const json& fields) {
  json message = fields.is_object() ? fields : json::object();
  message["op"] = op;
  return message;
}

json page_adapter_json(const gpu::AdapterDescription& adapter, bool timestamps) {
  json a = adapter_json(adapter);
  a["timestamps"] = timestamps;
  return a;
}

PageInit read_page_init(const json& init) {
  PageInit p;
  const json& a = member(init, "adapter");
  p.has_adapter = a.is_object();
  p.adapter = p.has_adapter ? a : json::object();
  p.identity = read_adapter_identity(p.adapter);
  p.subgroup_min_size = static_cast<std::uint32_t>(count(a, "subgroup_min_size"));
  p.subgroup_max_size = static_cast<std::uint32_t>(count(a, "subgroup_max_size"));
  p.features = strings(init, "features");
  p.wgsl_features = strings(init, "wgsl_features");
  if (const json& limits = member(init, "limits"); limits.is_object()) {
    for (auto it = limits.begin(); it != limits.end(); ++it) {
      if (it->is_number() && it->get<double>() >= 0)
        p.limits.emplace_back(it.key(), static_cast<std::uint64_t>(it->get<double>()));
    }
  }
  if (const json& t = member(init, "timestamps"); t.is_boolean()) p.timestamps = t.get<bool>();
  p.timestamp_quantization_ns = number(init, "timestamp_quantization_ns");
  if (const json& impl = member(init, "implementation"); impl.is_object()) {
    p.implementation = impl;
    p.runtime_version = text(impl, "runtime_version").value_or("");
  }
  p.user_agent = text(init, "user_agent");
  p.webgpu_thread = text(init, "webgpu_thread");
  p.adapter_source = text(init, "adapter_source");
  return p;
}

PassReply read_pass_reply(const json& reply) {
  PassReply r;
  r.wall_ms = number(reply, "wall_ms");
  r.gpu_ms = number(reply, "gpu_ms");
  if (const json& errors = member(reply, "errors"); errors.is_array()) {
    for (const auto& e : errors) r.errors.push_back(e.is_string() ? e.get<std::string>() : e.dump());
  }
  return r;
}

std::optional<ErrorReply> read_error_reply(const json& reply) {
  if (!reply.is_object() || !reply.contains("error")) return std::nullopt;
  ErrorReply e;
  e.kind = text(reply, "error").value_or("internal");
  e.message = text(reply, "message").value_or(e.kind);
  return e;
}

Expected<RunRequest> read_run_request(std::string_view text_in) {
  const json j = json::parse(text_in, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return make_error(ErrorKind::Usage, "the run options are not a JSON object");
  RunRequest o;
  if (j.contains("suite")) {
    const json& suite = member(j, "suite");
    if (!suite.is_string()) return make_error(ErrorKind::Usage, "\"suite\" must be \"default\" or \"memory\"");
    o.suite = suite.get<std::string>();
    if (o.suite != "default" && o.suite != "memory") {
      return make_error(ErrorKind::Usage, fmt::format("unknown suite '{}' (default or memory)", o.suite));
    }
  }
  if (const json& filter = member(j, "filter"); !filter.is_null()) {
    if (!filter.is_string()) return make_error(ErrorKind::Usage, "\"filter\" must be a string of globs");
    o.filter = filter.get<std::string>();
  }
  if (const json& bytes = member(j, "memory_bytes"); !bytes.is_null()) {
    if (!bytes.is_number_unsigned())
      return make_error(ErrorKind::Usage, "\"memory_bytes\" must be a whole number of bytes");
    o.memory_bytes = bytes.get<std::uint64_t>();
  }
  if (const json& accuracy = member(j, "accuracy"); accuracy.is_boolean()) o.accuracy = accuracy.get<bool>();
  if (const json& browser = member(j, "browser"); browser.is_object()) {
    o.user_agent = text(browser, "user_agent");
    o.webgpu_thread = text(browser, "webgpu_thread");
    o.adapter_source = text(browser, "adapter_source");
    if (const json& cpus = member(browser, "logical_cpus"); cpus.is_number_integer()) {
      o.logical_cpus = cpus.get<std::int64_t>();
    }
  }
  return o;
}

PageState read_page_state(const json& state) {
  PageState s;
  s.phase = text(state, "phase").value_or("");
  s.line = text(state, "line");
  const json& line = member(state, "line");
  s.line_shown = state.is_object() && state.contains("line") ? line.dump() : json("starting").dump();
  s.error = text(state, "error");
  return s;
}

PageOpened read_page_opened(const json& first) {
  PageOpened p;
  if (first.is_object() && first.contains("error")) {
    p.error = text(first, "error").value_or("the page failed");
    return p;
  }
  p.init = member(first, "init");
  return p;
}

}  // namespace wgb::report
