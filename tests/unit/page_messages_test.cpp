// The runtime's messages are read once, typed, for the engine and the driver alike: the init
// record, a pass's reply, an error reply, the run request and the page's state.
#include "report/page_messages.hpp"

#include <gtest/gtest.h>

namespace wgb::report {
namespace {

using nlohmann::json;

TEST(PageMessages, TheInitRecordIsReadWhole) {
  const json init = {{"adapter",
                      {{"vendor", "google"},
                       {"architecture", "swiftshader"},
                       {"device", ""},
                       {"is_fallback_adapter", true},
                       {"subgroup_min_size", 4},
                       {"subgroup_max_size", 4}}},
                     {"features", {"timestamp-query", 7, "shader-f16"}},
                     {"limits", {{"maxBufferSize", 268435456}, {"maxBindGroups", 4}, {"bogus", "x"}, {"neg", -1}}},
                     {"timestamps", false},
                     {"timestamp_quantization_ns", 1000},
                     {"implementation", {{"runtime", "deno"}, {"runtime_version", "2.9.6"}}},
                     {"user_agent", "Deno/2.9.6"}};
  const PageInit p = read_page_init(init);
  EXPECT_TRUE(p.has_adapter);
  EXPECT_EQ(p.identity.architecture, "swiftshader");
  EXPECT_TRUE(p.identity.is_fallback_adapter);
  EXPECT_EQ(p.subgroup_max_size, 4u);
  EXPECT_EQ(p.features, (std::vector<std::string>{"timestamp-query", "shader-f16"}));  // strings only
  ASSERT_EQ(p.limits.size(), 2u);  // the non-negative numbers, by name
  EXPECT_EQ(p.limits[0], (std::pair<std::string, std::uint64_t>{"maxBindGroups", 4}));
  EXPECT_EQ(p.timestamps, false);
  EXPECT_EQ(p.timestamp_quantization_ns, 1000);
  EXPECT_EQ(p.runtime_version, "2.9.6");
  EXPECT_EQ(p.user_agent, "Deno/2.9.6");
  EXPECT_FALSE(p.webgpu_thread);
  // Not a whole record: no adapter object.
  EXPECT_FALSE(read_page_init(json{{"adapter", "gpu"}}).has_adapter);
  EXPECT_FALSE(read_page_init(json::array()).has_adapter);
}

TEST(PageMessages, RepliesAndErrors) {
  const PassReply r = read_pass_reply({{"wall_ms", 1.5}, {"gpu_ms", 1.25}, {"errors", {"oom", json{{"x", 1}}}}});
  EXPECT_EQ(r.wall_ms, 1.5);
  EXPECT_EQ(r.gpu_ms, 1.25);
  EXPECT_EQ(r.errors, (std::vector<std::string>{"oom", "{\"x\":1}"}));
  EXPECT_FALSE(read_pass_reply(json::object()).wall_ms);
  EXPECT_FALSE(read_error_reply({{"wall_ms", 1}}));
  const auto e = read_error_reply({{"error", "compile"}, {"message", "bad WGSL"}});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, "compile");
  EXPECT_EQ(e->message, "bad WGSL");
  const auto odd = read_error_reply({{"error", 3}});
  ASSERT_TRUE(odd);
  EXPECT_EQ(odd->kind, "internal");
  EXPECT_EQ(odd->message, "internal");
  EXPECT_EQ(page_request("pass", {{"timestamps", true}}), (json{{"op", "pass"}, {"timestamps", true}}));
}

TEST(PageMessages, TheRunRequestNamesTheFieldItRefuses) {
  auto ok = read_run_request(R"({"suite":"memory","memory_bytes":16777216,"accuracy":true,
                                 "browser":{"user_agent":"UA","logical_cpus":8}})");
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(ok->suite, "memory");
  EXPECT_EQ(ok->memory_bytes, 16777216u);
  EXPECT_TRUE(ok->accuracy);
  EXPECT_EQ(ok->user_agent, "UA");
  EXPECT_EQ(ok->logical_cpus, 8);
  EXPECT_FALSE(ok->webgpu_thread);
  for (const auto& [text, says] : std::vector<std::pair<std::string, std::string>>{
           {"[]", "not a JSON object"},
           {R"({"suite":3})", "\"suite\" must be"},
           {R"({"suite":null})", "\"suite\" must be"},
           {R"({"suite":"host"})", "unknown suite 'host'"},
           {R"({"filter":5})", "\"filter\" must be a string"},
           {R"({"memory_bytes":-1})", "\"memory_bytes\" must be a whole number"}}) {
    auto r = read_run_request(text);
    ASSERT_FALSE(r) << text;
    EXPECT_EQ(r.error().kind, ErrorKind::Usage);
    EXPECT_NE(r.error().message.find(says), std::string::npos) << r.error().message;
  }
  EXPECT_TRUE(read_run_request(R"({"filter":null,"memory_bytes":null})"));
}

TEST(PageMessages, ThePagesStateAndFirstAnswer) {
  const PageState running = read_page_state({{"phase", "running"}, {"line", "read-linear 3/9"}});
  EXPECT_EQ(running.phase, "running");
  EXPECT_EQ(running.line, "read-linear 3/9");
  EXPECT_EQ(running.line_shown, "\"read-linear 3/9\"");
  const PageState starting = read_page_state({{"phase", "loading"}});
  EXPECT_FALSE(starting.line);
  EXPECT_EQ(starting.line_shown, "\"starting\"");
  EXPECT_EQ(read_page_state({{"phase", "error"}, {"error", "device lost"}}).error, "device lost");
  EXPECT_EQ(read_page_opened({{"error", "no adapter"}}).error, "no adapter");
  const PageOpened opened = read_page_opened({{"init", {{"adapter", json::object()}}}});
  EXPECT_FALSE(opened.error);
  EXPECT_TRUE(read_page_init(opened.init).has_adapter);
}

}  // namespace
}  // namespace wgb::report
