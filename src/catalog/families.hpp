// One function per family of benchmarks; catalog.cpp concatenates them in catalog order.
#pragma once

#include <vector>

#include "webgpu_bench/definition.hpp"

namespace wgb::catalog {

std::vector<BenchmarkDefinition> bandwidth_benchmarks();  // bandwidth/bandwidth.cpp
std::vector<BenchmarkDefinition> latency_benchmarks();    // bandwidth/latency.cpp (sweepable latency)
std::vector<BenchmarkDefinition> compute_benchmarks();    // compute/compute.cpp (ALU probes)
std::vector<BenchmarkDefinition> texture_benchmarks();    // texture/texture.cpp (sampler vs shader interpolation)
std::vector<BenchmarkDefinition> subgroup_matrix_benchmarks();  // subgroup_matrix/ (experimental MMA)
std::vector<BenchmarkDefinition> technique_benchmarks();  // technique/technique.cpp (fixed-work comparisons)
std::vector<BenchmarkDefinition> api_benchmarks();        // api/api.cpp (the cost of WebGPU's own API)

}  // namespace wgb::catalog
