// The results store over the database layer: migrations, the connection pool, inserts in one
// transaction, queries, and the leaderboard arithmetic.
#include "store/store.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string_view>

#include "measure/stats.hpp"
#include "report/document.hpp"
#include "store/db.hpp"

namespace wgb::store {

namespace {

using db::Cell;
using db::Connection;
using db::Dialect;
using db::StatementId;
using db::Value;

// --- schema ---------------------------------------------------------------------------------------
// One schema for both databases. @ID@ and @REF@ are the only dialect differences: SQLite's
// AUTOINCREMENT (ids are never reused, so links to runs stay valid) and PostgreSQL's identity.
struct Migration {
  int version;
  const char* name;
  const char* ddl;
  Status (*after)(Connection&);  // data to carry over once the DDL ran (nullptr: none)
};

Status rederive_runs(Connection& c);
DeviceClass class_from(const std::vector<Cell>& row, std::size_t at);

constexpr Migration kMigrations[] = {
    {1, "runs and results",
     "CREATE TABLE runs ("
     " id @ID@,"
     " digest TEXT NOT NULL UNIQUE,"
     " submitted_at TEXT NOT NULL,"
     " started_at TEXT NOT NULL,"
     " suite TEXT NOT NULL,"
     " state TEXT NOT NULL,"
     " class_key TEXT NOT NULL,"
     " class_label TEXT NOT NULL,"
     " vendor TEXT NOT NULL,"
     " architecture TEXT NOT NULL,"
     " device TEXT NOT NULL,"
     " backend TEXT NOT NULL,"
     " adapter_type TEXT NOT NULL,"
     " variable INTEGER NOT NULL,"
     " row_count INTEGER NOT NULL,"
     " document TEXT NOT NULL);"
     "CREATE INDEX runs_class_time ON runs (class_key, started_at);"
     "CREATE INDEX runs_suite_time ON runs (suite, started_at);"
     "CREATE INDEX runs_started ON runs (started_at);"
     "CREATE TABLE results ("
     " run_id @REF@ NOT NULL REFERENCES runs (id) ON DELETE CASCADE,"
     " row_index INTEGER NOT NULL,"
     " benchmark_id TEXT NOT NULL,"
     " metric TEXT NOT NULL,"
     " status TEXT NOT NULL,"
     " value DOUBLE PRECISION NOT NULL,"
     " value_unit TEXT NOT NULL,"
     " statistic TEXT NOT NULL,"
     " cv DOUBLE PRECISION,"
     " unranked INTEGER NOT NULL,"
     " PRIMARY KEY (run_id, row_index));"
     "CREATE INDEX results_benchmark ON results (benchmark_id, metric);"
     "CREATE INDEX results_run ON results (run_id);",
     nullptr},
    // Runs measured with non-default options are kept but not ranked, with the reason; host and CPU
    // adapter classes include the CPU's topology. Stored runs are re-derived under these rules by
    // migration 3, which every upgrade reaches (its re-derivation writes the runtime column too).
    {2, "unranked reason, host classes by topology",
     "ALTER TABLE runs ADD COLUMN unranked_reason TEXT NOT NULL DEFAULT ''", nullptr},
    // Runs measured in a browser (/run) beside native ones: the leaderboard and the run list
    // filter on where a run was measured; stored runs are re-derived (they are all native).
    {3, "runtime (browser or native)",
     "ALTER TABLE runs ADD COLUMN runtime TEXT NOT NULL DEFAULT 'native';"
     "CREATE INDEX runs_runtime ON runs (runtime, started_at);",
     rederive_runs},
    // The runtime column names the implementation that measured a run (chromium, firefox, deno, safari,
    // browser when unknown, native): stored runs are re-derived, browser runs by their user agent.
    {4, "runtime names the implementation", "", rederive_runs},
};

constexpr const char* kMigrationsTable =
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
    " applied_at TEXT NOT NULL)";

std::string replace_all(std::string s, std::string_view from, std::string_view to) {
  for (auto p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
  return s;
}

std::string dialect_ddl(const char* ddl, Dialect d) {
  const bool pg = d == Dialect::Postgres;
  std::string s = replace_all(ddl, "@ID@", pg ? "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
                                              : "INTEGER PRIMARY KEY AUTOINCREMENT");
  return replace_all(std::move(s), "@REF@", pg ? "BIGINT" : "INTEGER");
}

bool is_postgres_spec(const std::string& spec) {
  return spec.rfind("postgresql://", 0) == 0 || spec.rfind("postgres://", 0) == 0;
}

// --- the pool -------------------------------------------------------------------------------------
class Pool {
 public:
  class Lease {
   public:
    Lease(Pool* pool, Connection* conn) : pool_(pool), conn_(conn) {}
    Lease(Lease&& o) noexcept : pool_(std::exchange(o.pool_, nullptr)), conn_(o.conn_) {}
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() {
      if (pool_ != nullptr) pool_->release(conn_);
    }
    Connection* operator->() const { return conn_; }
    Connection& operator*() const { return *conn_; }

   private:
    Pool* pool_;
    Connection* conn_;
  };

  void add(std::unique_ptr<Connection> c) {
    std::lock_guard lock(mutex_);
    free_.push_back(c.get());
    all_.push_back(std::move(c));
  }

  Expected<Lease> acquire(std::chrono::seconds timeout) {
    Connection* c = nullptr;
    {
      std::unique_lock lock(mutex_);
      if (!available_.wait_for(lock, timeout, [this] { return !free_.empty(); })) {
        return make_error(ErrorKind::Io, fmt::format("the database stayed busy for {} s", timeout.count()));
      }
      c = free_.back();
      free_.pop_back();
    }
    Lease lease(this, c);
    if (!c->healthy()) {
      if (auto st = c->reconnect(); !st) return st.error();
    }
    return lease;
  }

 private:
  void release(Connection* c) {
    c->rollback();  // a lease never leaves a transaction open behind it
    {
      std::lock_guard lock(mutex_);
      free_.push_back(c);
    }
    available_.notify_one();
  }

  std::mutex mutex_;
  std::condition_variable available_;
  std::vector<std::unique_ptr<Connection>> all_;
  std::vector<Connection*> free_;
};

// Every stored document through today's rules: its class (which changed for host CPUs and CPU
// adapters) and whether it is ranked. A document that no longer passes is kept, unranked.
Status rederive_runs(Connection& c) {
  auto runs = c.run(StatementId::AllRunDocuments, {});
  if (!runs) return runs.error();
  for (const auto& row : runs->rows) {
    // id, document, then the class columns as stored (class_key ... variable).
    const std::int64_t id = row[0].i64();
    DeviceClass k = class_from(row, 2);
    std::string reason, runtime = "native";
    nlohmann::json doc = nlohmann::json::parse(row[1].text(), nullptr, false);
    auto sub = doc.is_discarded()
                   ? Expected<Submission>(make_error(ErrorKind::Usage, "the stored document is not JSON"))
                   : make_submission(std::move(doc));
    if (sub) {
      k = sub->device_class;
      reason = sub->unranked_reason;
      runtime = sub->runtime;
    } else {
      reason = "no longer passes the checks: " + sub.error().message;
    }
    const Value params[] = {id,        k.key,          k.label,
                            k.vendor,  k.architecture, k.device,
                            k.backend, k.adapter_type, std::int64_t{k.variable ? 1 : 0},
                            reason,    runtime};
    if (auto r = c.run(StatementId::UpdateRunDerived, params); !r) return r.error();
  }
  return ok();
}

Status migrate(Connection& c, int target) {
  if (auto st = c.begin(); !st) return st;
  auto fail = [&c](Error e) -> Status {
    c.rollback();
    return e;
  };
  if (c.dialect() == Dialect::Postgres) {
    // Two servers starting on one empty database: the second waits here, then finds it migrated.
    if (auto st = c.exec("SELECT pg_advisory_xact_lock(7702100001)"); !st) return fail(st.error());
  }
  if (auto st = c.exec(kMigrationsTable); !st) return fail(st.error());
  auto current = c.run(StatementId::MigrationVersion, {});
  if (!current) return fail(current.error());
  const std::int64_t have = current->rows.empty() ? 0 : current->rows[0][0].i64();
  if (target <= 0 || target > kStoreSchemaVersion) target = kStoreSchemaVersion;
  if (have > kStoreSchemaVersion) {
    return fail(make_error(ErrorKind::Usage,
                           fmt::format("the database has schema version {}, newer than this program knows ({}): "
                                       "use a newer webgpu-bench",
                                       have, kStoreSchemaVersion)));
  }
  for (const auto& m : kMigrations) {
    if (m.version <= have || m.version > target) continue;
    // A migration of data alone has no DDL: PostgreSQL refuses an empty statement.
    if (*m.ddl != '\0') {
      if (auto st = c.exec(dialect_ddl(m.ddl, c.dialect())); !st) return fail(st.error());
    }
    if (m.after != nullptr) {
      if (auto st = m.after(c); !st) return fail(st.error());
    }
    const Value params[] = {std::int64_t{m.version}, std::string(m.name), report::utc_now_iso8601()};
    if (auto r = c.run(StatementId::RecordMigration, params); !r) return fail(r.error());
  }
  return c.commit();
}

DeviceClass class_from(const std::vector<Cell>& row, std::size_t at) {
  // Columns (from WGB_RUN_COLUMNS, after id/submitted_at/started_at/suite/state): class_key,
  // class_label, vendor, architecture, device, backend, adapter_type, variable.
  DeviceClass c;
  for (std::string DeviceClass::*text : {&DeviceClass::key, &DeviceClass::label, &DeviceClass::vendor,
                                         &DeviceClass::architecture, &DeviceClass::device, &DeviceClass::backend,
                                         &DeviceClass::adapter_type}) {
    c.*text = row[at++].text();
  }
  c.variable = row[at].i64() != 0;
  return c;
}

RunSummary summary_from(const std::vector<Cell>& row, std::size_t at) {
  RunSummary s;
  s.id = row[at].i64();
  s.submitted_at = row[at + 1].text();
  s.started_at = row[at + 2].text();
  s.suite = row[at + 3].text();
  s.state = row[at + 4].text();
  s.device_class = class_from(row, at + 5);
  s.row_count = static_cast<int>(row[at + 13].i64());
  s.unranked_reason = row[at + 14].text();
  s.runtime = row[at + 15].text();
  return s;
}

// Every row a statement answers, each made a T by `from` (a row -> T).
template <class T, class From>
Expected<std::vector<T>> rows_as(Connection& c, StatementId id, std::span<const Value> params, From from) {
  auto r = c.run(id, params);
  if (!r) return r.error();
  std::vector<T> out;
  for (const auto& row : r->rows) out.push_back(from(row));
  return out;
}

std::vector<Value> filter_params(const RunFilter& f) {
  return {f.device_class, f.suite, f.benchmark, f.metric, f.since, f.until, f.runtime};
}

void fill_spread(std::vector<double> values, double& median, double& q1, double& q3, double& min, double& max) {
  if (values.empty()) return;
  std::sort(values.begin(), values.end());
  median = measure::quantile(values, 0.5);
  q1 = measure::quantile(values, 0.25);
  q3 = measure::quantile(values, 0.75);
  min = values.front();
  max = values.back();
}

// Is `a` a better value than `b`?
bool better(double a, double b, bool lower) { return lower ? a < b : a > b; }

}  // namespace

struct Store::Impl {
  Dialect dialect = Dialect::Sqlite;
  std::string description;
  StoreOptions options;
  Pool pool;

  template <class F>
  auto with(F&& f) -> decltype(f(std::declval<Connection&>())) {
    auto lease = pool.acquire(options.acquire_timeout);
    if (!lease) return lease.error();
    return f(**lease);
  }

  // `with`, and once more on a fresh connection when the first try lost its connection (the
  // database restarted, or dropped this session). `f` must be one transaction: nothing of a try
  // that failed was committed. If the commit itself went through but its answer was lost, the
  // second try finds the document by its digest and answers with the stored id.
  template <class F>
  auto with_retry(F&& f) -> decltype(f(std::declval<Connection&>())) {
    auto lease = pool.acquire(options.acquire_timeout);
    if (!lease) return lease.error();
    auto result = f(**lease);
    if (!result && !(*lease)->healthy()) {
      (*lease)->rollback();
      if (auto st = (*lease)->reconnect(); !st) return result;
      result = f(**lease);
    }
    return result;
  }
};

Store::Store(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Store::~Store() = default;

Expected<std::unique_ptr<Store>> Store::open(const std::string& spec, const StoreOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  if (is_postgres_spec(spec)) {
    impl->dialect = Dialect::Postgres;
    impl->description = "PostgreSQL " + db::redact(spec);
    const int n = std::clamp(options.postgres_connections, 1, 64);
    for (int i = 0; i < n; ++i) {
      auto c = db::open_postgres(spec);
      if (!c) return c.error();
      if (i == 0) {
        if (auto st = migrate(**c, options.migrate_to); !st) return st.error();
      }
      impl->pool.add(std::move(*c));
    }
  } else {
    std::string path = spec.rfind("sqlite:", 0) == 0 ? spec.substr(7) : spec;
    if (path.empty()) return make_error(ErrorKind::Usage, "--store: empty SQLite path");
    impl->description = "SQLite " + path;
    auto c = db::open_sqlite(path);
    if (!c) return c.error();
    if (auto st = migrate(**c, options.migrate_to); !st) return st.error();
    impl->pool.add(std::move(*c));
  }
  return std::unique_ptr<Store>(new Store(std::move(impl)));
}

std::string Store::description() const { return impl_->description; }

Expected<int> Store::schema_version() {
  return impl_->with([](Connection& c) -> Expected<int> {
    auto r = c.run(StatementId::MigrationVersion, {});
    if (!r) return r.error();
    return static_cast<int>(r->rows.at(0).at(0).i64());
  });
}

Expected<InsertOutcome> Store::insert(const Submission& s) {
  return impl_->with_retry([&s](Connection& c) -> Expected<InsertOutcome> {
    if (auto st = c.begin(); !st) return st.error();
    const auto& k = s.device_class;
    const Value run[] = {s.digest,
                         report::utc_now_iso8601(),
                         s.started_at,
                         s.suite,
                         s.state,
                         k.key,
                         k.label,
                         k.vendor,
                         k.architecture,
                         k.device,
                         k.backend,
                         k.adapter_type,
                         std::int64_t{k.variable ? 1 : 0},
                         static_cast<std::int64_t>(s.rows.size()),
                         s.canonical,
                         s.unranked_reason,
                         s.runtime};
    auto inserted = c.run(StatementId::InsertRun, run);
    if (!inserted) {
      c.rollback();
      return inserted.error();
    }
    if (inserted->rows.empty()) {  // ON CONFLICT (digest) DO NOTHING: already stored
      c.rollback();
      const Value digest[] = {s.digest};
      auto existing = c.run(StatementId::RunIdByDigest, digest);
      if (!existing) return existing.error();
      if (existing->rows.empty()) return make_error(ErrorKind::Io, "duplicate document vanished while inserting");
      return InsertOutcome{existing->rows[0][0].i64(), true};
    }
    const std::int64_t id = inserted->rows[0][0].i64();
    for (const auto& r : s.rows) {
      const Value row[] = {id,
                           std::int64_t{r.row_index},
                           r.benchmark_id,
                           r.metric,
                           r.status,
                           r.value,
                           r.value_unit,
                           r.statistic,
                           r.cv ? Value{*r.cv} : Value{},
                           std::int64_t{r.unranked ? 1 : 0}};
      if (auto st = c.run(StatementId::InsertResult, row); !st) {
        c.rollback();
        return st.error();
      }
    }
    if (auto st = c.commit(); !st) {
      c.rollback();
      return st.error();
    }
    return InsertOutcome{id, false};
  });
}

Expected<std::optional<StoredRun>> Store::get(std::int64_t id) {
  return impl_->with([id](Connection& c) -> Expected<std::optional<StoredRun>> {
    const Value params[] = {id};
    auto r = c.run(StatementId::GetRun, params);
    if (!r) return r.error();
    if (r->rows.empty()) return std::optional<StoredRun>{};
    const auto& row = r->rows[0];
    StoredRun run;
    run.summary = summary_from(row, 0);
    try {
      run.document = nlohmann::json::parse(row[16].text());
    } catch (const nlohmann::json::exception& e) {
      return make_error(ErrorKind::Io, fmt::format("run {}: the stored document is not JSON: {}", id, e.what()));
    }
    return std::optional<StoredRun>(std::move(run));
  });
}

Expected<std::vector<RunSummary>> Store::list(const RunFilter& filter) {
  return impl_->with([&filter](Connection& c) -> Expected<std::vector<RunSummary>> {
    auto params = filter_params(filter);
    params.emplace_back(std::clamp<std::int64_t>(filter.limit, 0, 1000));
    params.emplace_back(std::max<std::int64_t>(filter.offset, 0));
    return rows_as<RunSummary>(c, StatementId::ListRuns, params, [](const auto& row) { return summary_from(row, 0); });
  });
}

Expected<std::int64_t> Store::count(const RunFilter& filter) {
  return impl_->with([&filter](Connection& c) -> Expected<std::int64_t> {
    auto r = c.run(StatementId::CountRuns, filter_params(filter));
    if (!r) return r.error();
    return r->rows.at(0).at(0).i64();
  });
}

Expected<Leaderboard> Store::leaderboard(const std::string& benchmark, const std::string& runtime) {
  auto entries = impl_->with([&benchmark, &runtime](Connection& c) -> Expected<std::vector<Entry>> {
    const Value params[] = {benchmark, std::string{}, runtime};
    auto r = c.run(StatementId::Entries, params);
    if (!r) return r.error();
    std::vector<Entry> out;
    for (const auto& row : r->rows) {
      // run_id, row_index, value, value_unit, status, unranked, then the run columns.
      Entry e;
      e.run_id = row[0].i64();
      e.value = row[2].f64();
      e.unit = row[3].text();
      e.status = row[4].text();
      const RunSummary s = summary_from(row, 6);
      e.unranked_reason = s.unranked_reason;
      e.ranked = e.status == "ok" && row[5].i64() == 0 && e.unranked_reason.empty();
      e.started_at = s.started_at;
      e.suite = s.suite;
      e.runtime = s.runtime;
      e.device_class = s.device_class;
      out.push_back(std::move(e));
    }
    return out;
  });
  if (!entries) return entries.error();
  return build_leaderboard(benchmark, std::move(*entries));
}

Expected<std::vector<ClassDistribution>> Store::class_distributions(const std::string& class_key) {
  return impl_->with([&class_key](Connection& c) -> Expected<std::vector<ClassDistribution>> {
    const Value params[] = {class_key};
    auto r = c.run(StatementId::ClassEntries, params);
    if (!r) return r.error();
    // benchmark -> run -> best ranked value (a run counts once per benchmark).
    std::map<std::string, std::map<std::int64_t, double>> best;
    std::map<std::string, std::string> units;
    for (const auto& row : r->rows) {
      const bool ranked = row[4].text() == "ok" && row[5].i64() == 0 && row[6].text().empty();
      if (!ranked) continue;
      const std::string bench = row[1].text();
      const std::string unit = row[3].text();
      const bool lower = lower_is_better(unit);
      units.emplace(bench, unit);
      if (units[bench] != unit) continue;  // values in another unit cannot share a distribution
      auto& runs = best[bench];
      const double v = row[2].f64();
      auto [it, fresh] = runs.emplace(row[0].i64(), v);
      if (!fresh && better(v, it->second, lower)) it->second = v;
    }
    std::vector<ClassDistribution> out;
    for (const auto& [bench, runs] : best) {
      ClassDistribution d;
      d.benchmark = bench;
      d.unit = units[bench];
      d.ranked = runs.size();
      std::vector<double> values;
      for (const auto& [id, v] : runs) values.push_back(v);
      fill_spread(std::move(values), d.median, d.q1, d.q3, d.min, d.max);
      out.push_back(std::move(d));
    }
    return out;
  });
}

Expected<std::vector<BenchmarkInfo>> Store::benchmarks() {
  return impl_->with([](Connection& c) -> Expected<std::vector<BenchmarkInfo>> {
    return rows_as<BenchmarkInfo>(c, StatementId::Benchmarks, {}, [](const auto& row) {
      return BenchmarkInfo{row[0].text(), row[1].text(), row[3].text(), row[2].i64()};
    });
  });
}

Expected<std::vector<ClassInfo>> Store::classes() {
  return impl_->with([](Connection& c) -> Expected<std::vector<ClassInfo>> {
    return rows_as<ClassInfo>(c, StatementId::Classes, {},
                              [](const auto& row) { return ClassInfo{class_from(row, 0), row[8].i64()}; });
  });
}

Expected<std::pair<std::int64_t, std::int64_t>> Store::totals() {
  return impl_->with([](Connection& c) -> Expected<std::pair<std::int64_t, std::int64_t>> {
    auto r = c.run(StatementId::Totals, {});
    if (!r) return r.error();
    return std::pair{r->rows.at(0).at(0).i64(), r->rows.at(0).at(1).i64()};
  });
}

Leaderboard build_leaderboard(const std::string& benchmark, std::vector<Entry> entries) {
  Leaderboard board;
  board.benchmark = benchmark;
  // The unit most entries use; an entry in another unit cannot be compared, so it is shown unranked.
  std::map<std::string, int> unit_votes;
  for (const auto& e : entries) ++unit_votes[e.unit];
  int votes = -1;
  for (const auto& [unit, n] : unit_votes) {
    if (n > votes) {
      board.unit = unit;
      votes = n;
    }
  }
  board.lower_is_better = lower_is_better(board.unit);
  const bool lower = board.lower_is_better;
  for (auto& e : entries) {
    if (e.unit != board.unit) e.ranked = false;
  }

  // One entry per run: its best ranked row, else its best row.
  std::map<std::int64_t, Entry> per_run;
  for (auto& e : entries) {
    auto it = per_run.find(e.run_id);
    if (it == per_run.end()) {
      per_run.emplace(e.run_id, std::move(e));
    } else if ((e.ranked && !it->second.ranked) ||
               (e.ranked == it->second.ranked && better(e.value, it->second.value, lower))) {
      it->second = std::move(e);
    }
  }

  std::map<std::string, ClassStanding> by_class;
  for (auto& [id, e] : per_run) {
    auto& standing = by_class[e.device_class.key];
    if (standing.device_class.key.empty()) standing.device_class = e.device_class;
    // A class marked variable once (any of its runs) stays marked.
    standing.device_class.variable = standing.device_class.variable || e.device_class.variable;
    standing.entries.push_back(std::move(e));
  }
  for (auto& [key, s] : by_class) {
    std::vector<double> values;
    for (const auto& e : s.entries) {
      if (e.ranked) values.push_back(e.value);
    }
    s.ranked = values.size();
    fill_spread(std::move(values), s.median, s.q1, s.q3, s.min, s.max);
    std::stable_sort(s.entries.begin(), s.entries.end(), [lower](const Entry& a, const Entry& b) {
      if (a.ranked != b.ranked) return a.ranked;
      if (a.value != b.value) return better(a.value, b.value, lower);
      return a.run_id < b.run_id;
    });
    board.classes.push_back(std::move(s));
  }
  std::stable_sort(board.classes.begin(), board.classes.end(), [lower](const ClassStanding& a, const ClassStanding& b) {
    if ((a.ranked > 0) != (b.ranked > 0)) return a.ranked > 0;
    if (a.ranked > 0 && a.median != b.median) return better(a.median, b.median, lower);
    return a.device_class.key < b.device_class.key;
  });
  int rank = 0;
  for (auto& s : board.classes) s.rank = s.ranked > 0 ? ++rank : 0;
  return board;
}

}  // namespace wgb::store
