// SQLite connection: WAL journal, synchronous=FULL, foreign keys on, prepared statements kept for
// the life of the connection. The store serialises use of it (one connection, one lease at a time).
#include <fmt/format.h>
#include <sqlite3.h>

#include <array>

#include "store/db.hpp"

namespace wgb::store::db {

namespace {

class SqliteConnection final : public Connection {
 public:
  explicit SqliteConnection(sqlite3* db) : db_(db) {}
  ~SqliteConnection() override {
    for (auto* st : statements_) sqlite3_finalize(st);
    sqlite3_close_v2(db_);
  }
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;

  Dialect dialect() const override { return Dialect::Sqlite; }

  Expected<ResultSet> run(StatementId id, std::span<const Value> params) override {
    auto& st = statements_.at(static_cast<std::size_t>(id));
    if (st == nullptr) {
      const std::string sql = sqlite_sql(statement(id).sql);
      if (sqlite3_prepare_v3(db_, sql.c_str(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &st,
                             nullptr) != SQLITE_OK) {
        st = nullptr;
        return failure(fmt::format("preparing {}", statement(id).name));
      }
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    for (std::size_t i = 0; i < params.size(); ++i) {
      const int index = static_cast<int>(i) + 1;
      int rc = SQLITE_OK;
      const Value& p = params[i];
      if (const auto* n = std::get_if<std::int64_t>(&p)) {
        rc = sqlite3_bind_int64(st, index, *n);
      } else if (const auto* d = std::get_if<double>(&p)) {
        rc = sqlite3_bind_double(st, index, *d);
      } else if (const auto* s = std::get_if<std::string>(&p)) {
        rc = sqlite3_bind_text64(st, index, s->data(), s->size(), SQLITE_TRANSIENT, SQLITE_UTF8);
      } else {
        rc = sqlite3_bind_null(st, index);
      }
      if (rc != SQLITE_OK) return failure(fmt::format("binding parameter {} of {}", index, statement(id).name));
    }
    ResultSet out;
    for (;;) {
      const int rc = sqlite3_step(st);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) {
        auto err = failure(statement(id).name);
        sqlite3_reset(st);
        return err;
      }
      const int n = sqlite3_column_count(st);
      std::vector<Cell> row(static_cast<std::size_t>(n));
      for (int c = 0; c < n; ++c) {
        switch (sqlite3_column_type(st, c)) {
          case SQLITE_INTEGER: row[c].v = static_cast<std::int64_t>(sqlite3_column_int64(st, c)); break;
          case SQLITE_FLOAT: row[c].v = sqlite3_column_double(st, c); break;
          case SQLITE_NULL: break;
          default: {
            const auto* t = reinterpret_cast<const char*>(sqlite3_column_text(st, c));
            row[c].v = std::string(t ? t : "", static_cast<std::size_t>(sqlite3_column_bytes(st, c)));
          }
        }
      }
      out.rows.push_back(std::move(row));
    }
    sqlite3_reset(st);
    return out;
  }

  Status exec(const std::string& sql) override {
    char* msg = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) {
      std::string m = msg ? msg : sqlite3_errmsg(db_);
      sqlite3_free(msg);
      return make_error(ErrorKind::Io, fmt::format("SQLite: {}", m));
    }
    return ok();
  }
  // IMMEDIATE takes the write lock at once, so two writers never deadlock upgrading a read lock.
  Status begin() override { return exec("BEGIN IMMEDIATE"); }
  Status commit() override { return exec("COMMIT"); }
  void rollback() noexcept override {
    if (sqlite3_get_autocommit(db_) == 0) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  bool healthy() const override { return true; }
  Status reconnect() override { return ok(); }

 private:
  Error failure(const std::string& what) const {
    return make_error(ErrorKind::Io, fmt::format("SQLite: {}: {}", what, sqlite3_errmsg(db_)));
  }

  sqlite3* db_;
  std::array<sqlite3_stmt*, static_cast<std::size_t>(StatementId::kCount)> statements_{};
};

}  // namespace

Expected<std::unique_ptr<Connection>> open_sqlite(const std::string& path) {
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                                 nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    return make_error(ErrorKind::Io, fmt::format("cannot open the SQLite database {}: {}", path, msg));
  }
  auto conn = std::make_unique<SqliteConnection>(db);
  sqlite3_extended_result_codes(db, 1);
  // Another process (a second `serve`, the sqlite3 shell) may hold the write lock briefly.
  sqlite3_busy_timeout(db, 5000);
  // WAL: readers never block the writer; FULL: every commit is on disk before it is acknowledged.
  for (const char* pragma : {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "PRAGMA foreign_keys=ON"}) {
    if (auto st = conn->exec(pragma); !st) {
      return make_error(ErrorKind::Io, fmt::format("{}: {}", path, st.error().message));
    }
  }
  // journal_mode answers the mode it ended in: a file system without shared memory keeps "delete".
  std::string mode;
  sqlite3_exec(
      db, "PRAGMA journal_mode",
      [](void* out, int n, char** values, char**) {
        if (n > 0 && values[0] != nullptr) *static_cast<std::string*>(out) = values[0];
        return 0;
      },
      &mode, nullptr);
  if (mode != "wal" && path != ":memory:") {
    return make_error(ErrorKind::Io, fmt::format("{}: SQLite could not switch to WAL mode (journal_mode {})", path, mode));
  }
  return std::unique_ptr<Connection>(std::move(conn));
}

}  // namespace wgb::store::db
