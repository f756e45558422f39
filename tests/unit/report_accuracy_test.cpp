// A row's accuracy as the reports carry it (src/report/accuracy.hpp, accuracy_html.cpp): typed
// fields that survive the JSON round trip (infinities and NaN included), a reader that names a field
// of the wrong type, the console table within its width with every finding and its input, and the
// HTML report's chart and table.
#include "report/accuracy.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "report/document.hpp"
#include "report/html.hpp"
#include "tests/golden/synthetic.hpp"

namespace wgb::report {
namespace {

BuiltinAccuracy within_entry() {
  BuiltinAccuracy e;
  e.builtin = "sqrt(x)";
  e.type = e.result_type = "f32";
  e.range = "x >= 0";
  e.kernel = "accuracy/sqrt";
  e.wgsl_hash = "0123456789abcdef";
  e.inputs = 1000;
  e.correctly_rounded = 990;
  e.max_error = e.max_ulp = 0.75;
  e.mean_error = e.mean_ulp = 0.25;
  e.worst = {{2.0}, 1.4142136, 1.41421356237, 0.75, {1.4142, 1.4143}};
  e.bound = "inherited from 1.0 / inverseSqrt(x)";
  e.within = true;
  return e;
}

BuiltinAccuracy outside_entry() {
  BuiltinAccuracy e;
  e.builtin = "sin(x)";
  e.type = e.result_type = "f16";
  e.range = "[-pi, pi]";
  e.unit = "absolute";
  e.inputs = 33000;
  e.excluded = 2;
  e.nonfinite = 1;
  e.max_error = INFINITY;
  e.max_ulp = INFINITY;
  e.mean_error = 1e-3;
  e.worst = {{3.140625}, NAN, 0.00096765, INFINITY, {-0.0068, 0.0088}};
  e.bound = "absolute error <= 2^-7 inside [-pi, pi]";
  e.bound_value = 0x1p-7;
  e.within = false;
  e.violations = 3;
  e.worst_violation = e.worst;
  return e;
}

BuiltinAccuracy skipped_entry() {
  BuiltinAccuracy e;
  e.builtin = "x / y";
  e.type = e.result_type = "f16";
  e.range = "2^-14<=|y|<=2^14";
  e.status = "skipped";
  e.reason = "the adapter lacks the 'shader-f16' feature";
  return e;
}

ResultDocument document_with_accuracy() {
  ResultDocument doc = test::synthetic_document();
  auto& rows = doc.rows();
  rows[0].result.accuracy = {within_entry(), outside_entry(), skipped_entry()};
  doc.refresh();
  return doc;
}

TEST(ReportAccuracy, EntriesRoundTripThroughJsonWithNonFiniteValues) {
  const std::vector<BuiltinAccuracy> entries = {within_entry(), outside_entry(), skipped_entry()};
  const auto j = accuracy_json(entries);
  EXPECT_EQ(j[1]["max_error"], "inf");
  EXPECT_EQ(j[1]["worst"]["output"], "nan");
  EXPECT_TRUE(j[0]["bound_value"].is_null());
  EXPECT_EQ(j[1]["within"], false);
  EXPECT_TRUE(j[2]["within"].is_null());
  auto back = accuracy_from_json(j);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(accuracy_json(*back), j);
  EXPECT_TRUE(std::isnan((*back)[1].worst.output));
  EXPECT_TRUE(std::isinf((*back)[1].max_error));
}

TEST(ReportAccuracy, TheRowCarriesItsEntriesThroughTheDocument) {
  const ResultDocument doc = document_with_accuracy();
  const auto& j = doc.json()["rows"][0];
  ASSERT_TRUE(j.contains("accuracy"));
  EXPECT_EQ(j["accuracy"].size(), 3u);
  EXPECT_FALSE(doc.json()["rows"][1].contains("accuracy"));  // only rows that carry entries
  auto row = row_from_json(j);
  ASSERT_TRUE(row) << row.error().message;
  EXPECT_EQ(row->result.accuracy.size(), 3u);
  EXPECT_EQ(to_json(*row), j);
}

TEST(ReportAccuracy, AFieldOfTheWrongTypeIsNamed) {
  auto j = accuracy_json({within_entry()});
  j[0]["max_ulp"] = "lots";
  auto back = accuracy_from_json(j);
  ASSERT_FALSE(back);
  EXPECT_NE(back.error().message.find("accuracy[0].max_ulp"), std::string::npos) << back.error().message;
  j = accuracy_json({within_entry()});
  j[0]["worst"]["input"] = "x";
  back = accuracy_from_json(j);
  ASSERT_FALSE(back);
  EXPECT_NE(back.error().message.find("accuracy[0].worst.input"), std::string::npos) << back.error().message;
  nlohmann::json row = document_with_accuracy().json()["rows"][0];
  row["accuracy"] = 3;
  EXPECT_FALSE(row_from_json(row));
}

TEST(ReportAccuracy, TheTableFitsItsWidthAndStatesEveryFindingWithItsInput) {
  const ResultDocument doc = document_with_accuracy();
  for (const std::size_t width : {80u, 100u, 140u}) {
    std::ostringstream out;
    write_accuracy_table(out, doc.rows(), width);
    const std::string text = out.str();
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), width) << line;
    EXPECT_NE(text.find("OUTSIDE"), std::string::npos) << text;
    EXPECT_NE(text.find("x = 3.140625"), std::string::npos) << text;  // the finding's input
    EXPECT_NE(text.find("lacks the 'shader-f16' feature"), std::string::npos) << text;
    EXPECT_NE(text.find("2^-7 abs"), std::string::npos) << text;
    if (width == 80) {
      EXPECT_NE(text.find("left out to fit 80 columns: mean"), std::string::npos) << text;
    }
    if (width == 140) {
      EXPECT_EQ(text.find("left out"), std::string::npos) << text;
    }
  }
  std::ostringstream none;
  write_accuracy_table(none, test::synthetic_document().rows(), 100);
  EXPECT_EQ(none.str(), "");
}

TEST(ReportAccuracy, TheHtmlReportDrawsAccuracyAgainstTheRate) {
  const ResultDocument doc = document_with_accuracy();
  auto read = read_document(doc.json(), "acc.json");
  ASSERT_TRUE(read) << read.error().message;
  std::ostringstream html;
  write_html(html, {*read});
  const std::string s = html.str();
  EXPECT_NE(s.find("Accuracy beside speed"), std::string::npos);
  EXPECT_NE(s.find("id=\"accuracy-chart\""), std::string::npos);
  EXPECT_NE(s.find("error in ULPs (log)"), std::string::npos);
  EXPECT_NE(s.find("OUTSIDE"), std::string::npos);
  EXPECT_NE(s.find("shader-f16"), std::string::npos);
  EXPECT_EQ(s.find("<script"), std::string::npos);
}

}  // namespace
}  // namespace wgb::report
