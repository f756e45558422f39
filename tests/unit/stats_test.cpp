// Unit tests for measure/stats: known data sets checked against hand-computed (numpy-equivalent)
// values, and the modified z-score filter.
#include "measure/stats.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace wgb::measure {
namespace {

TEST(Stats, EmptyIsAllZero) {
  const Stats s = compute_stats({});
  EXPECT_EQ(s.count, 0u);
  EXPECT_EQ(s.mean, 0);
  EXPECT_EQ(s.stddev, 0);
  EXPECT_EQ(s.ci95, 0);
  EXPECT_EQ(median({}), 0);
}

TEST(Stats, KnownDataSet) {
  // Deliberately unsorted: the functions must not rely on input order.
  const std::vector<double> xs = {9, 4, 2, 5, 4, 7, 4, 5};
  const Stats s = compute_stats(xs);
  EXPECT_EQ(s.count, 8u);
  EXPECT_DOUBLE_EQ(s.min, 2);
  EXPECT_DOUBLE_EQ(s.max, 9);
  EXPECT_DOUBLE_EQ(s.mean, 5);
  EXPECT_DOUBLE_EQ(s.median, 4.5);
  EXPECT_NEAR(s.stddev, std::sqrt(32.0 / 7.0), 1e-12);   // sample (n-1) stddev
  EXPECT_NEAR(s.ci95, 2.365 * std::sqrt(32.0 / 7.0) / std::sqrt(8.0), 1e-12);  // t(0.975, 7)
  EXPECT_NEAR(s.cv, std::sqrt(32.0 / 7.0) / 5.0, 1e-12);
  // numpy.percentile(xs, [25, 75]) == [4.0, 5.5]
  EXPECT_DOUBLE_EQ(s.q1, 4.0);
  EXPECT_DOUBLE_EQ(s.q3, 5.5);
  EXPECT_DOUBLE_EQ(s.iqr, 1.5);
}

TEST(Stats, Type7QuantilesInterpolate) {
  const std::vector<double> xs = {4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(quantile(xs, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(quantile(xs, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(quantile(xs, 0.75), 3.25);
  EXPECT_DOUBLE_EQ(quantile(xs, 0.0), 1);
  EXPECT_DOUBLE_EQ(quantile(xs, 1.0), 4);
  EXPECT_DOUBLE_EQ(median(std::vector<double>{3, 1, 2}), 2);
}

TEST(Stats, SingleSampleHasNoSpread) {
  const Stats s = compute_stats(std::vector<double>{7.5});
  EXPECT_EQ(s.count, 1u);
  EXPECT_DOUBLE_EQ(s.median, 7.5);
  EXPECT_EQ(s.stddev, 0);
  EXPECT_EQ(s.ci95, 0);
  EXPECT_EQ(s.cv, 0);
}

TEST(Stats, ZeroMeanGivesZeroCv) {
  const Stats s = compute_stats(std::vector<double>{-1, 1});
  EXPECT_DOUBLE_EQ(s.mean, 0);
  EXPECT_GT(s.stddev, 0);
  EXPECT_EQ(s.cv, 0);
}

TEST(Stats, TCriticalTableAndLargeSampleLimit) {
  EXPECT_DOUBLE_EQ(t_critical_95(1), 12.706);
  EXPECT_DOUBLE_EQ(t_critical_95(30), 2.042);
  EXPECT_DOUBLE_EQ(t_critical_95(1000), 1.96);
  for (std::size_t df = 1; df < 200; ++df) EXPECT_GE(t_critical_95(df), t_critical_95(df + 1));
  // ci95 of 200 samples uses 1.96.
  std::vector<double> xs;
  for (int i = 0; i < 200; ++i) xs.push_back(i % 2 == 0 ? 1.0 : 3.0);
  const Stats s = compute_stats(xs);
  EXPECT_NEAR(s.ci95, 1.96 * s.stddev / std::sqrt(200.0), 1e-12);
}

TEST(Stats, MadUnscaled) {
  // median 10; |dev| = 0, .1, .1, .2, .2, 0, 40 -> median 0.1
  const std::vector<double> xs = {10, 10.1, 9.9, 10.2, 9.8, 10, 50};
  EXPECT_NEAR(mad(xs), 0.1, 1e-12);
}

TEST(Stats, RejectsObviousOutlierKeepsOrder) {
  const std::vector<double> xs = {10, 10.1, 9.9, 10.2, 9.8, 10, 50};
  const Rejection r = reject_outliers_mad(xs);
  ASSERT_EQ(r.rejected.size(), 1u);
  EXPECT_DOUBLE_EQ(r.rejected[0], 50);
  EXPECT_EQ(r.kept, (std::vector<double>{10, 10.1, 9.9, 10.2, 9.8, 10}));
}

TEST(Stats, ThresholdIsStrict) {
  // median 0, MAD 1: z(x) = 0.6745*|x|.  x = 3.5/0.6745 sits on the threshold and is kept;
  // a slightly larger value is rejected.
  const double edge = 3.5 / 0.6745;
  const std::vector<double> xs = {-1, -1, 0, 0, 0, 1, 1, edge, edge * 1.01};
  ASSERT_DOUBLE_EQ(mad(xs), 1.0);
  const Rejection r = reject_outliers_mad(xs);
  ASSERT_EQ(r.rejected.size(), 1u);
  EXPECT_DOUBLE_EQ(r.rejected[0], edge * 1.01);
}

TEST(Stats, MadZeroRejectsNothing) {
  // More than half identical -> MAD == 0 -> the z-score is undefined, keep everything.
  const std::vector<double> xs = {5, 5, 5, 5, 9};
  EXPECT_EQ(mad(xs), 0);
  const Rejection r = reject_outliers_mad(xs);
  EXPECT_EQ(r.kept.size(), 5u);
  EXPECT_TRUE(r.rejected.empty());
  const Rejection same = reject_outliers_mad(std::vector<double>{3, 3, 3});
  EXPECT_EQ(same.kept.size(), 3u);
}

}  // namespace
}  // namespace wgb::measure
