// Record -> row (row.hpp).
#include "suite/row.hpp"

#include "gpu/hash.hpp"

#include <fmt/format.h>

namespace wgb {

std::string throttle_message(const BenchmarkResult& row, double throttle_ratio, bool cpu_adapter) {
  const std::size_t slow = row.throttled_ms.size();
  const std::size_t timed = slow + row.samples_ms.size();
  const std::string counted =
      fmt::format("{} of {} timed runs were more than {:.2g}x slower than the best, after {} cooldown{}", slow, timed,
                  throttle_ratio, row.cooldowns, row.cooldowns == 1 ? "" : "s");
  if (cpu_adapter) {
    return fmt::format("interference: {}; on a CPU adapter other processes compete for the same cores, so this is "
                       "not heat",
                       counted);
  }
  if (row.stats.count > 1 && row.stats.cv > 0.05) {
    return fmt::format("likely interference: {}, and the kept runs vary by CV {:.1f}%: other work on the device or "
                       "on the CPU that drives it is more likely than heat",
                       counted, 100 * row.stats.cv);
  }
  return fmt::format("still slow: {}: thermal or power limits, or other work on the device", counted);
}

bool host_bound(const BenchmarkResult& row) { return row.timing_method == TimingMethod::OperationWallClock; }

void apply_throttle_verdict(BenchmarkResult& row, const measure::Record& record, double throttle_ratio,
                            bool cpu_adapter) {
  if (!record.flagged_throttled) return;
  if (!host_bound(row)) {
    row.status = RowStatus::Throttled;
    row.message = throttle_message(row, throttle_ratio, cpu_adapter);
    return;
  }
  const std::size_t slow = row.throttled_ms.size();
  const std::string note = fmt::format(
      "host-bound, not throttled: {} of {} timed runs were more than {:.2g}x slower than the best and are left "
      "out (throttled_ms); an API operation timed on the host varies with the host's scheduling, the driver's "
      "threads and memory, which a cooldown does not change, so the median is of the other runs",
      slow, slow + row.samples_ms.size(), throttle_ratio);
  if (row.status == RowStatus::Ok) {
    row.message = note;
  } else {
    row.notes.push_back(note);
  }
}

BenchmarkResult definition_row(const BenchmarkDefinition& d, std::size_t index) {
  BenchmarkResult r;
  r.index = index;
  r.id = d.id;
  r.label = d.label;
  r.description = d.description;
  r.category = d.category;
  r.family = d.family;
  r.metric = d.metric;
  r.statistic = d.statistic;
  r.statistic_reason = d.statistic_reason;
  r.wgsl_hash = gpu::source_hash(d.source);
  return r;
}


bool apply_record(BenchmarkResult& row, const measure::Record& record, const WorkModel& work) {
  row.knob = record.knob;
  row.repetitions = record.repetitions;
  row.calibration = record.calibration_trace;
  row.samples_ms = record.kept_ms;
  row.throttled_ms = record.throttled_ms;
  row.discarded = record.discarded;
  row.stop_reason = record.stop_reason;
  row.cooldowns = record.cooldowns_taken;
  row.timing_method = record.clock;
  row.timestamp_strikes = record.timestamp_strikes;
  row.timing_notes.insert(row.timing_notes.end(), record.notes.begin(), record.notes.end());
  row.work = work;
  const double units = work.count(row.metric);
  const measure::Headline h = measure::headline(record.kept_ms, row.statistic, units);
  const auto& s = h.stats;
  row.stats = RowStats{s.count, s.min, s.max, s.mean, s.median, s.stddev, s.ci95, s.cv, s.q1, s.q3, s.iqr};
  if (record.kept_ms.empty()) {
    row.status = RowStatus::Error;
    row.message = "no timed measurement was kept";
    return false;
  }
  row.time_ms = h.time_ms;
  if (!(row.time_ms > 0) || !(units > 0)) {
    row.status = RowStatus::Error;
    row.message = fmt::format("no rate: time {} ms, work {} {}", row.time_ms, units, row.metric.unit);
    return false;
  }
  row.value = h.value;
  row.value_low = h.value_low;
  row.value_high = h.value_high;
  return true;
}

}  // namespace wgb
