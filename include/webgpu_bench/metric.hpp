// What a benchmark counts (Metric) and how much work one repetition does (WorkModel): shared by the
// definitions and the result rows. Standard library only.
#pragma once

#include <string>

namespace wgb {

// What the headline number counts. `key` "bytes" counts bytes read + written; any other key counts
// the work model's operations. unit is the thing counted ("B", "FLOP", "OP", "element"), the rate is
// unit per second.
struct Metric {
  std::string key;   // "bytes", "flops", "ops", "elements", ...
  std::string unit;  // "B", "FLOP", "OP", "element", "hop", ...
  std::string name;  // "Bytes moved", "Floating-point ops (an FMA counts 2)", ...
};


// The work one repetition does, from the kernel's cost model (BabelStream's `weight`): never
// measured, always counted. bytes_* are DRAM-level logical bytes; operations are in metric units.
struct WorkModel {
  double bytes_read = 0;
  double bytes_written = 0;
  double operations = 0;
  double count(const Metric& metric) const {
    return metric.key == "bytes" ? bytes_read + bytes_written : operations;
  }
};

}  // namespace wgb
