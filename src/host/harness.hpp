// The harness for host kernels (docs/method.md#host-protocol): optimiser barriers, the statistic of
// each regime, and the timing of regions. The protocol's decisions (calibration of the repeat count,
// warm-up, R regions timed individually) are measure::RepetitionProtocol's, a clock-free state
// machine; the one timed loop (suite/runner.hpp) drives it and RegionHost times the regions.
#pragma once

#include <sys/resource.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "measure/repetition_protocol.hpp"
#include "measure/stats.hpp"
#include "suite/driver.hpp"
#include "suite/runner.hpp"
#include "webgpu_bench/definition.hpp"

namespace wgb::host {

// Prevents the optimiser from removing a computation whose result is unused, without inserting
// instructions of its own (as Google Benchmark's DoNotOptimize).
template <class T>
inline void keep(T&& value) noexcept {
  asm volatile("" : : "r,m"(value) : "memory");
}

// Tells the optimiser any memory may have been read or written here: stores before it must
// happen, loads after it must be redone.
inline void clobber_memory() noexcept { asm volatile("" : : : "memory"); }

// The regime a kernel is meant to measure decides its statistic (docs/method.md#statistic): the
// minimum for compute-bound kernels (interference only adds time, so the fastest run is the best
// estimate of the interference-free cost); the median with IQR for anything involving memory
// traffic, contention or a scheduler (its time has a real distribution, not one true value).
enum class Regime { Compute, Memory, Latency };
Statistic statistic_for(Regime r) noexcept;
const char* statistic_reason(Regime r) noexcept;
const char* to_string(Regime r) noexcept;

// The protocol's settings (R, warm-up, the 1 ms minimum region, the scaling check).
using ProtocolConfig = measure::RepetitionConfig;

// Times one region for the timed loop: `region(repeat)` runs the kernel `repeat` times back to back
// (Action::knob) between two steady_clock readings, with optimiser barriers on both sides. Around
// every set of `repetitions` recorded regions it reads getrusage(RUSAGE_SELF), so the interference
// during the last timed set is known: CPU time of all the process's threads and involuntary context
// switches.
class RegionHost final : public PassHost {
 public:
  RegionHost(std::function<void(std::uint64_t)> region, int repetitions);
  Expected<measure::RawTiming> time_pass(const measure::Action& run) override;
  double timed_cpu_ms() const { return cpu_ms_; }
  long involuntary_switches() const { return switches_; }
  // The regions' clock; every reading is kept as measured (measure/timing.hpp).
  static measure::TimingArbiter arbiter() { return measure::TimingArbiter::host_steady_clock(); }

 private:
  std::function<void(std::uint64_t)> region_;
  std::size_t repetitions_;
  std::size_t recorded_ = 0;
  rusage before_{};
  double cpu_ms_ = 0;
  long switches_ = 0;
};

// The host protocol's record and the interference during its last timed set. CPU time / (wall x
// threads) below 1 means the threads did not hold their CPUs the whole time.
struct HostTiming {
  measure::RepetitionReport report;
  double timed_cpu_ms = 0;
  double timed_wall_ms = 0;  // sum of the last set's regions
  long involuntary_switches = 0;
  double cpu_share(unsigned threads) const;  // 0..1; 0 when nothing was timed
};

// The host protocol (measure/repetition_protocol.hpp) on the host's steady clock for one PassHost: what
// the driver's timed loop runs (suite/driver.hpp), and the protocol's report of what it recorded.
class RepetitionTiming {
 public:
  RepetitionTiming(PassHost& host, const ProtocolConfig& c);
  TimedPoint point();
  measure::RepetitionReport report(measure::Record record) const;

 private:
  measure::RepetitionProtocol* protocol_ = nullptr;
  measure::ClockedSampler sampler_;
  PassHost& host_;
};

// One region function timed with the host protocol: the RegionHost and its protocol, and the
// interference counters of the last timed set beside the report.
class RegionTiming {
 public:
  RegionTiming(std::function<void(std::uint64_t)> region, const ProtocolConfig& c);
  TimedPoint point() { return timing_.point(); }
  HostTiming result(measure::Record record) const;

 private:
  RegionHost host_;
  RepetitionTiming timing_;
};

// Runs the protocol on `host` through the one timed loop (suite/driver.hpp time_point), on the
// host's steady clock. Errors: Cancelled when `cancel` fired, or the host's error.
Expected<measure::RepetitionReport> run_repetitions(PassHost& host, const ProtocolConfig& c, const CancelToken& cancel);
// The same for one region function, with the interference counters of the last timed set.
Expected<HostTiming> time_region(std::function<void(std::uint64_t)> region, const ProtocolConfig& c,
                                 const CancelToken& cancel);

// The headline of a sample set under a statistic: time and rate with its dispersion (the one
// computation every suite uses, measure/stats.hpp).
using Summary = measure::Headline;
inline Summary summarize(const std::vector<double>& pass_ms, Statistic s, double work_per_pass) {
  return measure::headline(pass_ms, s, work_per_pass);
}

}  // namespace wgb::host
