// The leaderboard server's route table (src/store/server_routes.hpp) without a socket: which
// handler a method and path reach, 404 and 405 with Allow; then the router answering whole
// requests held in memory, on a SQLite store, as a worker thread does.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "store/server_routes.hpp"
#include "store/server_site.hpp"
#include "store_test_support.hpp"

namespace wgb::store {
namespace {

std::string route_of(std::string_view method, const std::string& path) {
  const Resolved r = resolve(method, path);
  return r.route != nullptr ? std::string(r.route->name) : std::to_string(r.status);
}

TEST(StoreServerRoutes, EachRequestReachesItsHandler) {
  struct Case {
    const char* method;
    const char* path;
    const char* route;
  };
  const Case cases[] = {
      {"GET", "/healthz", "health"},
      {"POST", "/api/v1/results", "submit"},
      {"GET", "/api/v1/results", "results"},
      {"HEAD", "/api/v1/results", "results"},
      {"GET", "/api/v1/results/42", "result"},
      {"GET", "/api/v1/leaderboard", "leaderboard api"},
      {"GET", "/api/v1/benchmarks", "benchmarks"},
      {"GET", "/api/v1/classes", "classes"},
      {"GET", "/run", "runner"},
      {"GET", "/run/", "runner"},
      {"GET", "/run/engine-worker.js", "runner file"},
      {"GET", "/", "index"},
      {"HEAD", "/", "index"},
      {"GET", "/leaderboard", "leaderboard"},
      {"GET", "/runs", "runs"},
      {"GET", "/runs/7", "run"},
      {"GET", "/compare", "compare"},
  };
  std::set<std::string> reached;
  for (const auto& c : cases) {
    EXPECT_EQ(route_of(c.method, c.path), c.route) << c.method << " " << c.path;
    reached.insert(c.route);
  }
  // Every route of the table is reachable (none hidden behind an earlier pattern).
  for (const auto& r : route_table()) EXPECT_TRUE(reached.count(std::string(r.name))) << r.name;

  const Resolved run = resolve("GET", "/runs/123456789012345678");
  EXPECT_EQ(run.captures, std::vector<std::string>{"123456789012345678"});
  EXPECT_EQ(resolve("GET", "/run/run.js").captures, std::vector<std::string>{"run.js"});
}

TEST(StoreServerRoutes, UnknownPathsAre404AndWrongMethods405WithAllow) {
  for (const char* path : {"/nope", "/api/nope", "/runs/abc", "/runs/1234567890123456789", "/runs/", "/run/a/b",
                           "/run/a%2fb", "/healthz/", "/RUNS"}) {
    const Resolved r = resolve("GET", path);
    EXPECT_EQ(r.route, nullptr) << path;
    EXPECT_EQ(r.status, 404) << path;
    EXPECT_EQ(r.allow, "") << path;
  }
  EXPECT_EQ(resolve("POST", "/nowhere").status, 404);
  EXPECT_EQ(resolve("DELETE", "/nowhere").status, 404);

  const Resolved post = resolve("POST", "/leaderboard");
  EXPECT_EQ(post.route, nullptr);
  EXPECT_EQ(post.status, 405);
  EXPECT_EQ(post.allow, "GET, HEAD");
  EXPECT_EQ(resolve("DELETE", "/runs/1").allow, "GET, HEAD");
  EXPECT_EQ(resolve("PUT", "/api/v1/results").allow, "GET, HEAD, POST");
  EXPECT_EQ(resolve("OPTIONS", "/run/run.js").status, 405);
}

// The router on whole requests, as the event thread hands them to a worker.
class StoreServerRouter : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = Store::open(backend_.spec());
    ASSERT_TRUE(s) << s.error().message;
    store_ = std::move(*s);
    options_.token = "secret";
    site_ = std::make_unique<Site>(*store_, options_);
    router_ = std::make_unique<Router>(*site_);
  }
  std::string ask(const std::string& request) {
    keep_ = false;
    return router_->handle(request, "127.0.0.1", 40000, keep_);
  }
  static int status(const std::string& answer) { return std::atoi(answer.substr(9, 3).c_str()); }
  static std::string body(const std::string& answer) { return answer.substr(answer.find("\r\n\r\n") + 4); }

  test::Backend backend_{"sqlite"};
  std::unique_ptr<Store> store_;
  ServerOptions options_;
  std::unique_ptr<Site> site_;
  std::unique_ptr<Router> router_;
  bool keep_ = false;
};

TEST_F(StoreServerRouter, AnswersWholeRequestsInMemory) {
  std::string a = ask("GET /healthz HTTP/1.1\r\n\r\n");
  EXPECT_EQ(status(a), 200);
  EXPECT_EQ(body(a), "ok\n");
  EXPECT_TRUE(keep_);
  a = ask("GET /api/v1/benchmarks HTTP/1.1\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(status(a), 200);
  EXPECT_EQ(body(a), "[]");
  EXPECT_FALSE(keep_);

  const std::string doc = test::make_document({}, std::vector<test::RowSpec>{test::RowSpec{}}).dump();
  a = ask("POST /api/v1/results HTTP/1.1\r\nAuthorization: Bearer secret\r\nContent-Length: " +
          std::to_string(doc.size()) + "\r\n\r\n" + doc);
  ASSERT_EQ(status(a), 201) << body(a);
  EXPECT_NE(a.find("\r\nLocation: /api/v1/results/1\r\n"), std::string::npos) << a.substr(0, 400);
  a = ask("GET /runs/1 HTTP/1.1\r\n\r\n");
  EXPECT_EQ(status(a), 200);
  EXPECT_NE(a.find("Content-Type: text/html"), std::string::npos);
  a = ask("HEAD /runs/1 HTTP/1.1\r\n\r\n");
  EXPECT_EQ(status(a), 200);
  EXPECT_EQ(body(a), "");
  a = ask("GET /api/v1/results/1 HTTP/1.1\r\n\r\n");
  EXPECT_EQ(status(a), 200);
  EXPECT_NE(body(a).find("\"document\":"), std::string::npos);
  a = ask("POST /api/v1/results HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}");
  EXPECT_EQ(status(a), 401);
  EXPECT_NE(a.find("\r\nWWW-Authenticate: Bearer\r\n"), std::string::npos);
}

TEST_F(StoreServerRouter, RefusalsExplainThemselvesAsJsonOrHtml) {
  std::string a = ask("GET /api/nope HTTP/1.1\r\n\r\n");
  EXPECT_EQ(status(a), 404);
  EXPECT_EQ(body(a), R"({"error":"not found"})");
  a = ask("GET /nope HTTP/1.1\r\n\r\n");
  EXPECT_EQ(status(a), 404);
  EXPECT_NE(body(a).find("not found"), std::string::npos);
  EXPECT_NE(a.find("Content-Type: text/html"), std::string::npos);

  a = ask("PUT /api/v1/results HTTP/1.1\r\nContent-Length: 1\r\n\r\nx");
  EXPECT_EQ(status(a), 405);
  EXPECT_NE(a.find("\r\nAllow: GET, HEAD, POST\r\n"), std::string::npos) << a.substr(0, 400);
  EXPECT_EQ(body(a), R"({"error":"PUT is not allowed here; allowed: GET, HEAD, POST"})");
  a = ask("POST /leaderboard HTTP/1.1\r\nContent-Length: 1\r\n\r\nx");
  EXPECT_EQ(status(a), 405);
  EXPECT_NE(a.find("\r\nAllow: GET, HEAD\r\n"), std::string::npos);
  EXPECT_NE(body(a).find("POST is not allowed here; allowed: GET, HEAD"), std::string::npos);
  // A method HTTP routing does not know stays a bad request.
  EXPECT_EQ(status(ask("BREW /leaderboard HTTP/1.1\r\n\r\n")), 400);
  // Before any route: a compressed body, a multipart body, a declared length over the cap.
  EXPECT_EQ(status(ask("POST /api/v1/results HTTP/1.1\r\nContent-Encoding: gzip\r\nContent-Length: 1\r\n\r\nx")), 415);
  EXPECT_EQ(status(ask("POST /api/v1/results HTTP/1.1\r\nContent-Type: multipart/form-data\r\n\r\n")), 415);
  EXPECT_EQ(status(ask("POST /api/v1/results HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n")), 413);
  EXPECT_FALSE(keep_);
}

}  // namespace
}  // namespace wgb::store
