// The browser-against-native comparison: which native adapter is the browser's, and the pooling of
// per-round comparisons (geometric mean, standard error, significance, outputs).
#include "browser/against_native.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

namespace wgb::browser {
namespace {

using nlohmann::json;

// The adapters as the page and `devices --json` write them, read as the driver reads them.
std::optional<std::size_t> match(const json& browser_adapter, const json& native_devices) {
  return match_native_adapter(report::read_adapter_identity(browser_adapter), report::read_adapter_list(native_devices));
}

const json kSwiftShaderNative = json::array(
    {{{"index", 0}, {"vendor", "google"}, {"architecture", "swiftshader"}, {"device", "SwiftShader Device (Subzero)"},
      {"description", "SwiftShader driver 5.0.0"}}});

TEST(MatchNativeAdapter, SameVendorAndArchitecture) {
  const json browser = {{"vendor", "google"}, {"architecture", "swiftshader"}, {"device", ""},
                        {"description", "SwiftShader Device (Subzero)"}};
  EXPECT_EQ(match(browser, kSwiftShaderNative), std::optional<std::size_t>(0));
  EXPECT_TRUE(is_swiftshader(report::read_adapter_identity(browser)));
}

TEST(MatchNativeAdapter, AnotherVendorIsNoMatch) {
  json lavapipe = kSwiftShaderNative;
  lavapipe[0]["vendor"] = "mesa";
  lavapipe[0]["architecture"] = "llvmpipe";
  const json browser = {{"vendor", "google"}, {"architecture", "swiftshader"}, {"description", "SwiftShader"}};
  EXPECT_EQ(match(browser, lavapipe), std::nullopt);
  EXPECT_EQ(match(browser, json::object()), std::nullopt);
}

TEST(MatchNativeAdapter, TheNamedDeviceAmongTwoOfOneArchitecture) {
  json two = json::array({{{"index", 0}, {"vendor", "nvidia"}, {"architecture", "ada"}, {"device", "RTX 4090"}},
                          {{"index", 1}, {"vendor", "nvidia"}, {"architecture", "ada"}, {"device", "RTX 4060"}}});
  EXPECT_EQ(match({{"vendor", "nvidia"}, {"architecture", "ada"}, {"device", "rtx 4060"}}, two),
            std::optional<std::size_t>(1));
  // Two candidates and a name that fits neither: no guess.
  EXPECT_EQ(match({{"vendor", "nvidia"}, {"architecture", "ada"}, {"device", "RTX 4080"}}, two),
            std::nullopt);
  // A browser that hides the device name: vendor and architecture decide (the first).
  EXPECT_EQ(match({{"vendor", "nvidia"}, {"architecture", "ada"}}, two), std::optional<std::size_t>(0));
}

BenchmarkResult row(const std::string& id, double value, const std::string& validation = "sum matches") {
  BenchmarkResult r;
  r.id = id;
  r.metric.unit = "B";
  r.status = RowStatus::Ok;
  r.statistic = Statistic::Best;
  r.value = value;
  r.stats.cv = 0.002;
  r.wgsl_hash = "abc";
  r.validation = validation;
  return r;
}

report::Document doc(std::vector<BenchmarkResult> rows) {
  report::Document d;
  d.rows = report::to_report_rows(rows);
  return d;
}

Round round(int i, double browser_a, double native_a, double browser_b = 100, double native_b = 100) {
  Round r;
  r.index = i;
  r.browser_wall_s = 12;
  r.native_wall_s = 10;
  r.browser = doc({row("a", browser_a), row("b", browser_b)});
  r.native = doc({row("a", native_a), row("b", native_b)});
  return r;
}

TEST(PoolRounds, GeometricMeanAndStandardErrorOfTheRatios) {
  // Ratios 0.9 and 1/0.9: a symmetric spread around 1 in log terms.
  const std::vector<Round> rounds = {round(1, 90, 100), round(2, 100, 90)};
  const Pooled p = pool_rounds(rounds);
  ASSERT_EQ(p.rows.size(), 2u);
  const PooledRow& a = p.rows[0];
  EXPECT_EQ(a.key, "a");
  EXPECT_EQ(a.rounds, 2u);
  EXPECT_NEAR(a.geomean, 1.0, 1e-12);
  const double sd = std::sqrt(2 * std::log(0.9) * std::log(0.9));  // sample sd of {log .9, -log .9}
  EXPECT_NEAR(a.se, sd / std::sqrt(2.0), 1e-12);
  EXPECT_FALSE(a.significant);
  EXPECT_EQ(a.significant_rounds, 2u);  // each round alone differs by 10 %, beyond its 0.3 % dispersion
  EXPECT_DOUBLE_EQ(p.browser_wall_s, 24);
  EXPECT_DOUBLE_EQ(p.native_wall_s, 20);
}

TEST(PoolRounds, AConsistentSlowdownIsSignificant) {
  const std::vector<Round> rounds = {round(1, 95, 100), round(2, 95.5, 100), round(3, 94.5, 100)};
  const PooledRow a = pool_rounds(rounds).rows[0];
  EXPECT_NEAR(a.geomean, std::cbrt(0.95 * 0.955 * 0.945), 1e-12);
  EXPECT_TRUE(a.significant);
  EXPECT_DOUBLE_EQ(a.native_rate, 100);
  EXPECT_DOUBLE_EQ(a.browser_rate, 95);
}

TEST(PoolRounds, OneRoundIsJudgedAsCompareJudgesIt) {
  // 5 % slower, but each side's dispersion is 10 %: compare calls it unchanged, so does the pool.
  Round r = round(1, 95, 100);
  r.browser.rows[0].result.stats.cv = 0.1;
  r.native.rows[0].result.stats.cv = 0.1;
  const PooledRow a = pool_rounds({r}).rows[0];
  EXPECT_EQ(a.significant_rounds, 0u);
  EXPECT_FALSE(a.significant);
  EXPECT_NEAR(a.noise, std::hypot(0.1, 0.1), 1e-12);
}

TEST(PoolRounds, WithinTheNoiseFloorIsTheSame) {
  const PooledRow a = pool_rounds({round(1, 99.5, 100), round(2, 99.6, 100)}).rows[0];
  EXPECT_FALSE(a.significant);  // 0.45 % < 1 %
}

TEST(PoolRounds, ErrorRowsAreCountedButNotMeasuredAndOutputsCompare) {
  Round r = round(1, 90, 100);
  r.browser.rows[1].result.status = RowStatus::Error;
  r.browser.rows[1].result.value = 0;
  r.browser.rows[0].result.validation = "sum differs";
  const Pooled p = pool_rounds({r});
  EXPECT_EQ(p.rows[0].outputs.rfind("differ", 0), 0u) << p.rows[0].outputs;
  EXPECT_EQ(p.rows[1].rounds, 0u);
  EXPECT_EQ(p.rows[1].status_browser, "error");
  EXPECT_DOUBLE_EQ(p.rows[0].geomean, 0.9);
  EXPECT_DOUBLE_EQ(p.rows[1].geomean, 0);
}

TEST(WithoutNumbers, EveryNumberBecomesOneMark) {
  EXPECT_EQ(without_numbers("32 invocations matched at 22 loop trips (worst relative error 4.8e-07)"),
            "# invocations matched at # loop trips (worst relative error #e-#)");
  EXPECT_EQ(without_numbers("no digits here"), "no digits here");
  EXPECT_EQ(without_numbers(""), "");
  EXPECT_NE(without_numbers("matched 12"), without_numbers("differed 12"));
}

TEST(PoolRounds, OutputsAgreeAcrossDifferentCalibratedLoopCounts) {
  Round r = round(1, 100, 100);
  r.browser.rows[0].result.knob = 22;
  r.browser.rows[0].result.validation = "32 invocations matched at 22 loop trips (worst relative error 4.8e-07)";
  r.native.rows[0].result.knob = 12;
  r.native.rows[0].result.validation = "32 invocations matched at 12 loop trips (worst relative error 1e-07)";
  EXPECT_EQ(pool_rounds({r}).rows[0].outputs, "agree");
  r.native.rows[0].result.validation = "32 invocations differed at 12 loop trips";
  EXPECT_EQ(pool_rounds({r}).rows[0].outputs.rfind("differ", 0), 0u);
  // The same loop count: the same inputs, so the same numbers.
  r.native.rows[0].result.knob = 22;
  r.native.rows[0].result.validation = "32 invocations matched at 22 loop trips (worst relative error 9.9e-07)";
  EXPECT_EQ(pool_rounds({r}).rows[0].outputs.rfind("differ", 0), 0u);
}

TEST(PoolRounds, RowsInOneSideOnlyAreNamed) {
  Round r = round(1, 100, 100);
  r.browser.rows.pop_back();
  const Pooled p = pool_rounds({r});
  ASSERT_EQ(p.only_native.size(), 1u);
  EXPECT_EQ(p.only_native[0], "b");
}

}  // namespace
}  // namespace wgb::browser
