// The browsers' protocol messages, written and read (protocol_messages.hpp).
#include "browser/protocol_messages.hpp"

namespace wgb::browser {

namespace {

using json = nlohmann::json;

const json& field(const json& j, const char* key) {
  static const json none;
  if (!j.is_object()) return none;
  const auto it = j.find(key);
  return it == j.end() ? none : *it;
}

std::string text(const json& j, const char* key, const std::string& otherwise = {}) {
  const json& v = field(j, key);
  return v.is_string() ? v.get<std::string>() : otherwise;
}

const json& object(const json& j, const char* key) {
  static const json empty = json::object();
  const json& v = field(j, key);
  return v.is_object() ? v : empty;
}

ProtocolMessage read_common(const json& j) {
  ProtocolMessage m;
  m.is_object = j.is_object();
  if (!m.is_object) return m;
  m.has_id = j.contains("id");
  if (const json& id = field(j, "id"); id.is_number_integer()) m.id = id.get<std::int64_t>();
  m.method = text(j, "method");
  m.session_id = text(j, "sessionId");
  m.params = object(j, "params");
  m.result = object(j, "result");
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
    const json& e = field(j, "error");
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
    if (const json& args = field(p, "args"); args.is_array()) {
      for (const auto& arg : args) {
        if (arg.is_object() && arg.contains("value")) {
          const json& v = field(arg, "value");
          e.line += " " + (v.is_string() ? v.get<std::string>() : v.dump());
        } else {
          e.line += " " + text(arg, "description", text(arg, "type"));
        }
      }
    }
  } else if (event.method == "Runtime.exceptionThrown") {
    e.kind = CdpEvent::Kind::Console;
    const json& d = object(p, "exceptionDetails");
    e.line = "exception: " +
             (d.contains("exception") ? text(field(d, "exception"), "description", text(d, "text")) : text(d, "text"));
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

json window_id(const json& result) { return field(result, "windowId"); }

Evaluated read_cdp_evaluation(const json& result) {
  Evaluated e;
  if (result.is_object() && result.contains("exceptionDetails")) {
    const json& d = field(result, "exceptionDetails");
    std::string message = text(d, "text", "exception");
    if (d.is_object() && d.contains("exception")) message = text(field(d, "exception"), "description", message);
    e.exception = message.substr(0, message.find('\n'));
    return e;
  }
  const json& r = object(result, "result");
  e.value = r.contains("value") ? field(r, "value") : json(nullptr);
  return e;
}

Evaluated read_bidi_evaluation(const json& result) {
  Evaluated e;
  if (text(result, "type") == "exception") {
    const std::string message = text(object(result, "exceptionDetails"), "text", "exception");
    e.exception = message.substr(0, message.find('\n'));
    return e;
  }
  const json& r = object(result, "result");
  if (text(r, "type") != "string" || !r.contains("value") || !field(r, "value").is_string()) return e;
  const json v = json::parse(field(r, "value").get<std::string>(), nullptr, false);
  if (!v.is_discarded()) e.value = v;
  return e;
}

BidiSession read_bidi_session(const json& result) {
  const json& caps = object(result, "capabilities");
  return {text(caps, "browserVersion"), text(caps, "userAgent")};
}

std::optional<std::string> first_context(const json& tree) {
  const json& contexts = field(tree, "contexts");
  if (!contexts.is_array() || contexts.empty()) return std::nullopt;
  const json& c = field(contexts[0], "context");
  return c.is_string() ? std::optional<std::string>(c.get<std::string>()) : std::nullopt;
}

int bidi_port(std::string_view server_json) {
  const json j = json::parse(server_json, nullptr, false);
  const json& port = field(j, "ws_port");
  return port.is_number_integer() ? port.get<int>() : 0;
}

}  // namespace wgb::browser
