// Host topology from sysfs (/sys/devices/system/{cpu,node}), /proc/meminfo and get_mempolicy(2).
#include "host/topology.hpp"

#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <tuple>

#include "host/clock.hpp"

namespace wgb::host {

namespace fs = std::filesystem;

namespace {

long read_long(const fs::path& p, long fallback = -1) {
  const auto s = read_line(p);
  long v = fallback;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return s.empty() ? fallback : v;
}

std::uint64_t meminfo_bytes(const std::string& key) {
  return static_cast<std::uint64_t>(std::max(0L, proc_kib("/proc/meminfo", key))) << 10;
}

std::string mempolicy_name() {
  int mode = -1;
  // get_mempolicy(&mode, NULL, 0, NULL, 0): the calling thread's policy; no libnuma needed.
  if (syscall(SYS_get_mempolicy, &mode, nullptr, 0UL, nullptr, 0UL) != 0) return "unknown";
  switch (mode & 0xff) {  // high bits are mode flags (static/relative nodes)
    case 0: return "default (local first-touch)";
    case 1: return "preferred";
    case 2: return "bind";
    case 3: return "interleave";
    case 4: return "local";
    case 5: return "preferred-many";
    default: return "mode " + std::to_string(mode);
  }
}

}  // namespace

std::vector<int> parse_cpu_list(std::string_view text) {
  std::vector<int> out;
  std::size_t i = 0;
  while (i < text.size()) {
    auto end = text.find(',', i);
    if (end == std::string_view::npos) end = text.size();
    auto part = text.substr(i, end - i);
    while (!part.empty() && (part.back() == '\n' || part.back() == ' ')) part.remove_suffix(1);
    int lo = 0, hi = 0;
    const auto dash = part.find('-');
    auto r1 = std::from_chars(part.data(), part.data() + (dash == std::string_view::npos ? part.size() : dash), lo);
    if (r1.ec == std::errc{} && !part.empty()) {
      hi = lo;
      if (dash != std::string_view::npos) {
        auto r2 = std::from_chars(part.data() + dash + 1, part.data() + part.size(), hi);
        if (r2.ec != std::errc{}) hi = lo - 1;
      }
      for (int c = lo; c <= hi && c - lo < (1 << 20); ++c) out.push_back(c);
    }
    i = end + 1;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string format_cpu_list(const std::vector<int>& cpus) {
  std::string s;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!s.empty()) s += ',';
    s += std::to_string(cpus[i]);
    if (j > i) s += '-' + std::to_string(cpus[j]);
    i = j + 1;
  }
  return s;
}

std::vector<CacheLevel> caches_for(const std::vector<int>& cpus) {
  // Key: (level, type, shared list) identifies one instance.
  std::map<std::tuple<int, std::string>, CacheLevel> levels;
  std::map<std::tuple<int, std::string>, std::set<std::string>> instances;
  for (int cpu : cpus) {
    const fs::path base = fs::path("/sys/devices/system/cpu") / ("cpu" + std::to_string(cpu)) / "cache";
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(base, ec)) {
      if (e.path().filename().string().rfind("index", 0) != 0) continue;
      CacheLevel c;
      c.type = read_line(e.path() / "type");
      if (c.type == "Instruction") continue;
      c.level = static_cast<int>(read_long(e.path() / "level", 0));
      c.bytes = parse_cache_size(read_line(e.path() / "size"));
      c.ways = static_cast<int>(read_long(e.path() / "ways_of_associativity", 0));
      c.line_bytes = static_cast<int>(read_long(e.path() / "coherency_line_size", 0));
      const auto shared = read_line(e.path() / "shared_cpu_list");
      c.shared_cpus = parse_cpu_list(shared);
      const auto key = std::make_tuple(c.level, c.type);
      instances[key].insert(shared);
      if (!levels.count(key)) levels[key] = c;
    }
  }
  std::vector<CacheLevel> out;
  for (auto& [key, c] : levels) {
    c.instances = static_cast<int>(instances[key].size());
    out.push_back(c);
  }
  std::sort(out.begin(), out.end(), [](const CacheLevel& a, const CacheLevel& b) { return a.level < b.level; });
  return out;
}

std::uint64_t last_level_cache_bytes(const std::vector<int>& cpus) {
  const auto c = caches_for(cpus);
  return c.empty() ? 0 : c.back().total_bytes();
}

Topology read_topology() {
  Topology t;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (CPU_ISSET(c, &set)) t.allowed_cpus.push_back(c);
    }
  }
  if (t.allowed_cpus.empty()) {
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    for (int c = 0; c < std::max(1L, n); ++c) t.allowed_cpus.push_back(c);
  }
  // One hardware thread per physical core: group allowed CPUs by (package, core id).
  std::map<std::pair<long, long>, std::vector<int>> cores;
  for (int cpu : t.allowed_cpus) {
    const fs::path topo = fs::path("/sys/devices/system/cpu") / ("cpu" + std::to_string(cpu)) / "topology";
    const long pkg = read_long(topo / "physical_package_id", 0);
    const long core = read_long(topo / "core_id", cpu);
    cores[{pkg, core}].push_back(cpu);
  }
  std::vector<std::vector<int>> ordered;
  for (auto& [key, list] : cores) ordered.push_back(list);
  // Order cores by their first CPU number (compact placement: fills a package before the next
  // when the OS numbers CPUs that way, which Linux does for the first thread of each core).
  std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.front() < b.front(); });
  for (const auto& list : ordered) t.one_per_core.push_back(list.front());
  for (const auto& list : ordered) {
    for (std::size_t i = 1; i < list.size(); ++i) t.smt_siblings.push_back(list[i]);
  }
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/sys/devices/system/node", ec)) {
    const auto name = e.path().filename().string();
    if (name.rfind("node", 0) != 0 || name.size() < 5 || !std::isdigit(static_cast<unsigned char>(name[4]))) continue;
    NumaNode n;
    n.id = std::stoi(name.substr(4));
    n.cpus = parse_cpu_list(read_line(e.path() / "cpulist"));
    t.numa_nodes.push_back(n);
  }
  std::sort(t.numa_nodes.begin(), t.numa_nodes.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  t.mempolicy = mempolicy_name();
  t.mem_total_bytes = meminfo_bytes("MemTotal");
  t.mem_available_bytes = meminfo_bytes("MemAvailable");
  t.thp = read_line("/sys/kernel/mm/transparent_hugepage/enabled");
  return t;
}

int numa_node_of(const Topology& t, int cpu) {
  for (const auto& n : t.numa_nodes) {
    if (std::find(n.cpus.begin(), n.cpus.end(), cpu) != n.cpus.end()) return n.id;
  }
  return -1;
}

report::HostTopologyRecord topology_record(const Topology& t) {
  report::HostTopologyRecord r;
  r.allowed_cpus = format_cpu_list(t.allowed_cpus);
  r.allowed_cpu_count = t.allowed_cpus.size();
  r.physical_cores_allowed = t.one_per_core.size();
  r.one_per_core = format_cpu_list(t.one_per_core);
  r.smt_siblings = format_cpu_list(t.smt_siblings);
  for (const auto& c : caches_for(t.allowed_cpus)) {
    r.caches.push_back({c.level, c.type, c.bytes, c.ways, c.line_bytes, format_cpu_list(c.shared_cpus),
                        c.shared_cpus.size() <= 1, c.instances, c.total_bytes()});
  }
  r.numa_node_count = t.numa_nodes.size();
  for (const auto& n : t.numa_nodes) r.numa_nodes.push_back({n.id, format_cpu_list(n.cpus)});
  r.mempolicy = t.mempolicy;
  r.memory_total_bytes = t.mem_total_bytes;
  r.memory_available_bytes_at_start = t.mem_available_bytes;
  r.transparent_hugepages = t.thp;
  return r;
}

}  // namespace wgb::host
