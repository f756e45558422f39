// One result row: everything needed to make the number a measurement (docs/method.md#record): what ran (id,
// WGSL hash, parameters), how it was timed (clock, batches, samples), which statistic and why, and
// its dispersion. Rows are produced as benchmarks complete and never hold a silent zero: a row
// that did not measure says skipped/error/cancelled and why.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "webgpu_bench/accuracy.hpp"
#include "webgpu_bench/metric.hpp"
#include "webgpu_bench/vocabulary.hpp"

namespace wgb {

struct RowStats {  // of the kept per-repetition times, in ms
  std::size_t count = 0;
  double min = 0, max = 0, mean = 0, median = 0, stddev = 0, ci95 = 0, cv = 0, q1 = 0, q3 = 0, iqr = 0;
};

struct BenchmarkResult {
  std::size_t index = 0;
  std::string id, label, description, category, family;
  Metric metric;
  RowStatus status = RowStatus::Ok;
  std::string message;             // reason for skipped/error/throttled/suspect
  Statistic statistic = Statistic::Best;
  std::string statistic_reason;

  // Headline: metric units per second, from `statistic` of the per-repetition time.
  double value = 0;                // e.g. bytes/s; 0 only when status is not ok/throttled/suspect
  double time_ms = 0;              // the per-repetition time the value comes from
  double value_low = 0, value_high = 0;  // rate at q3 / q1 of the times (dispersion as a rate range)
  WorkModel work;                  // per repetition, at the calibrated knob

  // Procedure.
  std::string knob_name;
  std::uint64_t knob = 0;          // calibrated work knob (loop count)
  std::uint32_t repetitions = 0;   // repetitions per timed batch
  std::vector<std::pair<std::uint64_t, double>> calibration;  // (knob, ms per repetition)
  std::vector<double> samples_ms;    // kept per-repetition times
  std::vector<double> throttled_ms;  // discarded as thermal noise, outside the stats
  std::vector<DiscardedSample> discarded;  // every other batch left out of the stats, and why
  RowStats stats;
  StopReason stop_reason = StopReason::None;
  int cooldowns = 0;
  TimingMethod timing_method = TimingMethod::None;  // the clock of the kept samples
  int timestamp_strikes = 0;
  std::vector<std::string> timing_notes;
  std::string wgsl_hash;
  std::string validation;            // what was checked, when it passed
  nlohmann::json parameters = nlohmann::json::object();
  double duration_s = 0;             // wall time the row took
  std::vector<std::string> notes;
  // With `run --accuracy`: the accuracy of the builtins this row times, one entry per builtin and
  // range of inputs (docs/method.md#accuracy); empty otherwise.
  std::vector<BuiltinAccuracy> accuracy;
};

}  // namespace wgb
