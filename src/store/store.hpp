// The results store: every submitted run kept as its JSON document plus indexed columns (device
// class, suite, benchmark id, metric, time), in SQLite (one file, WAL) or PostgreSQL. One schema
// for both, versioned migrations applied on open. Thread-safe: the server calls it from many
// threads (SQLite serialises on its one connection; PostgreSQL uses a small pool).
//
//   auto store = wgb::store::Store::open("results.db");            // or "postgresql://..."
//   auto sub = wgb::store::parse_submission(body);
//   auto outcome = (*store)->insert(*sub);                          // {id, duplicate}
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "store/device_class.hpp"
#include "store/submission.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::store {

inline constexpr int kStoreSchemaVersion = 4;  // the latest migration this program knows

struct StoreOptions {
  int postgres_connections = 4;  // pool size (SQLite always uses one connection)
  std::chrono::seconds acquire_timeout{30};
  // Tests only: migrate no further than this version (0: the latest), to build an old database
  // and then open it again to exercise the upgrade.
  int migrate_to = 0;
};

struct RunSummary {
  std::int64_t id = 0;
  std::string submitted_at, started_at, suite, state;
  DeviceClass device_class;
  int row_count = 0;
  std::string unranked_reason;  // "" when ranked; else why none of the run's rows is (store/ranking.hpp)
  std::string runtime = "native";  // "browser" (measured by the /run page) or "native"
};

struct StoredRun {
  RunSummary summary;
  nlohmann::json document;
};

struct RunFilter {  // empty strings match everything
  std::string device_class, suite, benchmark, metric;
  std::string since, until;  // on started_at: since <= t < until
  std::string runtime;       // "browser", "native" or "" (both)
  std::int64_t limit = 50, offset = 0;
};

struct InsertOutcome {
  std::int64_t id = 0;
  bool duplicate = false;  // the same document (by SHA-256) was already stored under `id`
};

// One run's value for one benchmark (its best measured row when a run has several).
struct Entry {
  std::int64_t run_id = 0;
  double value = 0;
  std::string unit, status, started_at, suite;
  std::string runtime = "native";  // "browser" or "native"
  bool ranked = false;          // status ok, not parameters.unranked, and the run has no unranked_reason
  std::string unranked_reason;  // the run's (""), or why the row is not ranked
  DeviceClass device_class;
};

struct ClassStanding {
  DeviceClass device_class;
  std::vector<Entry> entries;  // ranked first, best first; then unranked
  std::size_t ranked = 0;      // how many entries count
  double median = 0, q1 = 0, q3 = 0, min = 0, max = 0;  // of the ranked values (0 when none)
  int rank = 0;                // 1 = best median; 0 = not ranked (no ranked entry)
};

struct Leaderboard {
  std::string benchmark;
  std::string unit;
  bool lower_is_better = false;
  std::vector<ClassStanding> classes;  // ranked classes by rank, then classes with no ranked run
};

// A class's distribution for every benchmark (The Stack compares a run against these).
struct ClassDistribution {
  std::string benchmark, unit;
  std::size_t ranked = 0;
  double median = 0, q1 = 0, q3 = 0, min = 0, max = 0;
};

struct BenchmarkInfo {
  std::string id, suite, unit;
  std::int64_t runs = 0;
};

struct ClassInfo {
  DeviceClass device_class;
  std::int64_t runs = 0;
};

class Store {
 public:
  // "results.db" / "sqlite:results.db" (SQLite) or "postgresql://..." / "postgres://..." (libpq).
  // Creates the schema or migrates it; refuses a database written by a newer program.
  static Expected<std::unique_ptr<Store>> open(const std::string& spec, const StoreOptions& options = {});
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  std::string description() const;  // "SQLite results.db" / "PostgreSQL postgresql://user:***@host/db"
  Expected<int> schema_version();

  // Stores the run and its rows in one transaction: all of it or nothing.
  Expected<InsertOutcome> insert(const Submission& submission);
  Expected<std::optional<StoredRun>> get(std::int64_t id);
  Expected<std::vector<RunSummary>> list(const RunFilter& filter);
  Expected<std::int64_t> count(const RunFilter& filter);
  // runtime: "browser" or "native" for the runs measured there only; "" for both.
  Expected<Leaderboard> leaderboard(const std::string& benchmark, const std::string& runtime = "");
  Expected<std::vector<ClassDistribution>> class_distributions(const std::string& class_key);
  Expected<std::vector<BenchmarkInfo>> benchmarks();
  Expected<std::vector<ClassInfo>> classes();
  Expected<std::pair<std::int64_t, std::int64_t>> totals();  // (runs, result rows)

  struct Impl;

 private:
  explicit Store(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Builds a leaderboard from entries (pure; exposed for tests): per run its best row, classes by
// median of their ranked runs (direction from lower_is_better), unranked runs shown, not counted.
Leaderboard build_leaderboard(const std::string& benchmark, std::vector<Entry> entries);

}  // namespace wgb::store
