// Unit tests for suite/driver: the one driver's order, progress, resolution at preparation, fatal
// errors, cancel, validation and members measured together at several points, on scripted entries
// whose batches a fake host times (the host protocol on its steady clock: no GPU, no real clock).
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "measure/repetition_protocol.hpp"
#include "suite/driver.hpp"

namespace wgb {
namespace {

// 1 us a repetition plus 5 us a batch: the protocol calibrates quickly and keeps four regions.
class FakeHost final : public PassHost {
 public:
  Expected<measure::RawTiming> time_pass(const measure::Action& a) override {
    if (fail_with) return *fail_with;
    if (cancel_after >= 0 && ++passes > cancel_after && flag != nullptr) flag->store(true);
    return measure::RawTiming{std::nullopt, 5e-3 + static_cast<double>(a.knob) * 1e-3};
  }
  std::optional<Error> fail_with;
  int cancel_after = -1;
  int passes = 0;
  std::atomic<bool>* flag = nullptr;
};

measure::RepetitionConfig quick() {
  measure::RepetitionConfig c;
  c.repetitions = 4;
  c.warmup_ms = 1;
  return c;
}

// What every scripted entry shares: a log of what the driver asked, in order.
struct Log {
  std::vector<std::string> calls;
};

class ScriptedEntry final : public Entry {
 public:
  ScriptedEntry(std::string id, Log& log, std::size_t members = 1, std::size_t points = 1)
      : id_(std::move(id)), log_(log), members_(members), points_(points) {}

  std::size_t members() const override { return members_; }
  BenchmarkResult identity(std::size_t m) const override {
    BenchmarkResult r;
    r.id = members_ == 1 ? id_ : id_ + "." + std::to_string(m);
    r.metric = {"ops", "op", "Operations"};
    r.statistic = Statistic::Best;
    return r;
  }
  Status prepare() override {
    log_.calls.push_back("prepare " + id_);
    if (prepare_error) return *prepare_error;
    return ok();
  }
  double estimate_s() const override { return 1.5; }
  std::size_t points() const override { return points_; }
  Status set_up(std::size_t p, const std::function<void(std::string)>& stage) override {
    log_.calls.push_back("set_up " + id_ + " " + std::to_string(p));
    stage("set-up");
    return ok();
  }
  Expected<TimedPoint> timing(std::size_t p, std::size_t m) override {
    log_.calls.push_back("time " + id_ + " " + std::to_string(p) + "." + std::to_string(m));
    timing_.emplace(host, quick());
    return timing_->point();
  }
  void record(std::size_t p, std::size_t m, measure::Record r) override {
    records_[{p, m}] = std::move(r);
  }
  bool usable_when_cancelled(std::size_t) const override { return keep_when_cancelled; }
  bool fill(std::size_t m, BenchmarkResult& row) override {
    const auto it = records_.find({points_ - 1, m});
    if (it == records_.end()) return false;
    row.value = 1e6 / it->second.kept_ms.front();
    row.status = RowStatus::Ok;
    return true;
  }
  Expected<std::string> validate(std::size_t) override {
    if (validation_error) return *validation_error;
    return std::string("checked");
  }
  bool ends_run(Step step, const Error& e) const override {
    return Entry::ends_run(step, e) || (step == Step::Prepare && fatal_prepare);
  }

  FakeHost host;
  std::optional<Error> prepare_error, validation_error;
  bool fatal_prepare = false;
  bool keep_when_cancelled = false;

 private:
  // The host protocol's timing for the fake host (the same pieces the host CPU uses).
  struct Timing {
    Timing(PassHost& h, const measure::RepetitionConfig& c)
        : sampler(
              [c](measure::ClockKind) { return std::make_unique<measure::RepetitionProtocol>(c); },
              measure::TimingArbiter::host_steady_clock()),
          host(h) {}
    TimedPoint point() { return TimedPoint{&sampler, &host, {}}; }
    measure::ClockedSampler sampler;
    PassHost& host;
  };
  std::string id_;
  Log& log_;
  std::size_t members_, points_;
  std::optional<Timing> timing_;
  std::map<std::pair<std::size_t, std::size_t>, measure::Record> records_;
};

struct Made {
  std::vector<std::unique_ptr<Entry>> entries;
  std::vector<ScriptedEntry*> raw;
};

Made make(Log& log, const std::vector<std::string>& ids) {
  Made m;
  for (const auto& id : ids) {
    auto e = std::make_unique<ScriptedEntry>(id, log);
    m.raw.push_back(e.get());
    m.entries.push_back(std::move(e));
  }
  return m;
}

std::vector<BenchmarkResult> all_rows(Driver& d) {
  std::vector<BenchmarkResult> rows;
  while (auto r = d.next()) rows.push_back(std::move(*r));
  return rows;
}

TEST(Driver, RunsEveryEntryInOrderAndNumbersTheRows) {
  Log log;
  Made m = make(log, {"a", "b", "c"});
  std::vector<ProgressEvent> events;
  DriverOptions o;
  o.on_progress = [&](const ProgressEvent& e) { events.push_back(e); };
  Driver d(std::move(m.entries), o);
  ASSERT_TRUE(d.start());
  const auto rows = all_rows(d);
  ASSERT_EQ(rows.size(), 3u);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].id, std::string(1, static_cast<char>('a' + i)));
    EXPECT_EQ(rows[i].index, i);
    EXPECT_EQ(rows[i].status, RowStatus::Ok);
    EXPECT_EQ(rows[i].validation, "checked");
    EXPECT_GT(rows[i].value, 0);
    EXPECT_GT(rows[i].duration_s, 0);
  }
  // Every entry is prepared before any is timed.
  ASSERT_GE(log.calls.size(), 6u);
  EXPECT_EQ(log.calls[0], "prepare a");
  EXPECT_EQ(log.calls[2], "prepare c");
  EXPECT_EQ(log.calls[3], "set_up a 0");
  // Progress: SuiteStart, then each entry's start and end in order.
  std::vector<std::string> starts;
  for (const auto& e : events) {
    if (e.kind == ProgressEvent::Kind::BenchmarkStart) {
      starts.push_back(e.id);
      EXPECT_DOUBLE_EQ(e.expected_s, 1.5);
    }
  }
  EXPECT_EQ(starts, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(d.estimates_s(), (std::vector<double>{1.5, 1.5, 1.5}));
}

TEST(Driver, ReverseRunsTheEntriesBackwardsAndSaysSoUpFront) {
  Log log;
  Made m = make(log, {"a", "b", "c"});
  DriverOptions o;
  o.reverse = true;
  Driver d(std::move(m.entries), o);
  std::vector<std::string> planned;
  for (const auto& r : d.identities()) planned.push_back(r.id);
  EXPECT_EQ(planned, (std::vector<std::string>{"c", "b", "a"}));
  ASSERT_TRUE(d.start());
  const auto rows = all_rows(d);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].id, "c");
  EXPECT_EQ(rows[0].index, 0u);
  EXPECT_EQ(rows[2].id, "a");
}

TEST(Driver, AnEntryResolvedAtPreparationCostsNothingAndSaysWhy) {
  Log log;
  Made m = make(log, {"a", "b"});
  m.raw[0]->prepare_error = Error{ErrorKind::Skipped, "needs shader-f16"};
  std::vector<ProgressEvent> events;
  DriverOptions o;
  o.on_progress = [&](const ProgressEvent& e) { events.push_back(e); };
  Driver d(std::move(m.entries), o);
  ASSERT_TRUE(d.start());
  EXPECT_EQ(d.estimates_s(), (std::vector<double>{0.0, 1.5}));
  const auto rows = all_rows(d);
  EXPECT_EQ(rows[0].status, RowStatus::Skipped);
  EXPECT_EQ(rows[0].message, "needs shader-f16");
  EXPECT_EQ(rows[0].value, 0);
  EXPECT_EQ(rows[1].status, RowStatus::Ok);
  EXPECT_EQ(std::count(log.calls.begin(), log.calls.end(), "time a 0.0"), 0);
  const bool resolved = std::any_of(events.begin(), events.end(), [](const ProgressEvent& e) {
    return e.kind == ProgressEvent::Kind::Resolved && e.id == "a";
  });
  EXPECT_TRUE(resolved);
}

TEST(Driver, ALostDeviceEndsTheRunAndTheRestSayNotRun) {
  Log log;
  Made m = make(log, {"a", "b", "c"});
  m.raw[1]->host.fail_with = Error{ErrorKind::DeviceLost, "device lost: the driver reset"};
  Driver d(std::move(m.entries), {});
  ASSERT_TRUE(d.start());
  const auto rows = all_rows(d);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].status, RowStatus::Ok);
  EXPECT_EQ(rows[1].status, RowStatus::Error);
  EXPECT_EQ(rows[1].message, "device lost: the driver reset");
  EXPECT_EQ(rows[2].status, RowStatus::Cancelled);
  EXPECT_EQ(rows[2].message, "not run: device lost: the driver reset");
  ASSERT_TRUE(d.fatal_error());
  EXPECT_EQ(d.fatal_error()->kind, ErrorKind::DeviceLost);
}

TEST(Driver, AnyOtherTimingErrorIsOnlyThatRows) {
  Log log;
  Made m = make(log, {"a", "b"});
  m.raw[0]->host.fail_with = Error{ErrorKind::Failed, "the pass could not be encoded"};
  Driver d(std::move(m.entries), {});
  ASSERT_TRUE(d.start());
  const auto rows = all_rows(d);
  EXPECT_EQ(rows[0].status, RowStatus::Error);
  EXPECT_EQ(rows[1].status, RowStatus::Ok);
  EXPECT_FALSE(d.fatal_error());
}

TEST(Driver, AFatalPreparationEndsTheRunBeforeAnyTiming) {
  Log log;
  Made m = make(log, {"a", "b"});
  m.raw[0]->prepare_error = Error{ErrorKind::OutOfMemory, "no memory even at 32 MiB"};
  m.raw[0]->fatal_prepare = true;
  Driver d(std::move(m.entries), {});
  EXPECT_FALSE(d.start());
  const auto rows = all_rows(d);
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& r : rows) {
    EXPECT_EQ(r.status, RowStatus::Cancelled);
    EXPECT_EQ(r.message, "not run: no memory even at 32 MiB");
  }
  EXPECT_EQ(std::count_if(log.calls.begin(), log.calls.end(), [](const std::string& c) { return c.rfind("time", 0) == 0; }),
            0);
}

TEST(Driver, AWrongResultIsAnErrorNeverANumber) {
  Log log;
  Made m = make(log, {"a"});
  m.raw[0]->validation_error = Error{ErrorKind::Failed, "word 3 is 0, expected 7"};
  Driver d(std::move(m.entries), {});
  ASSERT_TRUE(d.start());
  const auto rows = all_rows(d);
  EXPECT_EQ(rows[0].status, RowStatus::Error);
  EXPECT_EQ(rows[0].message, "validation failed: word 3 is 0, expected 7");
  EXPECT_EQ(rows[0].value, 0);
}

TEST(Driver, ACancelKeepsWhatCompletedAndSaysWhatDidNotRun) {
  Log log;
  Made m = make(log, {"a", "b", "c"});
  std::atomic<bool> flag{false};
  m.raw[1]->host.flag = &flag;
  m.raw[1]->host.cancel_after = 3;
  DriverOptions o;
  o.cancel = CancelToken{&flag};
  Driver d(std::move(m.entries), o);
  ASSERT_TRUE(d.start());
  const auto rows = all_rows(d);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].status, RowStatus::Ok);
  EXPECT_EQ(rows[1].status, RowStatus::Cancelled);
  EXPECT_EQ(rows[1].message, "cancelled while measuring; nothing further was submitted");
  EXPECT_EQ(rows[2].status, RowStatus::Cancelled);
  EXPECT_EQ(rows[2].message, "not run: cancelled");
}

TEST(Driver, MembersAreTimedInTurnAtEveryPointThenGiveOneRowEach) {
  Log log;
  std::vector<std::unique_ptr<Entry>> entries;
  entries.push_back(std::make_unique<ScriptedEntry>("stream", log, /*members=*/2, /*points=*/2));
  entries.push_back(std::make_unique<ScriptedEntry>("after", log));
  Driver d(std::move(entries), {});
  EXPECT_EQ(d.row_count(), 3u);
  ASSERT_TRUE(d.start());
  const auto rows = all_rows(d);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].id, "stream.0");
  EXPECT_EQ(rows[1].id, "stream.1");
  EXPECT_EQ(rows[2].id, "after");
  EXPECT_EQ(rows[2].index, 2u);
  std::vector<std::string> order;
  for (const auto& c : log.calls) {
    if (c.rfind("set_up stream", 0) == 0 || c.rfind("time stream", 0) == 0) order.push_back(c);
  }
  EXPECT_EQ(order, (std::vector<std::string>{"set_up stream 0", "time stream 0.0", "time stream 0.1", "set_up stream 1",
                                             "time stream 1.0", "time stream 1.1"}));
}

TEST(Driver, OnePointTimedAloneGoesThroughTheSameLoop) {
  FakeHost host;
  measure::ClockedSampler sampler(
      [](measure::ClockKind) { return std::make_unique<measure::RepetitionProtocol>(quick()); },
      measure::TimingArbiter::host_steady_clock());
  auto r = time_point(TimedPoint{&sampler, &host, {}}, CancelToken{});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->kept_ms.size(), 4u);
  EXPECT_EQ(r->clock, TimingMethod::HostSteadyClock);
}

}  // namespace
}  // namespace wgb
