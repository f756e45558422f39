// The one rule for whether two measurements differ (report/noise.hpp): its terms and edge cases, and
// that every user (compare, --repro rows and curve points, the browser-against-native pool, the
// results server's compare page) decides by it. The users' tests put changes at half and one and a
// half times kNoiseFloor on rows without dispersion, so each follows the floor wherever it is set.
#include "report/noise.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "browser/against_native.hpp"
#include "report/compare.hpp"
#include "report/files.hpp"
#include "report/repro.hpp"
#include "store/html.hpp"
#include "tests/golden/synthetic.hpp"

namespace wgb::report {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// The floor is part of the documented method (docs/method.md#differ): changing it is a decision.
TEST(NoiseRule, TheFloorIsOnePercent) { EXPECT_DOUBLE_EQ(kNoiseFloor, 0.01); }

TEST(NoiseRule, WithoutDispersionTheFloorDecides) {
  const Significance same = compare_estimates({100, 0}, {100.5, 0});
  EXPECT_EQ(same.verdict, Verdict::Same);
  EXPECT_DOUBLE_EQ(same.allowance, kNoiseFloor);
  EXPECT_DOUBLE_EQ(same.dispersion, 0);
  EXPECT_DOUBLE_EQ(same.spread, 0);
  EXPECT_EQ(compare_estimates({100, 0}, {102, 0}).verdict, Verdict::Higher);
  EXPECT_EQ(compare_estimates({100, 0}, {98, 0}).verdict, Verdict::Lower);
  // The floor the caller gives replaces the default.
  EXPECT_EQ(compare_estimates({100, 0}, {102, 0}, 0.05).verdict, Verdict::Same);
  EXPECT_EQ(compare_estimates({100, 0}, {100.5, 0}, 0).verdict, Verdict::Higher);
  // Equal values never differ, even with a zero floor.
  EXPECT_EQ(compare_estimates({100, 0}, {100, 0}, 0).verdict, Verdict::Same);
}

TEST(NoiseRule, TheChangeMustExceedTheAllowance) {
  // 1.5 / 1 - 1 is exactly 0.5: a change equal to the allowance is not beyond it.
  EXPECT_EQ(compare_estimates({1, 0}, {1.5, 0}, 0.5).verdict, Verdict::Same);
  EXPECT_EQ(compare_estimates({1, 0}, {1.5, 0}, 0.4999).verdict, Verdict::Higher);
  const Significance d = compare_estimates({2, 0}, {1, 0}, 0);
  EXPECT_DOUBLE_EQ(d.ratio, 0.5);
  EXPECT_DOUBLE_EQ(d.change, 0.5);  // relative to a
}

TEST(NoiseRule, DispersionsAddInQuadrature) {
  // 3 % on each side: the allowance is 4.24 %, not the larger of the two (3 %).
  const Significance d = compare_estimates({100, 0.03}, {104, 0.03});
  EXPECT_NEAR(d.dispersion, std::hypot(0.03, 0.03), 1e-15);
  EXPECT_DOUBLE_EQ(d.allowance, d.dispersion);
  EXPECT_EQ(d.verdict, Verdict::Same);
  EXPECT_EQ(compare_estimates({100, 0.03}, {104.5, 0.03}).verdict, Verdict::Higher);
  // One noisy side is enough to widen it; the order of the sides does not matter for the allowance.
  EXPECT_DOUBLE_EQ(compare_estimates({100, 0.08}, {104, 0}).allowance, 0.08);
  EXPECT_DOUBLE_EQ(compare_estimates({104, 0}, {100, 0.08}).allowance, 0.08);
}

TEST(NoiseRule, PoolingRoundsShrinksTheDispersionTerm) {
  const Significance one = compare_estimates({100, 0.04}, {104, 0.04});
  const Significance four = compare_estimates({100, 0.04, 4}, {104, 0.04, 4});
  EXPECT_NEAR(four.dispersion, one.dispersion / 2, 1e-15);
  EXPECT_EQ(one.verdict, Verdict::Same);     // 4 % within 5.66 %
  EXPECT_EQ(four.verdict, Verdict::Higher);  // 4 % beyond 2.83 %
}

TEST(NoiseRule, TheStandardErrorCountsTwiceAndTheLargerTermWins) {
  // s = 2 %: the spread term is 4 %, above the dispersion term and the floor.
  const Significance d = compare_estimates({1, 0.01, 5}, {1.035, 0.01, 5, 0.02});
  EXPECT_DOUBLE_EQ(d.spread, 0.04);
  EXPECT_DOUBLE_EQ(d.allowance, 0.04);
  EXPECT_EQ(d.verdict, Verdict::Same);
  EXPECT_EQ(compare_estimates({1, 0.01, 5}, {1.045, 0.01, 5, 0.02}).verdict, Verdict::Higher);
  // Standard errors on both sides add in quadrature too.
  EXPECT_NEAR(compare_estimates({1, 0, 5, 0.03}, {1, 0, 5, 0.04}).spread, 0.1, 1e-15);
}

TEST(NoiseRule, WhatIsNotAPositiveFiniteNumberIsNeverTheSame) {
  for (const double bad : {0.0, -1.0, kNaN, kInf}) {
    EXPECT_EQ(compare_estimates({bad, 0}, {100, 0}).verdict, Verdict::NotComparable) << bad;
    EXPECT_EQ(compare_estimates({100, 0}, {bad, 0}).verdict, Verdict::NotComparable) << bad;
    EXPECT_FALSE(compare_estimates({100, 0}, {bad, 0}).same());
    EXPECT_FALSE(compare_estimates({100, 0}, {bad, 0}).differs());
  }
  for (const double bad : {-0.01, kNaN, kInf}) {
    EXPECT_EQ(compare_estimates({100, bad}, {100, 0}).verdict, Verdict::NotComparable) << bad;
    EXPECT_EQ(compare_estimates({100, 0}, {100, 0, 2, bad}).verdict, Verdict::NotComparable) << bad;
    EXPECT_EQ(compare_estimates({100, 0}, {100, 0}, bad).verdict, Verdict::NotComparable) << bad;
  }
  EXPECT_EQ(compare_estimates({100, 0, 0}, {100, 0}).verdict, Verdict::NotComparable);  // no rounds pooled
  // Rates so far apart that their ratio overflows still differ, in the right direction.
  EXPECT_EQ(compare_estimates({1e-300, 0}, {1e300, 0}).verdict, Verdict::Higher);
  EXPECT_EQ(compare_estimates({1e300, 0}, {1e-300, 0}).verdict, Verdict::Lower);
}

TEST(NoiseRule, PooledRatioIsTheGeometricMeanWithItsStandardError) {
  const std::vector<double> ratios = {0.9, 1 / 0.9};
  const Estimate e = pooled_ratio(ratios, 0.02);
  EXPECT_NEAR(e.value, 1.0, 1e-12);  // 10 % fast and 10 % slow average to 1
  EXPECT_EQ(e.rounds, 2u);
  EXPECT_DOUBLE_EQ(e.dispersion, 0.02);
  const double sd = std::sqrt(2 * std::log(0.9) * std::log(0.9));
  EXPECT_NEAR(e.standard_error, sd / std::sqrt(2.0), 1e-12);
  // One round: no spread to estimate from, and the pooled verdict is the single comparison's.
  const std::vector<double> one = {0.95};
  const Estimate single = pooled_ratio(one, 0.02);
  EXPECT_DOUBLE_EQ(single.standard_error, 0);
  const Significance paired = compare_estimates({1, 0.03, 1}, single);
  const Significance plain = compare_estimates({100, 0.03}, {95, 0.02});
  EXPECT_EQ(paired.verdict, plain.verdict);
  EXPECT_NEAR(paired.allowance, plain.allowance, 1e-15);
  EXPECT_NEAR(paired.change, plain.change, 1e-12);
  // Nothing to pool, or a ratio that is not a positive number: no value, so no verdict.
  EXPECT_EQ(compare_estimates({1, 0}, pooled_ratio({}, 0)).verdict, Verdict::NotComparable);
  const std::vector<double> broken = {1.0, 0.0};
  EXPECT_EQ(compare_estimates({1, 0}, pooled_ratio(broken, 0)).verdict, Verdict::NotComparable);
}

TEST(NoiseRule, VerdictWords) {
  EXPECT_EQ(verdict_word(compare_estimates({100, 0}, {110, 0})), "faster");
  EXPECT_EQ(verdict_word(compare_estimates({100, 0}, {90, 0})), "slower");
  EXPECT_EQ(verdict_word(compare_estimates({100, 0}, {100, 0})), "unchanged");
  EXPECT_EQ(verdict_word(compare_estimates({100, 0}, {100, 0}), "same"), "same");
  EXPECT_EQ(verdict_word(compare_estimates({100, 0}, {0, 0})), "-");
}

// ---- every user decides by the rule --------------------------------------------------------------

// A measured row without dispersion (every kept run the same).
BenchmarkResult flat_row(const std::string& id, double value) {
  auto r =
      test::measured_row(0, id, "bandwidth", test::kBytes, Statistic::Median, 1.0, {1e6, 0, 0}, "", {1, 1, 1, 1, 1});
  r.value = value;
  return r;
}

// Changes of half and one and a half floors: the first within the noise, the second beyond it.
const double kWithin = 1 + kNoiseFloor / 2;
const double kBeyond = 1 + 1.5 * kNoiseFloor;

TEST(NoiseRuleUsers, CompareJudgesRowsByIt) {
  Document a, b;
  a.rows = to_report_rows({flat_row("x", 100), flat_row("y", 100)});
  b.rows = to_report_rows({flat_row("x", 100 * kWithin), flat_row("y", 100 * kBeyond)});
  const Comparison c = compare_documents(a, b);
  ASSERT_EQ(c.rows.size(), 2u);
  EXPECT_FALSE(c.rows[0].significant);
  EXPECT_TRUE(c.rows[1].significant);
  for (const auto& r : c.rows) EXPECT_DOUBLE_EQ(r.noise, kNoiseFloor) << r.key;
  // With dispersion, the row's numbers are the rule's.
  const auto da = test::synthetic_rows(), db = test::synthetic_rows();
  Document noisy_a, noisy_b;
  noisy_a.rows = to_report_rows(da);
  auto rows_b = db;
  apply_test_perturbation(rows_b[1], {"read-linear", 1.015});
  noisy_b.rows = to_report_rows(rows_b);
  const CompareRow& rl = compare_documents(noisy_a, noisy_b).rows[1];
  const Significance d = compare_estimates({da[1].value, row_dispersion(da[1]).relative},
                                           {rows_b[1].value, row_dispersion(rows_b[1]).relative});
  EXPECT_DOUBLE_EQ(rl.noise, d.allowance);
  EXPECT_DOUBLE_EQ(rl.combined, d.dispersion);
  EXPECT_EQ(rl.significant, d.differs());
}

TEST(NoiseRuleUsers, ReproJudgesRowsByIt) {
  const ReproCheck within = compare_repro(flat_row("x", 100), flat_row("x", 100 * kWithin), 0);
  const ReproCheck beyond = compare_repro(flat_row("x", 100), flat_row("x", 100 * kBeyond), 0);
  EXPECT_EQ(within.verdict, "agree");
  EXPECT_EQ(beyond.verdict, "disagree");
  EXPECT_DOUBLE_EQ(within.allowed, kNoiseFloor);
  EXPECT_NEAR(beyond.difference, kBeyond - 1, 1e-12);
  // The sampler's tolerance raises the floor when it is coarser, never lowers it.
  EXPECT_EQ(compare_repro(flat_row("x", 100), flat_row("x", 100 * kBeyond), 2 * kNoiseFloor).verdict, "agree");
  EXPECT_DOUBLE_EQ(compare_repro(flat_row("x", 100), flat_row("x", 100), kNoiseFloor / 10).allowed, kNoiseFloor);
}

TEST(NoiseRuleUsers, ReproJudgesCurvePointsByIt) {
  auto curve = [](double second_value) {
    auto r = flat_row("host-stream-triad", 100);
    r.parameters = {{"series", nlohmann::json::array(
                                   {{{"name", "threads"},
                                     {"x", "threads"},
                                     {"points", nlohmann::json::array({
                                                    {{"threads", 1}, {"value", 100.0}, {"iqr_relative", 0.0}},
                                                    {{"threads", 2}, {"value", second_value}, {"iqr_relative", 0.0}},
                                                })}}})}};
    return r;
  };
  auto first = to_report_rows({curve(100)});
  const auto within = compare_points(first, to_report_rows({curve(100 * kWithin)}), 0);
  EXPECT_EQ(within.disagreeing, 0);
  first = to_report_rows({curve(100)});
  const auto beyond = compare_points(first, to_report_rows({curve(100 * kBeyond)}), 0);
  EXPECT_EQ(beyond.compared, 2);
  EXPECT_EQ(beyond.disagreeing, 1);
}

TEST(NoiseRuleUsers, TheBrowserPoolJudgesPairedRoundsByIt) {
  auto round = [](int i, double browser) {
    browser::Round r;
    r.index = i;
    r.native.rows = to_report_rows({flat_row("x", 100)});
    r.browser.rows = to_report_rows({flat_row("x", browser)});
    return r;
  };
  // Identical ratios in every round: no spread, no dispersion, so the floor decides.
  const auto within = browser::pool_rounds({round(1, 100 * kWithin), round(2, 100 * kWithin)}).rows.at(0);
  const auto beyond = browser::pool_rounds({round(1, 100 * kBeyond), round(2, 100 * kBeyond)}).rows.at(0);
  EXPECT_FALSE(within.significant);
  EXPECT_TRUE(beyond.significant);
  EXPECT_DOUBLE_EQ(within.noise, kNoiseFloor);
  // With spread between rounds, the pooled numbers are the rule's on the pooled ratio.
  const auto spread = browser::pool_rounds({round(1, 95), round(2, 99), round(3, 97)}).rows.at(0);
  const std::vector<double> ratios = {0.95, 0.99, 0.97};
  const Significance d = compare_estimates({1, 0, 3}, pooled_ratio(ratios, 0));
  EXPECT_NEAR(spread.noise, d.allowance, 1e-12);
  EXPECT_EQ(spread.significant, d.differs());
}

TEST(NoiseRuleUsers, TheServersComparePageJudgesRowsByIt) {
  auto stored = [](std::int64_t id, double x, double y) {
    auto doc = test::synthetic_document();
    doc.rows() = to_report_rows({flat_row("x", x), flat_row("y", y)});
    doc.refresh();
    store::StoredRun run;
    run.summary.id = id;
    run.summary.suite = "default";
    run.document = doc.json();
    return run;
  };
  const std::string page = store::html::compare_page(stored(1, 100, 100), stored(2, 100 * kWithin, 100 * kBeyond));
  const std::string noise = fmt::format("<div class=\"why\">noise {:.1f}%</div>", 100 * kNoiseFloor);
  const auto x = page.find(">x</a>"), y = page.find(">y</a>");
  ASSERT_NE(x, std::string::npos) << page;
  ASSERT_NE(y, std::string::npos) << page;
  EXPECT_NE(page.find("<td>unchanged" + noise + "</td>", x), std::string::npos) << page.substr(x, 600);
  EXPECT_LT(page.find("<td>unchanged" + noise + "</td>", x), y);
  EXPECT_NE(page.find("<td>faster" + noise + "</td>", y), std::string::npos) << page.substr(y, 600);
}

}  // namespace
}  // namespace wgb::report
