// The host machine as seed 004's reporting table asks: CPU model, cores, clocks, vector ISA,
// caches per level (from sysfs), memory, NUMA nodes, OS and kernel. Read from /proc and /sys only.
#pragma once

#include <nlohmann/json.hpp>

namespace wgb::report {

nlohmann::json host_description();
// Mean current clock of the logical CPUs (MHz) from /proc/cpuinfo; 0 when unknown. Recorded at the
// start and the end of a run: what the host sustained while it fed the GPU.
double observed_cpu_mhz();

}  // namespace wgb::report
