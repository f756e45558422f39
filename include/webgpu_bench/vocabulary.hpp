// The words a result row may use, as types: its status, its statistic, why its sampling stopped
// and the clock that timed it. Every suite writes only these values, each with one spelling
// (docs/results-schema.md lists them); parse() also reads the spellings of schema version 1, so
// documents written by earlier versions still load. Standard library only: the measurement engine
// and any host (native or browser) use the same vocabulary. result.hpp includes this header.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace wgb {

enum class RowStatus { Ok, Skipped, Error, Throttled, Cancelled, Suspect };

// Which statistic a row's headline uses (docs/method.md#statistic): the fastest kept run for
// compute-bound kernels, the median with its IQR for memory traffic, contention or scheduling.
enum class Statistic { Best, Median };

// Why a row's sampling stopped. None: the row measured nothing (skipped, error before timing,
// cancelled); written as "".
enum class StopReason {
  None,
  Converged,         // best-run sampler: the best stopped improving (docs/method.md#sampling)
  MaxRounds,         // best-run sampler: the round cap was reached first
  Throttled,         // best-run sampler: still discarding after the cooldown budget
  Budget,            // phase sampler: the phase's sampling budget was spent (docs/method.md#phases)
  HardStop,          // phase sampler: the hard stop cut the phase short of its minimum samples
  FixedRepetitions,  // host protocol: the fixed repetition count ran (docs/method.md#host-protocol)
};

// The clock a row's kept samples come from (docs/method.md#clocks). None: nothing was timed.
enum class TimingMethod {
  None,
  GpuTimestamp,     // GPU timestamp queries around the pass
  WallClock,        // host wall clock around submit -> completion, minus the empty-submit cost
  HostSteadyClock,  // the host CPU's own repetitions, timed with std::chrono::steady_clock
  // Host wall clock around a whole WebGPU API operation (an upload, a read-back, a submit, a
  // pipeline compile) from its first call to its completion; nothing subtracted: the submit and the
  // completion wait are part of what such a row measures
  OperationWallClock,
};

// A timed batch that is neither among a row's kept samples nor its thermal discards, and why: every
// measured batch stays in the record, also those the statistics leave out (docs/method.md#record).
struct DiscardedSample {
  double ms = 0;                  // per-repetition ms (the batch's time / repetitions); may be NaN
  std::uint32_t repetitions = 1;  // batch size it was measured at
  std::uint64_t knob = 1;         // work knob it was measured at
  // "calibrate-knob", "calibrate-batch", "warm-up", "sample" (best-run sampler); "calibrate",
  // "warm-up", "sample" (phase sampler)
  std::string stage;
  // "unusable" (non-finite or <= 0), "batch-resized" (a round at a batch size sampling abandoned),
  // "timestamp-rejected" / "timestamp-missing" (only another clock's reading existed),
  // "clock-demoted" (timed on GPU timestamps before the row moved to the wall clock)
  std::string reason;
  std::string note;  // detail; may be empty
};

const char* to_string(RowStatus s) noexcept;     // "ok", "skipped", "error", ...
const char* to_string(Statistic s) noexcept;     // "best", "median"
const char* to_string(StopReason s) noexcept;    // "", "converged", "max-rounds", "throttled", "budget", ...
// "", "gpu-timestamp", "wall-clock", "host-steady-clock", "operation-wall-clock"
const char* to_string(TimingMethod t) noexcept;

// The value a spelling names, or nullopt for an unknown one. Accepts the current spellings and
// those of schema version 1 (stop reason "none", timing "steady_clock").
std::optional<RowStatus> parse_row_status(std::string_view text) noexcept;
std::optional<Statistic> parse_statistic(std::string_view text) noexcept;
std::optional<StopReason> parse_stop_reason(std::string_view text) noexcept;
std::optional<TimingMethod> parse_timing_method(std::string_view text) noexcept;

}  // namespace wgb
