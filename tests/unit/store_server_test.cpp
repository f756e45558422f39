// The server over real sockets on loopback, against SQLite and PostgreSQL: submissions and their
// refusals, the token, the body cap, markup in names, concurrent clients, clients that vanish
// mid-request, and a restart.
#include <arpa/inet.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <set>
#include <thread>

#include "store/client.hpp"
#include "store/html.hpp"
#include "store/server.hpp"
#include "store_test_support.hpp"

namespace wgb::store {
namespace {

using test::AdapterSpec;
using test::make_document;

// One connection: sends `bytes`; with `read_reply` reads one response (or until the server closes,
// or 5 s pass).
std::string raw(int port, const std::string& bytes, bool read_reply) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return "socket failed";
  timeval tv{5, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string out;
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) {
    std::size_t sent = 0;
    while (sent < bytes.size()) {
      const auto n = send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) break;
      sent += static_cast<std::size_t>(n);
    }
    if (read_reply) {
      char buf[4096];
      for (int i = 0; i < 1000; ++i) {  // bounded: a whole response, the server closing, or 5 s
        const auto n = recv(fd, buf, sizeof(buf), 0);
        if (n <= 0) break;
        out.append(buf, static_cast<std::size_t>(n));
        const auto end = out.find("\r\n\r\n");
        const auto cl = out.find("Content-Length: ");
        if (end != std::string::npos && cl != std::string::npos && cl < end &&
            out.size() >= end + 4 + static_cast<std::size_t>(std::atol(out.c_str() + cl + 16))) {
          break;
        }
      }
    }
  } else {
    out = "connect failed";
  }
  close(fd);
  return out;
}

int status_of(const std::string& reply) {
  // "HTTP/1.1 413 Payload Too Large"
  if (reply.rfind("HTTP/1.", 0) != 0 || reply.size() < 12) return 0;
  return std::atoi(reply.substr(9, 3).c_str());
}

class StoreServer : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    backend_ = std::make_unique<test::Backend>(GetParam());
    WGB_BACKEND_OR_SKIP(*backend_);
    start();
  }
  void TearDown() override {
    if (server_) server_->stop();
  }
  void start(const std::string& token = "") {
    server_.reset();
    store_.reset();
    auto s = Store::open(backend_->spec());
    ASSERT_TRUE(s) << s.error().message;
    store_ = std::move(*s);
    ServerOptions o;
    o.port = 0;
    o.token = token;
    o.max_body_bytes = 1u << 20;
    o.read_timeout = std::chrono::seconds(2);
    auto srv = Server::start(*store_, o);
    ASSERT_TRUE(srv) << srv.error().message;
    server_ = std::move(*srv);
  }
  std::string url(const std::string& path) const { return server_->url() + path; }
  HttpReply post(const std::string& body, const std::string& token = "") {
    auto r = http_post(url("/api/v1/results"), body, token);
    EXPECT_TRUE(r) << r.error().message;
    return r ? *r : HttpReply{};
  }
  HttpReply get(const std::string& path) {
    auto r = http_get(url(path));
    EXPECT_TRUE(r) << r.error().message;
    return r ? *r : HttpReply{};
  }
  std::int64_t runs() {
    auto t = store_->totals();
    EXPECT_TRUE(t);
    return t ? t->first : -1;
  }
  static std::string reason(const HttpReply& r) {
    auto j = nlohmann::json::parse(r.body, nullptr, false);
    return j.is_object() && j.contains("error") ? j["error"].get<std::string>() : "";
  }

  std::unique_ptr<test::Backend> backend_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<Server> server_;
};

TEST_P(StoreServer, SubmitFetchListRank) {
  const auto doc = make_document({}, {{.id = "memory-read", .value = 4e12}}, "memory");
  auto r = post(doc.dump());
  ASSERT_EQ(r.status, 201) << r.body;
  const auto id = nlohmann::json::parse(r.body)["id"].get<std::int64_t>();
  auto again = post(doc.dump());
  EXPECT_EQ(again.status, 200);  // the same document: stored once, answered with its id
  EXPECT_EQ(nlohmann::json::parse(again.body)["id"], id);
  EXPECT_TRUE(nlohmann::json::parse(again.body)["duplicate"].get<bool>());

  auto one = get("/api/v1/results/" + std::to_string(id));
  ASSERT_EQ(one.status, 200);
  EXPECT_EQ(nlohmann::json::parse(one.body)["document"], doc);
  auto list = get("/api/v1/results?suite=memory&benchmark=memory-read");
  ASSERT_EQ(list.status, 200);
  EXPECT_EQ(nlohmann::json::parse(list.body)["total"], 1);
  auto board = get("/api/v1/leaderboard?benchmark=memory-read");
  ASSERT_EQ(board.status, 200);
  auto b = nlohmann::json::parse(board.body);
  ASSERT_EQ(b["classes"].size(), 1u);
  EXPECT_EQ(b["classes"][0]["rank"], 1);
  EXPECT_EQ(get("/api/v1/results/999999").status, 404);
  EXPECT_EQ(get("/api/v1/results?limit=0").status, 400);
  EXPECT_EQ(get("/api/v1/leaderboard").status, 400);
  for (const char* page : {"/", "/runs", "/leaderboard?benchmark=memory-read"}) {
    auto p = get(page);
    EXPECT_EQ(p.status, 200) << page;
    EXPECT_NE(p.content_type.find("text/html"), std::string::npos) << page;
  }
  EXPECT_EQ(get("/runs/" + std::to_string(id)).status, 200);
  EXPECT_EQ(get("/runs/424242").status, 404);
  EXPECT_EQ(get("/compare?a=" + std::to_string(id) + "&b=" + std::to_string(id)).status, 200);
  EXPECT_EQ(get("/compare?a=1").status, 400);
}

TEST_P(StoreServer, RefusalsSayWhyAndStoreNothing) {
  struct Case {
    std::string body;
    int status;
    std::string reason;
  };
  auto wrong_version = make_document({}, {{}});
  wrong_version["schema_version"] = report::kSchemaVersion + 1;
  auto missing = make_document({}, {{}});
  missing["rows"][0].erase("value");
  auto negative = make_document({}, {{}});
  negative["rows"][0]["value"] = -5.0;
  std::string huge_number = make_document({}, {{}}).dump();
  huge_number.replace(huge_number.find("\"value\":") + 8, 1, "1e999,\"x\":");
  const std::vector<Case> cases = {
      {"{not json", 400, "not valid JSON"},
      {"", 400, "not valid JSON"},
      {huge_number, 400, "not valid JSON"},
      {R"({"schema":"something-else"})", 422, "not a webgpu-bench result document"},
      {wrong_version.dump(), 422, "schema_version"},
      {missing.dump(), 422, "row 0"},
      {negative.dump(), 422, ">= 0"},
  };
  for (const auto& c : cases) {
    auto r = post(c.body);
    EXPECT_EQ(r.status, c.status) << c.reason << ": " << r.body;
    EXPECT_NE(reason(r).find(c.reason), std::string::npos) << reason(r);
  }
  EXPECT_EQ(runs(), 0);
}

TEST_P(StoreServer, TokenIsRequiredWhenConfigured) {
  start("s3cret-token");
  const auto body = make_document({}, {{}}).dump();
  EXPECT_EQ(post(body).status, 401);
  EXPECT_EQ(post(body, "wrong-token!").status, 401);
  EXPECT_EQ(post(body, "s3cret-tokeN").status, 401);
  EXPECT_EQ(runs(), 0);
  EXPECT_EQ(post(body, "s3cret-token").status, 201);
  EXPECT_EQ(runs(), 1);
  EXPECT_EQ(get("/api/v1/results").status, 200);  // reading stays open
}

TEST_P(StoreServer, BodySizeIsCapped) {
  // Declared too large: refused from the headers, before a byte of the body is read (so the
  // client needs to send none of it).
  EXPECT_EQ(status_of(raw(server_->port(),
                          "POST /api/v1/results HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                          "Content-Length: 2097152\r\n\r\n{\"schema\":",
                          true)),
            413);
  // Chunked (no declared length): refused once the cap is crossed.
  std::string chunked = "POST /api/v1/results HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                        "Content-Type: application/json\r\n\r\n";
  const std::string chunk(64 * 1024, ' ');
  for (int i = 0; i < 20; ++i) chunked += fmt::format("{:x}\r\n{}\r\n", chunk.size(), chunk);
  chunked += "0\r\n\r\n";
  EXPECT_EQ(status_of(raw(server_->port(), chunked, true)), 413);
  // Compressed bodies could grow past the cap after the check: not accepted at all.
  EXPECT_EQ(status_of(raw(server_->port(),
                          "POST /api/v1/results HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\nContent-Length: 4\r\n"
                          "Connection: close\r\n\r\nabcd",
                          true)),
            415);
  EXPECT_EQ(runs(), 0);
  EXPECT_EQ(post(make_document({}, {{}}).dump()).status, 201);  // a normal one still goes in
}

TEST_P(StoreServer, MarkupInNamesRendersAsText) {
  AdapterSpec a;
  a.device = "<script>alert(1)</script>";
  a.vendor = "\"><img src=x onerror=alert(2)>";
  a.architecture = "'single' & \"double\"";
  auto r = post(make_document(a, {{.id = "read-linear"}}).dump());
  ASSERT_EQ(r.status, 201) << r.body;
  const auto id = nlohmann::json::parse(r.body)["id"].get<std::int64_t>();
  for (const std::string& page : std::vector<std::string>{"/", "/runs", "/leaderboard?benchmark=read-linear", "/runs/" + std::to_string(id),
                                 fmt::format("/compare?a={}&b={}", id, id)}) {
    auto p = get(page);
    ASSERT_EQ(p.status, 200) << page;
    EXPECT_EQ(p.body.find("<script"), std::string::npos) << page;
    EXPECT_EQ(p.body.find("<img"), std::string::npos) << page;
    EXPECT_EQ(p.body.find("onerror=alert(2)>"), std::string::npos) << page;
    EXPECT_NE(p.body.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos) << page;
  }
  // A query string echoed into a page is escaped too.
  auto runs_page = get("/runs?suite=%3Cb%3Ebold%3C%2Fb%3E");
  EXPECT_EQ(runs_page.body.find("<b>bold"), std::string::npos);
  EXPECT_NE(runs_page.body.find("&lt;b&gt;bold"), std::string::npos);
  auto board = get("/leaderboard?benchmark=%3Cscript%3E");
  EXPECT_EQ(board.body.find("<script>"), std::string::npos);
}

TEST_P(StoreServer, ConcurrentSubmissionsAllLandOnce) {
  constexpr int kClients = 8, kEach = 50;
  std::vector<std::vector<std::string>> bodies(kClients);
  for (int c = 0; c < kClients; ++c) {
    for (int i = 0; i < kEach; ++i) {
      bodies[c].push_back(make_document({}, {{.value = 1e12 + c * 1000 + i}}, "default", c * kEach + i).dump());
    }
  }
  std::vector<std::vector<std::int64_t>> ids(kClients);
  std::vector<std::string> errors(kClients);
  std::vector<std::thread> threads;
  for (int c = 0; c < kClients; ++c) {
    threads.emplace_back([&, c] {
      for (const auto& b : bodies[c]) {
        auto r = http_post(url("/api/v1/results"), b, "", std::chrono::seconds(30));
        if (!r || r->status != 201) {
          errors[c] = r ? fmt::format("HTTP {}: {}", r->status, r->body) : r.error().message;
          return;
        }
        ids[c].push_back(nlohmann::json::parse(r->body)["id"].get<std::int64_t>());
      }
    });
  }
  for (auto& t : threads) t.join();
  std::set<std::int64_t> distinct;
  for (int c = 0; c < kClients; ++c) {
    EXPECT_EQ(errors[c], "") << "client " << c;
    distinct.insert(ids[c].begin(), ids[c].end());
  }
  EXPECT_EQ(distinct.size(), static_cast<std::size_t>(kClients * kEach));
  auto totals = store_->totals();
  ASSERT_TRUE(totals);
  EXPECT_EQ(totals->first, kClients * kEach);
  EXPECT_EQ(totals->second, kClients * kEach);
  // Each id holds the document its client sent (nothing crossed over).
  for (int c = 0; c < kClients; c += 3) {
    for (int i = 0; i < kEach; i += 7) {
      auto got = store_->get(ids[c][i]);
      ASSERT_TRUE(got && got->has_value());
      EXPECT_EQ((*got)->document, nlohmann::json::parse(bodies[c][i]));
    }
  }
}

TEST_P(StoreServer, ClientsThatVanishDoNotHurtTheServer) {
  const int port = server_->port();
  const std::string doc = make_document({}, {{}}).dump();
  // Headers promise a body; half of it arrives; the client leaves.
  raw(port, fmt::format("POST /api/v1/results HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{}", doc.size(),
                        doc.substr(0, doc.size() / 2)),
      false);
  // Half a request line; connect-and-leave; garbage.
  raw(port, "POST /api/v1/res", false);
  raw(port, "", false);
  raw(port, std::string(10000, '\x01'), false);
  // A silent client is dropped after the read timeout while others are served meanwhile.
  std::thread silent([port] { raw(port, "GET / HTTP/1.1\r\n", true); });
  auto health = get("/healthz");
  EXPECT_EQ(health.status, 200);
  silent.join();
  EXPECT_EQ(runs(), 0);  // the half body was not stored
  EXPECT_EQ(post(doc).status, 201);
  EXPECT_EQ(runs(), 1);
  EXPECT_TRUE(server_->running());
}

TEST_P(StoreServer, RestartLosesNothing) {
  std::vector<std::int64_t> ids;
  for (int i = 0; i < 10; ++i) {
    auto r = post(make_document({}, {{}, {.id = "write-linear"}}, "default", i).dump());
    ASSERT_EQ(r.status, 201);
    ids.push_back(nlohmann::json::parse(r.body)["id"].get<std::int64_t>());
  }
  start();  // a new store and server over the same database
  EXPECT_EQ(runs(), 10);
  for (auto id : ids) EXPECT_EQ(get("/api/v1/results/" + std::to_string(id)).status, 200);
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreServer, ::testing::Values("sqlite", "postgres"), test::backend_name);

TEST(StoreServerAddress, ListenParsingAndLoopback) {
  auto a = parse_listen("127.0.0.1:8080");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->host, "127.0.0.1");
  EXPECT_EQ(a->port, 8080);
  auto v6 = parse_listen("[::1]:0");
  ASSERT_TRUE(v6);
  EXPECT_EQ(v6->host, "::1");
  auto bare = parse_listen(":9000");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->host, "127.0.0.1");
  EXPECT_FALSE(parse_listen("8080"));
  EXPECT_FALSE(parse_listen("host:99999"));
  EXPECT_FALSE(parse_listen("[::1]8080"));
  EXPECT_TRUE(is_loopback("127.0.0.1"));
  EXPECT_TRUE(is_loopback("127.8.9.10"));
  EXPECT_TRUE(is_loopback("::1"));
  EXPECT_TRUE(is_loopback("localhost"));
  EXPECT_FALSE(is_loopback("0.0.0.0"));
  EXPECT_FALSE(is_loopback("192.168.1.2"));
  EXPECT_FALSE(is_loopback("::"));
}

TEST(StoreServerAddress, ServerUrls) {
  auto u = parse_server_url("http://127.0.0.1:8080/bench/");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->origin, "http://127.0.0.1:8080");
  EXPECT_EQ(u->path, "/bench");
  EXPECT_FALSE(parse_server_url("ftp://x"));
  EXPECT_FALSE(parse_server_url("http://"));
  EXPECT_FALSE(parse_server_url("127.0.0.1:8080"));
  EXPECT_FALSE(parse_server_url("http://user@host/"));
}

TEST(StoreServerAddress, SubmitToNothingIsAnIoError) {
  // A port nobody listens on (bound, never listened) on loopback.
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  socklen_t len = sizeof(addr);
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  const int port = ntohs(addr.sin_port);
  auto r = post_document(make_document({}, {{}}), fmt::format("http://127.0.0.1:{}", port), "",
                         std::chrono::seconds(2));
  close(fd);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::Io);
  // A bad document never leaves: refused locally, as a usage error.
  auto bad = make_document({}, {{}});
  bad["rows"][0]["value"] = -1.0;
  auto refused = post_document(bad, "http://127.0.0.1:9", "");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::Usage);
  EXPECT_NE(refused.error().message.find("not submitted"), std::string::npos);
}

TEST(StoreServerHtml, Escaping) {
  EXPECT_EQ(html::html_escape("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  EXPECT_EQ(html::url_encode("a b/c?d=e&f"), "a%20b%2Fc%3Fd%3De%26f");
  EXPECT_EQ(html::format_value(4.56e12, "B/s"), "4.56 TB/s");
  EXPECT_EQ(html::format_value(612.5, "ns"), "612.5 ns");
}

}  // namespace
}  // namespace wgb::store
