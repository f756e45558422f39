// Unit tests for frontend/frontend: the one front-end loop on a scripted job and a recording front
// end: the order of what a front end is told, the document before the display, how a run ends, and
// the one mapping from errors to exit codes.
#include <gtest/gtest.h>

#include <atomic>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "frontend/frontend.hpp"

namespace wgb::frontend {
namespace {

BenchmarkResult row(std::string id, RowStatus status, double value = 0) {
  BenchmarkResult r;
  r.id = std::move(id);
  r.status = status;
  r.value = value;
  r.metric = {"bytes", "B", "Bytes read"};
  return r;
}

class ScriptedJob final : public Job {
 public:
  explicit ScriptedJob(std::vector<BenchmarkResult> rows) : plan_(rows), rows_(rows.begin(), rows.end()) {}
  Status start(const JobContext& context) override {
    context_ = context;
    if (start_error) return *start_error;
    ProgressEvent e;
    e.kind = ProgressEvent::Kind::SuiteStart;
    context.progress(e);
    return ok();
  }
  report::ResultDocument& document() override { return doc_; }
  std::vector<BenchmarkResult> planned() const override { return plan_; }
  std::vector<double> estimates_s() const override { return std::vector<double>(plan_.size(), 2.0); }
  std::optional<BenchmarkResult> next() override {
    if (rows_.empty()) return std::nullopt;
    if (cancel_at_next != nullptr && rows_.size() == 1) cancel_at_next->store(true);
    BenchmarkResult r = rows_.front();
    rows_.pop_front();
    return r;
  }
  std::optional<Error> fatal() const override { return fatal_error; }
  void record(BenchmarkResult& r) override {
    r.notes.push_back("recorded");
    doc_.add_row(r);
  }
  std::string progress_line(const BenchmarkResult& r) const override { return "line " + r.id; }
  void finish(const Outcome& o) override {
    finished = true;
    doc_.finish(o.cancelled ? "cancelled" : "complete");
  }
  std::string summary(std::size_t) const override { return "summary\n"; }

  std::optional<Error> start_error, fatal_error;
  std::atomic<bool>* cancel_at_next = nullptr;
  bool finished = false;

 private:
  std::vector<BenchmarkResult> plan_;
  std::deque<BenchmarkResult> rows_;
  report::ResultDocument doc_{"default", {"webgpu-bench", "run"}};
  JobContext context_;
};

class Recorder final : public FrontEnd {
 public:
  CancelToken cancel() const override { return CancelToken{const_cast<std::atomic<bool>*>(&flag)}; }
  Status started(Job&) override {
    said.push_back("started");
    return started_error ? Status(*started_error) : ok();
  }
  void header(const std::string& h) override {
    said.push_back("header");
    header_text = h;
  }
  void begin(std::size_t count, std::vector<double> estimates) override {
    said.push_back("begin " + std::to_string(count) + " " + std::to_string(estimates.size()));
  }
  void progress(const ProgressEvent& e) override {
    if (e.kind == ProgressEvent::Kind::SuiteStart) said.push_back("progress");
  }
  void row(const BenchmarkResult& r, const std::string& table_line, const std::string& progress_line,
           const report::ResultDocument& doc) override {
    said.push_back("row " + r.id);
    // The document already holds the row a front end is told about, derived numbers included.
    EXPECT_FALSE(doc.rows().empty());
    EXPECT_EQ(doc.rows().back().result.id, r.id);
    EXPECT_EQ(r.notes.back(), "recorded");
    EXPECT_NE(table_line.find(r.id), std::string::npos);
    EXPECT_EQ(progress_line, "line " + r.id);
  }
  void between_rows() override { said.push_back("between"); }
  void end(bool completed) override { said.push_back(completed ? "end complete" : "end stopped"); }

  std::atomic<bool> flag{false};
  std::optional<Error> started_error;
  std::vector<std::string> said;
  std::string header_text;
};

TEST(FrontEndLoop, TellsTheFrontEndEverythingInOrder) {
  ScriptedJob job({row("read-linear", RowStatus::Ok, 1e9), row("write-linear", RowStatus::Ok, 2e9)});
  Recorder fe;
  const Outcome o = run(job, fe, 100);
  EXPECT_EQ(fe.said, (std::vector<std::string>{"progress", "started", "header", "begin 2 2", "row read-linear", "between",
                                               "row write-linear", "between", "end complete"}));
  EXPECT_NE(fe.header_text.find("benchmark"), std::string::npos);
  EXPECT_TRUE(job.finished);
  EXPECT_EQ(job.document().rows().size(), 2u);
  EXPECT_EQ(o.completed, 2u);
  EXPECT_FALSE(o.cancelled);
  EXPECT_FALSE(o.any_error);
  EXPECT_EQ(exit_status(o), kExitOk);
}

TEST(FrontEndLoop, AFailedRowMakesExitCodeOne) {
  ScriptedJob job({row("a", RowStatus::Ok, 1), row("b", RowStatus::Error), row("c", RowStatus::Skipped)});
  Recorder fe;
  const Outcome o = run(job, fe, 100);
  EXPECT_TRUE(o.any_error);
  EXPECT_EQ(o.completed, 3u);
  EXPECT_EQ(exit_status(o), kExitBenchmarkFailed);
}

TEST(FrontEndLoop, AJobThatCannotStartRunsNothing) {
  ScriptedJob job({row("a", RowStatus::Ok, 1)});
  job.start_error = Error{ErrorKind::NoAdapter, "no usable WebGPU adapter"};
  Recorder fe;
  const Outcome o = run(job, fe, 100);
  EXPECT_FALSE(o.ran);
  ASSERT_TRUE(o.fatal);
  EXPECT_EQ(exit_status(o), kExitNoAdapter);
  EXPECT_TRUE(fe.said.empty());
  EXPECT_FALSE(job.finished);
}

TEST(FrontEndLoop, AnUnwritableOutputEndsTheRunBeforeAnyWork) {
  ScriptedJob job({row("a", RowStatus::Ok, 1)});
  Recorder fe;
  fe.started_error = Error{ErrorKind::Io, "cannot write out.json: Permission denied"};
  const Outcome o = run(job, fe, 100);
  EXPECT_FALSE(o.ran);
  EXPECT_EQ(exit_status(o), kExitIo);
  EXPECT_EQ(fe.said, (std::vector<std::string>{"progress", "started"}));
}

TEST(FrontEndLoop, ACancelStopsTheBarWhereItWasAndExitsWith130) {
  std::atomic<bool>* flag = nullptr;
  ScriptedJob job({row("a", RowStatus::Ok, 1), row("b", RowStatus::Cancelled)});
  Recorder fe;
  flag = &fe.flag;
  job.cancel_at_next = flag;
  const Outcome o = run(job, fe, 100);
  EXPECT_TRUE(o.cancelled);
  EXPECT_EQ(o.completed, 1u);  // the cancelled row did not complete
  EXPECT_EQ(fe.said.back(), "end stopped");
  EXPECT_EQ(exit_status(o), kExitCancelled);
  EXPECT_EQ(job.document().json().value("state", ""), "cancelled");
}

TEST(FrontEndLoop, AFatalErrorKeepsTheRowsAndExitsWithItsCode) {
  ScriptedJob job({row("a", RowStatus::Ok, 1), row("b", RowStatus::Cancelled)});
  job.fatal_error = Error{ErrorKind::DeviceLost, "device lost"};
  Recorder fe;
  const Outcome o = run(job, fe, 100);
  EXPECT_EQ(fe.said.back(), "end stopped");
  EXPECT_EQ(job.document().rows().size(), 2u);
  EXPECT_EQ(exit_status(o), kExitDeviceLost);
}

TEST(ExitCodes, OneMappingForEveryFrontEnd) {
  EXPECT_EQ(exit_code_for(ErrorKind::Usage), kExitUsage);
  EXPECT_EQ(exit_code_for(ErrorKind::Compile), kExitUsage);  // WGSL that fails to compile is the user's input
  EXPECT_EQ(exit_code_for(ErrorKind::NoAdapter), kExitNoAdapter);
  EXPECT_EQ(exit_code_for(ErrorKind::DeviceLost), kExitDeviceLost);
  EXPECT_EQ(exit_code_for(ErrorKind::GpuError), kExitDeviceLost);
  EXPECT_EQ(exit_code_for(ErrorKind::Io), kExitIo);
  EXPECT_EQ(exit_code_for(ErrorKind::Cancelled), kExitCancelled);
  EXPECT_EQ(exit_code_for(ErrorKind::Failed), kExitBenchmarkFailed);
  Outcome failure;
  failure.failure = "the second run disagrees";
  EXPECT_EQ(exit_status(failure), kExitBenchmarkFailed);
}

}  // namespace
}  // namespace wgb::frontend
