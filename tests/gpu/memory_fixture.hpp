// Memory-suite options for the gpu tests: small and fast (2 x 16 MiB, a few milliseconds per
// sample, the minimum of 8 samples), shared by the library tests of the suite and of its wall clock.
#pragma once

#include <utility>
#include <vector>

#include "memory/memory.hpp"

namespace wgb::test {

inline memory::MemoryOptions tiny_memory_options(
    std::vector<memory::Phase> phases = {memory::kAllPhases.begin(), memory::kAllPhases.end()}) {
  memory::MemoryOptions o;
  o.working_set_mib = 16;
  o.min_working_set_mib = 16;
  o.phases = std::move(phases);
  o.sample_ms = 4;
  o.latency_sample_ms = 4;
  o.budget_ms = 30;
  o.latency_budget_ms = 30;
  o.sustain_ms = 100;
  o.warmup_ms = 10;
  o.transition_ms = 5;
  return o;
}

}  // namespace wgb::test
