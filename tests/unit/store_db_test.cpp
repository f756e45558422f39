// The store on both databases: the same tests, against SQLite and a real PostgreSQL server.
#include <gtest/gtest.h>

#include "store/db.hpp"
#include "store/store.hpp"
#include "store_test_support.hpp"

namespace wgb::store {
namespace {

using test::AdapterSpec;
using test::make_document;
using test::RowSpec;

class StoreDb : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    backend_ = std::make_unique<test::Backend>(GetParam());
    WGB_BACKEND_OR_SKIP(*backend_);
    reopen();
  }
  void reopen() {
    store_.reset();
    auto s = Store::open(backend_->spec());
    ASSERT_TRUE(s) << s.error().message;
    store_ = std::move(*s);
  }
  InsertOutcome put(const nlohmann::json& doc) {
    auto sub = make_submission(doc);
    EXPECT_TRUE(sub) << sub.error().message;
    auto r = store_->insert(*sub);
    EXPECT_TRUE(r) << r.error().message;
    return r ? *r : InsertOutcome{};
  }
  std::pair<std::int64_t, std::int64_t> totals() {
    auto t = store_->totals();
    EXPECT_TRUE(t) << t.error().message;
    return t ? *t : std::pair<std::int64_t, std::int64_t>{-1, -1};
  }

  std::unique_ptr<test::Backend> backend_;
  std::unique_ptr<Store> store_;
};

TEST_P(StoreDb, SchemaIsMigratedOnceAndReopens) {
  auto v = store_->schema_version();
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ(*v, kStoreSchemaVersion);
  reopen();  // migrations already applied: nothing to do, nothing fails
  EXPECT_EQ(*store_->schema_version(), kStoreSchemaVersion);
}

TEST_P(StoreDb, RefusesADatabaseFromANewerProgram) {
  store_.reset();
  {
    auto c = GetParam() == "sqlite" ? db::open_sqlite(backend_->spec()) : db::open_postgres(backend_->spec());
    ASSERT_TRUE(c);
    ASSERT_TRUE((*c)->exec("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'future', 'x')"));
  }
  auto s = Store::open(backend_->spec());
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, ErrorKind::Usage);
  EXPECT_NE(s.error().message.find("newer"), std::string::npos) << s.error().message;
}

TEST_P(StoreDb, RoundTripKeepsTheDocument) {
  const auto doc = make_document({}, {{.id = "read-linear", .value = 3.25e12}, {.id = "write-linear", .value = 1e9}});
  const auto out = put(doc);
  EXPECT_GT(out.id, 0);
  EXPECT_FALSE(out.duplicate);
  auto got = store_->get(out.id);
  ASSERT_TRUE(got) << got.error().message;
  ASSERT_TRUE(got->has_value());
  EXPECT_EQ((*got)->document, doc);
  EXPECT_EQ((*got)->summary.suite, "default");
  EXPECT_EQ((*got)->summary.row_count, 2);
  EXPECT_EQ((*got)->summary.device_class.key, "nvidia/hopper/nvidia-h200/vulkan");
  auto missing = store_->get(out.id + 1000);
  ASSERT_TRUE(missing);
  EXPECT_FALSE(missing->has_value());
  EXPECT_EQ(totals(), (std::pair<std::int64_t, std::int64_t>{1, 2}));
}

TEST_P(StoreDb, TheSameDocumentIsStoredOnce) {
  const auto doc = make_document({}, {{}});
  const auto a = put(doc);
  const auto b = put(doc);
  EXPECT_EQ(a.id, b.id);
  EXPECT_TRUE(b.duplicate);
  const auto c = put(make_document({}, {{}}, "default", 1));
  EXPECT_NE(c.id, a.id);
  EXPECT_EQ(totals().first, 2);
}

TEST_P(StoreDb, StatementsAreParametersNotSql) {
  // Quotes, comment markers and statement separators reach the database as data: stored verbatim,
  // found by exact match, and the tables are still there afterwards.
  AdapterSpec a;
  a.device = "x'); DROP TABLE runs; --";
  a.vendor = "Robert'); DELETE FROM results; --";
  const auto doc = make_document(a, {{}});
  const auto out = put(doc);
  auto got = store_->get(out.id);
  ASSERT_TRUE(got && got->has_value());
  EXPECT_EQ((*got)->summary.device_class.device, "x'); DROP TABLE runs; --");
  RunFilter f;
  f.device_class = "' OR '1'='1";
  EXPECT_EQ(*store_->count(f), 0);
  f.device_class = (*got)->summary.device_class.key;
  EXPECT_EQ(*store_->count(f), 1);
  f = {};
  f.suite = "default' OR 1=1 --";
  EXPECT_EQ(*store_->count(f), 0);
  auto board = store_->leaderboard("read-linear' OR '1'='1");
  ASSERT_TRUE(board);
  EXPECT_TRUE(board->classes.empty());
  EXPECT_EQ(totals(), (std::pair<std::int64_t, std::int64_t>{1, 1}));
}

TEST_P(StoreDb, ListAndFilter) {
  AdapterSpec h200;
  AdapterSpec lvp{.vendor = "mesa", .architecture = "software", .device = "llvmpipe", .backend = "vulkan",
                  .adapter_type = "cpu"};
  put(make_document(h200, {{.id = "read-linear"}}, "default", 1));
  put(make_document(h200, {{.id = "memory-read"}, {.id = "memory-latency", .value = 600, .unit = "ns",
                                                    .per_second = false}},
                    "memory", 2));
  put(make_document(lvp, {{.id = "read-linear", .value = 4e9}}, "default", 3));
  RunFilter f;
  EXPECT_EQ(*store_->count(f), 3);
  f.suite = "memory";
  EXPECT_EQ(*store_->count(f), 1);
  f = {};
  f.benchmark = "read-linear";
  auto runs = store_->list(f);
  ASSERT_TRUE(runs);
  ASSERT_EQ(runs->size(), 2u);
  EXPECT_GT((*runs)[0].id, (*runs)[1].id);  // newest first
  // A CPU adapter's class includes the host it ran on (docs/store.md, "Device classes").
  f.device_class = device_class_of(report::stored_document(make_document(lvp, {{}}), "test"))->key;
  EXPECT_EQ(f.device_class.rfind("mesa/software/llvmpipe-on-", 0), 0u) << f.device_class;
  EXPECT_EQ(*store_->count(f), 1);
  f = {};
  f.metric = "bytes";
  EXPECT_EQ(*store_->count(f), 3);
  f.metric = "flops";
  EXPECT_EQ(*store_->count(f), 0);
  f = {};
  f.limit = 2;
  EXPECT_EQ(store_->list(f)->size(), 2u);
  f.offset = 2;
  EXPECT_EQ(store_->list(f)->size(), 1u);
  f = {};
  f.since = "2000-01-01";
  f.until = "2999-01-01";
  EXPECT_EQ(*store_->count(f), 3);
  f.until = "2000-01-02";
  EXPECT_EQ(*store_->count(f), 0);
  auto classes = store_->classes();
  ASSERT_TRUE(classes);
  ASSERT_EQ(classes->size(), 2u);
  auto benches = store_->benchmarks();
  ASSERT_TRUE(benches);
  EXPECT_EQ(benches->size(), 3u);  // read-linear (default), memory-read and memory-latency (memory)
}

TEST_P(StoreDb, LeaderboardGroupsRanksAndKeepsUnrankedApart) {
  AdapterSpec h200;
  AdapterSpec h100{.device = "NVIDIA H100"};
  AdapterSpec igpu{.vendor = "intel", .architecture = "xe", .device = "Intel Arc", .adapter_type = "integrated-gpu"};
  int n = 0;
  for (double v : {4.0e12, 4.2e12, 4.1e12}) put(make_document(h200, {{.id = "memory-read", .value = v}}, "memory", ++n));
  put(make_document(h200, {{.id = "memory-read", .value = 9.9e12, .unranked = true}}, "memory", ++n));
  for (double v : {3.0e12, 3.2e12}) put(make_document(h100, {{.id = "memory-read", .value = v}}, "memory", ++n));
  put(make_document(igpu, {{.id = "memory-read", .value = 1e11}}, "memory", ++n));
  put(make_document(igpu, {{.id = "memory-read", .value = 0, .status = "skipped"}}, "memory", ++n));

  auto board = store_->leaderboard("memory-read");
  ASSERT_TRUE(board) << board.error().message;
  EXPECT_EQ(board->unit, "B/s");
  EXPECT_FALSE(board->lower_is_better);
  ASSERT_EQ(board->classes.size(), 3u);
  const auto& first = board->classes[0];
  EXPECT_EQ(first.device_class.device, "NVIDIA H200");
  EXPECT_EQ(first.rank, 1);
  EXPECT_EQ(first.ranked, 3u);  // the unranked 9.9e12 is shown, not counted
  EXPECT_EQ(first.entries.size(), 4u);
  EXPECT_DOUBLE_EQ(first.median, 4.1e12);
  EXPECT_FALSE(first.entries.back().ranked);
  EXPECT_EQ(board->classes[1].device_class.device, "NVIDIA H100");
  EXPECT_DOUBLE_EQ(board->classes[1].median, 3.1e12);
  EXPECT_EQ(board->classes[2].rank, 3);
  EXPECT_TRUE(board->classes[2].device_class.variable);
  EXPECT_EQ(board->classes[2].entries.size(), 1u);  // the skipped row is not on the board

  auto latency_runs = store_->leaderboard("nothing-here");
  ASSERT_TRUE(latency_runs);
  EXPECT_TRUE(latency_runs->classes.empty());
}

TEST_P(StoreDb, TimeUnitsRankLowerFirst) {
  // A time (or time per X) is better when lower, whatever the benchmark (the memory suite's own
  // latency phase is a rate, load/s: store_ranking_test ranks real documents of it).
  AdapterSpec a{.device = "A"}, b{.device = "B"};
  put(make_document(a, {{.id = "chain-latency", .value = 700, .unit = "ns", .per_second = false}}, "default", 1));
  put(make_document(b, {{.id = "chain-latency", .value = 500, .unit = "ns", .per_second = false}}, "default", 2));
  auto board = store_->leaderboard("chain-latency");
  ASSERT_TRUE(board);
  EXPECT_TRUE(board->lower_is_better);
  ASSERT_EQ(board->classes.size(), 2u);
  EXPECT_EQ(board->classes[0].device_class.device, "B");
}

TEST_P(StoreDb, ClassDistributions) {
  AdapterSpec h200;
  int n = 0;
  for (double v : {1.0, 2.0, 3.0, 4.0}) {
    put(make_document(h200, {{.id = "read-linear", .value = v * 1e12}, {.id = "f32-fma-vec4", .value = v * 1e13}},
                      "default", ++n));
  }
  put(make_document(h200, {{.id = "read-linear", .value = 100e12, .unranked = true}}, "default", ++n));
  auto d = store_->class_distributions("nvidia/hopper/nvidia-h200/vulkan");
  ASSERT_TRUE(d) << d.error().message;
  ASSERT_EQ(d->size(), 2u);
  const auto& read = (*d)[1].benchmark == "read-linear" ? (*d)[1] : (*d)[0];
  EXPECT_EQ(read.ranked, 4u);
  EXPECT_DOUBLE_EQ(read.median, 2.5e12);
  EXPECT_DOUBLE_EQ(read.q1, 1.75e12);
  EXPECT_DOUBLE_EQ(read.q3, 3.25e12);
  EXPECT_DOUBLE_EQ(read.min, 1e12);
  EXPECT_DOUBLE_EQ(read.max, 4e12);
}

TEST_P(StoreDb, AFailedInsertLeavesNothing) {
  // Two rows with one row_index break the results table's primary key after the run row went in:
  // the transaction must take the run row back with it.
  auto sub = make_submission(make_document({}, {{}, {.id = "write-linear"}}));
  ASSERT_TRUE(sub);
  sub->rows[1].row_index = sub->rows[0].row_index;
  auto r = store_->insert(*sub);
  EXPECT_FALSE(r);
  EXPECT_EQ(totals(), (std::pair<std::int64_t, std::int64_t>{0, 0}));
  // And the store is still usable.
  put(make_document({}, {{}}));
  EXPECT_EQ(totals().first, 1);
}

TEST_P(StoreDb, ReopeningLosesNothing) {
  for (int i = 0; i < 5; ++i) put(make_document({}, {{}}, "default", i));
  reopen();
  EXPECT_EQ(totals(), (std::pair<std::int64_t, std::int64_t>{5, 5}));
  RunFilter f;
  auto runs = store_->list(f);
  ASSERT_TRUE(runs);
  for (const auto& r : *runs) {
    auto got = store_->get(r.id);
    ASSERT_TRUE(got && got->has_value());
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreDb, ::testing::Values("sqlite", "postgres"), test::backend_name);

TEST(StoreDbSqlite, UsesWalMode) {
  auto dir = test::temp_dir();
  const auto path = (dir / "wal.db").string();
  {
    auto s = Store::open(path);
    ASSERT_TRUE(s) << s.error().message;
    auto sub = make_submission(make_document({}, {{}}));
    ASSERT_TRUE((*s)->insert(*sub));
    // While open, the write-ahead log exists next to the database.
    EXPECT_TRUE(std::filesystem::exists(path + "-wal"));
  }
  std::filesystem::remove_all(dir);
}

TEST(StoreDbSqlite, UnwritablePlaceIsAnIoError) {
  auto s = Store::open("/nonexistent-dir/for/sure/results.db");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, ErrorKind::Io);
}

TEST(StoreDbPostgres, UnreachableServerIsAnIoErrorWithoutThePassword) {
  auto s = Store::open("postgresql://user:secret@127.0.0.1:1/none?connect_timeout=2");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, ErrorKind::Io);
  EXPECT_EQ(s.error().message.find("secret"), std::string::npos) << s.error().message;
}

// A pooled connection whose server session was terminated (a restart, an administrator, a
// failover) costs the submission in flight nothing: the store retries it once on a fresh
// connection, and the transaction stays whole (one run, all its rows).
TEST(StoreDbPostgres, ADroppedConnectionIsRetriedOnce) {
  test::Backend backend("postgres");
  WGB_BACKEND_OR_SKIP(backend);
  StoreOptions o;
  o.postgres_connections = 1;  // the one connection that is dropped is the one the insert gets
  auto store = Store::open(backend.spec(), o);
  ASSERT_TRUE(store) << store.error().message;
  auto first = make_submission(make_document({}, {{}, {.id = "write-linear"}}, "default", 1));
  ASSERT_TRUE(first && (*store)->insert(*first));
  for (int round = 0; round < 2; ++round) {
    auto killer = db::open_postgres(backend.spec());
    ASSERT_TRUE(killer) << killer.error().message;
    ASSERT_TRUE((*killer)->exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = "
                                "current_database() AND pid <> pg_backend_pid()"));
    auto sub = make_submission(make_document({}, {{}, {.id = "write-linear"}}, "default", 2 + round));
    ASSERT_TRUE(sub);
    auto r = (*store)->insert(*sub);
    ASSERT_TRUE(r) << "round " << round << ": " << r.error().message;
    EXPECT_FALSE(r->duplicate);
  }
  auto t = (*store)->totals();
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(*t, (std::pair<std::int64_t, std::int64_t>{3, 6}));
}

TEST(StoreDbLeaderboard, OneEntryPerRunItsBestRow) {
  DeviceClass c;
  c.key = "k";
  std::vector<Entry> entries = {
      {.run_id = 1, .value = 5, .unit = "B/s", .status = "ok", .ranked = true, .device_class = c},
      {.run_id = 1, .value = 7, .unit = "B/s", .status = "ok", .ranked = true, .device_class = c},
      {.run_id = 2, .value = 9, .unit = "B/s", .status = "ok", .ranked = false, .device_class = c},
      {.run_id = 2, .value = 3, .unit = "B/s", .status = "ok", .ranked = true, .device_class = c},
      {.run_id = 3, .value = 99, .unit = "OP/s", .status = "ok", .ranked = true, .device_class = c},
  };
  auto b = build_leaderboard("read-linear", entries);
  ASSERT_EQ(b.classes.size(), 1u);
  const auto& s = b.classes[0];
  ASSERT_EQ(s.entries.size(), 3u);
  EXPECT_EQ(s.ranked, 2u);                // runs 1 (7) and 2 (3, its ranked row beats its unranked 9)
  EXPECT_DOUBLE_EQ(s.median, 5.0);
  EXPECT_EQ(s.entries[0].run_id, 1);
  EXPECT_FALSE(s.entries[2].ranked);      // run 3: another unit, shown but not ranked
}

}  // namespace
}  // namespace wgb::store
