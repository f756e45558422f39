// One result row: everything needed to make the number a measurement (seed 004): what ran (id,
// WGSL hash, parameters), how it was timed (clock, batches, samples), which statistic and why, and
// its dispersion. Rows are produced as benchmarks complete and never hold a silent zero: a row
// that did not measure says skipped/error/cancelled and why.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "webgpu_bench/definition.hpp"

namespace wgb {

enum class RowStatus { Ok, Skipped, Error, Throttled, Cancelled, Suspect };
const char* to_string(RowStatus s) noexcept;

struct RowStats {  // of the kept per-repetition times, in ms
  std::size_t count = 0;
  double min = 0, max = 0, mean = 0, median = 0, stddev = 0, ci95 = 0, cv = 0, q1 = 0, q3 = 0, iqr = 0;
};

// A timed batch that is not among a row's kept samples nor its thermal discards (throttled_ms), and
// why: every measured batch stays in the row (issue 3), also those the statistics leave out.
struct DiscardedSample {
  double ms = 0;                  // per-repetition ms (the batch's time / repetitions); may be NaN
  std::uint32_t repetitions = 1;  // batch size it was measured at
  std::uint64_t knob = 0;         // work knob it was measured at
  std::string stage;              // "calibrate-knob", "calibrate-batch", "warm-up", "sample"
  // "unusable" (non-finite or <= 0), "batch-resized" (a round at a batch size sampling abandoned),
  // "timestamp-rejected" / "timestamp-missing" (only another clock's reading existed),
  // "clock-demoted" (timed on GPU timestamps before the row moved to the wall clock)
  std::string reason;
  std::string note;               // detail; may be empty
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
  std::string stop_reason;           // converged / max-rounds / throttled
  int cooldowns = 0;
  std::string timing_method;         // gpu-timestamp / wall-clock
  int timestamp_strikes = 0;
  std::vector<std::string> timing_notes;
  std::string wgsl_hash;
  std::string validation;            // what was checked, when it passed
  nlohmann::json parameters = nlohmann::json::object();
  double duration_s = 0;             // wall time the row took
  std::vector<std::string> notes;
};

}  // namespace wgb
