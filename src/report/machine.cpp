// Host description from /proc/cpuinfo, /sys/devices/system/{cpu,node} and uname(2).
#include "report/machine.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>

namespace wgb::report {

namespace {

std::string read_line(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::string s;
  std::getline(f, s);
  return s;
}

std::string cpuinfo_field(const std::string& key) {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind(key, 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) {
        auto v = line.substr(colon + 1);
        v.erase(0, v.find_first_not_of(" \t"));
        return v;
      }
    }
  }
  return {};
}

nlohmann::json vector_isa(const std::string& flags) {
  nlohmann::json isa = nlohmann::json::array();
  std::istringstream s(" " + flags + " ");
  std::set<std::string> have;
  std::string f;
  while (s >> f) have.insert(f);
  for (const char* name : {"sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512_vnni",
                           "avx512_bf16", "avx_vnni", "amx_tile", "sve", "asimd"}) {
    if (have.count(name)) isa.push_back(name);
  }
  return isa;
}

nlohmann::json caches() {
  nlohmann::json out = nlohmann::json::array();
  const std::filesystem::path base = "/sys/devices/system/cpu/cpu0/cache";
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(base, ec)) {
    const auto name = entry.path().filename().string();
    if (name.rfind("index", 0) != 0) continue;
    nlohmann::json c;
    c["level"] = read_line(entry.path() / "level");
    c["type"] = read_line(entry.path() / "type");
    c["size"] = read_line(entry.path() / "size");
    c["ways_of_associativity"] = read_line(entry.path() / "ways_of_associativity");
    c["coherency_line_size"] = read_line(entry.path() / "coherency_line_size");
    const auto shared = read_line(entry.path() / "shared_cpu_list");
    c["shared_cpu_list"] = shared;
    c["shared"] = shared.find_first_of(",-") != std::string::npos;
    out.push_back(c);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a["level"].template get<std::string>() + a["type"].template get<std::string>() <
           b["level"].template get<std::string>() + b["type"].template get<std::string>();
  });
  return out;
}

}  // namespace

nlohmann::json host_description() {
  nlohmann::json h;
  h["cpu_model"] = cpuinfo_field("model name");
  h["logical_cpus"] = std::thread::hardware_concurrency();
  const auto cores = cpuinfo_field("cpu cores");
  h["cores_per_socket"] = cores;
  const auto mhz = cpuinfo_field("cpu MHz");
  h["observed_mhz"] = mhz;
  const auto base_khz = read_line("/sys/devices/system/cpu/cpu0/cpufreq/base_frequency");
  h["base_khz"] = base_khz.empty() ? read_line("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq") : base_khz;
  h["vector_isa"] = vector_isa(cpuinfo_field("flags"));
  h["caches"] = caches();
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  h["memory_bytes"] = pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
  int nodes = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/sys/devices/system/node", ec)) {
    const auto n = e.path().filename().string();
    if (n.rfind("node", 0) == 0 && n.size() > 4 && std::isdigit(static_cast<unsigned char>(n[4]))) ++nodes;
  }
  h["numa_nodes"] = nodes;
  utsname u{};
  if (uname(&u) == 0) {
    h["os"] = u.sysname;
    h["kernel"] = u.release;
    h["arch"] = u.machine;
  }
  std::ifstream osr("/etc/os-release");
  std::string line;
  while (std::getline(osr, line)) {
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      auto v = line.substr(12);
      if (v.size() >= 2 && v.front() == '"') v = v.substr(1, v.size() - 2);
      h["distribution"] = v;
    }
  }
  return h;
}

}  // namespace wgb::report
