// Record -> row (suite/row.hpp): the one function every suite's rows come from. The headline follows
// the row's statistic, the rate range its quartiles, and nothing in the record is lost on the way.
#include "suite/row.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace wgb {
namespace {

measure::Record record() {
  measure::Record r;
  r.knob = 64;
  r.repetitions = 8;
  r.calibration_trace = {{1, 0.5}, {64, 2.0}};
  r.kept_ms = {2.0, 2.5, 3.0, 4.0};
  r.throttled_ms = {9.0};
  r.discarded = {{std::nan(""), 8, 64, "sample", "timestamp-rejected", "negative"}};
  r.notes = {"a note"};
  r.stop_reason = StopReason::Converged;
  r.clock = TimingMethod::GpuTimestamp;
  r.timestamp_strikes = 1;
  r.cooldowns_taken = 2;
  return r;
}

BenchmarkResult row(Statistic s) {
  BenchmarkResult r;
  r.metric = {"bytes", "B", "Bytes moved"};
  r.statistic = s;
  return r;
}

TEST(Row, BestUsesTheFastestKeptTime) {
  BenchmarkResult r = row(Statistic::Best);
  ASSERT_TRUE(apply_record(r, record(), WorkModel{.bytes_read = 1e6, .bytes_written = 1e6}));
  EXPECT_EQ(r.status, RowStatus::Ok);
  EXPECT_DOUBLE_EQ(r.time_ms, 2.0);
  EXPECT_DOUBLE_EQ(r.value, 2e6 / 2e-3);
  EXPECT_DOUBLE_EQ(r.value_low, 2e6 / (r.stats.q3 / 1000.0));
  EXPECT_DOUBLE_EQ(r.value_high, 2e6 / (r.stats.q1 / 1000.0));
  EXPECT_EQ(r.knob, 64u);
  EXPECT_EQ(r.repetitions, 8u);
  EXPECT_EQ(r.calibration.size(), 2u);
  EXPECT_EQ(r.samples_ms.size(), 4u);
  EXPECT_EQ(r.stats.count, 4u);
  EXPECT_EQ(r.throttled_ms, std::vector<double>{9.0});
  ASSERT_EQ(r.discarded.size(), 1u);
  EXPECT_EQ(r.discarded[0].reason, "timestamp-rejected");
  EXPECT_EQ(r.timing_notes, std::vector<std::string>{"a note"});
  EXPECT_EQ(r.stop_reason, StopReason::Converged);
  EXPECT_EQ(r.timing_method, TimingMethod::GpuTimestamp);
  EXPECT_EQ(r.timestamp_strikes, 1);
  EXPECT_EQ(r.cooldowns, 2);
}

TEST(Row, MedianUsesTheMedian) {
  BenchmarkResult r = row(Statistic::Median);
  ASSERT_TRUE(apply_record(r, record(), WorkModel{.bytes_read = 1e6}));
  EXPECT_DOUBLE_EQ(r.time_ms, 2.75);
  EXPECT_DOUBLE_EQ(r.value, 1e6 / 2.75e-3);
}

TEST(Row, NothingKeptOrNoWorkIsAnErrorThatSaysWhy) {
  measure::Record empty = record();
  empty.kept_ms.clear();
  BenchmarkResult r = row(Statistic::Best);
  EXPECT_FALSE(apply_record(r, empty, WorkModel{.bytes_read = 1}));
  EXPECT_EQ(r.status, RowStatus::Error);
  EXPECT_EQ(r.message, "no timed measurement was kept");
  EXPECT_EQ(r.value, 0);
  EXPECT_EQ(r.discarded.size(), 1u);  // what was measured stays in the row

  BenchmarkResult z = row(Statistic::Best);
  EXPECT_FALSE(apply_record(z, record(), WorkModel{}));
  EXPECT_EQ(z.status, RowStatus::Error);
  EXPECT_NE(z.message.find("no rate"), std::string::npos);
}

}  // namespace
}  // namespace wgb

namespace wgb {
namespace {

// A flagged row says what the evidence supports: interference on a CPU adapter (the 2-core CI
// machine once read "throttled ... after the suite's cooldown budget" for lavapipe, CV 1.57 %),
// likely interference when the kept runs are noisy, thermal or power limits otherwise; always
// with the count of slow runs and cooldowns.
TEST(ThrottleMessage, SaysWhatTheEvidenceSupports) {
  BenchmarkResult r;
  r.samples_ms = {1.0, 1.0, 1.01};
  r.throttled_ms = {1.5, 1.6};
  r.cooldowns = 3;
  r.stats.count = 3;
  r.stats.cv = 0.0157;
  const std::string cpu = throttle_message(r, 1.2, /*cpu_adapter=*/true);
  EXPECT_EQ(cpu.rfind("interference: 2 of 5 timed runs were more than 1.2x slower than the best, after 3 cooldowns", 0), 0u)
      << cpu;
  EXPECT_NE(cpu.find("not heat"), std::string::npos) << cpu;
  const std::string quiet_gpu = throttle_message(r, 1.2, false);
  EXPECT_NE(quiet_gpu.find("thermal or power limits"), std::string::npos) << quiet_gpu;
  EXPECT_EQ(quiet_gpu.find("interference"), std::string::npos) << quiet_gpu;
  r.stats.cv = 0.12;
  const std::string noisy_gpu = throttle_message(r, 1.2, false);
  EXPECT_NE(noisy_gpu.find("likely interference"), std::string::npos) << noisy_gpu;
  EXPECT_NE(noisy_gpu.find("CV 12.0%"), std::string::npos) << noisy_gpu;
  r.cooldowns = 1;
  EXPECT_NE(throttle_message(r, 1.2, false).find("after 1 cooldown,"), std::string::npos);
}

// The thermal verdict applies to rows the GPU's clocks decide; a row timed on the host around a
// whole API operation (submit-latency, pipeline-create, the transfers) keeps its status and says
// why its slow runs were left out (an H200 call once read `throttled` for both, the next `ok`).
TEST(ThrottleVerdict, OnlyRowsTheGpuDecidesCanBeThrottled) {
  measure::Record record;
  record.flagged_throttled = true;
  BenchmarkResult gpu_row;
  gpu_row.timing_method = TimingMethod::GpuTimestamp;
  gpu_row.samples_ms = {1.0, 1.0, 1.01};
  gpu_row.throttled_ms = {1.5, 1.6};
  gpu_row.cooldowns = 3;
  BenchmarkResult host_row = gpu_row;
  host_row.timing_method = TimingMethod::OperationWallClock;

  apply_throttle_verdict(gpu_row, record, 1.2, false);
  EXPECT_EQ(gpu_row.status, RowStatus::Throttled);
  EXPECT_NE(gpu_row.message.find("thermal or power limits"), std::string::npos) << gpu_row.message;

  EXPECT_TRUE(host_bound(host_row));
  EXPECT_FALSE(host_bound(gpu_row));
  apply_throttle_verdict(host_row, record, 1.2, false);
  EXPECT_EQ(host_row.status, RowStatus::Ok);
  EXPECT_EQ(host_row.message.rfind("host-bound, not throttled: 2 of 5 timed runs were more than 1.2x slower", 0), 0u)
      << host_row.message;

  // A suspect host-bound row keeps its reason; the verdict becomes a note.
  BenchmarkResult suspect = host_row;
  suspect.status = RowStatus::Suspect;
  suspect.message = "the second process disagrees";
  suspect.notes.clear();
  apply_throttle_verdict(suspect, record, 1.2, false);
  EXPECT_EQ(suspect.status, RowStatus::Suspect);
  EXPECT_EQ(suspect.message, "the second process disagrees");
  ASSERT_EQ(suspect.notes.size(), 1u);
  EXPECT_EQ(suspect.notes[0].rfind("host-bound", 0), 0u);

  // Nothing flagged: nothing changes.
  BenchmarkResult quiet;
  quiet.timing_method = TimingMethod::GpuTimestamp;
  apply_throttle_verdict(quiet, measure::Record{}, 1.2, false);
  EXPECT_EQ(quiet.status, RowStatus::Ok);
  EXPECT_TRUE(quiet.message.empty());
}

}  // namespace
}  // namespace wgb
