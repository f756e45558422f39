// The store's statements (one SQL text for SQLite and PostgreSQL) and value conversions.
#include "store/db.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <charconv>
#include <cstdlib>

namespace wgb::store::db {

namespace {

// Columns of a run summary, in the order store.cpp reads them.
#define WGB_RUN_COLUMNS                                                                          \
  "r.id, r.submitted_at, r.started_at, r.suite, r.state, r.class_key, r.class_label, r.vendor, " \
  "r.architecture, r.device, r.backend, r.adapter_type, r.variable, r.row_count, r.unranked_reason, r.runtime"

// Filters are fixed statements with "empty means any" parameters, so that no SQL is assembled.
#define WGB_RUN_FILTER                                                                                    \
  " WHERE ($1 = '' OR r.class_key = $1) AND ($2 = '' OR r.suite = $2)"                                \
  " AND (($3 = '' AND $4 = '') OR EXISTS (SELECT 1 FROM results x WHERE x.run_id = r.id"              \
  " AND ($3 = '' OR x.benchmark_id = $3) AND ($4 = '' OR x.metric = $4)))"                            \
  " AND ($5 = '' OR r.started_at >= $5) AND ($6 = '' OR r.started_at < $6)"                               \
  " AND ($7 = '' OR r.runtime = $7 OR ($7 = 'browser' AND r.runtime <> 'native'))"

// A row takes part in a leaderboard when it measured something.
#define WGB_MEASURED " x.status IN ('ok', 'throttled', 'suspect') AND x.value > 0 "

constexpr std::array<StatementDef, static_cast<std::size_t>(StatementId::kCount)> kStatements{{
    {"wgb_migration_version", "SELECT COALESCE(MAX(version), 0) FROM schema_migrations", ""},
    {"wgb_record_migration", "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)", "itt"},
    {"wgb_insert_run",
     "INSERT INTO runs (digest, submitted_at, started_at, suite, state, class_key, class_label, vendor,"
     " architecture, device, backend, adapter_type, variable, row_count, document, unranked_reason, runtime)"
     " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)"
     " ON CONFLICT (digest) DO NOTHING RETURNING id",
     "ttttttttttttiittt"},
    {"wgb_run_id_by_digest", "SELECT id FROM runs WHERE digest = $1", "t"},
    {"wgb_insert_result",
     "INSERT INTO results (run_id, row_index, benchmark_id, metric, status, value, value_unit, statistic, cv,"
     " unranked) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
     "iitttfttfi"},
    {"wgb_get_run", "SELECT " WGB_RUN_COLUMNS ", r.document FROM runs r WHERE r.id = $1", "i"},
    {"wgb_list_runs", "SELECT " WGB_RUN_COLUMNS " FROM runs r" WGB_RUN_FILTER " ORDER BY r.id DESC LIMIT $8 OFFSET $9",
     "tttttttii"},
    {"wgb_count_runs", "SELECT COUNT(*) FROM runs r" WGB_RUN_FILTER, "ttttttt"},
    {"wgb_entries",
     "SELECT x.run_id, x.row_index, x.value, x.value_unit, x.status, x.unranked, " WGB_RUN_COLUMNS
     " FROM results x JOIN runs r ON r.id = x.run_id WHERE x.benchmark_id = $1 AND" WGB_MEASURED
     "AND ($2 = '' OR r.class_key = $2) AND ($3 = '' OR r.runtime = $3 OR ($3 = 'browser' AND r.runtime <> 'native'))"
     " ORDER BY x.run_id, x.row_index",
     "ttt"},
    {"wgb_class_entries",
     "SELECT x.run_id, x.benchmark_id, x.value, x.value_unit, x.status, x.unranked, r.unranked_reason"
     " FROM results x JOIN runs r ON r.id = x.run_id WHERE r.class_key = $1 AND" WGB_MEASURED
     "ORDER BY x.benchmark_id, x.run_id, x.row_index",
     "t"},
    {"wgb_benchmarks",
     "SELECT x.benchmark_id, r.suite, COUNT(DISTINCT x.run_id), MIN(x.value_unit)"
     " FROM results x JOIN runs r ON r.id = x.run_id WHERE" WGB_MEASURED
     "GROUP BY x.benchmark_id, r.suite ORDER BY r.suite, x.benchmark_id",
     ""},
    {"wgb_classes",
     "SELECT r.class_key, MIN(r.class_label), MIN(r.vendor), MIN(r.architecture), MIN(r.device), MIN(r.backend),"
     " MIN(r.adapter_type), MAX(r.variable), COUNT(*) FROM runs r GROUP BY r.class_key ORDER BY r.class_key",
     ""},
    {"wgb_totals", "SELECT (SELECT COUNT(*) FROM runs), (SELECT COUNT(*) FROM results)", ""},
    // Migration 2 re-derives every stored run's class and ranking under the current rules.
    {"wgb_all_run_documents",
     "SELECT id, document, class_key, class_label, vendor, architecture, device, backend, adapter_type,"
     " variable FROM runs ORDER BY id",
     ""},
    {"wgb_update_run_derived",
     "UPDATE runs SET class_key = $2, class_label = $3, vendor = $4, architecture = $5, device = $6, backend = $7,"
     " adapter_type = $8, variable = $9, unranked_reason = $10, runtime = $11 WHERE id = $1",
     "itttttttitt"},
}};

#undef WGB_RUN_COLUMNS
#undef WGB_RUN_FILTER
#undef WGB_MEASURED

}  // namespace

const StatementDef& statement(StatementId id) { return kStatements.at(static_cast<std::size_t>(id)); }

std::string sqlite_sql(const char* sql) {
  // SQLite reads "$1" as a named parameter whose index is its order of first appearance; "?1" is
  // unambiguous. The statements hold no string literal with a '$', so a plain rewrite is exact.
  std::string out(sql);
  for (std::size_t i = 0; i + 1 < out.size(); ++i) {
    if (out[i] == '$' && std::isdigit(static_cast<unsigned char>(out[i + 1]))) out[i] = '?';
  }
  return out;
}

std::int64_t Cell::i64() const {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return *i;
  if (const auto* d = std::get_if<double>(&v)) return static_cast<std::int64_t>(*d);
  if (const auto* s = std::get_if<std::string>(&v)) {
    std::int64_t out = 0;
    std::from_chars(s->data(), s->data() + s->size(), out);
    return out;
  }
  return 0;
}

double Cell::f64() const {
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  if (const auto* s = std::get_if<std::string>(&v)) return std::strtod(s->c_str(), nullptr);
  return 0;
}

std::string Cell::text() const {
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) return fmt::format("{}", *d);
  return {};
}

std::string redact(const std::string& conninfo) {
  // postgresql://user:secret@host/db -> postgresql://user:***@host/db; key=value strings lose
  // their password=... value.
  std::string s = conninfo;
  if (auto scheme = s.find("://"); scheme != std::string::npos) {
    const auto at = s.find('@', scheme + 3);
    const auto colon = s.find(':', scheme + 3);
    if (at != std::string::npos && colon != std::string::npos && colon < at) {
      s.replace(colon + 1, at - colon - 1, "***");
    }
  }
  for (const char* key : {"password=", "password%3D", "password%3d"}) {
    for (auto p = s.find(key); p != std::string::npos; p = s.find(key, p + 1)) {
      const auto start = p + std::string_view(key).size();
      auto end = s.find_first_of(" &", start);
      if (end == std::string::npos) end = s.size();
      s.replace(start, end - start, "***");
    }
  }
  return s;
}

}  // namespace wgb::store::db
