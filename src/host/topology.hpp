// The host's shape as the kernels need it and the document records it (cores, caches, NUMA,
// memory): which CPUs this process may use, one CPU per physical core for pinning, the cache levels
// each set of CPUs can use (so size sweeps can cross the boundaries and STREAM arrays can be sized
// from the last-level cache), NUMA nodes and the memory placement policy. From sysfs and /proc.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "report/host_section.hpp"

namespace wgb::host {

// "0-3,8,10-11" -> {0,1,2,3,8,10,11}. Malformed parts are skipped.
std::vector<int> parse_cpu_list(std::string_view text);
std::string format_cpu_list(const std::vector<int>& cpus);

struct CacheLevel {
  int level = 0;
  std::string type;         // "Data", "Unified", "Instruction"
  std::uint64_t bytes = 0;  // one instance
  int ways = 0;
  int line_bytes = 0;
  std::vector<int> shared_cpus;  // CPUs sharing one instance
  int instances = 0;             // distinct instances covering the CPU set it was computed for
  std::uint64_t total_bytes() const { return bytes * static_cast<std::uint64_t>(instances); }
};

struct NumaNode {
  int id = 0;
  std::vector<int> cpus;
};

struct Topology {
  std::vector<int> allowed_cpus;  // sched_getaffinity of this process
  // First allowed hardware thread of every physical core, ordered by (package, core id): the
  // default pinning ("one per core"). Further allowed siblings follow in `smt_siblings`.
  std::vector<int> one_per_core;
  std::vector<int> smt_siblings;
  std::vector<NumaNode> numa_nodes;
  std::string mempolicy;  // get_mempolicy(2) of this thread: default, bind, interleave, ...
  std::uint64_t mem_total_bytes = 0;
  std::uint64_t mem_available_bytes = 0;
  std::string thp;  // /sys/kernel/mm/transparent_hugepage/enabled
};

Topology read_topology();

// Data/unified cache levels usable by `cpus`, with instances counted over that set (L1/L2 private
// caches add up per core; a shared L3 counts once per socket). Sorted by level.
std::vector<CacheLevel> caches_for(const std::vector<int>& cpus);
// The last level over `cpus`: its total bytes (all instances), 0 when sysfs has no caches.
std::uint64_t last_level_cache_bytes(const std::vector<int>& cpus);

int numa_node_of(const Topology& t, int cpu);  // -1 when unknown

// What the document records of it (machine.host.topology).
report::HostTopologyRecord topology_record(const Topology& t);

}  // namespace wgb::host
