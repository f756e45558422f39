// Visitors' submissions per address (serve --open-submissions): the sliding window, the wait sent
// as Retry-After, addresses counted apart (IPv6 by /64), and addresses forgotten once idle.
#include "store/rate_limit.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

namespace wgb::store {
namespace {

using std::chrono::seconds;
using Clock = SubmissionLimiter::Clock;

TEST(StoreRateLimit, AtMostNInAnyWindowThenTheWaitUntilTheOldestLeaves) {
  SubmissionLimiter limit(3, seconds(3600));
  const Clock::time_point t0{};
  EXPECT_EQ(limit.admit("198.51.100.7", t0), 0);
  EXPECT_EQ(limit.admit("198.51.100.7", t0 + seconds(100)), 0);
  EXPECT_EQ(limit.admit("198.51.100.7", t0 + seconds(200)), 0);
  // The fourth within the hour waits until the first is an hour old.
  EXPECT_EQ(limit.admit("198.51.100.7", t0 + seconds(1000)), 2600);
  EXPECT_EQ(limit.admit("198.51.100.7", t0 + seconds(3599) + std::chrono::milliseconds(500)), 1);  // rounded up
  // A refused attempt is not counted: once the first leaves, one more fits, and only one.
  EXPECT_EQ(limit.admit("198.51.100.7", t0 + seconds(3600)), 0);
  EXPECT_EQ(limit.admit("198.51.100.7", t0 + seconds(3601)), 99);
  // Another address has its own count.
  EXPECT_EQ(limit.admit("198.51.100.8", t0 + seconds(3601)), 0);
}

TEST(StoreRateLimit, Ipv6IsCountedByItsSlash64) {
  EXPECT_EQ(limit_key("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::/64");
  EXPECT_EQ(limit_key("2001:db8:1:2::1"), limit_key("2001:db8:1:2:ffff::9"));
  EXPECT_NE(limit_key("2001:db8:1:2::1"), limit_key("2001:db8:1:3::1"));
  EXPECT_EQ(limit_key("203.0.113.5"), "203.0.113.5");
  EXPECT_EQ(limit_key("::ffff:203.0.113.5"), "::ffff:203.0.113.5");  // an IPv4 client, as it is
  EXPECT_EQ(limit_key("not an address"), "not an address");

  SubmissionLimiter limit(1, seconds(60));
  const Clock::time_point t0{};
  EXPECT_EQ(limit.admit(limit_key("2001:db8:1:2::1"), t0), 0);
  EXPECT_EQ(limit.admit(limit_key("2001:db8:1:2::2"), t0), 60);  // the same /64
  EXPECT_EQ(limit.admit(limit_key("2001:db8:1:3::1"), t0), 0);
}

TEST(StoreRateLimit, IdleAddressesAreForgotten) {
  SubmissionLimiter limit(1, seconds(10));
  const Clock::time_point t0{};
  for (int i = 0; i < 10001; ++i) ASSERT_EQ(limit.admit(fmt::format("10.0.{}.{}", i / 256, i % 256), t0), 0);
  EXPECT_EQ(limit.addresses(), 10001u);
  // Past the window, the next submission prunes every idle address: memory stays bounded.
  EXPECT_EQ(limit.admit("192.0.2.1", t0 + seconds(11)), 0);
  EXPECT_EQ(limit.addresses(), 1u);
}

TEST(StoreRateLimit, NonsenseSettingsStillLimit) {
  SubmissionLimiter limit(0, seconds(0));  // read as 1 per second
  const Clock::time_point t0{};
  EXPECT_EQ(limit.admit("a", t0), 0);
  EXPECT_EQ(limit.admit("a", t0), 1);
}

}  // namespace
}  // namespace wgb::store
