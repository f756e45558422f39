// The leaderboard server's request heads as bytes (src/store/server_http.hpp), without a socket:
// good requests, malformed ones, the limits, and requests that arrive a byte at a time. The
// server's own behaviour over sockets is store_server_test's; hostile bytes are store_fuzz_test's.
#include <gtest/gtest.h>

#include <string>

#include "store/server_http.hpp"

namespace wgb::store::http {
namespace {

const Limits kLimits{.max_header_bytes = 1024, .max_headers = 10, .max_body_bytes = 1000};

Head whole(const std::string& bytes, const Limits& limits = kLimits) {
  auto h = read_head(bytes, limits);
  EXPECT_TRUE(h.has_value()) << bytes.substr(0, 80);
  return h.value_or(Head{.status = -1});
}

int status_of(const std::string& bytes) { return whole(bytes).status; }

TEST(StoreServerHttp, AGoodHeadSaysWhereTheRequestEnds) {
  const std::string head = "POST /api/v1/results HTTP/1.1\r\nHost: x\r\ncontent-length: 5\r\n\r\n";
  const Head h = whole(head + "hello" + "GET /next HTTP/1.1\r\n\r\n");  // a pipelined request after it
  EXPECT_FALSE(h.refused()) << h.reason;
  EXPECT_EQ(h.method, "POST");
  EXPECT_EQ(h.target, "/api/v1/results");
  EXPECT_EQ(h.head_bytes, head.size());
  EXPECT_EQ(h.body, 5u);
  EXPECT_EQ(h.size(), head.size() + 5);
  EXPECT_FALSE(h.close);
  EXPECT_FALSE(h.expect_continue);

  const Head get = whole("GET /runs?suite=memory HTTP/1.1\r\n\r\n");
  EXPECT_FALSE(get.refused());
  EXPECT_EQ(get.target, "/runs?suite=memory");
  EXPECT_EQ(get.body, 0u);
  // Repeats of one length agree: one body, read one way.
  EXPECT_EQ(whole("POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n").body, 2u);
  EXPECT_TRUE(whole("POST / HTTP/1.1\r\nExpect: 100-Continue\r\nContent-Length: 2\r\n\r\n").expect_continue);
}

TEST(StoreServerHttp, ConnectionsCloseWhenTheClientSaysSoOrSpeaksHttp10) {
  EXPECT_FALSE(whole("GET / HTTP/1.1\r\n\r\n").close);
  EXPECT_TRUE(whole("GET / HTTP/1.1\r\nConnection: close\r\n\r\n").close);
  EXPECT_TRUE(whole("GET / HTTP/1.0\r\n\r\n").close);
  EXPECT_FALSE(whole("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n").close);
}

TEST(StoreServerHttp, MalformedHeadsAreRefusedWithTheirReason) {
  struct Case {
    std::string bytes;
    int status;
    std::string reason;
  };
  const Case cases[] = {
      {"GARBAGE\r\n\r\n", 400, "malformed request line"},
      {"GET /\r\n\r\n", 400, "malformed request line"},
      {"GET /a b HTTP/1.1\r\n\r\n", 400, "malformed request line"},
      {"G(T / HTTP/1.1\r\n\r\n", 400, "malformed request method"},
      {"GET / HTTP/2.0\r\n\r\n", 505, "only HTTP/1.0 and HTTP/1.1 are spoken here"},
      {"GET / HTTP/1.1\r\n: x\r\n\r\n", 400, "a header line without a name"},
      {"GET / HTTP/1.1\r\nno colon\r\n\r\n", 400, "a header line without a name"},
      {"GET / HTTP/1.1\r\nBad Name: x\r\n\r\n", 400, "a header name with a space or a control character"},
      {"GET / HTTP/1.1\r\nX: a\x01z\r\n\r\n", 400, "a control character in a header value"},
      {"POST / HTTP/1.1\r\nContent-Length: 12a\r\n\r\n", 400, "Content-Length is not a number"},
      {"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400, "Content-Length is not a number"},
      {"POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n", 400, "Content-Length is not a number"},
      {"POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\n", 400,
       "two different Content-Length headers"},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n", 400,
       "both Transfer-Encoding and Content-Length"},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 411,
       "a chunked body is not accepted: send Content-Length"},
      {"POST / HTTP/1.1\r\nExpect: 200-ok\r\n\r\n", 417, "only Expect: 100-continue is understood"},
  };
  for (const auto& c : cases) {
    const Head h = whole(c.bytes);
    EXPECT_EQ(h.status, c.status) << c.bytes;
    EXPECT_EQ(h.reason, c.reason) << c.bytes;
  }
}

TEST(StoreServerHttp, OversizedHeadsAndBodiesAreRefusedFromTheHead) {
  // The body limit is judged from Content-Length, before a byte of the body exists.
  EXPECT_EQ(status_of("POST / HTTP/1.1\r\nContent-Length: 1000\r\n\r\n"), 0);
  const Head big = whole("POST / HTTP/1.1\r\nContent-Length: 1001\r\n\r\n");
  EXPECT_EQ(big.status, 413);
  EXPECT_EQ(big.reason, "the body exceeds 1000 bytes");
  // Header lines: 10 pass, 11 do not.
  std::string ten = "GET / HTTP/1.1\r\n";
  for (int i = 0; i < 10; ++i) ten += "X-" + std::to_string(i) + ": 1\r\n";
  EXPECT_EQ(status_of(ten + "\r\n"), 0);
  const Head many = whole(ten + "X-10: 1\r\n\r\n");
  EXPECT_EQ(many.status, 431);
  EXPECT_EQ(many.reason, "more than 10 header lines");
  // Request line and headers: up to the cap pass (the empty line that ends them is not counted).
  const std::string line = "GET / HTTP/1.1\r\nX: ";
  const std::string at_cap = line + std::string(kLimits.max_header_bytes - line.size(), 'a');
  EXPECT_EQ(status_of(at_cap + "\r\n\r\n"), 0);
  const Head over = whole(at_cap + "a\r\n\r\n");
  EXPECT_EQ(over.status, 431);
  EXPECT_EQ(over.reason, "the request line and headers exceed 1024 bytes");
  // A head that never ends is refused once the cap and the end's four bytes are in.
  EXPECT_FALSE(read_head(std::string(kLimits.max_header_bytes + 3, 'a'), kLimits).has_value());
  EXPECT_EQ(status_of(std::string(kLimits.max_header_bytes + 4, 'a')), 431);
  EXPECT_EQ(status_of(std::string(100000, 'a')), 431);
}

// Whatever the pieces a request arrives in, the verdict is the one of the whole request, and it
// comes with the byte that completes the head, not before. (A head ending within the cap used to be
// refused when the bytes up to the cap arrived before its last few.)
TEST(StoreServerHttp, SlowAndPartialInputGetsTheVerdictOfTheWhole) {
  const std::string line = "POST /api/v1/results HTTP/1.1\r\nX: ";
  const std::string at_cap = line + std::string(kLimits.max_header_bytes - line.size() - 20, 'a') +
                             "\r\nContent-Length: 3\r\n\r\n{}\n";
  for (const std::string& request :
       {std::string("GET /runs HTTP/1.1\r\nHost: slow\r\n\r\n"),
        std::string("POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\n{}{}"),
        at_cap, std::string("GET / HTTP/1.1\r\nX: \x7f\r\n\r\n"), std::string(2000, 'b')}) {
    const Head all = whole(request);
    std::size_t first = 0;  // the first prefix with a verdict
    for (std::size_t n = 1; n <= request.size(); ++n) {
      auto h = read_head(std::string_view(request).substr(0, n), kLimits);
      if (!h) continue;
      if (first == 0) first = n;
      EXPECT_EQ(h->status, all.status) << request.substr(0, 40) << " after " << n << " bytes";
      EXPECT_EQ(h->head_bytes, all.head_bytes) << n;
      EXPECT_EQ(h->body, all.body) << n;
    }
    const std::size_t expected =
        all.refused() && all.head_bytes == 0 ? kLimits.max_header_bytes + 4 : all.head_bytes;
    EXPECT_EQ(first, expected) << request.substr(0, 40);
  }
  // Nothing, or a line without its end: more to come.
  EXPECT_FALSE(read_head("", kLimits).has_value());
  EXPECT_FALSE(read_head("GET / HTTP/1.1\r\nHost: x\r\n", kLimits).has_value());
}

TEST(StoreServerHttp, DirectAnswersAreCompleteMessages) {
  const std::string ok = direct_answer(200, "ok\n", "text/plain", false);
  EXPECT_EQ(ok,
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\nCache-Control: no-store\r\n"
            "X-Content-Type-Options: nosniff\r\n\r\nok\n");
  const std::string busy = refusal(503, "full");
  EXPECT_EQ(busy.rfind("HTTP/1.1 503 Service Unavailable\r\n", 0), 0u) << busy;
  EXPECT_NE(busy.find("\r\nConnection: close\r\n"), std::string::npos);
  EXPECT_NE(busy.find("\r\nRetry-After: 1\r\n"), std::string::npos);
  EXPECT_EQ(busy.substr(busy.find("\r\n\r\n") + 4), R"({"error":"full"})");
  EXPECT_EQ(refusal(431, "x").find("Retry-After"), std::string::npos);
  // A reason quoting invalid UTF-8 is still JSON.
  EXPECT_EQ(json_text({{"error", std::string("\xff")}}), "{\"error\":\"\xef\xbf\xbd\"}");
  EXPECT_EQ(printable(std::string("a\x01\xff") + std::string(300, 'b')).size(), 200u);
  EXPECT_EQ(printable("a\x01\xff"), "a??");
}

}  // namespace
}  // namespace wgb::store::http
