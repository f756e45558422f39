// `webgpu-bench serve` as a process under fire, against SQLite and PostgreSQL: mutated valid
// submissions (extreme numbers, wrong types, missing fields, duplicate keys, truncation, flipped
// bytes, deep nesting, long strings), random bytes, raw requests with broken framing, oversized
// and slow requests, all at once. Asserted: every request ends within its deadline with a clear
// answer (never a 5xx), the server's memory stays bounded (peak RSS from /proc), a health check
// answers within a second throughout, and afterwards the store is consistent (every run that was
// acknowledged is listed, the count and the listing agree, every page renders).
// Seeded and bounded: a few hundred requests, well under a minute on 2 cores, loopback only.
#include <arpa/inet.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "store/client.hpp"
#include "store/server_http.hpp"
#include "raw_http.hpp"
#include "store_test_support.hpp"
#include "tests/serve_process.hpp"

namespace wgb::store {
namespace {

using Clock = std::chrono::steady_clock;
using wgb::test::ServeProcess;

constexpr int kRequestTimeoutS = 2;
// A request's deadline as a client sees it: the server's whole-request deadline, plus the time to
// handle it on a loaded 2-core machine.
constexpr double kDeadlineS = kRequestTimeoutS + 2.0;
constexpr long kMaxPeakRssKib = 128 * 1024;

std::filesystem::path cli_binary() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return self.parent_path().parent_path().parent_path() / "cli" / "webgpu-bench";
}

int port_of(const std::string& url) { return std::atoi(url.substr(url.rfind(':') + 1).c_str()); }

// A field of /proc/PID/status in KiB (VmHWM: peak resident set).
long proc_status_kib(pid_t pid, const std::string& field) {
  std::ifstream in(fmt::format("/proc/{}/status", pid));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::atol(line.c_str() + field.size() + 1);
  }
  return -1;
}

struct Exchange {
  int status = 0;        // 0: no answer (the server closed the connection)
  double seconds = 0;    // from connect to the answer or the close
  std::string body;
};

// One connection: sends `bytes` (in pieces `gap` apart when `piece` > 0), reads one answer.
Exchange round_trip(int port, const std::string& bytes, std::size_t piece = 0,
                  std::chrono::milliseconds gap = std::chrono::milliseconds(0)) {
  Exchange e;
  const auto t0 = Clock::now();
  const int fd = test::connect_loopback(port, 10);
  std::string in;
  if (fd >= 0) {
    const std::size_t step = piece == 0 ? bytes.size() : piece;
    for (std::size_t at = 0; at < bytes.size(); at += step) {
      const auto n = send(fd, bytes.data() + at, std::min(step, bytes.size() - at), MSG_NOSIGNAL);
      if (n <= 0) break;
      if (piece != 0) {
        pollfd pfd{fd, POLLIN, 0};
        if (poll(&pfd, 1, static_cast<int>(gap.count())) > 0) break;  // answered (or cut) early
      }
    }
    test::read_response(fd, in, 100000);
  }
  if (fd >= 0) close(fd);
  e.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (in.rfind("HTTP/1.", 0) == 0 && in.size() >= 12) e.status = std::atoi(in.substr(9, 3).c_str());
  if (const auto end = in.find("\r\n\r\n"); end != std::string::npos) e.body = in.substr(end + 4);
  return e;
}

std::string post_request(const std::string& body, bool close = true) {
  return fmt::format("POST /api/v1/results HTTP/1.1\r\nHost: fuzz\r\nContent-Type: application/json\r\n"
                     "Content-Length: {}\r\n{}\r\n{}",
                     body.size(), close ? "Connection: close\r\n" : "", body);
}

// A valid document, then one mutation of it (or none, sometimes).
// JSON text even when a mutation put invalid UTF-8 into a string (replaced; the flipped-bytes
// mutation sends raw invalid bytes instead).
std::string text(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

class Mutator {
 public:
  explicit Mutator(std::uint32_t seed) : rng_(seed) {}

  std::string next(int nonce) {
    auto doc = test::make_document({}, {{.value = 1e11 + nonce}, {.id = "write-linear", .value = 2e11}}, "default",
                                   nonce);
    const int kind = pick(14);
    auto flat = doc.flatten();
    std::vector<std::string> keys;
    for (const auto& [k, v] : flat.items()) keys.push_back(k);
    const std::string key = keys[static_cast<std::size_t>(pick(static_cast<int>(keys.size())))];
    static const std::vector<nlohmann::json> kExtremes = {
        5e-324, -5e-324, 1e-310, 1e-300, 1e-31, 1e308, -1e308, 1e19, 3e19, -1.0, 0.0, -0.0, 1.5,
        std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::uint64_t>::max()};
    static const std::vector<nlohmann::json> kOddTypes = {"x", nullptr, nlohmann::json::array(),
                                                          nlohmann::json::object(), true, std::string(70000, 'a')};
    switch (kind) {
      case 0: return text(doc);  // valid
      case 1:
        doc[nlohmann::json::json_pointer(key)] = kExtremes[static_cast<std::size_t>(pick(static_cast<int>(kExtremes.size())))];
        return text(doc);
      case 2:
        doc[nlohmann::json::json_pointer(key)] = kOddTypes[static_cast<std::size_t>(pick(static_cast<int>(kOddTypes.size())))];
        return text(doc);
      case 3: flat.erase(key); break;
      case 4: doc["rows"][0]["value"] = kExtremes[static_cast<std::size_t>(pick(static_cast<int>(kExtremes.size())))];
        return text(doc);
      case 5: {
        static const char* kDates[] = {"2026-13-45T99:99:99Z", "0000-00-00T00:00:00Z", "2026-02-29T00:00:00Z",
                                       "9999-12-31T23:59:60+23:59", "2026-11-30T06:01:17.1234567890Z", "\xff\xfe",
                                       "2026-11-30"};
        doc["started_at"] = kDates[pick(7)];
        return text(doc);
      }
      case 6: {  // truncated
        const std::string t = text(doc);
        return t.substr(0, static_cast<std::size_t>(pick(static_cast<int>(t.size()))));
      }
      case 7: {  // flipped bytes
        std::string t = text(doc);
        for (int i = 0; i < 1 + pick(8); ++i) {
          t[static_cast<std::size_t>(pick(static_cast<int>(t.size())))] = static_cast<char>(pick(256));
        }
        return t;
      }
      case 8: {  // a duplicate key
        std::string t = text(doc);
        t.insert(1, pick(2) == 0 ? "\"rows\":[]," : "\"suite\":\"memory\",");
        return t;
      }
      case 9: {  // deep nesting
        const int depth = 50 + pick(200);
        doc["machine"]["deep"] = nullptr;
        std::string t = text(doc);
        const auto at = t.find("\"deep\":null");
        return t.substr(0, at) + "\"deep\":" + std::string(static_cast<std::size_t>(depth), '[') +
               std::string(static_cast<std::size_t>(depth), ']') + t.substr(at + 11);
      }
      case 10: {  // random bytes
        std::string t(static_cast<std::size_t>(pick(4096)), '\0');
        for (auto& c : t) c = static_cast<char>(pick(256));
        return t;
      }
      case 11: doc["suite"] = pick(2) == 0 ? "memory" : "host"; return text(doc);
      case 12: {  // many rows
        for (int i = 0; i < 2000; ++i) doc["rows"].push_back(doc["rows"][0]);
        return text(doc);
      }
      default: doc["rows"][1]["stats_ms"]["median"] = kExtremes[static_cast<std::size_t>(pick(9))]; return text(doc);
    }
    try {
      return text(flat.unflatten());
    } catch (const nlohmann::json::exception&) {
      return text(doc);  // a flattened shape unflatten cannot rebuild: send the valid one
    }
  }

  int pick(int n) { return n <= 1 ? 0 : std::uniform_int_distribution<int>(0, n - 1)(rng_); }

 private:
  std::mt19937 rng_;
};

// Raw requests: broken framing, odd methods and targets, random bytes, oversized heads.
std::string raw_request(Mutator& m, int i) {
  switch (i % 9) {
    case 0: {
      std::string t(static_cast<std::size_t>(m.pick(3000)), '\0');
      for (auto& c : t) c = static_cast<char>(m.pick(256));
      return t;
    }
    case 1: return "POST /api/v1/results HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nabcdefg";
    case 2: return "POST /api/v1/results HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n";
    case 3: return "POST /api/v1/results HTTP/1.1\r\nContent-Length: 4194304\r\n\r\n{";
    case 4: return "GET /" + std::string(static_cast<std::size_t>(m.pick(20000)), 'a') + " HTTP/1.1\r\n\r\n";
    case 5: {
      std::string h = "GET /runs HTTP/1.1\r\n";
      for (int k = m.pick(3000); k > 0; --k) h += "X-Fuzz: 1\r\n";
      return h + "\r\n";
    }
    case 6: return "GET /runs?since=%ff%00&until=2026-99-99&limit=-1&offset=99999999999999999999 HTTP/1.1\r\n\r\n";
    case 7: return "BREW /pot HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n";
    default: return "GET /leaderboard?benchmark=" + std::string(300, '%') + " HTTP/1.0\r\n\r\n";
  }
}

// The request-head parser alone (src/store/server_http.hpp) under the same hostile bytes as the
// server below, plus heads with bytes flipped and heads ending around the cap: every input gets a
// verdict the limits allow, and the input cut in random pieces gets nothing until the head is in,
// then the verdict of the whole, whatever the pieces (the event thread reads whatever the socket
// gives).
TEST(StoreFuzzParser, HostileHeadsGetTheVerdictOfTheWholeInAnyPieces) {
  const http::Limits limits{.max_header_bytes = 32 * 1024, .max_headers = 100, .max_body_bytes = 1u << 20};
  const std::set<int> refusals = {400, 411, 413, 417, 431, 505};
  Mutator m(4321u);
  std::map<int, int> verdicts;  // -1: the head had not ended
  for (int i = 0; i < 600; ++i) {
    std::string bytes;
    if (i % 6 == 0) {
      bytes = post_request(m.next(i), i % 4 == 0);
    } else if (i % 2 == 1) {
      bytes = raw_request(m, i / 2);
    } else if (i % 6 == 4) {  // a head that ends a few bytes either side of the cap
      const std::string line = "GET /runs HTTP/1.1\r\nX-Pad: ";
      const std::size_t end = limits.max_header_bytes - 6 + static_cast<std::size_t>(m.pick(13));
      bytes = line + std::string(end - line.size(), 'p') + "\r\n\r\n";
    } else {  // a head with bytes flipped
      bytes = post_request(std::string(static_cast<std::size_t>(m.pick(3000)), 'x'), i % 4 == 0);
      const auto end = bytes.find("\r\n\r\n") + 4;
      for (int k = 0; k < 1 + m.pick(4); ++k) {
        bytes[static_cast<std::size_t>(m.pick(static_cast<int>(end)))] = static_cast<char>(m.pick(256));
      }
    }
    const auto all = http::read_head(bytes, limits);
    ++verdicts[all ? all->status : -1];
    if (!all) {
      EXPECT_LT(bytes.size(), limits.max_header_bytes + 4) << "input " << i;
      EXPECT_EQ(bytes.find("\r\n\r\n"), std::string::npos) << "input " << i;
      continue;
    }
    if (all->refused()) {
      EXPECT_TRUE(refusals.count(all->status)) << "input " << i << ": " << all->status;
      EXPECT_FALSE(all->reason.empty()) << "input " << i;
    } else {
      EXPECT_LE(all->head_bytes, limits.max_header_bytes + 4) << "input " << i;
      EXPECT_LE(all->body, limits.max_body_bytes) << "input " << i;
      EXPECT_FALSE(all->method.empty() || all->target.empty()) << "input " << i;
    }
    // Only the first max_header_bytes + 4 bytes can decide: pieces up to there (and one past),
    // one byte at a time around the cap.
    const std::size_t decided = std::min(bytes.size(), limits.max_header_bytes + 5);
    const std::size_t near_cap = limits.max_header_bytes - 8;
    bool seen = false;
    for (std::size_t at = 0; at < decided;) {
      at = at >= near_cap ? at + 1 : std::min(near_cap, at + 1 + static_cast<std::size_t>(m.pick(700)));
      at = std::min(decided, at);
      const auto h = http::read_head(std::string_view(bytes).substr(0, at), limits);
      if (!h) {
        EXPECT_FALSE(seen) << "input " << i << ": a verdict after " << at << " bytes was taken back";
        continue;
      }
      seen = true;
      EXPECT_EQ(h->status, all->status) << "input " << i << " after " << at << " bytes";
      EXPECT_EQ(h->reason, all->reason) << "input " << i;
      EXPECT_EQ(h->head_bytes, all->head_bytes) << "input " << i;
      EXPECT_EQ(h->body, all->body) << "input " << i;
    }
  }
  std::string seen;
  for (const auto& [status, n] : verdicts) seen += fmt::format(" {}x{}", n, status);
  std::cout << fmt::format("[fuzz] parser verdicts:{}\n", seen);
  // Not vacuous: good heads, malformed ones and oversized ones all occurred.
  EXPECT_GT(verdicts[0], 100);
  EXPECT_GT(verdicts[400], 0);
  EXPECT_GT(verdicts[431], 0);
}

class StoreFuzz : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    backend_ = std::make_unique<test::Backend>(GetParam());
    WGB_BACKEND_OR_SKIP(*backend_);
    ASSERT_TRUE(std::filesystem::exists(cli_binary())) << cli_binary();
  }
  std::unique_ptr<test::Backend> backend_;
};

TEST_P(StoreFuzz, HostileTrafficEndsInTimeInBoundedMemoryAndLeavesAConsistentStore) {
  ServeProcess serve(cli_binary().string(), backend_->spec(),
                     {"--max-body-mib", "1", "--threads", "4", "--request-timeout", std::to_string(kRequestTimeoutS)});
  ASSERT_FALSE(serve.url().empty()) << "serve did not start";
  const int port = port_of(serve.url());
  const auto start = Clock::now();

  // Slow clients trickle all along (one byte every 100 ms): each must be cut at the deadline.
  std::atomic<bool> done{false};
  std::vector<Exchange> slow_results(6);
  std::vector<std::thread> slow;
  for (std::size_t i = 0; i < slow_results.size(); ++i) {
    slow.emplace_back([&, i] {
      const std::string body(5000, ' ');
      slow_results[i] = round_trip(port, post_request(body), 1, std::chrono::milliseconds(100));
    });
  }
  // A health check every 200 ms: each within a second.
  double worst_health = 0;
  int health_failures = 0;
  std::thread health([&] {
    while (!done) {
      const auto e = round_trip(port, "GET /healthz HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
      worst_health = std::max(worst_health, e.seconds);
      if (e.status != 200) ++health_failures;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  });

  Mutator m(GetParam() == "sqlite" ? 1234u : 5678u);
  std::set<std::int64_t> acknowledged;
  std::map<int, int> statuses;
  double slowest = 0;
  for (int i = 0; i < 240; ++i) {
    const std::string body = m.next(i);
    const auto e = round_trip(port, post_request(body, i % 3 != 0));
    ++statuses[e.status];
    slowest = std::max(slowest, e.seconds);
    EXPECT_LT(e.seconds, kDeadlineS) << "submission " << i;
    EXPECT_TRUE(e.status == 200 || e.status == 201 || e.status == 400 || e.status == 413 || e.status == 422)
        << "submission " << i << ": HTTP " << e.status << " " << e.body.substr(0, 300);
    if (e.status == 201) {
      auto j = nlohmann::json::parse(e.body, nullptr, false);
      if (j.is_object() && j.contains("id")) acknowledged.insert(j["id"].get<std::int64_t>());
    }
    if (e.status >= 400 && e.status < 500) {
      auto j = nlohmann::json::parse(e.body, nullptr, false);
      EXPECT_TRUE(j.is_object() && j.contains("error") && !j["error"].get<std::string>().empty())
          << "a refusal without a reason: " << e.body.substr(0, 200);
    }
  }
  // Raw requests from three clients at once (some wait out the deadline: a head never ends).
  std::mutex mutex;
  std::vector<std::thread> raw_clients;
  for (int c = 0; c < 3; ++c) {
    raw_clients.emplace_back([&, c] {
      Mutator mine(static_cast<std::uint32_t>(c + 1));
      for (int i = 0; i < 36; ++i) {
        const auto e = round_trip(port, raw_request(mine, i + c));
        std::lock_guard lock(mutex);
        ++statuses[e.status];
        slowest = std::max(slowest, e.seconds);
        EXPECT_LT(e.seconds, kDeadlineS) << "raw request " << i;
        EXPECT_TRUE(e.status == 0 || (e.status >= 200 && e.status < 500))
            << "raw request " << i << ": HTTP " << e.status;
      }
    });
  }
  for (auto& t : raw_clients) t.join();
  for (auto& t : slow) t.join();
  done = true;
  health.join();

  for (std::size_t i = 0; i < slow_results.size(); ++i) {
    EXPECT_LT(slow_results[i].seconds, kRequestTimeoutS + 1.5) << "slow client " << i;
    EXPECT_EQ(slow_results[i].status, 408) << "slow client " << i;
  }
  EXPECT_EQ(health_failures, 0);
  EXPECT_LT(worst_health, 1.0) << "a health check took " << worst_health << " s";

  // The store afterwards: the count and the listing agree, and hold every acknowledged run.
  auto list = http_get(serve.url() + "/api/v1/results?limit=1000", std::chrono::seconds(10));
  ASSERT_TRUE(list) << list.error().message;
  ASSERT_EQ(list->status, 200);
  const auto j = nlohmann::json::parse(list->body);
  std::set<std::int64_t> listed;
  for (const auto& r : j["runs"]) listed.insert(r["id"].get<std::int64_t>());
  EXPECT_EQ(j["total"].get<std::int64_t>(), static_cast<std::int64_t>(listed.size()));
  EXPECT_EQ(listed, acknowledged);
  for (auto id : listed) {
    auto page = http_get(fmt::format("{}/runs/{}", serve.url(), id), std::chrono::seconds(10));
    ASSERT_TRUE(page) << page.error().message;
    EXPECT_EQ(page->status, 200) << id;
  }
  const long peak = proc_status_kib(serve.pid(), "VmHWM");
  EXPECT_GT(peak, 0);
  EXPECT_LT(peak, kMaxPeakRssKib) << "peak RSS " << peak / 1024 << " MiB";
  std::string seen;
  for (const auto& [status, n] : statuses) seen += fmt::format(" {}x{}", n, status);
  std::cout << fmt::format("[fuzz] {} s, answers:{}, stored {}, slowest {:.2f} s, worst health {:.3f} s, peak RSS "
                           "{} MiB\n",
                           std::chrono::duration<double>(Clock::now() - start).count(), seen, acknowledged.size(),
                           slowest, worst_health, peak / 1024);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(60));
  EXPECT_EQ(serve.stop(SIGTERM), 0);
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreFuzz, ::testing::Values("sqlite", "postgres"), test::backend_name);

}  // namespace
}  // namespace wgb::store
