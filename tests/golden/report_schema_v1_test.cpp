// A document written by schema version 1 (checked in as schema_v1.json: a GPU row, a memory row,
// a host row and a skipped row, as that version wrote them) still reads, and its old spellings map
// to the current vocabulary: the host's "steady_clock" is host-steady-clock, the stop reasons
// "budget" and "fixed-repetitions" keep their meaning, and writing the rows again uses the current
// spellings only.
#include <gtest/gtest.h>

#include "report/document.hpp"
#include "report/files.hpp"

namespace wgb::report {
namespace {

TEST(ReportSchemaV1, OldDocumentReadsWithCurrentVocabulary) {
  auto doc = load_document(std::string(WGB_GOLDEN_DIR) + "/schema_v1.json");
  ASSERT_TRUE(doc) << doc.error().message;
  EXPECT_EQ(doc->schema_version, 1);
  ASSERT_EQ(doc->rows.size(), 4u);
  const auto& gpu = doc->rows[0].result;
  const auto& memory = doc->rows[1].result;
  const auto& host = doc->rows[2].result;
  const auto& skipped = doc->rows[3].result;
  EXPECT_EQ(gpu.timing_method, TimingMethod::GpuTimestamp);
  EXPECT_EQ(gpu.stop_reason, StopReason::Converged);
  EXPECT_EQ(gpu.statistic, Statistic::Median);  // read-linear: memory traffic
  EXPECT_EQ(memory.stop_reason, StopReason::Budget);
  EXPECT_EQ(memory.statistic, Statistic::Median);
  EXPECT_EQ(host.timing_method, TimingMethod::HostSteadyClock);
  EXPECT_EQ(host.stop_reason, StopReason::FixedRepetitions);
  EXPECT_EQ(skipped.status, RowStatus::Skipped);
  EXPECT_EQ(skipped.stop_reason, StopReason::None);
  EXPECT_EQ(skipped.timing_method, TimingMethod::None);

  const auto again = to_json(host);
  EXPECT_EQ(again["procedure"]["timing_method"], "host-steady-clock");
  EXPECT_EQ(again["procedure"]["stop_reason"], "fixed-repetitions");
  EXPECT_EQ(to_json(skipped)["procedure"]["stop_reason"], "");
}

TEST(ReportSchemaV1, UnknownVocabularyIsRefusedWithTheValue) {
  auto doc = load_result_document(std::string(WGB_GOLDEN_DIR) + "/schema_v1.json");
  ASSERT_TRUE(doc) << doc.error().message;
  nlohmann::json row = (*doc)["rows"][2];
  row["procedure"]["timing_method"] = "sundial";
  auto bad = row_from_json(row);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("'sundial', not a known timing method"), std::string::npos)
      << bad.error().message;
  row = (*doc)["rows"][1];
  row["procedure"]["stop_reason"] = "bored";
  bad = row_from_json(row);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("'bored', not a known stop reason"), std::string::npos) << bad.error().message;
}

}  // namespace
}  // namespace wgb::report
