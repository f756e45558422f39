// The browsers' protocol messages, written and read (protocol_messages.hpp).
#include "browser/protocol_messages.hpp"

#include "report/field_reader.hpp"

namespace wgb::browser {

namespace {

using json = nlohmann::json;

using report::json_member;
using report::json_object;

std::string text(const json& j, const char* key, const std::string& otherwise = {}) {
  return report::json_text(j, key).value_or(otherwise);
}

ProtocolMessage read_common(const json& j) {
  ProtocolMessage m;
  m.is_object = j.is_object();
  if (!m.is_object) return m;
  m.has_id = j.contains("id");
  if (const json& id = json_member(j, "id"); id.is_number_integer()) m.id = id.get<std::int64_t>();
  m.method = text(j, "method");
  m.session_id = text(j, "sessionId");
  m.params = json_object(j, "params");
  m.result = json_object(j, "result");
  return m;
}

}  // namespace

std::string protocol_command(int id, std::string_view method, const json& params, const std::string& session_id) {
  json msg = {{"id", id}, {"method", method}, {"params", params}};
  if (!session_id.empty()) msg["sessionId"] = session_id;
  return msg.dump();
}

ProtocolMessage read_cdp_message(std::string_view text_in) {
  const json j = json::parse(text_in, nullptr, /*allow_exceptions=*/false);
  ProtocolMessage m = read_common(j);
  if (m.is_object && j.contains("error")) {
    const json& e = json_member(j, "error");
    m.error = text(e, "message", e.dump());
  }
  return m;
}

ProtocolMessage read_bidi_message(std::string_view text_in) {
  const json j = json::parse(text_in, nullptr, /*allow_exceptions=*/false);
  ProtocolMessage m = read_common(j);
  if (m.is_object && text(j, "type") == "error") m.error = text(j, "error", "error") + ": " + text(j, "message");
  return m;
}

CdpEvent read_cdp_event(const ProtocolMessage& event) {
  CdpEvent e;
  e.session_id = event.session_id;
  const json& p = event.params;
  if (event.method == "Runtime.consoleAPICalled") {
    e.kind = CdpEvent::Kind::Console;
    e.line = text(p, "type", "log") + ":";
    if (const json& args = json_member(p, "args"); args.is_array()) {
      for (const auto& arg : args) {
        if (arg.is_object() && arg.contains("value")) {
          const json& v = json_member(arg, "value");
          e.line += " " + (v.is_string() ? v.get<std::string>() : v.dump());
        } else {
          e.line += " " + text(arg, "description", text(arg, "type"));
        }
      }
    }
  } else if (event.method == "Runtime.exceptionThrown") {
    e.kind = CdpEvent::Kind::Console;
    const json& d = json_object(p, "exceptionDetails");
    e.line =
        "exception: " +
        (d.contains("exception") ? text(json_member(d, "exception"), "description", text(d, "text")) : text(d, "text"));
  } else if (event.method == "Inspector.targetCrashed") {
    e.kind = CdpEvent::Kind::Crashed;
    e.line = "the page crashed";
  } else if (event.method == "Target.detachedFromTarget") {
    e.kind = CdpEvent::Kind::Detached;
    e.session_id = text(p, "sessionId");
  }
  return e;
}

std::string result_text(const json& result, const char* key) { return text(result, key); }

json window_id(const json& result) { return json_member(result, "windowId"); }

Evaluated read_cdp_evaluation(const json& result) {
  Evaluated e;
  if (result.is_object() && result.contains("exceptionDetails")) {
    const json& d = json_member(result, "exceptionDetails");
    std::string message = text(d, "text", "exception");
    if (d.is_object() && d.contains("exception")) message = text(json_member(d, "exception"), "description", message);
    e.exception = message.substr(0, message.find('\n'));
    return e;
  }
  const json& r = json_object(result, "result");
  e.value = r.contains("value") ? json_member(r, "value") : json(nullptr);
  return e;
}

Evaluated read_bidi_evaluation(const json& result) {
  Evaluated e;
  if (text(result, "type") == "exception") {
    const std::string message = text(json_object(result, "exceptionDetails"), "text", "exception");
    e.exception = message.substr(0, message.find('\n'));
    return e;
  }
  const json& r = json_object(result, "result");
  if (text(r, "type") != "string" || !r.contains("value") || !json_member(r, "value").is_string()) return e;
  const json v = json::parse(json_member(r, "value").get<std::string>(), nullptr, false);
  if (!v.is_discarded()) e.value = v;
  return e;
}

BidiSession read_bidi_session(const json& result) {
  const json& caps = json_object(result, "capabilities");
  return {text(caps, "browserVersion"), text(caps, "userAgent")};
}

std::optional<std::string> first_context(const json& tree) {
  const json& contexts = json_member(tree, "contexts");
  if (!contexts.is_array() || contexts.empty()) return std::nullopt;
  const json& c = json_member(contexts[0], "context");
  return c.is_string() ? std::optional<std::string>(c.get<std::string>()) : std::nullopt;
}

int bidi_port(std::string_view server_json) {
  const json j = json::parse(server_json, nullptr, false);
  const json& port = json_member(j, "ws_port");
  return port.is_number_integer() ? port.get<int>() : 0;
}

}  // namespace wgb::browser
