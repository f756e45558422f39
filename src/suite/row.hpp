// Record -> row: the one function that turns what a sampling protocol recorded into a result row's
// procedure, samples, statistics and headline (docs/method.md#record, #statistic). Every suite's
// rows (run, sweep, memory, host) come from it.
#pragma once

#include <string>

#include "measure/record.hpp"
#include "webgpu_bench/definition.hpp"
#include "webgpu_bench/result.hpp"

namespace wgb {

// A row's identity from its definition (id, names, category, family, metric, statistic and why,
// the WGSL's hash) at `index`, before anything is measured.
BenchmarkResult definition_row(const BenchmarkDefinition& d, std::size_t index);

// Why a row kept running slow after the suite's cooldown budget was spent, as far as the evidence
// goes (docs/method.md#throttling): on a CPU adapter every runnable process competes for the same
// cores, so it is interference; on a GPU whose kept runs vary widely (CV above 5 %), other work is
// more likely than heat; otherwise thermal or power limits, or other work on the device. The
// message counts the slow runs and the cooldowns taken.
std::string throttle_message(const BenchmarkResult& row, double throttle_ratio, bool cpu_adapter);

// A row timed on the host's clock around a whole WebGPU API operation (an upload, a read-back, a
// submit, a pipeline compile: timing method operation-wall-clock). Its time is the host's: the
// scheduler, the driver's threads, memory copies and page mapping.
bool host_bound(const BenchmarkResult& row);

// The verdict on a record whose cooldown budget ran out while slow runs were still being left out
// (docs/method.md#throttling), applied last, after validation and plausibility. A row the GPU's
// clocks decide becomes `throttled` with throttle_message's reason. A host-bound row keeps its
// status: heat cannot be told from the host's own variation there and a cooldown does not apply, so
// its message says how many runs were slow and that the median is of the others (an ok row's
// message is otherwise empty; a suspect row keeps its reason and gets this one as a note).
void apply_throttle_verdict(BenchmarkResult& row, const measure::Record& record, double throttle_ratio,
                            bool cpu_adapter);

// Fills `row` from `record` for `work` per repetition, under row.statistic and row.metric: knob,
// repetitions, calibration, kept/throttled/discarded samples, stats, stop reason, cooldowns, clock,
// timestamp strikes, notes (appended to timing_notes), work, time, rate and its IQR range. A record
// without a kept sample or without a rate makes the row an error that says why; returns false then.
bool apply_record(BenchmarkResult& row, const measure::Record& record, const WorkModel& work);

}  // namespace wgb
