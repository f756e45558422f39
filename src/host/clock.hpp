// The clocks every host result reports: the timer (std::chrono::steady_clock: its resolution
// and cost), the CPU's base clock (sysfs base_frequency, or the TSC rate, which on constant_tsc
// CPUs ticks at the nominal clock) and the clock actually sustained during the run, measured with
// a dependent add chain on the pinned cores right after each measurement and read from cpufreq
// (scaling_cur_freq) or /proc/cpuinfo where the system offers it.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
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

// Small readers of /proc and /sys files. The first line of a file, trailing blanks removed; empty
// when unreadable.
std::string read_line(const std::string& path);
// The number of a "Key:  123 kB" line of a /proc file (/proc/meminfo, smaps_rollup); -1 when absent.
long proc_kib(const char* path, const std::string& key);
// The values of every /proc/cpuinfo line whose key is exactly `key`, in order.
std::vector<std::string> cpuinfo_values(const std::string& key);
// A sysfs cache size ("48K", "2048K", "1M") in bytes; 0 when unparseable.
std::uint64_t parse_cache_size(const std::string& s);

// cpufreq's limits, governor and driver (name -> the file's text), those present.
std::vector<std::pair<std::string, std::string>> cpufreq_limits(int cpu);

}  // namespace wgb::host
