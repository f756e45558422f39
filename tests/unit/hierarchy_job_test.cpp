// The plan of `webgpu-bench hierarchy` (frontend/hierarchy_job.hpp): its working sets, the order they
// run in, and the sampling its budget gives each point.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "frontend/hierarchy_job.hpp"

namespace wgb::frontend {
namespace {

constexpr std::uint64_t kKiB = 1024, kMiB = 1024 * kKiB, kGiB = 1024 * kMiB;

TEST(HierarchyPlan, FourPointsPerOctaveFromFirstToLast) {
  auto v = hierarchy_footprints(4 * kKiB, 1 * kGiB, 4);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->size(), 18u * 4 + 1);
  EXPECT_EQ(v->front(), 4 * kKiB);
  EXPECT_EQ(v->back(), 1 * kGiB);
  for (std::size_t i = 0; i + 1 < v->size(); ++i) {
    EXPECT_EQ((*v)[i] % 128, 0u);
    // A quarter octave apart, within the rounding to 128 bytes.
    EXPECT_NEAR(static_cast<double>((*v)[i + 1]) / static_cast<double>((*v)[i]), std::exp2(0.25), 0.02) << i;
  }
  // The last point is `to` even where it is no whole step from `from`.
  auto odd = hierarchy_footprints(4 * kKiB, 100 * kKiB, 2);
  ASSERT_TRUE(odd);
  EXPECT_EQ(odd->back(), 100 * kKiB);
}

TEST(HierarchyPlan, BadRangesAreUsageErrors) {
  EXPECT_EQ(hierarchy_footprints(1 * kMiB, 64 * kKiB, 4).error().kind, ErrorKind::Usage);
  EXPECT_EQ(hierarchy_footprints(1 * kMiB, 1 * kMiB, 4).error().kind, ErrorKind::Usage);
  EXPECT_EQ(hierarchy_footprints(4 * kKiB, 1 * kGiB, 0).error().kind, ErrorKind::Usage);
  EXPECT_EQ(hierarchy_footprints(64, 1 * kGiB, 4).error().kind, ErrorKind::Usage);
  EXPECT_EQ(hierarchy_footprints(128, 1ull << 62, 16).error().kind, ErrorKind::Usage);  // too many points
}

TEST(HierarchyPlan, TheRunOrderVisitsEveryPointOnceAndNeighboursFarApart) {
  for (std::size_t n : {1u, 2u, 5u, 25u, 73u, 74u}) {
    std::vector<std::uint64_t> sorted;
    for (std::size_t i = 0; i < n; ++i) sorted.push_back(128 * (i + 1));
    const auto order = hierarchy_run_order(sorted);
    ASSERT_EQ(order.size(), n);
    EXPECT_EQ(std::set<std::uint64_t>(order.begin(), order.end()).size(), n) << n;
    if (n < 25) continue;
    // Points run one after another are never neighbours on the curve: a burst of load hits
    // scattered footprints.
    for (std::size_t i = 0; i + 1 < n; ++i) {
      const auto gap = order[i] > order[i + 1] ? order[i] - order[i + 1] : order[i + 1] - order[i];
      EXPECT_GT(gap / 128, 2u) << n << " at " << i;
    }
  }
}

TEST(HierarchyPlan, TheBudgetSetsTheRounds) {
  EXPECT_EQ(hierarchy_sampling(180, 146).min_rounds, 15);  // the default: 1.2 s a point, capped
  EXPECT_EQ(hierarchy_sampling(20, 25).min_rounds, 15);
  EXPECT_EQ(hierarchy_sampling(20, 100).min_rounds, 5);    // floored: a minimum needs several batches
  EXPECT_EQ(hierarchy_sampling(10, 50).max_rounds, 10);
  EXPECT_EQ(hierarchy_sampling(180, 146).max_cooldowns, 0);
}

}  // namespace
}  // namespace wgb::frontend
