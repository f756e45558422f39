// Unit tests for memory/sustain: the sustain windows (median of the last 60 %, retention
// against the first 20 %) and the per-sample rejection flags of the timeline.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "measure/stats.hpp"
#include "memory/sustain.hpp"

namespace wgb::memory {
namespace {

TEST(MemorySustain, RetentionIsLastSixtyOverFirstTwentyPercent) {
  // 10 samples: the first 2 at 100, a ramp, then the last 6 at 80 (a card that throttles).
  const std::vector<double> rates{100, 100, 95, 90, 80, 80, 80, 80, 80, 80};
  const SustainSummary s = summarize_sustain(rates);
  EXPECT_EQ(s.first_count, 2u);
  EXPECT_EQ(s.last_count, 6u);
  EXPECT_DOUBLE_EQ(s.first_median, 100);
  EXPECT_DOUBLE_EQ(s.last_median, 80);
  EXPECT_DOUBLE_EQ(s.retention, 0.8);
}

TEST(MemorySustain, SteadyCardRetainsEverything) {
  std::vector<double> rates(450, 3.0e12);
  EXPECT_DOUBLE_EQ(summarize_sustain(rates).retention, 1.0);
}

TEST(MemorySustain, WindowsRoundUpSoSmallRunsStillHaveBoth) {
  const SustainSummary one = summarize_sustain(std::vector<double>{5});
  EXPECT_EQ(one.first_count, 1u);
  EXPECT_EQ(one.last_count, 1u);
  EXPECT_DOUBLE_EQ(one.retention, 1.0);
  const SustainSummary three = summarize_sustain(std::vector<double>{10, 20, 30});
  EXPECT_EQ(three.first_count, 1u);  // ceil(0.6)
  EXPECT_EQ(three.last_count, 2u);   // ceil(1.8)
  EXPECT_DOUBLE_EQ(three.first_median, 10);
  EXPECT_DOUBLE_EQ(three.last_median, 25);
  EXPECT_EQ(summarize_sustain(std::vector<double>{}).retention, 0);
}

TEST(MemorySustain, OutliersAreRejectedInsideTheirWindow) {
  // 25 samples: the first window is the first 5, the last the final 15. Sample 1 is a stall.
  std::vector<double> rates(25, 100);
  rates[0] = 100.5;
  rates[1] = 1;
  rates[2] = 101;
  rates[3] = 99;
  rates[20] = 99.5;
  const SustainSummary s = summarize_sustain(rates);
  ASSERT_EQ(s.rejected.size(), rates.size());
  EXPECT_TRUE(s.rejected[1]);
  EXPECT_EQ(std::count(s.rejected.begin(), s.rejected.end(), true), 1);
  EXPECT_EQ(s.first_count, 4u);
  EXPECT_EQ(s.last_count, 15u);
  EXPECT_DOUBLE_EQ(s.first_median, 100.25);
  EXPECT_DOUBLE_EQ(s.last_median, 100);
}

TEST(MemorySustain, AThrottlingCardKeepsItsFastStart) {
  // 50 samples: 10 fast ones (the first window), then 40 at 60 % of that with a little jitter.
  // One outlier rule over the whole run would find the fast start 40 MADs from the median, reject
  // all of it and report a retention of 0 (or of the slow samples against themselves); per window,
  // the start is kept and the retention is 0.6.
  std::vector<double> rates;
  for (int i = 0; i < 50; ++i) rates.push_back((i < 10 ? 100.0 : 60.0) + (i % 3) * 0.5);
  const auto global = rejection_mask(rates);
  EXPECT_TRUE(global[0]) << "the premise: a rule over the whole run rejects the fast start";
  const SustainSummary s = summarize_sustain(rates);
  EXPECT_EQ(s.first_count, 10u);
  EXPECT_EQ(s.last_count, 30u);
  EXPECT_NEAR(s.retention, 60.5 / 100.5, 1e-12);
  EXPECT_EQ(std::count(s.rejected.begin(), s.rejected.end(), true), 0);
  EXPECT_GE(s.last_q3, s.last_median);
  EXPECT_LE(s.last_q1, s.last_median);
}

TEST(MemorySustain, EveryWindowKeepsItsMedianSoRetentionIsNeverZero) {
  // Short runs with wild samples (what lavapipe on a loaded 2-core machine produces): whatever the
  // values, a window keeps at least its median sample, so retention is positive.
  for (std::size_t n = 1; n <= 40; ++n) {
    std::vector<double> rates;
    for (std::size_t i = 0; i < n; ++i)
      rates.push_back(i % 7 == 0 ? 1000.0 + static_cast<double>(i) : 1.0 + 0.01 * static_cast<double>(i));
    const SustainSummary s = summarize_sustain(rates);
    SCOPED_TRACE(n);
    EXPECT_GT(s.first_count, 0u);
    EXPECT_GT(s.last_count, 0u);
    EXPECT_GT(s.retention, 0);
  }
}

TEST(MemorySustain, RetentionIsReadInOneSentence) {
  EXPECT_EQ(retention_reading(1.0), "throughput held within 5% for the whole run");
  EXPECT_EQ(retention_reading(0.951), "throughput held within 5% for the whole run");
  EXPECT_NE(retention_reading(0.8).find("fell 20.0% under sustained load"), std::string::npos);
  EXPECT_NE(retention_reading(1.157).find("rose 15.7% after the first 20%"), std::string::npos);
  EXPECT_NE(retention_reading(0).find("not measured"), std::string::npos);
  EXPECT_NE(retention_reading(std::nan("")).find("not measured"), std::string::npos);
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
