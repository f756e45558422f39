// The host machine as seed 004's reporting table asks: CPU model, cores, clocks, vector ISA,
// caches per level (from sysfs), memory, NUMA nodes, OS and kernel. Read from /proc and /sys only.
#pragma once

#include <nlohmann/json.hpp>

namespace wgb::report {

nlohmann::json host_description();

}  // namespace wgb::report
