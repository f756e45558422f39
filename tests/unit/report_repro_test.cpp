// The reproducibility check at the document level (no GPU): an identical second run passes, a
// perturbed row is flagged by the documented rule, and the second process's arguments are right.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "report/document.hpp"
#include "report/repro.hpp"
#include "tests/golden/synthetic.hpp"

namespace wgb::report {
namespace {

TEST(Repro, UnperturbedSecondRunPasses) {
  auto first = to_report_rows(test::synthetic_rows());
  const auto second = to_report_rows(test::synthetic_rows());
  const auto s = apply_repro(first, second, 0.01);
  EXPECT_EQ(s.verdict, "pass");
  EXPECT_TRUE(s.disagreeing.empty());
  for (const auto& r : first) {
    ASSERT_TRUE(r.repro);
    if (has_rate(r.result)) {
      EXPECT_EQ(r.repro->verdict, "agree") << r.result.id;
      EXPECT_DOUBLE_EQ(r.repro->ratio, 1.0);
    } else {
      EXPECT_EQ(r.repro->verdict, "not-compared") << r.result.id;
    }
  }
}

TEST(Repro, PerturbedRowIsTheOnlyOneFlagged) {
  auto first = to_report_rows(test::synthetic_rows());
  auto second_rows = test::synthetic_rows();
  const TestPerturbation p{"read-linear", 1.5};
  int applied = 0;
  for (auto& r : second_rows) applied += apply_test_perturbation(r, p) ? 1 : 0;
  ASSERT_EQ(applied, 1);
  const auto s = apply_repro(first, to_report_rows(second_rows), 0.01);
  EXPECT_EQ(s.verdict, "fail");
  EXPECT_EQ(s.disagreeing, std::vector<std::string>{"read-linear"});
  for (const auto& r : first) {
    if (r.result.id != "read-linear") continue;
    EXPECT_EQ(r.repro->verdict, "disagree");
    EXPECT_NEAR(r.repro->ratio, 1 / 1.5, 1e-12);
    EXPECT_NEAR(r.repro->difference, 1 - 1 / 1.5, 1e-12);  // the second rate against the first
  }
}

TEST(Repro, DisagreeingMeasuredRowBecomesSuspectWithTheReason) {
  auto first = to_report_rows(test::synthetic_rows());
  auto second_rows = test::synthetic_rows();
  for (auto& r : second_rows) apply_test_perturbation(r, TestPerturbation{"read-linear", 2.0});
  apply_repro(first, to_report_rows(second_rows), 0.01);
  for (const auto& r : first) {
    if (r.result.id == "read-linear") {
      EXPECT_EQ(r.result.status, RowStatus::Suspect);
      EXPECT_NE(r.result.message.find("the second process disagrees"), std::string::npos) << r.result.message;
    } else {
      EXPECT_NE(r.result.status, RowStatus::Suspect) << r.result.id;
    }
  }
}

// Two rates and their dispersions as --repro judges them (docs/method.md#differ).
bool rates_agree(double v1, double v2, double d1, double d2) {
  return compare_estimates({v1, d1}, {v2, d2}, kNoiseFloor).same();
}

TEST(Repro, RatesAgreeWithinTheCombinedRelativeDispersion) {
  EXPECT_TRUE(rates_agree(100, 104, 0.05, 0.01));
  EXPECT_TRUE(rates_agree(100, 104, 0.01, 0.05));
  EXPECT_FALSE(rates_agree(100, 104, 0.01, 0.02));   // 4 % beyond sqrt(1 % ^ 2 + 2 % ^ 2) = 2.24 %
  EXPECT_TRUE(rates_agree(100, 103.5, 0.025, 0.025));  // within 3.54 %, beyond the larger (2.5 %)
  EXPECT_TRUE(rates_agree(100, 100.5, 0, 0));        // the floor
  EXPECT_FALSE(rates_agree(100, 0, 0.5, 0.5));       // a zero rate never agrees
}

TEST(Repro, CurvePointsAreMatchedBySeriesAndXAndJudgedByTheSameRule) {
  BenchmarkResult a = test::measured_row(0, "host-stream-triad", "host", test::kBytes, Statistic::Median, 1.0, {1e6, 0, 0});
  auto points = [](double second_value) {
    return nlohmann::json{{"series", nlohmann::json::array({{{"name", "threads"},
                                                              {"x", "threads"},
                                                              {"points", nlohmann::json::array({
                                                                             {{"threads", 1}, {"value", 100.0}, {"iqr_relative", 0.02}, {"time_ms", 5.0}},
                                                                             {{"threads", 2}, {"value", second_value}, {"iqr_relative", 0.02}, {"time_ms", 2.5}},
                                                                         })}}})}};
  };
  a.parameters = points(200.0);
  BenchmarkResult b = a;
  b.parameters = points(300.0);  // the second point 50 % apart, the first the same
  b.parameters["series"][0]["points"][0]["time_ms"] = 5.1;
  auto first = to_report_rows({a});
  const auto out = compare_points(first, to_report_rows({b}), 0.01);
  EXPECT_EQ(out.compared, 2);
  EXPECT_EQ(out.disagreeing, 1);
  const auto& p = first[0].result.parameters["series"][0]["points"];
  EXPECT_TRUE(p[0]["repro_agree"].get<bool>());
  EXPECT_DOUBLE_EQ(p[0]["repro_second_ms"].get<double>(), 5.1);
  EXPECT_FALSE(p[1]["repro_agree"].get<bool>());
}

// A version 2 host document's rows carry the old per-pass-time comparison: it still reads, as a verdict.
TEST(Repro, VersionTwoHostRowsReadWithTheirVerdict) {
  auto j = to_json(test::measured_row(0, "host-stream-triad", "host", test::kBytes, Statistic::Median, 1.0, {1e6, 0, 0}));
  j["repro"] = {{"first_ms", 1.0}, {"second_ms", 1.3}, {"dispersion_ms", 0.1}, {"agree", false}, {"rule", "|a - b| <= IQR"}};
  auto row = row_from_json(j);
  ASSERT_TRUE(row) << row.error().message;
  ASSERT_TRUE(row->repro);
  EXPECT_EQ(row->repro->verdict, "disagree");
  EXPECT_DOUBLE_EQ(row->repro->second_time_ms, 1.3);
  EXPECT_NEAR(row->repro->difference, 0.3, 1e-12);  // the second run's time 30 % longer
  EXPECT_NEAR(row->repro->allowed, 0.1, 1e-12);     // the IQR, relative to the first run's time
  EXPECT_NEAR(row->repro->ratio, 1 / 1.3, 1e-12);
  j["repro"]["agree"] = true;
  EXPECT_EQ(row_from_json(j)->repro->verdict, "agree");
}

TEST(Repro, RuleCombinesTheDispersionsAndTheFloor) {
  const auto base = test::measured_row(0, "x", "bandwidth", test::kBytes, Statistic::Median, 1.0, {1e6, 0, 0});
  const double d = row_dispersion(base).relative;  // IQR / median of the fixed spread
  ASSERT_GT(d, 0.005);
  const double allowed = std::hypot(d, d);  // both runs report d
  ASSERT_GT(allowed, kNoiseFloor);
  // The second run's rate (1 + x) times the first's: its times divided by 1 + x.
  auto faster = [&](double x) {
    auto r = base;
    apply_test_perturbation(r, {"x", 1 / (1 + x)});
    return r;
  };
  // Just inside and just outside the allowed difference.
  EXPECT_EQ(compare_repro(base, faster(allowed * 0.99), 0.0).verdict, "agree");
  EXPECT_EQ(compare_repro(base, faster(allowed * 1.01), 0.0).verdict, "disagree");
  EXPECT_NEAR(compare_repro(base, faster(allowed * 1.01), 0.0).allowed, allowed, 1e-12);
  // A coarser tolerance raises the floor.
  EXPECT_EQ(compare_repro(base, faster(allowed * 1.5), 2 * allowed).verdict, "agree");
  // A wider second run widens the allowance: it reports more dispersion.
  auto noisy = test::measured_row(0, "x", "bandwidth", test::kBytes, Statistic::Median, 1.0 * (1 + 2 * d), {1e6, 0, 0}, "",
                                  {0.7, 1.0, 1.3, 0.8, 1.2});
  EXPECT_EQ(compare_repro(base, noisy, 0.0).verdict, "agree");
}

TEST(Repro, StatusMismatchAndMissingRowsDisagree) {
  auto first = to_report_rows(test::synthetic_rows());
  auto second = test::synthetic_rows();
  second[1].status = RowStatus::Error;  // read-linear
  second[1].value = 0;
  second[1].message = "validation failed";
  second.pop_back();  // memory-sustain missing
  const auto s = apply_repro(first, to_report_rows(second), 0.01);
  EXPECT_EQ(s.verdict, "fail");
  EXPECT_EQ(s.disagreeing, (std::vector<std::string>{"read-linear", "memory-sustain"}));
  EXPECT_NE(first[1].repro->reason.find("one run only"), std::string::npos);
  EXPECT_EQ(first.back().repro->second_status, "missing");
}

TEST(Repro, IncompleteMarksEveryRowNotCompared) {
  auto first = to_report_rows(test::synthetic_rows());
  const auto s = repro_incomplete(first, "the second process crashed", 0.01);
  EXPECT_EQ(s.verdict, "incomplete");
  for (const auto& r : first) EXPECT_EQ(r.repro->verdict, "not-compared");
  EXPECT_EQ(repro_summary_json(s)["reason"], "the second process crashed");
}

TEST(Repro, TheSecondProcessNeitherWritesCsvNorSubmits) {
  const auto a = second_run_arguments({"host", "--quick", "--csv", "rows.csv", "--submit", "http://h:1", "--submit-token",
                                       "t", "--repro", "--json", "out.json"},
                                      "/tmp/x.json");
  EXPECT_EQ(a, (std::vector<std::string>{"host", "--quick", "--json", "/tmp/x.json", "--quiet", kSecondRunFlag}));
  const auto b = second_run_arguments({"run", "--device", "host", "--csv=r.csv", "--submit=http://h:1", "--token", "t"},
                                      "/tmp/y.json");
  EXPECT_EQ(b, (std::vector<std::string>{"run", "--device", "host", "--json", "/tmp/y.json", "--quiet", kSecondRunFlag}));
}

TEST(Repro, SecondRunArgumentsDropReproOutputsAndQuiet) {
  const std::vector<std::string> args{"run", "--repro", "--json", "a.json", "--csv=a.csv", "-q", "--filter", "read-*",
                                      "--bandwidth-mib", "1", "--json=b.json", "--quiet", "--submit", "http://h:1",
                                      "--submit-token", "t", "--submit=http://h:2"};
  const auto out = second_run_arguments(args, "/tmp/x.json");
  EXPECT_EQ(out, (std::vector<std::string>{"run", "--filter", "read-*", "--bandwidth-mib", "1", "--json", "/tmp/x.json",
                                            "--quiet", "--repro-second-run"}));
}

TEST(Repro, PerturbationFromEnvironment) {
  unsetenv(kPerturbEnv);
  auto none = test_perturbation_from_env();
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none);
  setenv(kPerturbEnv, "read-linear=2.5", 1);
  auto p = test_perturbation_from_env();
  ASSERT_TRUE(p && *p);
  EXPECT_EQ((*p)->id, "read-linear");
  EXPECT_DOUBLE_EQ((*p)->factor, 2.5);
  for (const char* bad : {"read-linear", "=2", "read-linear=", "read-linear=x", "read-linear=-1"}) {
    setenv(kPerturbEnv, bad, 1);
    auto e = test_perturbation_from_env();
    ASSERT_FALSE(e) << bad;
    EXPECT_EQ(e.error().kind, ErrorKind::Usage);
  }
  unsetenv(kPerturbEnv);
}

TEST(Repro, PerturbationScalesEveryTimeAndSaysSo) {
  auto r = test::synthetic_rows()[1];
  const auto before = r;
  ASSERT_TRUE(apply_test_perturbation(r, {"read-linear", 2}));
  EXPECT_DOUBLE_EQ(r.time_ms, 2 * before.time_ms);
  EXPECT_DOUBLE_EQ(r.value, before.value / 2);
  EXPECT_DOUBLE_EQ(r.stats.iqr, 2 * before.stats.iqr);
  EXPECT_DOUBLE_EQ(row_dispersion(r).relative, row_dispersion(before).relative);
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes.back().find("TEST-ONLY"), std::string::npos);
  auto other = test::synthetic_rows()[0];
  EXPECT_FALSE(apply_test_perturbation(other, {"read-linear", 2}));
}

}  // namespace
}  // namespace wgb::report
