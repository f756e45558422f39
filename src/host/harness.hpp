// The harness for host kernels: optimiser barriers, and the timing protocol of
// docs/method.md#host-protocol:
//   1. (caller) allocate and first-touch with the kernel's own decomposition,
//   2. untimed warm-up until the region time is steady,
//   3. R repetitions timed individually (not in aggregate), each region longer than 1 ms: a
//      kernel faster than that runs `repeat` times inside the region, the repeat loop carrying a
//      data dependency so it cannot be hoisted, and the repeat count is reported,
//   4. the statistic of the kernel's regime with its dispersion (statistic_for),
//   5. (cli) the whole procedure again in a second process (repro.hpp).
// The clock is a template parameter (std::chrono::steady_clock by default) so the calibration and
// warm-up logic can be tested with a fake clock.
#pragma once

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "measure/stats.hpp"
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

struct ProtocolConfig {
  int repetitions = 15;            // R timed regions
  double warmup_ms = 50;           // untimed warm-up lasts at least this long ...
  int warmup_min_runs = 2;         // ... and at least this many regions ...
  double steady_tolerance = 0.05;  // ... and until two consecutive regions agree within this
  double min_region_ms = 1.0;      // every timed region must last longer than this
  double target_factor = 2.0;      // calibrate regions to min_region_ms x this, so noise stays above
  std::uint64_t max_repeat = std::uint64_t{1} << 40;
  double min_scaling = 1.9;    // region(2R) / region(R) at the calibrated R (fixed cost <= 10%)
  int max_scaling_steps = 10;  // times the count may grow for want of scaling
};

struct ProtocolResult {
  std::uint64_t repeat = 1;                                   // kernel passes per timed region
  std::vector<std::pair<std::uint64_t, double>> calibration;  // (repeat, ms per pass) tried
  double scaling = 0;     // best region(2R) / best region(R) at the calibrated R; 0: not checked
  int scaling_steps = 0;  // times the count grew because the region time did not scale with it
  int warmup_runs = 0;
  double warmup_ms = 0;
  bool warmup_steady = false;     // stopped because two regions agreed, not because of the cap
  std::vector<double> region_ms;  // R timed regions, in order
  std::vector<double> pass_ms;    // region_ms / repeat: the per-pass times statistics are taken of
  std::size_t short_regions = 0;  // timed regions not longer than min_region_ms (after retries)
  int recalibrations = 0;         // timed sets discarded for a short region and redone (repeat x2)
  // Interference during the (last) timed set, from getrusage(RUSAGE_SELF): CPU time of all the
  // process's threads, the wall time of the regions, and involuntary context switches. CPU time
  // / (wall x threads) below 1 means the threads did not hold their CPUs the whole time.
  double timed_cpu_ms = 0;
  double timed_wall_ms = 0;
  long involuntary_switches = 0;
};

// Runs the protocol on `region(repeat)`, which must run the kernel `repeat` times back to back.
template <class Region, class Clock = std::chrono::steady_clock>
ProtocolResult run_protocol(Region&& region, const ProtocolConfig& c) {
  using ms = std::chrono::duration<double, std::milli>;
  auto timed = [&](std::uint64_t repeat) {
    clobber_memory();
    const auto start = Clock::now();
    region(repeat);
    const auto stop = Clock::now();
    clobber_memory();
    return std::chrono::duration_cast<ms>(stop - start).count();
  };
  ProtocolResult r;
  // Calibration: grow the repeat count until one region lasts target_factor x min_region_ms.
  // Each step keeps the fastest of up to three regions (interference only adds time), so a
  // region stretched by a preemption or a late thread wake-up cannot end the growth early; a
  // region already longer than 50 ms is timed once.
  const double target = c.min_region_ms * c.target_factor;
  auto best_of_three = [&](std::uint64_t count, auto&& enough) {
    double best = 0;
    for (int k = 0; k < 3; ++k) {
      const double one = timed(count);
      r.calibration.emplace_back(count, one / static_cast<double>(count));
      best = k == 0 ? one : std::min(best, one);
      if (enough(one, best)) break;
    }
    return best;
  };
  // Linearity: a region long enough is not yet a region of kernel work. Its fixed cost (waking a
  // thread team, a member that waits a whole scheduler slice for its CPU on a loaded machine)
  // can exceed the target by itself, and then every timed region measures that cost, not the
  // kernel. So once a count reaches the target it must also show that the time grows with the
  // work: doubling it must take at least min_scaling times as long (1.9: the fixed part is at most
  // 10% of a region). Otherwise the count grows by what the two points predict makes the fixed
  // part small (o = t(R) - R p, p = (t(2R) - t(R)) / R, R' = 9 o / p), at least x2, and is checked
  // again; after max_scaling_steps, or once a region lasts 500 ms, the count stands as it is and
  // `scaling` is 0 (not checked).
  std::uint64_t repeat = 1;
  double best_t = -1;  // best region at `repeat`; negative: not timed yet
  for (int step = 0; step < 128; ++step) {
    if (best_t < 0) {
      best_t = best_of_three(repeat, [&](double one, double best) { return one > 50.0 || best < target; });
    }
    if (repeat >= c.max_repeat) break;
    if (best_t < target) {
      // Aim a little past the target; at most x1000 per step in case the first region was noise.
      const double factor = best_t > 0 ? std::min(1000.0, 1.1 * target / best_t) : 1000.0;
      const auto next = static_cast<std::uint64_t>(std::ceil(static_cast<double>(repeat) * std::max(2.0, factor)));
      repeat = std::min(c.max_repeat, std::max(repeat + 1, next));
      best_t = -1;
      continue;
    }
    if (r.scaling_steps >= c.max_scaling_steps || best_t >= 500.0) {
      r.scaling = 0;
      break;
    }
    const std::uint64_t twice = std::min(c.max_repeat, 2 * repeat);
    const double t2 =
        best_of_three(twice, [&](double one, double best) { return one > 50.0 && best >= c.min_scaling * best_t; });
    r.scaling = t2 / best_t;
    if (r.scaling >= c.min_scaling) break;
    ++r.scaling_steps;
    const double per_pass = (t2 - best_t) / static_cast<double>(twice - repeat);
    double grow = 2.0;
    if (per_pass > 0) {
      const double fixed = std::max(0.0, best_t - per_pass * static_cast<double>(repeat));
      grow = std::min(1000.0, std::max(2.0, 9.0 * fixed / per_pass / static_cast<double>(repeat)));
    }
    const auto next = static_cast<std::uint64_t>(std::ceil(static_cast<double>(repeat) * grow));
    repeat = std::min(c.max_repeat, std::max(twice, next));
    best_t = repeat == twice ? t2 : -1;
  }
  // Warm-up at the calibrated size until steady (caches, TLB, page tables, clock ramps).
  double spent = 0, previous = -1;
  const int cap_runs = std::max(c.warmup_min_runs, 4) * 25;
  for (;;) {
    const double t = timed(repeat);
    spent += t;
    ++r.warmup_runs;
    const bool steady = previous > 0 && std::fabs(t - previous) <= c.steady_tolerance * previous;
    previous = t;
    if (r.warmup_runs >= c.warmup_min_runs && spent >= c.warmup_ms && steady) {
      r.warmup_steady = true;
      break;
    }
    if (r.warmup_runs >= c.warmup_min_runs && (spent >= 4 * c.warmup_ms || r.warmup_runs >= cap_runs)) break;
  }
  r.warmup_ms = spent;
  // The timed repetitions. Should any region come out at or below the 1 ms floor (the kernel got
  // faster after warm-up, or calibration was fooled by preempted regions), the set is discarded
  // and timed again with the repeat count scaled so the shortest region would reach the target
  // (at least x2), at most three times; short_regions reports what remains.
  const auto reps = static_cast<std::size_t>(std::max(1, c.repetitions));
  for (int attempt = 0; attempt < 4; ++attempt) {
    r.region_ms.clear();
    r.pass_ms.clear();
    r.short_regions = 0;
    rusage before{}, after{};
    getrusage(RUSAGE_SELF, &before);
    for (std::size_t i = 0; i < reps; ++i) {
      const double t = timed(repeat);
      r.region_ms.push_back(t);
      r.pass_ms.push_back(t / static_cast<double>(repeat));
      if (t <= c.min_region_ms) ++r.short_regions;
    }
    getrusage(RUSAGE_SELF, &after);
    auto cpu_ms = [](const rusage& u) {
      return 1e3 * static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
             1e-3 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
    };
    r.timed_cpu_ms = cpu_ms(after) - cpu_ms(before);
    r.timed_wall_ms = 0;
    for (double t : r.region_ms) r.timed_wall_ms += t;
    r.involuntary_switches = after.ru_nivcsw - before.ru_nivcsw;
    if (r.short_regions == 0 || attempt == 3 || repeat >= c.max_repeat) break;
    const double shortest = std::max(1e-9, *std::min_element(r.region_ms.begin(), r.region_ms.end()));
    const double factor = std::min(1e6, std::max(2.0, std::ceil(1.1 * target / shortest)));
    repeat = std::min(c.max_repeat, static_cast<std::uint64_t>(static_cast<double>(repeat) * factor));
    ++r.recalibrations;
  }
  r.repeat = repeat;
  return r;
}

// The headline of a sample set under a statistic: time and rate with its dispersion (the one
// computation every suite uses, measure/stats.hpp).
using Summary = measure::Headline;
inline Summary summarize(const std::vector<double>& pass_ms, Statistic s, double work_per_pass) {
  return measure::headline(pass_ms, s, work_per_pass);
}

}  // namespace wgb::host
