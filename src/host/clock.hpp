// The clocks every host result reports: the timer (std::chrono::steady_clock: its resolution
// and cost), the CPU's base clock (sysfs base_frequency, or the TSC rate, which on constant_tsc
// CPUs ticks at the nominal clock) and the clock actually sustained during the run, measured with
// a dependent add chain on the pinned cores right after each measurement and read from cpufreq
// (scaling_cur_freq) or /proc/cpuinfo where the system offers it.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace wgb::host {

struct TimerInfo {
  double resolution_ns = 0;  // smallest nonzero step between two now() calls
  double overhead_ns = 0;    // median cost of one now() call
};
TimerInfo probe_steady_clock();

// Cycles per second of the core running the caller, from kAddsPerIteration-add chains lasting
// about `ms` milliseconds (best of three: a dip only lowers a sample). 0 if the check fails.
double add_chain_mhz(double ms = 2.0);

// TSC ticks per second against steady_clock over `ms` (x86; nullopt elsewhere).
std::optional<double> tsc_mhz(double ms = 20.0);

// What the OS says each CPU's clock is now: cpufreq scaling_cur_freq, else /proc/cpuinfo "cpu MHz"
// of that processor (read once for all). mhz 0 when neither exists; source names where it came from.
struct OsClock {
  int cpu = -1;
  double mhz = 0;
  std::string source;
};
std::vector<OsClock> os_clock_mhz(const std::vector<int>& cpus);

// Base and maximum clocks from cpufreq (kHz files), when present.
nlohmann::json cpufreq_limits(int cpu);

}  // namespace wgb::host
