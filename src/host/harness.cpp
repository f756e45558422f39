// The statistic of each regime, and the summary of a sample set.
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

Summary summarize(const std::vector<double>& pass_ms, Statistic s, double work_per_pass) {
  Summary out;
  out.stats = measure::compute_stats(pass_ms);
  if (out.stats.count == 0) return out;
  out.time_ms = s == Statistic::Best ? out.stats.min : out.stats.median;
  auto rate = [&](double ms) { return ms > 0 ? work_per_pass / (ms * 1e-3) : 0.0; };
  out.value = rate(out.time_ms);
  out.value_low = rate(out.stats.q3);
  out.value_high = rate(out.stats.q1);
  out.iqr_relative = out.stats.median > 0 ? out.stats.iqr / out.stats.median : 0;
  return out;
}

}  // namespace wgb::host
