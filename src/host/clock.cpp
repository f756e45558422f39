// Timer probe, add-chain clock, TSC rate, OS-reported clock.
#include "host/clock.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>

#include "host/kernels.hpp"
#include "measure/stats.hpp"

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace wgb::host {

namespace {

using Clock = std::chrono::steady_clock;

double elapsed_ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace

std::string read_line(const std::string& path) {
  std::ifstream f(path);
  std::string s;
  std::getline(f, s);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

long proc_kib(const char* path, const std::string& key) {
  std::ifstream f(path);
  for (std::string line; std::getline(f, line);) {
    if (line.rfind(key + ":", 0) != 0) continue;
    const auto first = line.find_first_of("0123456789");
    return first == std::string::npos ? -1 : std::strtol(line.c_str() + first, nullptr, 10);
  }
  return -1;
}

std::vector<std::string> cpuinfo_values(const std::string& key) {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  std::vector<std::string> out;
  while (std::getline(f, line)) {
    if (line.rfind(key, 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    // The key must be followed only by blanks before the colon ("cpu MHz" is not "cpu MHz dynamic").
    if (line.substr(key.size(), colon - key.size()).find_first_not_of(" \t") != std::string::npos) continue;
    auto v = line.substr(colon + 1);
    v.erase(0, v.find_first_not_of(" \t"));
    out.push_back(v);
  }
  return out;
}

std::uint64_t parse_cache_size(const std::string& s) {
  char* end = nullptr;
  const auto n = std::strtoull(s.c_str(), &end, 10);
  if (end == s.c_str()) return 0;
  switch (*end) {
    case 'K': return n << 10;
    case 'M': return n << 20;
    case 'G': return n << 30;
    default: return n;
  }
}

TimerInfo probe_steady_clock() {
  TimerInfo info;
  double smallest = 1e18;
  std::vector<double> costs;
  for (int i = 0; i < 2000; ++i) {
    const auto a = Clock::now();
    auto b = Clock::now();
    costs.push_back(std::chrono::duration<double, std::nano>(b - a).count());
    while (b == a) b = Clock::now();
    smallest = std::min(smallest, std::chrono::duration<double, std::nano>(b - a).count());
  }
  info.resolution_ns = smallest;
  info.overhead_ns = measure::median(costs);
  return info;
}

double add_chain_mhz(double ms) {
  // Calibrate the iteration count to about `ms`, then keep the fastest of three.
  std::uint64_t iters = 1000;
  for (int i = 0; i < 30; ++i) {
    const auto a = Clock::now();
    const auto sum = add_chain(iters);
    const auto t = elapsed_ms(a, Clock::now());
    if (sum != iters * kAddsPerIteration) return 0;
    if (t >= ms * 0.5) break;
    iters *= t > 0 ? std::max<std::uint64_t>(2, static_cast<std::uint64_t>(ms / t)) : 10;
  }
  double best = 0;
  for (int i = 0; i < 3; ++i) {
    const auto a = Clock::now();
    const auto sum = add_chain(iters);
    const auto t = elapsed_ms(a, Clock::now());
    if (sum != iters * kAddsPerIteration || t <= 0) return 0;
    best = std::max(best, static_cast<double>(iters * kAddsPerIteration) / (t * 1e3));
  }
  return best;
}

std::optional<double> tsc_mhz(double ms) {
#if defined(__x86_64__)
  const auto a = Clock::now();
  const auto ta = __rdtsc();
  Clock::time_point b;
  do {
    b = Clock::now();
  } while (elapsed_ms(a, b) < ms);
  const auto tb = __rdtsc();
  return static_cast<double>(tb - ta) / (elapsed_ms(a, b) * 1e3);
#else
  (void)ms;
  return std::nullopt;
#endif
}

std::vector<OsClock> os_clock_mhz(const std::vector<int>& cpus) {
  std::vector<OsClock> out;
  std::map<int, double> cpuinfo;  // parsed lazily, once
  bool parsed = false;
  for (int cpu : cpus) {
    OsClock c{cpu, 0, ""};
    const auto cur = read_line("/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/cpufreq/scaling_cur_freq");
    if (!cur.empty()) {
      c.mhz = std::strtod(cur.c_str(), nullptr) / 1e3;
      c.source = "cpufreq scaling_cur_freq";
    } else {
      if (!parsed) {  // every processor block of x86 /proc/cpuinfo has its "cpu MHz"
        parsed = true;
        const auto procs = cpuinfo_values("processor"), mhz = cpuinfo_values("cpu MHz");
        for (std::size_t i = 0; i < procs.size() && i < mhz.size(); ++i) {
          cpuinfo[std::atoi(procs[i].c_str())] = std::strtod(mhz[i].c_str(), nullptr);
        }
      }
      if (auto it = cpuinfo.find(cpu); it != cpuinfo.end()) {
        c.mhz = it->second;
        c.source = "/proc/cpuinfo cpu MHz";
      }
    }
    out.push_back(c);
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> cpufreq_limits(int cpu) {
  const auto base = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/cpufreq/";
  std::vector<std::pair<std::string, std::string>> out;
  for (const char* name : {"base_frequency", "cpuinfo_min_freq", "cpuinfo_max_freq", "scaling_governor",
                           "scaling_driver", "energy_performance_preference"}) {
    if (auto v = read_line(base + name); !v.empty()) out.emplace_back(name, std::move(v));
  }
  if (auto boost = read_line("/sys/devices/system/cpu/cpufreq/boost"); !boost.empty())
    out.emplace_back("boost", std::move(boost));
  if (auto no_turbo = read_line("/sys/devices/system/cpu/intel_pstate/no_turbo"); !no_turbo.empty()) {
    out.emplace_back("intel_pstate_no_turbo", std::move(no_turbo));
  }
  return out;
}

}  // namespace wgb::host
