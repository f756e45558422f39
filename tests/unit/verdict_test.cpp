// Per-family verdicts (src/report/verdict.cpp): a lead counts only when it exceeds the measured
// dispersion; everything else is "inconclusive"; the reminder that a ranking is local is printed.
#include "report/verdict.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "report/document.hpp"

namespace wgb::report {
namespace {

BenchmarkResult row(const std::string& id, const std::string& family, double value, double low, double high,
                    std::size_t samples = 5) {
  BenchmarkResult r;
  r.id = id;
  r.family = family;
  r.category = "technique";
  r.metric = {"elements", "element", "Elements"};
  r.value = value;
  r.value_low = low;
  r.value_high = high;
  r.stats.count = samples;
  return r;
}

const FamilyVerdict& only(const std::vector<FamilyVerdict>& v, const std::string& family) {
  for (const auto& f : v) {
    if (f.family == family) return f;
  }
  throw std::runtime_error("no verdict for " + family);
}

TEST(Verdict, LeadBeyondDispersionIsClear) {
  const auto v = family_verdicts({row("workgroup-64", "workgroup", 100, 95, 102),
                                  row("workgroup-256", "workgroup", 130, 125, 133),
                                  row("workgroup-128", "workgroup", 110, 104, 112)});
  ASSERT_EQ(v.size(), 1U);
  const auto& f = v[0];
  EXPECT_EQ(f.outcome, FamilyVerdict::Outcome::Clear);
  EXPECT_EQ(f.fastest, "workgroup-256");
  EXPECT_EQ(f.runner_up, "workgroup-128");
  EXPECT_NEAR(f.lead, 130.0 / 110.0 - 1.0, 1e-12);
  ASSERT_EQ(f.ranked.size(), 3U);
  EXPECT_EQ(f.ranked[2].id, "workgroup-64");
}

TEST(Verdict, OverlappingRangesAreInconclusive) {
  // 130 vs 128: the runner-up's range reaches above the leader's lower end.
  const auto v =
      family_verdicts({row("tile-direct", "tile", 128, 120, 129), row("tile-shared", "tile", 130, 126, 131)});
  const auto& f = only(v, "tile");
  EXPECT_EQ(f.outcome, FamilyVerdict::Outcome::Inconclusive);
  EXPECT_EQ(f.fastest, "tile-shared");
  EXPECT_NE(f.explanation.find("overlap"), std::string::npos) << f.explanation;
}

TEST(Verdict, HeadlineOutsideItsOwnRangeWidensIt) {
  // Best-run headlines lie above their IQR rates: each range is widened to include its headline,
  // so [120, 140] and [110, 124] overlap even though the IQRs alone ([120, 126], [110, 119]) do not.
  const auto v = family_verdicts({row("a", "x", 140, 120, 126), row("b", "x", 124, 110, 119)});
  const auto& f = only(v, "x");
  EXPECT_EQ(f.ranked[0].high, 140);
  EXPECT_EQ(f.ranked[1].high, 124);
  EXPECT_EQ(f.outcome, FamilyVerdict::Outcome::Inconclusive);  // 120 < 124
}

TEST(Verdict, TooFewSamplesAreInconclusive) {
  const auto v = family_verdicts({row("a", "x", 200, 199, 201, 2), row("b", "x", 100, 99, 101, 5)});
  EXPECT_EQ(only(v, "x").outcome, FamilyVerdict::Outcome::Inconclusive);
  EXPECT_NE(only(v, "x").explanation.find("samples"), std::string::npos);
}

TEST(Verdict, SkippedAndErrorRowsAreListedNotRanked) {
  auto skipped = row("reduction-subgroup", "reduction", 0, 0, 0, 0);
  skipped.status = RowStatus::Skipped;
  skipped.message = "the adapter lacks the 'subgroups' feature";
  auto suspect = row("reduction-serial", "reduction", 1e18, 1e18, 1e18);
  suspect.status = RowStatus::Suspect;
  const auto v = family_verdicts({skipped, suspect, row("reduction-workgroup", "reduction", 50, 48, 52)});
  const auto& f = only(v, "reduction");
  EXPECT_EQ(f.outcome, FamilyVerdict::Outcome::Standalone);
  EXPECT_EQ(f.fastest, "reduction-workgroup");
  ASSERT_EQ(f.unranked.size(), 2U);
  EXPECT_NE(f.unranked[0].find("subgroups"), std::string::npos);
  EXPECT_NE(f.unranked[1].find("suspect"), std::string::npos);
}

TEST(Verdict, ThrottledRowsAreRankedButNeverClear) {
  auto slow = row("atomic-direct", "atomic", 100, 95, 102);
  slow.status = RowStatus::Throttled;
  auto v = family_verdicts({slow, row("atomic-sharded", "atomic", 200, 190, 205)});
  const auto& f = only(v, "atomic");
  ASSERT_EQ(f.ranked.size(), 2U);
  EXPECT_TRUE(f.ranked[1].throttled);
  EXPECT_EQ(f.fastest, "atomic-sharded");
  EXPECT_EQ(f.outcome, FamilyVerdict::Outcome::Inconclusive);
  EXPECT_NE(f.explanation.find("throttling"), std::string::npos) << f.explanation;
  // Without the flag the same numbers are a clear lead.
  slow.status = RowStatus::Ok;
  v = family_verdicts({slow, row("atomic-sharded", "atomic", 200, 190, 205)});
  EXPECT_EQ(only(v, "atomic").outcome, FamilyVerdict::Outcome::Clear);
}

TEST(Verdict, NonTechniqueRowsAreIgnoredAndFamiliesKeepTheirOrder) {
  auto raw = row("read-linear", "", 1e9, 1e9, 1e9);
  raw.category = "bandwidth";
  const auto v = family_verdicts({raw, row("b1", "b", 1, 1, 1), row("a1", "a", 1, 1, 1), row("b2", "b", 2, 2, 2)});
  ASSERT_EQ(v.size(), 2U);
  EXPECT_EQ(v[0].family, "b");
  EXPECT_EQ(v[1].family, "a");
  EXPECT_TRUE(family_verdicts({raw}).empty());
  std::ostringstream none;
  write_verdicts(none, family_verdicts({raw}));
  EXPECT_TRUE(none.str().empty());
}

TEST(Verdict, ChainIsAStandaloneProbeWithNsPerHop) {
  auto chain = row("read-dependent-chain", "dependent-chain", 2e8, 1.6e8, 2.5e8);
  chain.metric = {"hops", "hop", "Dependent hops"};
  const auto v = family_verdicts({chain});
  const auto& f = only(v, "dependent-chain");
  EXPECT_EQ(f.outcome, FamilyVerdict::Outcome::Standalone);
  EXPECT_NE(f.explanation.find("5 ns/hop"), std::string::npos) << f.explanation;  // 1e9 / 2e8
  EXPECT_NE(f.explanation.find("dispatch"), std::string::npos);

  annotate_technique_row(chain);
  EXPECT_DOUBLE_EQ(chain.parameters["ns_per_hop"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(chain.parameters["ns_per_hop_range"][0].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(chain.parameters["ns_per_hop_range"][1].get<double>(), 1e9 / 1.6e8);
  ASSERT_EQ(chain.notes.size(), 1U);
  EXPECT_NE(chain.notes[0].find("loop and dispatch cost"), std::string::npos);

  auto other = row("tile-direct", "tile", 5, 5, 5);
  annotate_technique_row(other);
  EXPECT_TRUE(other.notes.empty());
  EXPECT_FALSE(other.parameters.contains("ns_per_hop"));
}

TEST(Verdict, TextNamesWinnerInconclusiveAndTheLocalityReminder) {
  const auto v = family_verdicts({row("workgroup-64", "workgroup", 100, 95, 102),
                                  row("workgroup-128", "workgroup", 130, 125, 133),
                                  row("tile-direct", "tile", 128, 120, 129),
                                  row("tile-shared", "tile", 130, 126, 131)});
  std::ostringstream out;
  write_verdicts(out, v);
  const std::string s = out.str();
  EXPECT_NE(s.find("workgroup: fastest workgroup-128"), std::string::npos) << s;
  EXPECT_NE(s.find("tile: inconclusive"), std::string::npos) << s;
  EXPECT_NE(s.find("this workload on this GPU and runtime only"), std::string::npos) << s;
  EXPECT_NE(s.find("resource needs"), std::string::npos) << s;  // the family's caveat
}

// The verdicts are part of the result document (technique_verdicts), not only console text.
TEST(Verdict, ResultDocumentCarriesTheVerdicts) {
  ResultDocument doc("default", {"webgpu-bench", "run"});
  for (const auto& r :
       {row("workgroup-64", "workgroup", 100, 95, 102), row("workgroup-128", "workgroup", 130, 125, 133),
        row("tile-direct", "tile", 128, 120, 129), row("tile-shared", "tile", 130, 126, 131)}) {
    doc.add_row(r);
  }
  const auto& v = doc.json()["technique_verdicts"];
  ASSERT_TRUE(v.is_array());
  ASSERT_EQ(v.size(), 2U);
  const auto& wg = v[0];
  EXPECT_EQ(wg["family"], "workgroup");
  EXPECT_EQ(wg["outcome"], "clear");
  EXPECT_EQ(wg["conclusive"], true);
  EXPECT_EQ(wg["verdict"], "fastest workgroup-128");
  EXPECT_EQ(wg["fastest"], "workgroup-128");
  EXPECT_EQ(wg["runner_up"], "workgroup-64");
  EXPECT_NEAR(wg["lead"].get<double>(), 0.3, 1e-12);
  EXPECT_EQ(wg["dispersion"]["fastest_range"], nlohmann::json({125.0, 133.0}));
  EXPECT_EQ(wg["dispersion"]["runner_up_range"], nlohmann::json({95.0, 102.0}));
  EXPECT_NE(wg["scope"].get<std::string>().find("this workload on this GPU and runtime only"), std::string::npos);
  const auto& tile = v[1];
  EXPECT_EQ(tile["verdict"], "inconclusive");
  EXPECT_EQ(tile["conclusive"], false);
  EXPECT_EQ(tile["fastest"], "tile-shared");
  ASSERT_EQ(tile["ranked"].size(), 2U);
  EXPECT_EQ(tile["ranked"][1]["id"], "tile-direct");
}

TEST(Verdict, DocumentWithoutTechniqueRowsHasAnEmptyList) {
  ResultDocument doc("default", {"webgpu-bench", "run"});
  auto r = row("read-linear", "", 5, 4, 6);
  r.category = "bandwidth";
  doc.add_row(r);
  EXPECT_EQ(doc.json()["technique_verdicts"], nlohmann::json::array());
}

}  // namespace
}  // namespace wgb::report
