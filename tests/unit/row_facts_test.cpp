// The typed reading of a row's parameters (report/facts.hpp): what readers interpret, a field of the
// wrong type refused with its path, the curves and their points, and the facts written back.
#include <gtest/gtest.h>

#include "report/facts.hpp"

namespace wgb::report {
namespace {

TEST(RowFacts, ReadsWhatReadersInterpret) {
  auto f = read_row_facts({{"peak_class", "memory"},
                           {"access", "linear"},
                           {"footprint_bytes", 134217728},
                           {"operand_bits", 16},
                           {"launch_ms", 0.004},
                           {"dispatches_per_repetition", 2},
                           {"working_set_bytes", 1024},
                           {"buffers", 2},
                           {"something_else", {{"kept", true}}}});
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->peak_class, "memory");
  EXPECT_EQ(f->access, "linear");
  EXPECT_EQ(f->footprint_bytes, 134217728.0);
  EXPECT_EQ(f->operand_bits, 16);
  EXPECT_EQ(f->launch_ms, 0.004);
  EXPECT_EQ(f->dispatches_per_repetition, 2.0);
  EXPECT_EQ(f->working_set_bytes, 1024.0);
  EXPECT_EQ(f->buffers, 2.0);
  EXPECT_TRUE(f->curves.empty());
}

TEST(RowFacts, AbsentFieldsReadAsTheirDefaults) {
  auto f = read_row_facts(nullptr);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->peak_class, "");
  EXPECT_FALSE(f->footprint_bytes);
  EXPECT_FALSE(f->launch_ms);
  EXPECT_EQ(f->operand_bits, 32);
  EXPECT_EQ(f->dispatches_per_repetition, 1.0);
}

TEST(RowFacts, AFieldOfTheWrongTypeIsRefusedWithItsPath) {
  auto a = read_row_facts({{"footprint_bytes", "128 MiB"}});
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().message, "parameters.footprint_bytes is not a number");
  auto b = read_row_facts({{"series", {{{"name", "threads"}, {"points", {{{"threads", 1}}, {{"valid", "yes"}}}}}}}});
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().message, "parameters.series[0].points[1].valid is not true or false");
  auto c = read_row_facts(nlohmann::json::array());
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().message, "parameters is not an object");
  BenchmarkResult row;
  row.parameters = {{"peak_class", 3}};
  EXPECT_EQ(row_facts(row).peak_class, "");  // a row this program wrote: malformed facts read as none
}

nlohmann::json curve_row_parameters() {
  return {{"series",
           {{{"name", "working_set"},
             {"x", "working_set_bytes"},
             {"statistic", "median"},
             {"threads", 2},
             {"cache_boundaries", {{{"level", 1}, {"total_bytes", 65536}}}},
             {"points",
              {{{"working_set_bytes", 4096}, {"value", 1e9}, {"time_ms", 0.5}, {"valid", true}},
               {{"working_set_bytes", 8192},
                {"value", 2e9},
                {"time_ms", 0.6},
                {"clock_mhz", 3000.5},
                {"valid", false}}}}}}}};
}

TEST(RowFacts, CurvesAndTheirPointsRead) {
  auto f = read_row_facts(curve_row_parameters());
  ASSERT_TRUE(f) << f.error().message;
  ASSERT_EQ(f->curves.size(), 1u);
  const Curve& c = f->curves[0];
  EXPECT_EQ(c.name, "working_set");
  EXPECT_EQ(c.statistic, "median");
  EXPECT_EQ(c.threads, 2.0);
  ASSERT_TRUE(c.cache_boundaries);
  ASSERT_EQ(c.cache_boundaries->size(), 1u);
  EXPECT_EQ((*c.cache_boundaries)[0].level, 1);
  EXPECT_EQ((*c.cache_boundaries)[0].total_bytes, 65536.0);
  ASSERT_EQ(c.points.size(), 2u);
  EXPECT_EQ(c.points[1].at(c.x), 8192.0);
  EXPECT_EQ(c.points[1].value, 2e9);
  EXPECT_EQ(c.points[1].valid, false);
  EXPECT_EQ(c.points[1].clock_mhz, 3000.5);
  EXPECT_FALSE(c.points[0].repro_agree);
  EXPECT_FALSE(c.points[0].at("threads"));
}

TEST(RowFacts, APointsRateRangeIncludesItsOwnRate) {
  CurvePoint p;
  EXPECT_EQ(p.rate_range(), std::make_pair(0.0, 0.0));  // no range recorded
  p.value = 2.57e12;                                    // a minimum-time point: above its IQR
  p.value_iqr = std::make_pair(1.6e12, 1.8e12);
  EXPECT_EQ(p.rate_range(), std::make_pair(1.6e12, 2.57e12));
  p.value = 1.7e12;  // inside: unchanged
  EXPECT_EQ(p.rate_range(), std::make_pair(1.6e12, 1.8e12));
}

TEST(RowFacts, FactsWrittenAfterTheWorkloadReadBack) {
  BenchmarkResult row;
  row.parameters = curve_row_parameters();
  row.parameters["launch_ms"] = 0.001;
  set_launch_share(row, 0.004);
  set_point_repro(row, 0, 1, 0.61, true);
  EXPECT_DOUBLE_EQ(row.parameters["launch_share"].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(row.parameters["dispatch_ms"].get<double>(), 0.004);
  const auto f = row_facts(row);
  EXPECT_EQ(f.curves[0].points[1].repro_second_ms, 0.61);
  EXPECT_EQ(f.curves[0].points[1].repro_agree, true);
  EXPECT_FALSE(f.curves[0].points[0].repro_second_ms);
}

TEST(RowFacts, ASweepsPointIsWrittenAndReadBack) {
  BenchmarkResult row;
  set_sweep_point(row, {"size", 1u << 20, "--size"});
  const auto point = sweep_point(row.parameters);
  ASSERT_TRUE(point);
  EXPECT_EQ(point->parameter, "size");
  EXPECT_EQ(point->value, 1u << 20);
  EXPECT_EQ(point->option, "--size");
  ASSERT_TRUE(row_facts(row).sweep);
  EXPECT_EQ(row_facts(row).sweep->value, 1u << 20);
  // A row that is not a sweep's, and a malformed point, have none; the malformed one is an error.
  EXPECT_FALSE(sweep_point(nlohmann::json::object()));
  EXPECT_FALSE(sweep_point(nlohmann::json(nullptr)));
  row.parameters["sweep"]["value"] = -4;
  EXPECT_FALSE(sweep_point(row.parameters));
  const auto facts = read_row_facts(row.parameters);
  ASSERT_FALSE(facts);
  EXPECT_EQ(facts.error().message, "parameters.sweep.value is not a non-negative integer");
}

TEST(RowFacts, PrecisionAndTheUnrankedMarkRead) {
  const auto f = read_row_facts({{"precision", "f64"}, {"unranked", true}, {"unranked_reason", "capped"}});
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->precision, "f64");
  EXPECT_EQ(f->unranked, true);
  EXPECT_EQ(f->unranked_reason, "capped");
  EXPECT_FALSE(read_row_facts({{"unranked", "yes"}}));
}

TEST(RowFacts, AnUnrankedRunsRowsSaySo) {
  nlohmann::json doc = {
      {"rows", {{{"id", "a"}}, {{"id", "b"}, {"parameters", {{"cv", 0.01}}}}, {{"id", "c"}, {"parameters", nullptr}}}}};
  mark_rows_unranked(doc);
  EXPECT_EQ(doc["rows"][0]["parameters"]["unranked"], true);
  EXPECT_EQ(doc["rows"][1]["parameters"]["unranked"], true);
  EXPECT_EQ(doc["rows"][1]["parameters"]["cv"], 0.01);
  EXPECT_TRUE(doc["rows"][2]["parameters"].is_null());  // as recorded: not an object to write into
  const auto facts = read_row_facts(doc["rows"][1]["parameters"]);
  ASSERT_TRUE(facts);
  EXPECT_EQ(facts->unranked, true);
  nlohmann::json none = nlohmann::json::array();
  mark_rows_unranked(none);  // not a document: left alone
  EXPECT_TRUE(none.empty());
}

}  // namespace
}  // namespace wgb::report
