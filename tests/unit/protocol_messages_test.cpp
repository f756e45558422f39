// The browsers' protocols are written and read in one place: a command, an answer or an event,
// what an event means, an evaluation's value or exception, and Firefox's session.
#include "browser/protocol_messages.hpp"

#include <gtest/gtest.h>

namespace wgb::browser {
namespace {

using nlohmann::json;

TEST(ProtocolMessages, CommandsAndAnswers) {
  EXPECT_EQ(json::parse(protocol_command(7, "Page.navigate", {{"url", "x"}}, "S1")),
            (json{{"id", 7}, {"method", "Page.navigate"}, {"params", {{"url", "x"}}}, {"sessionId", "S1"}}));
  EXPECT_FALSE(json::parse(protocol_command(1, "session.new", json::object())).contains("sessionId"));

  const auto answer = read_cdp_message(R"({"id":7,"result":{"frameId":"F"}})");
  EXPECT_TRUE(answer.has_id);
  EXPECT_EQ(answer.id, 7);
  EXPECT_EQ(result_text(answer.result, "frameId"), "F");
  EXPECT_FALSE(answer.error);
  EXPECT_EQ(read_cdp_message(R"({"id":8,"error":{"code":-32000,"message":"No target"}})").error, "No target");
  EXPECT_EQ(read_cdp_message(R"({"id":8,"error":"odd"})").error, "\"odd\"");
  EXPECT_FALSE(read_cdp_message("not json").is_object);
  const auto event = read_cdp_message(R"({"method":"Inspector.targetCrashed","sessionId":"S1","params":{}})");
  EXPECT_FALSE(event.has_id);
  const CdpEvent crashed = read_cdp_event(event);
  EXPECT_EQ(crashed.kind, CdpEvent::Kind::Crashed);
  EXPECT_EQ(crashed.session_id, "S1");

  EXPECT_EQ(read_bidi_message(R"({"id":3,"type":"error","error":"no such frame","message":"gone"})").error,
            "no such frame: gone");
  EXPECT_FALSE(read_bidi_message(R"({"id":3,"type":"success","result":{}})").error);
}

TEST(ProtocolMessages, ConsoleLinesAndClosedPages) {
  const auto console = read_cdp_event(read_cdp_message(
      R"({"method":"Runtime.consoleAPICalled","sessionId":"S","params":{"type":"warn",
          "args":[{"type":"string","value":"a"},{"type":"number","value":2},{"type":"object","description":"Obj"},{"type":"undefined"}]}})"));
  EXPECT_EQ(console.kind, CdpEvent::Kind::Console);
  EXPECT_EQ(console.line, "warn: a 2 Obj undefined");
  const auto thrown = read_cdp_event(read_cdp_message(
      R"({"method":"Runtime.exceptionThrown","params":{"exceptionDetails":{"text":"Uncaught","exception":{"description":"TypeError: x"}}}})"));
  EXPECT_EQ(thrown.line, "exception: TypeError: x");
  const auto closed =
      read_cdp_event(read_cdp_message(R"({"method":"Target.detachedFromTarget","params":{"sessionId":"S9"}})"));
  EXPECT_EQ(closed.kind, CdpEvent::Kind::Detached);
  EXPECT_EQ(closed.session_id, "S9");
  EXPECT_EQ(read_cdp_event(read_cdp_message(R"({"method":"Page.loadEventFired","params":{}})")).kind,
            CdpEvent::Kind::Other);
}

TEST(ProtocolMessages, Evaluations) {
  EXPECT_EQ(read_cdp_evaluation({{"result", {{"type", "number"}, {"value", 3}}}}).value, 3);
  EXPECT_TRUE(read_cdp_evaluation({{"result", {{"type", "undefined"}}}}).value.is_null());
  EXPECT_EQ(read_cdp_evaluation(
                {{"exceptionDetails", {{"text", "Uncaught"}, {"exception", {{"description", "Err: a\nat b"}}}}}})
                .exception,
            "Err: a");
  EXPECT_EQ(read_bidi_evaluation({{"type", "success"}, {"result", {{"type", "string"}, {"value", "{\"a\":1}"}}}}).value,
            (json{{"a", 1}}));
  EXPECT_TRUE(
      read_bidi_evaluation({{"type", "success"}, {"result", {{"type", "number"}, {"value", 1}}}}).value.is_null());
  EXPECT_EQ(read_bidi_evaluation({{"type", "exception"}, {"exceptionDetails", {{"text", "boom\nstack"}}}}).exception,
            "boom");
  EXPECT_EQ(window_id({{"windowId", 4}}), 4);
}

TEST(ProtocolMessages, FirefoxsSession) {
  const BidiSession s = read_bidi_session({{"capabilities", {{"browserVersion", "153.8"}, {"userAgent", "UA"}}}});
  EXPECT_EQ(s.browser_version, "153.8");
  EXPECT_EQ(s.user_agent, "UA");
  EXPECT_EQ(first_context({{"contexts", {{{"context", "C1"}}}}}), "C1");
  EXPECT_FALSE(first_context({{"contexts", json::array()}}));
  EXPECT_EQ(bidi_port(R"({"ws_host":"127.0.0.1","ws_port":9222})"), 9222);
  EXPECT_EQ(bidi_port("{"), 0);
}

}  // namespace
}  // namespace wgb::browser
