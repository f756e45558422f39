// The statistic of each regime, and the host protocol driven by the one timed loop.
#include "host/harness.hpp"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <memory>
#include <optional>
#include <utility>

namespace wgb::host {

namespace {
double cpu_ms(const rusage& u) {
  return 1e3 * static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-3 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}
}  // namespace

RegionHost::RegionHost(std::function<void(std::uint64_t)> region, int repetitions)
    : region_(std::move(region)), repetitions_(static_cast<std::size_t>(std::max(1, repetitions))) {}

Expected<measure::RawTiming> RegionHost::time_pass(const measure::Action& run) {
  using ms = std::chrono::duration<double, std::milli>;
  if (run.recorded && recorded_ % repetitions_ == 0) getrusage(RUSAGE_SELF, &before_);
  clobber_memory();
  const auto start = std::chrono::steady_clock::now();
  region_(run.knob);
  const auto stop = std::chrono::steady_clock::now();
  clobber_memory();
  if (run.recorded) {
    ++recorded_;
    rusage after{};
    getrusage(RUSAGE_SELF, &after);
    cpu_ms_ = cpu_ms(after) - cpu_ms(before_);
    switches_ = after.ru_nivcsw - before_.ru_nivcsw;
  }
  return measure::RawTiming{std::nullopt, std::chrono::duration_cast<ms>(stop - start).count()};
}

double HostTiming::cpu_share(unsigned threads) const {
  const double wall = timed_wall_ms * static_cast<double>(std::max(1u, threads));
  return wall > 0 ? std::min(1.0, timed_cpu_ms / wall) : 0;
}

RepetitionTiming::RepetitionTiming(PassHost& host, const ProtocolConfig& c)
    : sampler_(
          [this, c](measure::ClockKind) {
            auto p = std::make_unique<measure::RepetitionProtocol>(c);
            protocol_ = p.get();
            return p;
          },
          RegionHost::arbiter()),
      host_(host) {}

TimedPoint RepetitionTiming::point() { return TimedPoint{&sampler_, &host_, {}}; }

measure::RepetitionReport RepetitionTiming::report(measure::Record record) const {
  measure::RepetitionReport r = protocol_->report();
  static_cast<measure::Record&>(r) = std::move(record);
  return r;
}

RegionTiming::RegionTiming(std::function<void(std::uint64_t)> region, const ProtocolConfig& c)
    : host_(std::move(region), c.repetitions), timing_(host_, c) {}

HostTiming RegionTiming::result(measure::Record record) const {
  HostTiming t;
  t.report = timing_.report(std::move(record));
  for (const double ms : t.report.region_ms) t.timed_wall_ms += ms;
  t.timed_cpu_ms = host_.timed_cpu_ms();
  t.involuntary_switches = host_.involuntary_switches();
  return t;
}

Expected<measure::RepetitionReport> run_repetitions(PassHost& host, const ProtocolConfig& c, const CancelToken& cancel) {
  RepetitionTiming timing(host, c);
  auto record = time_point(timing.point(), cancel);
  if (!record) return std::move(record).error();
  return timing.report(std::move(*record));
}

Expected<HostTiming> time_region(std::function<void(std::uint64_t)> region, const ProtocolConfig& c,
                                 const CancelToken& cancel) {
  RegionTiming timing(std::move(region), c);
  auto record = time_point(timing.point(), cancel);
  if (!record) return std::move(record).error();
  return timing.result(std::move(*record));
}

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
  static constexpr const char* kNames[] = {"compute", "memory", "latency"};
  const auto i = static_cast<std::size_t>(r);
  return i < std::size(kNames) ? kNames[i] : "";
}

}  // namespace wgb::host
