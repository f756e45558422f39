// The database layer under the store: one connection to SQLite or PostgreSQL, running only the
// fixed statements of `StatementId` as prepared statements with bound parameters. No SQL is ever
// assembled from data; the only text run unprepared is the program's own migration DDL.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "webgpu_bench/expected.hpp"

namespace wgb::store::db {

enum class Dialect { Sqlite, Postgres };

// A parameter or a cell: NULL, integer, double or text.
using Value = std::variant<std::monostate, std::int64_t, double, std::string>;

struct Cell {
  Value v;
  bool is_null() const { return std::holds_alternative<std::monostate>(v); }
  std::int64_t i64() const;   // integers, or text holding one (PostgreSQL answers in text)
  double f64() const;
  std::string text() const;
};

struct ResultSet {
  std::vector<std::vector<Cell>> rows;
};

// Every statement the store runs. The SQL (one text for both dialects: $1.. placeholders,
// rewritten to ?1.. for SQLite) lives in db.cpp.
enum class StatementId : int {
  MigrationVersion,
  RecordMigration,
  InsertRun,
  RunIdByDigest,
  InsertResult,
  GetRun,
  ListRuns,
  CountRuns,
  Entries,
  ClassEntries,
  Benchmarks,
  Classes,
  Totals,
  AllRunDocuments,
  UpdateRunDerived,
  kCount
};

struct StatementDef {
  const char* name;   // the PostgreSQL prepared-statement name
  const char* sql;
  const char* types;  // one letter per parameter: t text, i int8, f float8
};
const StatementDef& statement(StatementId id);
std::string sqlite_sql(const char* sql);  // $N -> ?N

class Connection {
 public:
  virtual ~Connection() = default;
  virtual Dialect dialect() const = 0;
  // Runs a prepared statement (prepared on first use on this connection).
  virtual Expected<ResultSet> run(StatementId id, std::span<const Value> params) = 0;
  // Trusted constant SQL only: migrations and transaction control.
  virtual Status exec(const std::string& sql) = 0;
  virtual Status begin() = 0;  // a write transaction (SQLite: BEGIN IMMEDIATE)
  virtual Status commit() = 0;
  virtual void rollback() noexcept = 0;
  // False after the server went away (PostgreSQL); `reconnect` then starts afresh.
  virtual bool healthy() const = 0;
  virtual Status reconnect() = 0;
};

// SQLite in WAL mode with synchronous=FULL: a committed transaction survives a crash of the
// process and of the machine. The file is created when missing.
Expected<std::unique_ptr<Connection>> open_sqlite(const std::string& path);

// A libpq connection string or URL (postgresql://user@host:port/db).
Expected<std::unique_ptr<Connection>> open_postgres(const std::string& conninfo);

// The URL without its password, for messages.
std::string redact(const std::string& conninfo);

}  // namespace wgb::store::db
