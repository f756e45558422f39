// The comparison of implementations is read into the types it is written from: every stored
// comparison in results/ reads back and writes out the same JSON, the sparse fields appear only
// when they say something, and a malformed one is refused with the field named.
#include "report/matrix_document.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "store_test_support.hpp"

namespace wgb::report {
namespace {

using nlohmann::json;

MatrixDocument sample() {
  MatrixDocument m;
  m.rounds = 2;
  m.notes = {"llvmpipe has its own reference"};
  MatrixColumnRecord& dawn = m.columns.emplace_back();
  dawn.name = "dawn", dawn.label = "native Dawn", dawn.status = "ok";
  dawn.adapter = {{"device", "0"}, {"description", "llvmpipe (LLVM 15.0.6, 256 bits)"}};
  MatrixRoundRecord& r = dawn.rounds.emplace_back();
  r.round = 1, r.ran = true, r.wall_s = 2.5, r.state = "complete";
  r.rows = std::vector<MatrixRoundRowRecord>{{"read-linear", "ok", 1e9, "B/s", "gpu-timestamps", "ok", ""}};
  MatrixColumnRecord& deno = m.columns.emplace_back();
  deno.name = "deno", deno.baseline = "dawn", deno.status = "skipped", deno.reason = "no Deno found";
  deno.install = "scripts/bootstrap.sh";
  deno.webgpu_version = "wgpu 25";
  deno.geomean = 0.93;
  MatrixRowRecord& row = m.rows.emplace_back();
  row.id = "read-linear", row.unit = "B/s";
  row.columns["dawn"] = {"ok", 1e9, "", std::nullopt};
  row.columns["deno"] = {"skipped", 0, "no Deno found", MatrixComparisonRecord{0, {}, "-"}};
  m.page = "/run?filter=read-linear&autorun=1";
  m.command_line = std::vector<std::string>{"webgpu-bench", "browser"};
  return m;
}

TEST(MatrixDocument, WhatIsWrittenReadsBackTheSame) {
  const json j = to_json(sample());
  ASSERT_TRUE(is_implementations_matrix(j));
  const auto back = read_matrix_document(j, "sample.json");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(to_json(*back), j);
  EXPECT_EQ(back->columns[0].adapter_device(), "llvmpipe (LLVM 15.0.6, 256 bits)");  // device "0": its description
  ASSERT_TRUE(back->columns[1].geomean);
  EXPECT_DOUBLE_EQ(*back->columns[1].geomean, 0.93);
}

TEST(MatrixDocument, SparseFieldsAreWrittenOnlyWhenTheySaySomething) {
  const json j = to_json(sample());
  const json& dawn = j["columns"][0];
  EXPECT_FALSE(dawn.contains("reason"));
  EXPECT_FALSE(dawn.contains("geomean"));
  EXPECT_TRUE(dawn["webgpu_version"].is_null());
  EXPECT_FALSE(dawn["rounds"][0].contains("exit_status"));
  EXPECT_FALSE(dawn["rounds"][0]["rows"][0].contains("message"));
  EXPECT_EQ(j["columns"][1]["reason"], "no Deno found");
  const json& cell = j["rows"][0]["columns"]["deno"];
  EXPECT_EQ(cell["rounds"], 0);
  EXPECT_FALSE(cell.contains("ratio"));                              // no round compared it
  EXPECT_FALSE(j["rows"][0]["columns"]["dawn"].contains("rounds"));  // the reference
}

TEST(MatrixDocument, EveryStoredComparisonReadsBackAsItWasWritten) {
  int seen = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(store::test::source_root() / "results")) {
    if (e.path().extension() != ".json") continue;
    std::ifstream in(e.path());
    const json j = json::parse(in, nullptr, false);
    if (!is_implementations_matrix(j)) continue;
    ++seen;
    const auto m = read_matrix_document(j, e.path().string());
    ASSERT_TRUE(m) << m.error().message;
    EXPECT_EQ(to_json(*m), j) << e.path();
  }
  EXPECT_GE(seen, 3);
}

TEST(MatrixDocument, AMalformedComparisonIsRefusedWithTheFieldNamed) {
  json j = to_json(sample());
  j.erase("rows");
  auto m = read_matrix_document(j, "m.json");
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().message, "m.json: a comparison of implementations without its \"rows\" list");
  j = to_json(sample());
  j["columns"][0]["wall_s"] = "slow";
  m = read_matrix_document(j, "m.json");
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().message, "m.json: \"columns[].wall_s\" is a string, expected a number");
  EXPECT_FALSE(is_implementations_matrix(json{{"kind", "something-else"}}));
  EXPECT_FALSE(is_implementations_matrix(json::array()));
}

}  // namespace
}  // namespace wgb::report
