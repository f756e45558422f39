// The one suite driver (driver.hpp).
#include "suite/driver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

namespace wgb {

namespace {

using Clock = std::chrono::steady_clock;
using Kind = ProgressEvent::Kind;

RowStatus status_for(ErrorKind k) {
  switch (k) {
    case ErrorKind::Skipped: return RowStatus::Skipped;
    case ErrorKind::Cancelled: return RowStatus::Cancelled;
    default: return RowStatus::Error;
  }
}

// A row that reports no number: an error, a skip, a cancel. A value measured before a failure (a
// validation that failed) is never reported (docs/method.md#validation).
void fail_row(BenchmarkResult& row, RowStatus status, std::string message) {
  row.status = status;
  row.message = std::move(message);
  row.value = row.value_low = row.value_high = 0;
}

}  // namespace

struct Driver::Impl {
  std::vector<std::unique_ptr<Entry>> entries;  // in run order
  DriverOptions o;
  std::vector<std::optional<Error>> prepare_errors;
  std::size_t next_entry = 0;
  std::vector<BenchmarkResult> pending;  // rows of the current entry not yet returned
  std::size_t rows_out = 0;
  bool started = false;
  std::optional<Error> fatal;
  Clock::time_point t0 = Clock::now();

  double now_s() const { return std::chrono::duration<double>(Clock::now() - t0).count(); }
  bool cancelled() const { return o.cancel.cancelled(); }

  void emit(Kind kind, std::size_t index, std::string stage = {}, double expected = 0) {
    if (!o.on_progress) return;
    ProgressEvent e;
    e.kind = kind;
    e.now_s = now_s();
    e.index = index;
    if (index < entries.size()) e.id = entries[index]->identity(0).id;
    e.expected_s = expected;
    e.stage = std::move(stage);
    o.on_progress(e);
  }

  // The rows' identities, numbered in run order.
  std::vector<BenchmarkResult> identities(std::size_t entry, std::size_t first_index) const {
    std::vector<BenchmarkResult> rows;
    for (std::size_t m = 0; m < entries[entry]->members(); ++m) {
      rows.push_back(entries[entry]->identity(m));
      rows.back().index = first_index + m;
    }
    return rows;
  }

  Status start() {
    if (started) return fatal ? Status(*fatal) : ok();
    started = true;
    if (o.reverse) std::reverse(entries.begin(), entries.end());
    prepare_errors.resize(entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (cancelled()) break;
      emit(Kind::Stage, i, "prepare");
      auto st = entries[i]->prepare();
      if (st) continue;
      if (entries[i]->ends_run(Step::Prepare, st.error())) {
        fatal = st.error();
        return st;
      }
      prepare_errors[i] = st.error();
    }
    t0 = Clock::now();
    emit(Kind::SuiteStart, 0);
    // Tell the estimator at once which entries will cost nothing (resolved while preparing).
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (prepare_errors[i]) emit(Kind::Resolved, i, "resolved", 0);
    }
    return ok();
  }

  double estimate(std::size_t i) const {
    if (i < prepare_errors.size() && prepare_errors[i]) return 0;
    return entries[i]->estimate_s();
  }

  // Every member of entry `i` at every point, then its rows.
  std::vector<BenchmarkResult> run_entry(std::size_t i, std::size_t first_index);
  // Times one member at one point; false when the run cannot go on with this entry (an error or a
  // cancel: `why` says which).
  bool time_member(Entry& e, std::size_t p, std::size_t m, std::size_t i, std::optional<Error>& why);
};

bool Driver::Impl::time_member(Entry& e, std::size_t p, std::size_t m, std::size_t i, std::optional<Error>& why) {
  auto point = e.timing(p, m);
  if (!point) {
    why = point.error();
    return false;
  }
  TimedLoop loop;
  loop.cancel = o.cancel;
  loop.max_timing_notes = o.max_timing_notes;
  std::string last_stage;
  loop.on_run = [&](const measure::Action& a, int recorded) {
    std::string stage = point->stage ? point->stage(a, recorded) : std::string(measure::to_string(a.stage));
    if (stage == last_stage) return;
    emit(Kind::Stage, i, stage);
    last_stage = std::move(stage);
  };
  loop.on_cooldown_start = [&](double ms) { emit(Kind::CooldownStart, i, "cooldown", ms / 1000.0); };
  loop.on_cooldown_end = [&] {
    emit(Kind::CooldownEnd, i, "cooldown");
    last_stage.clear();
  };
  auto record = run_timed(*point->sampler, *point->host, loop);
  if (!record) {
    why = record.error();
    return false;
  }
  e.record(p, m, std::move(*record));
  return true;
}

std::vector<BenchmarkResult> Driver::Impl::run_entry(std::size_t i, std::size_t first_index) {
  Entry& e = *entries[i];
  std::vector<BenchmarkResult> rows = identities(i, first_index);
  const auto started_at = Clock::now();
  emit(Kind::BenchmarkStart, i, "start", estimate(i));
  auto finish = [&] {
    const double s = std::chrono::duration<double>(Clock::now() - started_at).count();
    for (auto& r : rows) {
      if (r.duration_s == 0) r.duration_s = s;
    }
    emit(Kind::BenchmarkEnd, i);
    return rows;
  };
  auto all = [&](RowStatus status, const std::string& message) {
    for (auto& r : rows) fail_row(r, status, message);
    return finish();
  };
  if (fatal) return all(RowStatus::Cancelled, fmt::format("not run: {}", fatal->message));
  if (cancelled()) return all(RowStatus::Cancelled, "not run: cancelled");
  if (prepare_errors[i]) return all(status_for(prepare_errors[i]->kind), prepare_errors[i]->message);

  // Every point, each member timed in turn on it.
  std::optional<Error> stopped;  // why timing stopped early (a cancel or an error)
  auto stage = [&](std::string s) { emit(Kind::Stage, i, std::move(s)); };
  for (std::size_t p = 0; p < e.points() && !stopped; ++p) {
    if (cancelled()) {
      stopped = make_error(ErrorKind::Cancelled, "cancelled");
      break;
    }
    if (auto st = e.set_up(p, stage); !st) {
      stopped = st.error();
      if (e.ends_run(Step::SetUp, st.error())) fatal = st.error();
      break;
    }
    for (std::size_t m = 0; m < e.members() && !stopped; ++m) {
      if (!time_member(e, p, m, i, stopped) && stopped->kind != ErrorKind::Cancelled &&
          e.ends_run(Step::Timing, *stopped)) {
        fatal = *stopped;
      }
    }
    if (!stopped) e.end_point(p);
  }
  if (stopped && stopped->kind == ErrorKind::Cancelled) {
    for (std::size_t m = 0; m < rows.size(); ++m) {
      if (!e.usable_when_cancelled(m)) {
        fail_row(rows[m], RowStatus::Cancelled, "cancelled while measuring; nothing further was submitted");
      } else if (!e.fill(m, rows[m])) {
        // fill said why
      }
    }
    return finish();
  }
  if (stopped) return all(RowStatus::Error, stopped->message);

  for (std::size_t m = 0; m < rows.size(); ++m) {
    BenchmarkResult& row = rows[m];
    if (!e.fill(m, row)) continue;
    if (cancelled()) {
      fail_row(row, RowStatus::Cancelled, "cancelled before validation; nothing further was submitted");
      continue;
    }
    // Validation after timing (BabelStream): a wrong result makes the row an error, never a number.
    emit(Kind::Stage, i, "validate");
    auto checked = e.validate(m);
    if (!checked) {
      if (e.ends_run(Step::Validation, checked.error())) fatal = checked.error();
      fail_row(row, RowStatus::Error, fmt::format("validation failed: {}", checked.error().message));
      continue;
    }
    row.validation = std::move(*checked);
    e.judge(m, row);
  }
  return finish();
}

Driver::Driver(std::vector<std::unique_ptr<Entry>> entries, DriverOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->entries = std::move(entries);
  impl_->o = std::move(options);
}
Driver::~Driver() = default;
Driver::Driver(Driver&&) noexcept = default;
Driver& Driver::operator=(Driver&&) noexcept = default;

Status Driver::start() { return impl_->start(); }

std::optional<BenchmarkResult> Driver::next() {
  Impl& d = *impl_;
  if (!d.started) {
    if (auto st = d.start(); !st) return std::nullopt;
  }
  if (d.pending.empty()) {
    if (d.next_entry >= d.entries.size()) return std::nullopt;
    d.pending = d.run_entry(d.next_entry++, d.rows_out);
    std::reverse(d.pending.begin(), d.pending.end());  // pop_back returns them in order
    if (d.pending.empty()) return next();
  }
  BenchmarkResult row = std::move(d.pending.back());
  d.pending.pop_back();
  ++d.rows_out;
  return row;
}

const std::optional<Error>& Driver::fatal_error() const { return impl_->fatal; }

std::size_t Driver::entry_count() const { return impl_->entries.size(); }

std::size_t Driver::row_count() const {
  std::size_t n = 0;
  for (const auto& e : impl_->entries) n += e->members();
  return n;
}

std::vector<BenchmarkResult> Driver::identities() const {
  std::vector<BenchmarkResult> out;
  const auto& d = *impl_;
  // Before start() the entries are still in definition order.
  std::vector<std::size_t> order(d.entries.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (d.o.reverse && !d.started) std::reverse(order.begin(), order.end());
  for (std::size_t i : order) {
    for (auto& r : d.identities(i, out.size())) out.push_back(std::move(r));
  }
  return out;
}

std::vector<double> Driver::estimates_s() const {
  std::vector<double> out;
  const auto& d = *impl_;
  std::vector<std::size_t> order(d.entries.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (d.o.reverse && !d.started) std::reverse(order.begin(), order.end());
  for (std::size_t i : order) out.push_back(d.estimate(i));
  return out;
}

Expected<measure::Record> time_point(const TimedPoint& point, const CancelToken& cancel) {
  TimedLoop loop;
  loop.cancel = cancel;
  return run_timed(*point.sampler, *point.host, loop);
}

}  // namespace wgb
