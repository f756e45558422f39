// Which way a leaderboard ranks (from the unit), on real documents from docs/results/ and on both
// databases.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "store_test_support.hpp"

namespace wgb::store {
namespace {

using nlohmann::json;
using test::AdapterSpec;
using test::make_document;

const std::filesystem::path kResults =
    std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "docs" / "results";

json load(const std::string& relative) {
  std::ifstream in(kResults / relative);
  EXPECT_TRUE(in) << (kResults / relative);
  std::stringstream ss;
  ss << in.rdbuf();
  return json::parse(ss.str());
}

const char* kH200Memory = "h200-2026-11-30/final/part2/memory-256.json";

json& row(json& doc, const std::string& id) {
  for (auto& r : doc["rows"]) {
    if (r["id"] == id) return r;
  }
  ADD_FAILURE() << "no row " << id;
  static json none;
  return none;
}

// --- direction ---------------------------------------------------------------------------------

TEST(StoreRanking, TheMemorySuiteWritesLatencyAsARate) {
  auto doc = load(kH200Memory);
  EXPECT_EQ(row(doc, "memory-latency")["value_unit"], "load/s");
  EXPECT_FALSE(lower_is_better(row(doc, "memory-latency")["value_unit"].get<std::string>()));
  // A tiny lavapipe memory run has the same shape (scripts/wgb memory --working-set 16).
  auto lvp = make_document(
      AdapterSpec{.vendor = "mesa", .architecture = "software", .device = "llvmpipe", .adapter_type = "cpu"},
      {{.id = "memory-latency", .value = 2.4e7, .unit = "load"}}, "memory");
  EXPECT_EQ(lvp["rows"][0]["value_unit"], "load/s");
}

// --- on both databases ------------------------------------------------------------------------

class StoreRankingDb : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    backend_ = std::make_unique<test::Backend>(GetParam());
    WGB_BACKEND_OR_SKIP(*backend_);
    auto s = Store::open(backend_->spec());
    ASSERT_TRUE(s) << s.error().message;
    store_ = std::move(*s);
  }
  std::int64_t put(const json& doc) {
    auto sub = make_submission(doc);
    EXPECT_TRUE(sub) << sub.error().message;
    if (!sub) return 0;
    auto r = store_->insert(*sub);
    EXPECT_TRUE(r) << r.error().message;
    return r ? r->id : 0;
  }
  std::unique_ptr<test::Backend> backend_;
  std::unique_ptr<Store> store_;
};

TEST_P(StoreRankingDb, MemoryLatencyRanksTheHigherRateFirst) {
  // The real H200 document, and the same document as another device with half the load rate.
  auto h200 = load(kH200Memory);
  auto slower = h200;
  slower["machine"]["adapter"]["device"] = "Slower GPU";
  row(slower, "memory-latency")["value"] = row(h200, "memory-latency")["value"].get<double>() / 2;
  const auto slow_id = put(slower);
  const auto h200_id = put(h200);
  auto board = store_->leaderboard("memory-latency");
  ASSERT_TRUE(board) << board.error().message;
  EXPECT_EQ(board->unit, "load/s");
  EXPECT_FALSE(board->lower_is_better);
  ASSERT_EQ(board->classes.size(), 2u);
  EXPECT_EQ(board->classes[0].entries.at(0).run_id, h200_id);
  EXPECT_EQ(board->classes[0].rank, 1);
  EXPECT_EQ(board->classes[1].entries.at(0).run_id, slow_id);
  EXPECT_EQ(board->classes[1].rank, 2);
}

TEST_P(StoreRankingDb, TheStackTakesEachRunsBestLatencyRate) {
  // A run with two memory-latency rows counts once, with its best (highest) rate: the class
  // distribution The Stack compares against.
  auto doc = load(kH200Memory);
  const double v = row(doc, "memory-latency")["value"].get<double>();
  json second = row(doc, "memory-latency");
  second["value"] = v / 4;
  second["index"] = doc["rows"].size();
  doc["rows"].push_back(second);
  put(doc);
  auto other = load(kH200Memory);
  row(other, "memory-latency")["value"] = v * 3;
  other["command"].push_back("again");
  put(other);
  auto key = make_submission(doc)->device_class.key;
  auto dist = store_->class_distributions(key);
  ASSERT_TRUE(dist) << dist.error().message;
  const ClassDistribution* lat = nullptr;
  for (const auto& d : *dist) {
    if (d.benchmark == "memory-latency") lat = &d;
  }
  ASSERT_NE(lat, nullptr);
  EXPECT_EQ(lat->unit, "load/s");
  EXPECT_EQ(lat->ranked, 2u);
  EXPECT_DOUBLE_EQ(lat->min, v);  // not v / 4
  EXPECT_DOUBLE_EQ(lat->max, 3 * v);
  EXPECT_DOUBLE_EQ(lat->median, 2 * v);
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreRankingDb, ::testing::Values("sqlite", "postgres"), test::backend_name);

}  // namespace
}  // namespace wgb::store
