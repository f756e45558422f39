// Shader technique comparisons (seed 000). Filled in by the technique work.
#include "catalog/families.hpp"

namespace wgb::catalog {
std::vector<BenchmarkDefinition> technique_benchmarks() { return {}; }
}  // namespace wgb::catalog
