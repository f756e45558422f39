// The submit client against a busy or rate-limiting server: 429 and 503 are asked again after the
// time Retry-After gives (else 1, 2, 4 s), bounded in attempts and in waiting, every wait said;
// other answers are final. A fake server counts the requests; the waits are counted, not slept.
#include <gtest/gtest.h>
#include <httplib.h>

#include <thread>

#include "store/client.hpp"
#include "tests/unit/store_test_support.hpp"

namespace wgb::store {
namespace {

using namespace std::chrono_literals;

// A server answering each POST with the next of `answers` (status, Retry-After or "").
class FakeServer {
 public:
  explicit FakeServer(std::vector<std::pair<int, std::string>> answers) : answers_(std::move(answers)) {
    server_.Post("/api/v1/results", [this](const httplib::Request&, httplib::Response& res) {
      const std::size_t i = std::min(calls_++, answers_.size() - 1);
      res.status = answers_[i].first;
      if (!answers_[i].second.empty()) res.set_header("Retry-After", answers_[i].second);
      res.set_content(res.status == 201 ? R"({"id": 7, "url": "/runs/7"})" : R"({"error": "busy here"})",
                      "application/json");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    for (int i = 0; i < 5000 && !server_.is_running(); ++i) std::this_thread::sleep_for(1ms);
  }
  ~FakeServer() {
    server_.stop();
    thread_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::size_t calls() const { return calls_; }

 private:
  std::vector<std::pair<int, std::string>> answers_;
  std::atomic<std::size_t> calls_{0};
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

struct Recorded {
  std::vector<std::chrono::seconds> slept;
  std::vector<std::string> said;
  RetryPolicy policy(int attempts = 5, std::chrono::seconds max_wait = 120s) {
    RetryPolicy p;
    p.max_attempts = attempts;
    p.max_wait = max_wait;
    p.sleep = [this](std::chrono::seconds s) { slept.push_back(s); };
    p.say = [this](const std::string& line) { said.push_back(line); };
    return p;
  }
};

nlohmann::json document() { return test::make_document({}, {{}}); }

TEST(SubmitRetry, RetryAfterIsHonouredThenBackoffThenStored) {
  FakeServer server({{429, "2"}, {503, ""}, {201, ""}});
  Recorded r;
  auto receipt = post_document(document(), server.url(), "", 10s, r.policy());
  ASSERT_TRUE(receipt) << receipt.error().message;
  EXPECT_EQ(receipt->id, 7);
  EXPECT_EQ(server.calls(), 3u);
  // 2 s as the server asked; then 2 s of backoff for the second attempt's 503 (1, 2, 4, ...).
  EXPECT_EQ(r.slept, (std::vector<std::chrono::seconds>{2s, 2s}));
  ASSERT_EQ(r.said.size(), 2u);
  EXPECT_NE(r.said[0].find("HTTP 429"), std::string::npos) << r.said[0];
  EXPECT_NE(r.said[0].find("Retry-After"), std::string::npos) << r.said[0];
  EXPECT_NE(r.said[1].find("HTTP 503"), std::string::npos) << r.said[1];
  EXPECT_NE(r.said[1].find("attempt 3 of 5"), std::string::npos) << r.said[1];
}

TEST(SubmitRetry, GivesUpAfterItsAttemptsSayingWhatItDid) {
  FakeServer server({{503, "1"}});
  Recorded r;
  auto receipt = post_document(document(), server.url(), "", 10s, r.policy(3));
  ASSERT_FALSE(receipt);
  EXPECT_EQ(server.calls(), 3u);
  EXPECT_EQ(r.slept.size(), 2u);
  EXPECT_EQ(receipt.error().kind, ErrorKind::Io);
  const std::string& m = receipt.error().message;
  EXPECT_NE(m.find("HTTP 503 3 times after 2 s of waiting"), std::string::npos) << m;
  EXPECT_NE(m.find("gave up"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos);
}

TEST(SubmitRetry, AWaitBeyondTheBudgetIsNotWaitedFor) {
  FakeServer server({{429, "3600"}});
  Recorded r;
  auto receipt = post_document(document(), server.url(), "", 10s, r.policy());
  ASSERT_FALSE(receipt);
  EXPECT_EQ(server.calls(), 1u);
  EXPECT_TRUE(r.slept.empty());
  EXPECT_EQ(receipt.error().kind, ErrorKind::Usage);  // refused: exit code 6 through "(HTTP 429)"
  EXPECT_NE(receipt.error().message.find("(HTTP 429)"), std::string::npos) << receipt.error().message;
  EXPECT_NE(receipt.error().message.find("3600 s"), std::string::npos) << receipt.error().message;
}

TEST(SubmitRetry, OtherAnswersAreFinal) {
  FakeServer server({{400, ""}, {201, ""}});
  Recorded r;
  auto receipt = post_document(document(), server.url(), "", 10s, r.policy());
  ASSERT_FALSE(receipt);
  EXPECT_EQ(server.calls(), 1u);
  EXPECT_TRUE(r.said.empty());
}

TEST(RetryAfter, SecondsOrAnHttpDate) {
  EXPECT_EQ(retry_after("5"), 5s);
  EXPECT_EQ(retry_after(" 0 "), 0s);
  std::tm tm{};
  strptime("Wed, 21 Oct 2026 07:28:00 GMT", "%a, %d %b %Y %H:%M:%S GMT", &tm);
  const auto at = std::chrono::system_clock::from_time_t(timegm(&tm));
  EXPECT_EQ(retry_after("Wed, 21 Oct 2026 07:28:00 GMT", at - 10s), 10s);
  EXPECT_EQ(retry_after("Wed, 21 Oct 2026 07:28:00 GMT", at + 10s), 0s);  // already past: at once
  EXPECT_FALSE(retry_after(""));
  EXPECT_FALSE(retry_after("soon"));
  EXPECT_FALSE(retry_after("-3"));
}

}  // namespace
}  // namespace wgb::store
