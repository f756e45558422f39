// The host machine as every native result document records it: CPU model, cores, clocks, vector
// ISA, caches per level (from sysfs), memory, NUMA nodes, OS and kernel. Read from /proc and /sys
// only; the clocks are measured with the host clock probes (clock.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include "report/host_section.hpp"
#include "report/machine.hpp"

namespace wgb::host {

report::HostDescriptionRecord host_description();
// Mean current clock of the logical CPUs (MHz) from /proc/cpuinfo; 0 when unknown. Recorded at the
// start and the end of a run: what the host sustained while it fed the GPU.
double observed_cpu_mhz();

// The host's clocks with the source of every figure (the base clock and the clock sustained during
// the run): "base", "max", "observed_at_<when>", "sustained_at_<when>", each MHz and source. Base and maximum come from
// cpufreq where the kernel exposes it; where it does not (virtual machines), the base is measured (the TSC rate,
// clock.hpp). The sustained clock is always measured: a dependent add chain on the calling
// thread. `when` is "start" (the whole object) or "finish" (only the two observed/sustained keys).
report::HostClocks host_clocks(const char* when);

// The machine record of a native run: this host's description, the build, the replaced kernels
// (--kernel-dir), and the clocks measured again at the end.
report::MachineRecord native_machine();

}  // namespace wgb::host
