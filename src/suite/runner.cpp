// The one timed loop (runner.hpp).
#include "suite/runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "suite/sleep.hpp"

namespace wgb {

namespace {
using Clock = std::chrono::steady_clock;
}  // namespace

bool idle_for(double ms, const CancelToken& cancel) {
  const auto until =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(ms));
  while (Clock::now() < until) {
    if (cancel.cancelled()) return false;
    const double left_ms = std::chrono::duration<double, std::milli>(until - Clock::now()).count();
    sleep_ms(std::min(left_ms, 10.0));
  }
  return !cancel.cancelled();
}

Expected<measure::RawTiming> WorkloadHost::time_pass(const measure::Action& run) {
  w_.set_knob(run.knob);
  auto raw = w_.time(gpu_, run.repetitions);
  if (!raw) return std::move(raw).error();
  return measure::RawTiming{raw->gpu_ms, raw->wall_ms, raw->submit_ms};
}

measure::TimingArbiter workload_arbiter(const Workload& workload, const gpu::Context& gpu) {
  if (workload.clock() == BatchClock::WholeOperation) return measure::TimingArbiter::whole_operation();
  return measure::TimingArbiter(gpu.has_timestamps(), gpu.empty_submit_ms());
}

Expected<measure::Record> run_timed(measure::ClockedSampler& sampler, PassHost& host, const TimedLoop& loop) {
  std::vector<std::string> arbiter_notes;
  std::vector<double> end_s;
  Clock::time_point first_submit{};
  bool submitted_one = false;  // first_submit holds the first recorded batch's submit
  int recorded = 0;
  for (;;) {
    if (loop.cancel.cancelled()) return make_error(ErrorKind::Cancelled, "cancelled");
    const measure::Action a = sampler.next();
    if (a.kind == measure::Action::Kind::Done) break;
    if (a.kind == measure::Action::Kind::Sleep) {
      if (a.cooldown && loop.on_cooldown_start) loop.on_cooldown_start(a.sleep_ms);
      idle_for(a.sleep_ms, loop.cancel);  // a cancel ends the loop at the top
      if (a.cooldown && loop.on_cooldown_end) loop.on_cooldown_end();
      continue;
    }
    if (loop.on_run) loop.on_run(a, recorded);
    const auto submitted = Clock::now();
    auto raw = host.time_pass(a);
    const auto completed = Clock::now();
    if (!raw) return std::move(raw).error();
    const int restarts = sampler.restarts();
    const measure::ClockKind row_clock = sampler.clock();
    const measure::TimedSample s = sampler.add(*raw);
    if (s.timestamp_rejected && arbiter_notes.size() < static_cast<std::size_t>(loop.max_timing_notes)) {
      arbiter_notes.push_back(s.note);
    }
    if (sampler.restarts() != restarts) {  // sampling started over on the wall clock
      recorded = 0;
      end_s.clear();
      submitted_one = false;
      continue;
    }
    if (a.recorded && s.clock == row_clock && std::isfinite(s.ms) && s.ms > 0) {
      if (!submitted_one) {
        first_submit = submitted;
        submitted_one = true;
      }
      end_s.push_back(std::chrono::duration<double>(completed - first_submit).count());
      ++recorded;
    }
  }
  measure::Record r = sampler.record();
  r.notes.insert(r.notes.begin(), arbiter_notes.begin(), arbiter_notes.end());
  r.recorded_end_s = std::move(end_s);
  return r;
}

}  // namespace wgb
