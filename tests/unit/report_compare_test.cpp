// compare: ratios, significance against the combined dispersion, regressions, and what differs
// between two machines/builds.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "report/compare.hpp"
#include "tests/golden/synthetic.hpp"

namespace wgb::report {
namespace {

LoadedDocument loaded(const ResultDocument& d, const char* name) {
  LoadedDocument l;
  l.path = name;
  l.json = d.json();
  for (const auto& r : d.json()["rows"]) l.rows.push_back(*row_from_json(r));
  return l;
}

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

}  // namespace
}  // namespace wgb::report
