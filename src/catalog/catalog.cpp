// The built-in catalog, in catalog order (the order benchmarks run in).
#include "catalog/families.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb {

const std::vector<BenchmarkDefinition>& builtin_benchmarks() {
  static const std::vector<BenchmarkDefinition> all = [] {
    std::vector<BenchmarkDefinition> v;
    for (auto* family : {&catalog::bandwidth_benchmarks, &catalog::latency_benchmarks, &catalog::compute_benchmarks,
                         &catalog::texture_benchmarks, &catalog::subgroup_matrix_benchmarks,
                         &catalog::technique_benchmarks, &catalog::api_benchmarks}) {
      auto defs = family();
      v.insert(v.end(), std::make_move_iterator(defs.begin()), std::make_move_iterator(defs.end()));
    }
    return v;
  }();
  return all;
}

std::vector<BenchmarkDefinition> default_suite() {
  std::vector<BenchmarkDefinition> v;
  for (const auto& d : builtin_benchmarks()) {
    if (d.in_default_suite) v.push_back(d);
  }
  return v;
}

}  // namespace wgb
