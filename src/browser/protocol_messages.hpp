// The browsers' remote protocols as this program speaks them, typed: the Chrome DevTools Protocol
// (Chromium, cdp.hpp) and WebDriver BiDi (Firefox, firefox.hpp). Each command is written here and
// each answer and event read here, once; the drivers work with the records. A field missing or of
// another type reads as its default.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace wgb::browser {

// One command: {"id", "method", "params"} (CDP adds "sessionId" for a page's session).
std::string protocol_command(int id, std::string_view method, const nlohmann::json& params,
                             const std::string& session_id = {});

// One message from the browser: an answer to a command (it has an id) or an event.
struct ProtocolMessage {
  bool is_object = false;            // anything else is ignored
  bool has_id = false;               // an answer; else an event
  std::optional<std::int64_t> id;    // the command it answers
  std::string method, session_id;    // an event's
  nlohmann::json params;             // an event's parameters (an object)
  nlohmann::json result;             // an answer's result (an object)
  std::optional<std::string> error;  // a failed answer: what the browser said
};
// CDP: an answer with "error" {"message"} failed.
ProtocolMessage read_cdp_message(std::string_view text);
// BiDi: an answer of type "error" failed ("error: message").
ProtocolMessage read_bidi_message(std::string_view text);

// What a CDP event means to the driver: a console line for the page's session, a crashed page, or a
// closed one.
struct CdpEvent {
  enum class Kind { Other, Console, Crashed, Detached } kind = Kind::Other;
  std::string session_id;  // whose
  std::string line;        // Console: "log: a b", "exception: ..."
};
CdpEvent read_cdp_event(const ProtocolMessage& event);

// A text field of a command's result ("targetId", "sessionId", "errorText", ...); "" when absent.
std::string result_text(const nlohmann::json& result, const char* key);
// CDP Browser.getWindowForTarget: the window's id, as the browser gave it.
nlohmann::json window_id(const nlohmann::json& result);

// Runtime.evaluate (CDP) or script.evaluate (BiDi, whose expression returns JSON text): the value,
// or the exception's first line.
struct Evaluated {
  nlohmann::json value;                  // null when the expression gave none
  std::optional<std::string> exception;  // the JavaScript error
};
Evaluated read_cdp_evaluation(const nlohmann::json& result);
Evaluated read_bidi_evaluation(const nlohmann::json& result);

// BiDi session.new: the browser's version and user agent; browsingContext.getTree: the first
// context (none when there is none).
struct BidiSession {
  std::string browser_version, user_agent;
};
BidiSession read_bidi_session(const nlohmann::json& result);
std::optional<std::string> first_context(const nlohmann::json& tree);
// Firefox's WebDriverBiDiServer.json: the port it listens on (0: not written yet).
int bidi_port(std::string_view server_json);

}  // namespace wgb::browser
