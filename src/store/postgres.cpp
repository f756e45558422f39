// PostgreSQL connection through libpq: PQprepare once per connection, PQexecPrepared with text
// parameters. A connection that lost its server is re-established (and re-prepared) on next use.
#include <fmt/format.h>
#include <libpq-fe.h>

#include <bitset>
#include <memory>

#include "store/db.hpp"

namespace wgb::store::db {

namespace {

constexpr std::size_t kStatementCount = static_cast<std::size_t>(StatementId::kCount);

Oid type_oid(char t) {
  switch (t) {
    case 'i': return 20;   // int8
    case 'f': return 701;  // float8
    default: return 25;    // text
  }
}

struct ResultDeleter {
  void operator()(PGresult* r) const noexcept { PQclear(r); }
};
using ResultPtr = std::unique_ptr<PGresult, ResultDeleter>;

class PostgresConnection final : public Connection {
 public:
  PostgresConnection(PGconn* conn, std::string conninfo) : conn_(conn), conninfo_(std::move(conninfo)) {}
  ~PostgresConnection() override { PQfinish(conn_); }
  PostgresConnection(const PostgresConnection&) = delete;
  PostgresConnection& operator=(const PostgresConnection&) = delete;

  Dialect dialect() const override { return Dialect::Postgres; }

  Expected<ResultSet> run(StatementId id, std::span<const Value> params) override {
    const auto index = static_cast<std::size_t>(id);
    const StatementDef& def = statement(id);
    if (!prepared_.test(index)) {
      const std::string types = def.types;
      std::vector<Oid> oids;
      for (char t : types) oids.push_back(type_oid(t));
      ResultPtr r(PQprepare(conn_, def.name, def.sql, static_cast<int>(oids.size()), oids.data()));
      if (PQresultStatus(r.get()) != PGRES_COMMAND_OK) return failure(fmt::format("preparing {}", def.name), r.get());
      prepared_.set(index);
    }
    // Text format for every parameter: libpq sends them out of band, never inside the SQL text.
    std::vector<std::string> texts(params.size());
    std::vector<const char*> values(params.size(), nullptr);
    for (std::size_t i = 0; i < params.size(); ++i) {
      const Value& p = params[i];
      if (const auto* n = std::get_if<std::int64_t>(&p)) {
        texts[i] = std::to_string(*n);
      } else if (const auto* d = std::get_if<double>(&p)) {
        texts[i] = fmt::format("{}", *d);  // shortest text that reads back exactly
      } else if (const auto* s = std::get_if<std::string>(&p)) {
        texts[i] = *s;
      } else {
        continue;  // NULL
      }
      values[i] = texts[i].c_str();
    }
    ResultPtr r(PQexecPrepared(conn_, def.name, static_cast<int>(params.size()), values.data(), nullptr, nullptr, 0));
    const auto status = PQresultStatus(r.get());
    if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) return failure(def.name, r.get());
    ResultSet out;
    const int rows = PQntuples(r.get()), cols = PQnfields(r.get());
    out.rows.reserve(static_cast<std::size_t>(rows));
    for (int i = 0; i < rows; ++i) {
      std::vector<Cell> row(static_cast<std::size_t>(cols));
      for (int c = 0; c < cols; ++c) {
        if (PQgetisnull(r.get(), i, c) == 0) {
          row[c].v = std::string(PQgetvalue(r.get(), i, c), static_cast<std::size_t>(PQgetlength(r.get(), i, c)));
        }
      }
      out.rows.push_back(std::move(row));
    }
    return out;
  }

  Status exec(const std::string& sql) override {
    ResultPtr r(PQexec(conn_, sql.c_str()));
    const auto status = PQresultStatus(r.get());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) return failure("statement", r.get());
    return ok();
  }
  Status begin() override { return exec("BEGIN"); }
  Status commit() override { return exec("COMMIT"); }
  void rollback() noexcept override {
    if (PQtransactionStatus(conn_) != PQTRANS_IDLE) {
      ResultPtr r(PQexec(conn_, "ROLLBACK"));
    }
  }
  bool healthy() const override { return PQstatus(conn_) == CONNECTION_OK; }
  Status reconnect() override {
    PQreset(conn_);
    prepared_.reset();
    if (PQstatus(conn_) != CONNECTION_OK) {
      return make_error(ErrorKind::Io, fmt::format("PostgreSQL ({}): reconnect failed: {}", redact(conninfo_),
                                                   PQerrorMessage(conn_)));
    }
    return ok();
  }

 private:
  Error failure(const std::string& what, const PGresult* r) const {
    std::string msg = r ? PQresultErrorMessage(r) : "";
    if (msg.empty()) msg = PQerrorMessage(conn_);
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    return make_error(ErrorKind::Io, fmt::format("PostgreSQL: {}: {}", what, msg));
  }

  PGconn* conn_;
  std::string conninfo_;
  std::bitset<kStatementCount> prepared_;
};

}  // namespace

Expected<std::unique_ptr<Connection>> open_postgres(const std::string& conninfo) {
  // A default connect_timeout so an unreachable server fails in seconds; one in the URL wins
  // (keywords after an expanded dbname override it, those before are overridden by it).
  const char* keywords[] = {"connect_timeout", "dbname", nullptr};
  const char* values[] = {"10", conninfo.c_str(), nullptr};
  PGconn* conn = PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  if (conn == nullptr) return make_error(ErrorKind::Io, "PostgreSQL: out of memory");
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string msg = PQerrorMessage(conn);
    PQfinish(conn);
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    for (auto& c : msg) {
      if (c == '\n') c = ' ';
    }
    return make_error(ErrorKind::Io, fmt::format("cannot connect to PostgreSQL ({}): {}", redact(conninfo), msg));
  }
  auto c = std::make_unique<PostgresConnection>(conn, conninfo);
  // Quiet NOTICEs ("relation already exists, skipping") and UTC times; one line each.
  if (auto st = c->exec("SET client_min_messages = warning"); !st) return st.error();
  return std::unique_ptr<Connection>(std::move(c));
}

}  // namespace wgb::store::db
