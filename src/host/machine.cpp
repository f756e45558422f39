// Host description from /proc/cpuinfo, /sys/devices/system/{cpu,node} and uname(2).
#include "host/machine.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "gpu/build_info.hpp"
#include "gpu/kernel_override.hpp"
#include "host/clock.hpp"

namespace wgb::host {

namespace {

// A whole-number sysfs value, or none when the file is absent or not a number.
std::optional<std::uint64_t> read_number(const std::filesystem::path& p) {
  const auto s = read_line(p);
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0]))) return std::nullopt;
  return std::strtoull(s.c_str(), nullptr, 10);
}

std::string cpuinfo_field(const std::string& key) {
  auto v = cpuinfo_values(key);
  return v.empty() ? std::string() : v.front();
}

std::vector<std::string> vector_isa(const std::string& flags) {
  std::vector<std::string> isa;
  std::istringstream s(" " + flags + " ");
  std::set<std::string> have;
  std::string f;
  while (s >> f) have.insert(f);
  for (const char* name : {"sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512_vnni",
                           "avx512_bf16", "avx512_fp16", "avx_vnni", "amx_tile", "sve", "sve2", "asimd"}) {
    if (have.count(name)) isa.push_back(name);
  }
  return isa;
}

std::vector<report::HostCpuCacheRecord> caches() {
  std::vector<report::HostCpuCacheRecord> out;
  const std::filesystem::path base = "/sys/devices/system/cpu/cpu0/cache";
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(base, ec)) {
    const auto name = entry.path().filename().string();
    if (name.rfind("index", 0) != 0) continue;
    report::HostCpuCacheRecord c;
    c.level = read_number(entry.path() / "level");
    c.type = read_line(entry.path() / "type");
    c.size = read_line(entry.path() / "size");
    c.size_bytes = parse_cache_size(c.size);
    c.ways_of_associativity = read_number(entry.path() / "ways_of_associativity");
    c.line_size = read_number(entry.path() / "coherency_line_size");
    c.shared_cpu_list = read_line(entry.path() / "shared_cpu_list");
    // Shared when more than one logical CPU uses it (SMT siblings count: they share an L1 too).
    c.shared = c.shared_cpu_list.find_first_of(",-") != std::string::npos;
    out.push_back(std::move(c));
  }
  // By level, then type, as text (a level sysfs lacks sorts as "null").
  auto key = [](const report::HostCpuCacheRecord& c) {
    return (c.level ? std::to_string(*c.level) : std::string("null")) + c.type;
  };
  std::sort(out.begin(), out.end(), [&key](const auto& a, const auto& b) { return key(a) < key(b); });
  return out;
}

}  // namespace

double observed_cpu_mhz() {
  // The mean of every logical CPU's current clock as the kernel reports it now.
  const auto values = cpuinfo_values("cpu MHz");
  double sum = 0;
  int n = 0;
  for (const auto& v : values) {
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    if (end != v.c_str() && x > 0) {
      sum += x;
      ++n;
    }
  }
  return n > 0 ? sum / n : 0.0;
}

report::HostClocks host_clocks(const char* when) {
  report::HostClocks c;
  auto figure = [](double mhz, std::string source) {
    return report::HostClockFigure{mhz > 0 ? std::optional<double>(mhz) : std::nullopt,
                                   mhz > 0 ? std::move(source) : std::string("unknown")};
  };
  const bool start = std::string(when) == "start";
  if (start) {
    const std::filesystem::path freq = "/sys/devices/system/cpu/cpu0/cpufreq";
    if (const auto base_khz = read_number(freq / "base_frequency"); base_khz && *base_khz > 0) {
      c.emplace_back("base", figure(static_cast<double>(*base_khz) / 1000, "cpufreq base_frequency"));
    } else {
      // No cpufreq base (virtual machines, most AMD and ARM kernels): the TSC rate, which on
      // constant_tsc CPUs is the nominal clock.
      c.emplace_back("base", figure(tsc_mhz().value_or(0),
                                    "measured: TSC ticks per second against steady_clock over 20 ms (constant_tsc: "
                                    "the nominal clock)"));
    }
    const auto max_khz = read_number(freq / "cpuinfo_max_freq");
    c.emplace_back("max", figure(max_khz ? static_cast<double>(*max_khz) / 1000 : 0, "cpufreq cpuinfo_max_freq"));
  }
  c.emplace_back(
      std::string("observed_at_") + when,
      figure(observed_cpu_mhz(), "/proc/cpuinfo \"cpu MHz\": the kernel's estimate, mean of the logical CPUs"));
  c.emplace_back(std::string("sustained_at_") + when,
                 figure(add_chain_mhz(2.0),
                        "measured: dependent add chain (one add per cycle), best of 3 chains of 2 ms on the calling "
                        "thread (not pinned)"));
  return c;
}

report::HostDescriptionRecord host_description() {
  report::HostDescriptionRecord h;
  h.cpu_model = cpuinfo_field("model name");
  h.logical_cpus = std::thread::hardware_concurrency();
  if (const auto cores = cpuinfo_field("cpu cores"); !cores.empty())
    h.cores_per_socket = std::strtoul(cores.c_str(), nullptr, 10);
  const auto sockets = cpuinfo_values("physical id");
  h.sockets = std::set<std::string>(sockets.begin(), sockets.end()).size();
  // Base clock: intel_pstate's base_frequency, else nothing (cpuinfo_max_freq is the boost clock).
  const std::filesystem::path freq = "/sys/devices/system/cpu/cpu0/cpufreq";
  h.base_khz = read_number(freq / "base_frequency");
  h.max_khz = read_number(freq / "cpuinfo_max_freq");
  h.scaling_governor = read_line(freq / "scaling_governor");
  h.observed_mhz = observed_cpu_mhz();
  h.clocks = host_clocks("start");
  h.vector_isa = vector_isa(cpuinfo_field("flags").empty() ? cpuinfo_field("Features") : cpuinfo_field("flags"));
  h.caches = caches();
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  h.memory_bytes = pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/sys/devices/system/node", ec)) {
    const auto n = e.path().filename().string();
    if (n.rfind("node", 0) == 0 && n.size() > 4 && std::isdigit(static_cast<unsigned char>(n[4]))) ++h.numa_nodes;
  }
  // The GPU's buffers are placed by the driver; webgpu-bench sets no host memory or CPU affinity.
  h.numa_placement = "not set: default policy, no CPU or memory binding";
  utsname u{};
  if (uname(&u) == 0) {
    h.os = u.sysname;
    h.kernel = u.release;
    h.arch = u.machine;
  }
  std::ifstream osr("/etc/os-release");
  std::string line;
  while (std::getline(osr, line)) {
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      auto v = line.substr(12);
      if (v.size() >= 2 && v.front() == '"') v = v.substr(1, v.size() - 2);
      h.distribution = v;
    }
  }
  return h;
}

report::MachineRecord native_machine() {
  report::MachineRecord m;
  m.host = report::to_json(host_description());
  m.build = build_json();
  m.kernel_overrides = gpu::kernel_overrides_json();
  m.host_at_finish = [] {
    return report::to_json(report::HostFinishRecord{observed_cpu_mhz(), host_clocks("finish")});
  };
  return m;
}

}  // namespace wgb::host
