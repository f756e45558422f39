// The implementation a stored run was measured in: a document's "implementation" (or, for documents
// without one, its user agent) decides the run's runtime (native, chromium, firefox, deno, safari, or
// browser when none is named); a malformed or contradictory implementation is refused; the lists and
// leaderboards filter by one runtime or by every browser runtime at once; the run page names the
// implementation; documents read back name it (native ones Dawn at the build's version).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "report/files.hpp"
#include "report/implementation.hpp"
#include "store/client.hpp"
#include "store/runtime_filter.hpp"
#include "store/server.hpp"
#include "store/store.hpp"
#include "store/submission.hpp"
#include "tests/unit/store_test_support.hpp"

namespace wgb::store {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

json browser_doc(const std::string& user_agent, int nonce) {
  auto d = test::make_document({.vendor = "mesa", .architecture = "", .device = "", .backend = "", .adapter_type = "cpu"},
                               {{.id = "read-linear", .value = 1e9 + nonce}}, "default", nonce);
  d["machine"]["adapter"]["description"] = "llvmpipe (LLVM 15.0.6, 256 bits)";
  d["machine"]["host"] = {{"runtime", "browser"}, {"user_agent", user_agent}, {"logical_cpus", 2}};
  d["machine"]["browser"] = {{"user_agent", user_agent}, {"webgpu_thread", "worker"}, {"timestamp_quantization_ns", 1}};
  d["runtime"] = "browser";
  d.erase("implementation");  // as written before documents named it: the user agent decides
  return d;
}

constexpr const char* kFirefox = "Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0";
constexpr const char* kChrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156.0.0.0 Safari/537.36";
constexpr const char* kSafari = "Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 Version/26.0 Safari/605.1.15";

TEST(StoreRuntime, TheImplementationDecidesTheRuntime) {
  EXPECT_EQ(make_submission(browser_doc(kFirefox, 1))->runtime, "firefox");
  EXPECT_EQ(make_submission(browser_doc(kChrome, 2))->runtime, "chromium");
  EXPECT_EQ(make_submission(browser_doc(kSafari, 3))->runtime, "safari");
  EXPECT_EQ(make_submission(browser_doc("Deno/2.9.6", 4))->runtime, "deno");
  EXPECT_EQ(make_submission(browser_doc("SomethingElse/1.0", 5))->runtime, "browser");
  // A recorded implementation wins over the user agent.
  auto d = browser_doc(kChrome, 6);
  d["implementation"] = {{"runtime", "firefox"}, {"runtime_version", "153.0"}, {"webgpu", "wgpu"},
                         {"webgpu_version", nullptr}, {"source", "user agent"}};
  EXPECT_EQ(make_submission(d)->runtime, "firefox");
  EXPECT_EQ(make_submission(test::make_document({}, {{}}))->runtime, "native");
}

TEST(StoreRuntime, AMalformedOrContradictoryImplementationIsRefused) {
  auto d = browser_doc(kFirefox, 1);
  d["implementation"] = "firefox";
  EXPECT_FALSE(make_submission(d));
  d["implementation"] = {{"runtime", "netscape"}};
  auto r = make_submission(d);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("implementation.runtime"), std::string::npos) << r.error().message;
  d["implementation"] = {{"runtime", "native"}};  // measured in a browser
  EXPECT_FALSE(make_submission(d));
  d["implementation"] = {{"runtime", "firefox"}, {"webgpu", std::string(100, 'x')}};
  EXPECT_FALSE(make_submission(d));
  auto native = test::make_document({}, {{}});
  native["implementation"] = {{"runtime", "deno"}};  // no machine.browser
  EXPECT_FALSE(make_submission(native));
  EXPECT_TRUE(valid_runtime_filter("firefox"));
  EXPECT_TRUE(valid_runtime_filter(""));
  EXPECT_FALSE(valid_runtime_filter("wasm"));
}

TEST(StoreRuntime, ListsAndLeaderboardsFilterByRuntime) {
  const fs::path db = fs::temp_directory_path() / ("wgb-runtime-" + std::to_string(getpid()) + ".db");
  fs::remove(db);
  {
    auto store = Store::open(db.string());
    ASSERT_TRUE(store) << store.error().message;
    ServerOptions o;
    o.port = 0;
    auto server = Server::start(**store, o);
    ASSERT_TRUE(server) << server.error().message;
    std::map<std::string, std::int64_t> ids;
    auto post = [&](const std::string& name, const json& doc) {
      auto r = http_post((*server)->url() + "/api/v1/results", doc.dump(), "");
      ASSERT_TRUE(r && r->status == 201) << (r ? r->body : r.error().message);
      ids[name] = json::parse(r->body)["id"].get<std::int64_t>();
    };
    post("firefox", browser_doc(kFirefox, 1));
    post("chromium", browser_doc(kChrome, 2));
    post("deno", browser_doc("Deno/2.9.6", 3));
    post("native", test::make_document({}, {{.id = "read-linear", .value = 4e12}}, "default", 4));
    auto list = [&](const std::string& query) {
      auto r = http_get((*server)->url() + "/api/v1/results" + query);
      EXPECT_TRUE(r && r->status == 200) << (r ? r->body : r.error().message);
      std::set<std::int64_t> out;
      const json j = json::parse(r->body);  // kept alive for the loop (a temporary would not be)
      for (const auto& run : j["runs"]) out.insert(run["id"].get<std::int64_t>());
      return out;
    };
    EXPECT_EQ(list("?runtime=firefox"), std::set<std::int64_t>{ids["firefox"]});
    EXPECT_EQ(list("?runtime=deno"), std::set<std::int64_t>{ids["deno"]});
    EXPECT_EQ(list("?runtime=browser"), (std::set<std::int64_t>{ids["firefox"], ids["chromium"], ids["deno"]}));
    EXPECT_EQ(list("?runtime=native"), std::set<std::int64_t>{ids["native"]});
    EXPECT_EQ(http_get((*server)->url() + "/api/v1/results?runtime=wasm")->status, 400);
    auto board = json::parse(
        http_get((*server)->url() + "/api/v1/leaderboard?benchmark=read-linear&runtime=chromium")->body);
    ASSERT_EQ(board["classes"].size(), 1u);
    EXPECT_EQ(board["classes"][0]["runs"].size(), 1u);
    EXPECT_EQ(board["classes"][0]["runs"][0]["runtime"], "chromium");
    const auto page = http_get(fmt::format("{}/runs/{}", (*server)->url(), ids["firefox"]))->body;
    EXPECT_NE(page.find("Firefox 153.0 (wgpu)"), std::string::npos);
    const auto runs = http_get((*server)->url() + "/runs?runtime=deno")->body;
    EXPECT_NE(runs.find("<option value=\"deno\" selected>"), std::string::npos);
    (*server)->stop();
  }
  fs::remove(db);
}

TEST(StoreRuntime, DocumentsNameTheirImplementation) {
  const auto firefox = report::implementation_of(browser_doc(kFirefox, 1));
  EXPECT_EQ(firefox.runtime, "firefox");
  EXPECT_EQ(firefox.webgpu, "wgpu");
  EXPECT_EQ(report::implementation_text(firefox), "Firefox 153.0 (wgpu)");
  // Native documents record Dawn where the adapter is recorded; older ones are derived alike.
  auto native = test::make_document({}, {{}});
  native["machine"]["dawn"] = {{"version", "0.0~git20260909.1a75cb7f-1"}};
  native.erase("implementation");
  const auto dawn = report::implementation_of(native);
  EXPECT_EQ(dawn.runtime, "native");
  EXPECT_EQ(dawn.webgpu, "Dawn");
  EXPECT_EQ(dawn.webgpu_version, "0.0~git20260909.1a75cb7f-1");
  EXPECT_EQ(report::implementation_from_user_agent("Mozilla/5.0 Edg/140.0 Chrome/140.0.1 Safari/537.36").runtime,
            "chromium");
  // Headless Chromium names itself HeadlessChrome beside Safari: Chromium, never Safari.
  const auto headless = report::implementation_from_user_agent(
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36");
  EXPECT_EQ(headless.runtime, "chromium");
  EXPECT_EQ(headless.runtime_version, "156.0.0.0");
  EXPECT_EQ(headless.webgpu, "Dawn");
}

}  // namespace
}  // namespace wgb::store
