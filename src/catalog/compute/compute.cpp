// ALU probes (seed 000 "What's measured"). Filled in by the raw-catalog work.
#include "catalog/families.hpp"

namespace wgb::catalog {
std::vector<BenchmarkDefinition> compute_benchmarks() { return {}; }
}  // namespace wgb::catalog
