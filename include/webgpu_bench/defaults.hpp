// The default values of the options that decide how a suite measures: the one place they are
// written. The suites' options initialise from them (SuiteOptions, the memory suite's
// MemoryOptions, the host suite's HostOptions and its repetition protocol), and the results store
// compares what a document records against them: a run measured with other values is kept and
// shown, but not ranked (docs/store.md, "Runs with non-default options are not ranked"). The
// sampler's defaults are SamplingOptions' own (sampling.hpp). Standard library only.
#pragma once

#include <cstddef>
#include <cstdint>

namespace wgb::defaults {

// `webgpu-bench run` (SuiteOptions).
namespace run {
inline constexpr std::uint64_t kBandwidthBytes = 64ull << 20;  // the bandwidth probes' buffers: 4096x4096 f32
inline constexpr std::uint32_t kComputeThreads = 0;            // 0: each probe's own invocation count
// The run's first timed row warms up for at least this long, or 20 of its batches where that is
// shorter (docs/method.md#sampling): an idle GPU's clocks take most of a second to come up (an
// H200 started cold read its first row at 0.45 of its streaming rate after a one-batch warm-up).
inline constexpr double kFirstRowWarmupMs = 2000;
inline constexpr double first_row_warmup_ms(double measurement_ms) {
  return measurement_ms * 20 < kFirstRowWarmupMs ? measurement_ms * 20 : kFirstRowWarmupMs;
}
}  // namespace run

// `webgpu-bench memory` (docs/method.md#memory-workload, #phases).
namespace memory {
inline constexpr std::uint64_t kWorkingSetMiB = 256;   // per buffer
inline constexpr std::uint64_t kMinWorkingSetMiB = 32;  // out of memory: halve down to this
inline constexpr double kSampleMs = 40;                 // GPU work per sample (x2 on the wall clock)
inline constexpr double kLatencySampleMs = 45;
inline constexpr double kBudgetMs = 3000;  // sampling budget of read, write, copy and random
inline constexpr double kLatencyBudgetMs = 3000;
inline constexpr double kSustainMs = 18000;
inline constexpr double kWarmupMs = 500;
inline constexpr double kTransitionMs = 650;  // idle GPU between phases
inline constexpr std::size_t kMinSamples = 8;
inline constexpr double kHardStopFactor = 2.5;
inline constexpr std::uint64_t kCycleSeed = 0x5A770106u;  // the latency cycle's RNG seed
}  // namespace memory

// `webgpu-bench host` (docs/method.md#host-protocol). Its thread count, array sizes and ISA depend
// on the machine (one thread per physical core, arrays of 4x the last-level cache, the widest ISA).
namespace host {
inline constexpr std::uint64_t kSweepMinBytes = 4096;  // where the size sweeps start
inline constexpr int kPointsPerOctave = 2;
inline constexpr int kRepetitions = 15;     // timed regions per point
inline constexpr double kWarmupMs = 50;     // untimed warm-up, at least
inline constexpr double kMinRegionMs = 1.0;  // every timed region lasts longer than this
inline constexpr bool kHugePages = false;
inline constexpr bool kPinToCores = true;  // affinity "cores"; false: "none" (not pinned)
inline constexpr bool kSizeSweep = true;
inline constexpr std::uint64_t kMinArrayBytes = 64ull << 20;  // arrays: 4x the last-level cache, at least this
}  // namespace host

}  // namespace wgb::defaults
