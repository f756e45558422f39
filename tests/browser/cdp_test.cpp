// The DevTools client against a real headless Chromium: launch, evaluate (values, promises,
// exceptions), wait with a deadline, hide and show a page, and the browser gone after the object.
#include "browser/cdp.hpp"
#include "tests/browser/ci_skip.hpp"

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>

namespace wgb::browser {
namespace {

using namespace std::chrono_literals;

class CdpTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (auto p = find_chromium(""); !p) {
      skip_ = p.error().message;
      return;
    }
    auto b = Browser::launch_with_adapter({});
    if (!b) {
      skip_ = b.error().message;
      return;
    }
    browser_ = std::move(*b);
  }
  static void TearDownTestSuite() { browser_.reset(); }
  void SetUp() override {
    if (!browser_) WGB_SKIP_UNLESS_CI(skip_);
  }
  static std::unique_ptr<Browser> browser_;
  static std::string skip_;
};
std::unique_ptr<Browser> CdpTest::browser_;
std::string CdpTest::skip_;

TEST_F(CdpTest, EvaluatesValuesPromisesAndExceptions) {
  auto page = browser_->new_page(deadline_in(10s));
  ASSERT_TRUE(page) << page.error().message;
  auto v = (*page)->evaluate("({a: 1 + 2, s: 'x'.repeat(3)})", deadline_in(10s));
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ((*v)["a"], 3);
  EXPECT_EQ((*v)["s"], "xxx");
  auto p = (*page)->evaluate("new Promise(r => setTimeout(() => r(42), 50))", deadline_in(10s));
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(*p, 42);
  auto e = (*page)->evaluate("(() => { throw new Error('boom'); })()", deadline_in(10s));
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("boom"), std::string::npos) << e.error().message;
  // A message larger than one 64 KiB frame length field.
  auto big = (*page)->evaluate("'y'.repeat(300000)", deadline_in(10s));
  ASSERT_TRUE(big) << big.error().message;
  EXPECT_EQ(big->get<std::string>().size(), 300000u);
}

TEST_F(CdpTest, WaitUntilReturnsTheValueOrTimesOutNamingTheCondition) {
  auto page = browser_->new_page(deadline_in(10s));
  ASSERT_TRUE(page) << page.error().message;
  ASSERT_TRUE((*page)->navigate("data:text/html,<script>setTimeout(() => window.ready = 'yes', 200)</script>",
                                deadline_in(20s)));
  auto v = (*page)->wait_until("window.ready", deadline_in(10s), "ready");
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ(*v, "yes");
  const auto start = Clock::now();
  auto never = (*page)->wait_until("window.never", deadline_in(300ms), "the impossible");
  ASSERT_FALSE(never);
  EXPECT_NE(never.error().message.find("timed out waiting for the impossible"), std::string::npos);
  EXPECT_LT(Clock::now() - start, 5s);
}

TEST_F(CdpTest, HidesAndShowsThePage) {
  auto page = browser_->new_page(deadline_in(10s));
  ASSERT_TRUE(page) << page.error().message;
  ASSERT_TRUE((*page)->navigate(
      "data:text/html,<script>window.changes = [];"
      "document.addEventListener('visibilitychange', () => changes.push(document.visibilityState))</script>",
      deadline_in(20s)));
  auto hidden = (*page)->set_hidden(true, deadline_in(10s));
  ASSERT_TRUE(hidden) << hidden.error().message;
  auto shown = (*page)->set_hidden(false, deadline_in(10s));
  ASSERT_TRUE(shown) << shown.error().message;
  auto changes = (*page)->evaluate("changes", deadline_in(10s));
  ASSERT_TRUE(changes) << changes.error().message;
  EXPECT_EQ(*changes, nlohmann::json({"hidden", "visible"}));
}

TEST_F(CdpTest, ConsoleMessagesAreKept) {
  auto page = browser_->new_page(deadline_in(10s));
  ASSERT_TRUE(page) << page.error().message;
  ASSERT_TRUE((*page)->evaluate("console.error('engine said', 7); 1", deadline_in(10s)));
  ASSERT_TRUE((*page)->evaluate("1", deadline_in(10s)));  // the event arrives before this answer
  const auto lines = (*page)->console();
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back(), "error: engine said 7");
}

TEST(CdpLaunch, AMissingProgramIsANamedError) {
  LaunchOptions o;
  o.chromium = "/nonexistent/chromium";
  auto b = Browser::launch(o);
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().kind, ErrorKind::NoAdapter);
  EXPECT_NE(b.error().message.find("/nonexistent/chromium"), std::string::npos);
}

TEST(CdpLaunch, TheBrowserIsGoneAfterTheObject) {
  if (auto p = find_chromium(""); !p) WGB_SKIP_UNLESS_CI(p.error().message);
  pid_t pid = -1;
  {
    auto b = Browser::launch({});
    ASSERT_TRUE(b) << b.error().message;
    pid = (*b)->pid();
    ASSERT_GT(pid, 0);
    EXPECT_EQ(kill(-pid, 0), 0);
  }
  EXPECT_NE(kill(-pid, 0), 0);  // no process of its group is left
}

}  // namespace
}  // namespace wgb::browser
