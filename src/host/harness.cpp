// The statistic of each regime.
#include "host/harness.hpp"

namespace wgb::host {

Statistic statistic_for(Regime r) noexcept { return r == Regime::Compute ? Statistic::Best : Statistic::Median; }

const char* statistic_reason(Regime r) noexcept {
  switch (r) {
    case Regime::Compute:
      return "minimum: compute-bound kernel; interference (interrupts, other processes, clock dips) only "
             "adds time, so the fastest repetition is the closest estimate of the interference-free cost";
    case Regime::Memory:
      return "median with IQR: memory traffic (DRAM, shared caches, page walks) and thread scheduling "
             "give the time a real distribution, not one true value";
    case Regime::Latency:
      return "median with IQR: dependent loads through caches, TLBs and DRAM have a distribution that "
             "depends on replacement and page placement";
  }
  return "";
}

const char* to_string(Regime r) noexcept {
  switch (r) {
    case Regime::Compute: return "compute";
    case Regime::Memory: return "memory";
    case Regime::Latency: return "latency";
  }
  return "";
}

}  // namespace wgb::host
