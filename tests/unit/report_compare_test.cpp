// compare: ratios, significance against the combined dispersion, regressions, and what differs
// between two machines/builds.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "report/compare.hpp"
#include "tests/golden/synthetic.hpp"
#include "report/files.hpp"

namespace wgb::report {
namespace {

Document loaded(const ResultDocument& d, const char* name) { return *read_document(d.json(), name); }

const CompareRow& row(const Comparison& c, const std::string& key) {
  for (const auto& r : c.rows) {
    if (r.key == key) return r;
  }
  throw std::runtime_error("no " + key);
}

TEST(Compare, IdenticalDocumentsHaveUnitRatiosAndNoDifferences) {
  const auto a = loaded(test::synthetic_document(), "a.json");
  const auto c = compare_documents(a, a);
  EXPECT_TRUE(c.differences.empty());
  EXPECT_TRUE(c.only_a.empty());
  EXPECT_TRUE(c.only_b.empty());
  for (const auto& r : c.rows) {
    if (!r.measured_both) continue;
    EXPECT_DOUBLE_EQ(r.ratio, 1.0) << r.key;
    EXPECT_FALSE(r.significant) << r.key;
  }
  EXPECT_TRUE(regressions(c, 1).empty());
}

TEST(Compare, RatiosSignificanceRegressionsAndDifferences) {
  auto da = test::synthetic_document();
  ResultDocument db("default", {"webgpu-bench", "run"});
  auto adapter = test::synthetic_adapter();
  adapter.driver = "driver 2.0";
  auto dawn = test::synthetic_dawn();
  dawn["device_toggles"] = {"use_spirv_1_4", "disable_robustness"};
  db.set_adapter(adapter, dawn);
  db.set_options(da.json()["options"]);
  auto rows = test::synthetic_rows();
  // read-linear 20% slower; memory-read 0.2% faster (inside its dispersion); a kernel changed.
  apply_test_perturbation(rows[1], {"read-linear", 1.25});
  apply_test_perturbation(rows[0], {"memory-read", 1 / 1.002});
  rows[3].wgsl_hash = "aaaaaaaaaaaaaaaa";
  rows[3].parameters["workgroup_size"] = 128;
  rows.erase(rows.begin() + 5);  // read-dependent-chain only in a
  auto extra = rows[0];
  extra.id = "memory-write";
  rows.push_back(extra);  // only in b
  rows[6].status = RowStatus::Error;  // workgroup-128 (index 6 after the erase) fails in b
  rows[6].value = 0;
  for (const auto& r : rows) db.add_row(r);
  const auto a = loaded(da, "a.json"), b = loaded(db, "b.json");
  const auto c = compare_documents(a, b);

  const auto& rl = row(c, "read-linear");
  EXPECT_NEAR(rl.ratio, 0.8, 1e-12);
  EXPECT_TRUE(rl.significant);
  EXPECT_NEAR(rl.combined, std::hypot(rl.dispersion_a, rl.dispersion_b), 1e-15);
  const auto& mr = row(c, "memory-read");
  EXPECT_NEAR(mr.ratio, 1.002, 1e-9);
  EXPECT_FALSE(mr.significant);
  const auto& mv = row(c, "f32-fma-matvec");
  ASSERT_EQ(mv.differences.size(), 2u);
  EXPECT_NE(mv.differences[0].find("WGSL 0123456789abcdef -> aaaaaaaaaaaaaaaa"), std::string::npos);
  EXPECT_NE(mv.differences[1].find("parameters.workgroup_size 256 -> 128"), std::string::npos) << mv.differences[1];
  EXPECT_EQ(c.only_a, std::vector<std::string>{"read-dependent-chain"});
  EXPECT_EQ(c.only_b, std::vector<std::string>{"memory-write"});

  const auto reg = regressions(c, 10);
  EXPECT_EQ(reg, (std::vector<std::string>{"read-linear (-20.0%)", "workgroup-128 (error in b)"}));
  EXPECT_EQ(regressions(c, 25).size(), 1u);  // only the error remains

  bool driver = false, toggles = false;
  for (const auto& d : c.differences) {
    if (d.what == "machine.adapter.driver") {
      driver = true;
      EXPECT_EQ(d.a, "driver 1.0");
      EXPECT_EQ(d.b, "driver 2.0");
    }
    if (d.what == "machine.dawn.device_toggles") {
      toggles = true;
      EXPECT_EQ(d.a, "only a: lazy_clear_resource_on_first_use");
      EXPECT_EQ(d.b, "only b: disable_robustness");
    }
    EXPECT_EQ(d.what.find("observed_mhz"), std::string::npos);
    EXPECT_NE(d.what, "machine.dawn.empty_submit_ms");
  }
  EXPECT_TRUE(driver);
  EXPECT_TRUE(toggles);

  std::ostringstream out;
  write_comparison(out, c, a, b, 10.0);
  EXPECT_NE(out.str().find("regressions beyond 10%: read-linear (-20.0%), workgroup-128 (error in b)"), std::string::npos)
      << out.str();
  const auto j = comparison_json(c, 10.0);
  EXPECT_EQ(j["regressions"].size(), 2u);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// Rows whose dispersion reads 0.00 % (one kept run, a coarse clock): a +0.5 % change is still
// noise, and "significant" needs more than kNoiseFloor. Pins "significant: yes" for +0.0 %.
TEST(Compare, ChangesBelowTheNoiseFloorAreUnchanged) {
  const auto da = test::synthetic_document();
  auto a = loaded(da, "a.json");
  auto b = loaded(da, "b.json");
  for (auto* d : {&a, &b}) {
    for (auto& r : d->rows) {
      r.result.stats.cv = 0;
      r.result.stats.iqr = 0;
    }
  }
  for (auto& r : b.rows) {
    if (r.result.id == "read-linear") r.result.value *= 1.005;  // +0.5 %: noise
    if (r.result.id == "memory-read") r.result.value *= 1.03;   // +3 %: faster
    if (r.result.id == "f32-fma-vec4") r.result.value *= 0.9;   // -10 %: slower
  }
  const auto c = compare_documents(a, b);
  EXPECT_FALSE(row(c, "read-linear").significant);
  EXPECT_DOUBLE_EQ(row(c, "read-linear").noise, kNoiseFloor);
  EXPECT_TRUE(row(c, "memory-read").significant);
  EXPECT_TRUE(row(c, "f32-fma-vec4").significant);
  for (const auto& r : c.rows) {
    if (!r.measured_both || r.key == "memory-read" || r.key == "f32-fma-vec4") continue;
    EXPECT_FALSE(r.significant) << r.key;  // identical rows: ratio 1, never significant
  }
  const auto s = summarize(c);
  EXPECT_EQ(s.faster, 1u);
  EXPECT_EQ(s.slower, 1u);
  EXPECT_EQ(s.unchanged, s.measured_both - 2);
  double log_sum = 0;
  for (const auto& r : c.rows) log_sum += r.measured_both ? std::log(r.ratio) : 0;
  EXPECT_NEAR(s.geomean, std::exp(log_sum / static_cast<double>(s.measured_both)), 1e-12);
  // The summary comes first, before the table.
  std::ostringstream out;
  write_comparison(out, c, a, b, std::nullopt);
  const auto text = out.str();
  const auto summary = text.find("summary: ");
  ASSERT_NE(summary, std::string::npos) << text;
  EXPECT_LT(summary, text.find("benchmark "));
  EXPECT_NE(text.find(fmt::format("geometric mean of b/a {:.3f}", s.geomean)), std::string::npos) << text;
  EXPECT_NE(text.find("1 faster, 1 slower"), std::string::npos) << text;
  const auto j = comparison_json(c, std::nullopt);
  EXPECT_EQ(j["summary"]["faster"], 1);
  EXPECT_EQ(j["summary"]["noise_floor"], kNoiseFloor);
}

// Two documents of machines that differ in many ways: every line fits 100 columns, fields only one
// document has take one line, feature sets read "+N/-M", hashes and parameters only with -v.
TEST(Compare, TextFitsOneHundredColumnsAndDetailsWaitForVerbose) {
  const auto da = test::synthetic_document();
  auto a = loaded(da, "a.json");
  auto b = loaded(da, "b.json");
  auto& adapter_b = b.machine["adapter"];
  for (int i = 0; i < 20; ++i) adapter_b["limits"][fmt::format("maxSomethingVeryLongNamedLimit{}", i)] = 4;
  nlohmann::json features = nlohmann::json::array();
  for (int i = 0; i < 40; ++i) features.push_back(fmt::format("chromium-experimental-feature-number-{}", i));
  adapter_b["features"] = features;
  b.build["flags"] = std::string(300, 'x') + " -O3 -march=native -fno-plt " + std::string(40, 'y');
  for (auto& r : b.rows) {
    if (r.result.id == "read-linear") {
      r.result.wgsl_hash = "feedfacefeedface";
      r.result.parameters["workgroup_size"] = 64;
    }
  }
  const auto c = compare_documents(a, b);
  std::ostringstream terse, verbose;
  write_comparison(terse, c, a, b, 10.0);
  CompareStyle v;
  v.verbose = true;
  write_comparison(verbose, c, a, b, 10.0, v);
  for (const auto* text : {&terse, &verbose}) {
    for (const auto& l : lines_of(text->str())) EXPECT_LE(l.size(), 100u) << l;
  }
  const auto t = terse.str();
  EXPECT_NE(t.find("20 fields only in b"), std::string::npos) << t;
  EXPECT_EQ(t.find("maxSomethingVeryLongNamedLimit3"), std::string::npos) << "names only with -v";
  EXPECT_EQ(t.find("(absent)"), std::string::npos) << t;
  EXPECT_NE(t.find("machine.adapter.features: +40/-2"), std::string::npos) << t;
  EXPECT_NE(t.find("and 28 more"), std::string::npos) << t;
  EXPECT_EQ(t.find("feedfacefeedface"), std::string::npos) << "hashes only with -v";
  EXPECT_EQ(t.find("workgroup_size"), std::string::npos) << "parameters only with -v";
  EXPECT_NE(t.find("1 row differs in its WGSL hash or recorded parameters"), std::string::npos) << t;
  const auto vt = verbose.str();
  EXPECT_NE(vt.find("feedfacefeedface"), std::string::npos);
  EXPECT_NE(vt.find("parameters.workgroup_size"), std::string::npos);
  EXPECT_NE(vt.find("maxSomethingVeryLongNamedLimit3"), std::string::npos);
  EXPECT_NE(vt.find("chromium-experimental-feature-number-39"), std::string::npos);
  EXPECT_NE(vt.find("-O3 -march=native"), std::string::npos) << "a long value is wrapped, not cut";
}

// Same machine, minutes apart: the observed clock moved -2.8 % (it is read at one instant); that is
// not a difference. A base clock 3 % apart is.
TEST(CompareClocks, ObservedClocksOfOneMachineMinutesApartAgree) {
  Document a;
  a.origin = "a.json";
  a.machine["host"]["clocks"] = {{"base", {{"mhz", 2100.0}, {"source", "cpufreq base_frequency"}}},
                                         {"observed_at_start", {{"mhz", 2900.0}, {"source", "/proc/cpuinfo"}}}};
  Document b = a;
  b.machine["host"]["clocks"]["observed_at_start"]["mhz"] = 2900.0 * 0.972;
  auto c = compare_documents(a, b);
  ASSERT_EQ(c.clocks.size(), 2u);
  EXPECT_FALSE(c.clocks[0].differs);
  EXPECT_FALSE(c.clocks[1].differs) << "-2.8 % observed clock";
  std::ostringstream out;
  write_comparison(out, c, a, b, std::nullopt);
  EXPECT_EQ(out.str().find("DIFFERS"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("the same within tolerance"), std::string::npos) << out.str();
  b.machine["host"]["clocks"]["base"]["mhz"] = 2100.0 * 1.03;
  c = compare_documents(a, b);
  EXPECT_TRUE(c.clocks[0].differs);
}

}  // namespace
}  // namespace wgb::report
