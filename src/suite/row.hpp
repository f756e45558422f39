// Record -> row: the one function that turns what a sampling protocol recorded into a result row's
// procedure, samples, statistics and headline (docs/method.md#record, #statistic). Every suite's
// rows (run, sweep, memory, host) come from it.
#pragma once

#include "measure/record.hpp"
#include "webgpu_bench/result.hpp"

namespace wgb {

// A row's identity from its definition (id, names, category, family, metric, statistic and why,
// the WGSL's hash) at `index`, before anything is measured.
BenchmarkResult definition_row(const BenchmarkDefinition& d, std::size_t index);

// Fills `row` from `record` for `work` per repetition, under row.statistic and row.metric: knob,
// repetitions, calibration, kept/throttled/discarded samples, stats, stop reason, cooldowns, clock,
// timestamp strikes, notes (appended to timing_notes), work, time, rate and its IQR range. A record
// without a kept sample or without a rate makes the row an error that says why; returns false then.
bool apply_record(BenchmarkResult& row, const measure::Record& record, const WorkModel& work);

}  // namespace wgb
