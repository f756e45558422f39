// Upgrading a store: a database written at schema version 1 (before runs had an unranked reason and
// host classes their topology) opened by this program, on SQLite and on PostgreSQL.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "store/db.hpp"
#include "store/store.hpp"
#include "store_test_support.hpp"

namespace wgb::store {
namespace {

using nlohmann::json;
using test::AdapterSpec;
using test::make_document;

json load(const std::string& relative) {
  const auto root = test::source_root();
  std::ifstream in(root / "results" / relative);
  EXPECT_TRUE(in) << relative;
  std::stringstream ss;
  ss << in.rdbuf();
  return json::parse(ss.str());
}

// A SQL string literal (test-only SQL: the store itself binds every value).
std::string literal(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

class StoreMigration : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    backend_ = std::make_unique<test::Backend>(GetParam());
    WGB_BACKEND_OR_SKIP(*backend_);
  }
  Expected<std::unique_ptr<db::Connection>> connect() {
    return GetParam() == "sqlite" ? db::open_sqlite(backend_->spec()) : db::open_postgres(backend_->spec());
  }
  // Stores `doc` the way a version-1 program did: the version-1 columns, its class as given.
  void insert_v1(db::Connection& c, const json& doc, const DeviceClass& k) {
    auto sub = make_submission(doc);
    ASSERT_TRUE(sub) << sub.error().message;
    const std::string run =
        "INSERT INTO runs (digest, submitted_at, started_at, suite, state, class_key, class_label, vendor, "
        "architecture, device, backend, adapter_type, variable, row_count, document) VALUES (" +
        literal(sub->digest) + ", '2026-11-30T08:00:00Z', " + literal(sub->started_at) + ", " + literal(sub->suite) +
        ", " + literal(sub->state) + ", " + literal(k.key) + ", " + literal(k.label) + ", " + literal(k.vendor) + ", " +
        literal(k.architecture) + ", " + literal(k.device) + ", " + literal(k.backend) + ", " +
        literal(k.adapter_type) + ", " + (k.variable ? "1" : "0") + ", " + std::to_string(sub->rows.size()) + ", " +
        literal(sub->canonical) + ")";
    ASSERT_TRUE(c.exec(run));
    for (const auto& r : sub->rows) {
      const std::string result =
          "INSERT INTO results (run_id, row_index, benchmark_id, metric, status, value, value_unit, statistic, cv, "
          "unranked) SELECT id, " +
          std::to_string(r.row_index) + ", " + literal(r.benchmark_id) + ", " + literal(r.metric) + ", " +
          literal(r.status) + ", " + fmt::format("{}", r.value) + ", " + literal(r.value_unit) + ", " +
          literal(r.statistic) + ", NULL, " + (r.unranked ? "1" : "0") +
          " FROM runs WHERE digest = " + literal(sub->digest);
      ASSERT_TRUE(c.exec(result));
    }
  }
  std::unique_ptr<test::Backend> backend_;
};

TEST_P(StoreMigration, AVersionOneDatabaseIsUpgradedAndItsRunsRederived) {
  {
    StoreOptions v1;
    v1.migrate_to = 1;
    auto s = Store::open(backend_->spec(), v1);
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(*(*s)->schema_version(), 1);
  }
  AdapterSpec h200;
  auto fast = make_document(h200, {{.id = "read-linear", .value = 4e12}}, "default", 1);
  auto no_robust = make_document(h200, {{.id = "read-linear", .value = 5e12}}, "default", 2);
  no_robust["machine"]["dawn"]["robustness"] = false;
  auto host = load("h200-2026-11-30/final/part2/host.json");
  {
    auto c = connect();
    ASSERT_TRUE(c) << c.error().message;
    const auto gpu = make_submission(fast)->device_class;
    insert_v1(**c, fast, gpu);
    insert_v1(**c, no_robust, gpu);
    // Version 1 classed a host by its CPU model alone.
    DeviceClass old{.key = "intel/x86_64/intel-r-xeon-r-processor/host",
                    .label = "Intel(R) Xeon(R) Processor \u00b7 intel x86_64 \u00b7 host",
                    .vendor = "intel",
                    .architecture = "x86_64",
                    .device = "Intel(R) Xeon(R) Processor",
                    .backend = "host",
                    .adapter_type = "host",
                    .variable = true};
    insert_v1(**c, host, old);
  }
  // Version 1 ranked both GPU runs: the no-robustness run's 5e12 came first.
  auto store = Store::open(backend_->spec());
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_EQ(*(*store)->schema_version(), 4);
  EXPECT_EQ(*(*store)->schema_version(), kStoreSchemaVersion);
  EXPECT_EQ((*store)->totals()->first, 3);

  auto board = (*store)->leaderboard("read-linear");
  ASSERT_TRUE(board) << board.error().message;
  ASSERT_EQ(board->classes.size(), 1u);
  const auto& c = board->classes[0];
  EXPECT_EQ(c.ranked, 1u);
  EXPECT_DOUBLE_EQ(c.median, 4e12);
  ASSERT_EQ(c.entries.size(), 2u);
  EXPECT_FALSE(c.entries[1].ranked);
  EXPECT_EQ(c.entries[1].unranked_reason, "robustness off (--no-robustness)");

  auto classes = (*store)->classes();
  ASSERT_TRUE(classes);
  std::set<std::string> keys;
  for (const auto& k : *classes) keys.insert(k.device_class.key);
  EXPECT_EQ(keys.count("intel/x86_64/intel-r-xeon-r-processor/host"), 0u);
  EXPECT_EQ(keys.count("intel/x86_64/intel-r-xeon-r-processor-1-socket-16-cores-16-threads/host"), 1u);

  // Opening again changes nothing; new runs land with the new columns.
  store->reset();
  store = Store::open(backend_->spec());
  ASSERT_TRUE(store) << store.error().message;
  auto sub = make_submission(make_document(h200, {{.id = "read-linear", .value = 4.2e12}}, "default", 3));
  ASSERT_TRUE((*store)->insert(*sub));
  board = (*store)->leaderboard("read-linear");
  ASSERT_TRUE(board);
  EXPECT_EQ(board->classes[0].ranked, 2u);
  EXPECT_EQ((*store)->totals()->first, 4);
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreMigration, ::testing::Values("sqlite", "postgres"), test::backend_name);

}  // namespace
}  // namespace wgb::store
