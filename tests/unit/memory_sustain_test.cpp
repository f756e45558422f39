// Unit tests for memory/sustain: seed 002's sustain windows (median of the last 60 %, retention
// against the first 20 %) and the per-sample rejection flags of the timeline.
#include "memory/sustain.hpp"

#include <gtest/gtest.h>

#include "measure/stats.hpp"

namespace wgb::memory {
namespace {

TEST(MemorySustain, RetentionIsLastSixtyOverFirstTwentyPercent) {
  // 10 samples: the first 2 at 100, a ramp, then the last 6 at 80 (a card that throttles).
  const std::vector<double> rates{100, 100, 95, 90, 80, 80, 80, 80, 80, 80};
  const SustainSummary s = summarize_sustain(rates, {});
  EXPECT_EQ(s.first_count, 2u);
  EXPECT_EQ(s.last_count, 6u);
  EXPECT_DOUBLE_EQ(s.first_median, 100);
  EXPECT_DOUBLE_EQ(s.last_median, 80);
  EXPECT_DOUBLE_EQ(s.retention, 0.8);
}

TEST(MemorySustain, SteadyCardRetainsEverything) {
  std::vector<double> rates(450, 3.0e12);
  EXPECT_DOUBLE_EQ(summarize_sustain(rates, {}).retention, 1.0);
}

TEST(MemorySustain, WindowsRoundUpSoSmallRunsStillHaveBoth) {
  const SustainSummary one = summarize_sustain(std::vector<double>{5}, {});
  EXPECT_EQ(one.first_count, 1u);
  EXPECT_EQ(one.last_count, 1u);
  EXPECT_DOUBLE_EQ(one.retention, 1.0);
  const SustainSummary three = summarize_sustain(std::vector<double>{10, 20, 30}, {});
  EXPECT_EQ(three.first_count, 1u);  // ceil(0.6)
  EXPECT_EQ(three.last_count, 2u);   // ceil(1.8)
  EXPECT_DOUBLE_EQ(three.first_median, 10);
  EXPECT_DOUBLE_EQ(three.last_median, 25);
  EXPECT_EQ(summarize_sustain(std::vector<double>{}, {}).retention, 0);
}

TEST(MemorySustain, RejectedSamplesAreLeftOutOfTheWindows) {
  const std::vector<double> rates{100, 1, 100, 100, 100, 100, 100, 100, 100, 100};
  std::vector<bool> rejected(rates.size(), false);
  rejected[1] = true;
  const SustainSummary s = summarize_sustain(rates, rejected);
  EXPECT_EQ(s.first_count, 1u);
  EXPECT_DOUBLE_EQ(s.first_median, 100);
  EXPECT_DOUBLE_EQ(s.retention, 1.0);
}

TEST(MemorySustain, RejectionMaskAgreesWithTheEngineFilter) {
  const std::vector<double> ms{40, 40.2, 39.9, 40.1, 40.3, 39.8, 95, 40, 40.1, 12};
  const auto mask = rejection_mask(ms);
  const auto rej = measure::reject_outliers_mad(ms, 3.5);
  std::vector<double> flagged;
  for (std::size_t i = 0; i < ms.size(); ++i) {
    if (mask[i]) flagged.push_back(ms[i]);
  }
  EXPECT_EQ(flagged, rej.rejected);
  EXPECT_TRUE(mask[6]);
  EXPECT_TRUE(mask[9]);
  EXPECT_FALSE(mask[0]);
  // MAD 0 (more than half identical) rejects nothing, as the engine decides.
  const auto flat = rejection_mask(std::vector<double>{1, 1, 1, 1, 7});
  for (bool b : flat) EXPECT_FALSE(b);
}

}  // namespace
}  // namespace wgb::memory
