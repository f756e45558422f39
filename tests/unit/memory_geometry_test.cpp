// Unit tests for memory/geometry: the suite's buffer shape and the working-set plan (halving when
// the adapter caps a storage binding; unranked runs).
#include "memory/geometry.hpp"

#include <gtest/gtest.h>

namespace wgb::memory {
namespace {

AdapterCaps roomy() { return {1ull << 40, 4ull << 30, 65535}; }

TEST(MemoryGeometry, DispatchShapes) {
  const Geometry g256 = Geometry::of(256 * kMiB);
  EXPECT_EQ(g256.elements, 16u << 20);
  EXPECT_EQ(g256.invocations, 4u << 20);
  EXPECT_EQ(g256.workgroups, 16384u);  // 16,384 workgroups per pass at 256 MiB
  EXPECT_EQ(g256.slots, 4u << 20);     // 4M slots 64 bytes apart = 256 MiB
  EXPECT_EQ(g256.random_workgroups * kWorkgroupSize, 1u << 20);
  EXPECT_EQ(Geometry::of(512 * kMiB).workgroups, 32768u);  // 32,768 at 512 MiB
  EXPECT_EQ(Geometry::of(16 * kMiB).workgroups, 1024u);
  // Every element is touched exactly once per dispatch: 4 per invocation, stride = invocations.
  EXPECT_EQ(std::uint64_t{g256.invocations} * kElementsPerInvocation, g256.elements);
}

TEST(MemoryGeometry, RequestOutsideTheRangeIsAUsageError) {
  for (std::uint64_t mib : {0ull, 8ull, 24ull, 300ull, 1024ull}) {
    auto p = plan_working_set(mib, 32, roomy());
    ASSERT_FALSE(p) << mib;
    EXPECT_EQ(p.error().kind, ErrorKind::Usage);
    EXPECT_NE(p.error().message.find("power of two"), std::string::npos);
  }
  auto bad_floor = plan_working_set(256, 48, roomy());
  ASSERT_FALSE(bad_floor);
  EXPECT_EQ(bad_floor.error().kind, ErrorKind::Usage);
}

TEST(MemoryGeometry, HonoursTheRequestWhenItFits) {
  auto p = plan_working_set(512, 32, roomy());
  ASSERT_TRUE(p);
  EXPECT_EQ(p->bytes, 512 * kMiB);
  EXPECT_FALSE(p->capped);
  EXPECT_TRUE(p->reason.empty());
}

TEST(MemoryGeometry, HalvesBelowTheAdapterBindingCap) {
  // Mesa lavapipe: maxStorageBufferBindingSize 128 MiB.
  auto p = plan_working_set(512, 32, {4294967295ull, 128 * kMiB, 65535});
  ASSERT_TRUE(p);
  EXPECT_EQ(p->bytes, 128 * kMiB);
  EXPECT_EQ(p->requested_bytes, 512 * kMiB);
  EXPECT_TRUE(p->capped);
  EXPECT_NE(p->reason.find("512 MiB to 128 MiB"), std::string::npos) << p->reason;
  // A cap that is not a power of two (4 GiB - 1) still yields a power of two.
  auto q = plan_working_set(512, 32, {1ull << 40, (200 * kMiB) - 1, 65535});
  ASSERT_TRUE(q);
  EXPECT_EQ(q->bytes, 128 * kMiB);
  // maxBufferSize counts too.
  auto r = plan_working_set(256, 32, {64 * kMiB, 1ull << 32, 65535});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->bytes, 64 * kMiB);
}

TEST(MemoryGeometry, DispatchLimitCountsAsACap) {
  auto p = plan_working_set(512, 32, {1ull << 40, 1ull << 40, 8192});
  ASSERT_TRUE(p);
  EXPECT_EQ(p->bytes, 128 * kMiB);  // 8192 workgroups
  EXPECT_TRUE(p->capped);
}

TEST(MemoryGeometry, CapBelowTheFloorStops) {
  auto p = plan_working_set(256, 32, {1ull << 40, 16 * kMiB, 65535});
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().kind, ErrorKind::OutOfMemory);
  EXPECT_NE(p.error().message.find("32 MiB"), std::string::npos) << p.error().message;
  // A floor of 16 lets it through.
  auto q = plan_working_set(256, 16, {1ull << 40, 16 * kMiB, 65535});
  ASSERT_TRUE(q);
  EXPECT_EQ(q->bytes, 16 * kMiB);
}

TEST(MemoryGeometry, RankingNeedsTheRequestedSizeOfAtLeast256MiB) {
  EXPECT_TRUE(unranked_reason(256 * kMiB, 256 * kMiB, "").empty());
  EXPECT_TRUE(unranked_reason(512 * kMiB, 512 * kMiB, "").empty());
  EXPECT_NE(unranked_reason(16 * kMiB, 16 * kMiB, "").find("below the 256 MiB"), std::string::npos);
  EXPECT_EQ(unranked_reason(512 * kMiB, 128 * kMiB, "capped"), "capped");
  EXPECT_NE(unranked_reason(512 * kMiB, 256 * kMiB, "").find("reduced"), std::string::npos);
}

TEST(MemoryGeometry, FormatsMiB) {
  EXPECT_EQ(format_mib(256 * kMiB), "256 MiB");
  EXPECT_EQ(format_mib(kMiB / 2), "0.5 MiB");
}

}  // namespace
}  // namespace wgb::memory
