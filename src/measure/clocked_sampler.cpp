// Implementation of ClockedSampler (clocked_sampler.hpp).
#include "measure/clocked_sampler.hpp"

#include <sstream>
#include <utility>

namespace wgb::measure {

ClockedSampler::ClockedSampler(ProtocolFactory make, TimingArbiter arbiter)
    : make_(std::move(make)), arbiter_(std::move(arbiter)), protocol_(make_(arbiter_.clock())) {}

ClockedSampler::ClockedSampler(SamplerConfig cfg, KnobRange knob, CooldownBudget& budget, TimingArbiter arbiter)
    : ClockedSampler([cfg, knob, b = &budget](ClockKind) { return std::make_unique<Sampler>(cfg, knob, *b); },
                     std::move(arbiter)) {}

TimedSample ClockedSampler::add(const RawTiming& raw) {
  const ClockKind row_clock = arbiter_.clock();
  TimedSample s = arbiter_.resolve(raw);
  if (row_clock == ClockKind::GpuTimestamp && arbiter_.clock() == ClockKind::WallClock) {
    restart_on_wall_clock(s);
    return s;
  }
  if (s.clock != row_clock) {
    // Only another clock's reading exists for this batch: keeping it would mix two clocks (two
    // different biases) in one row's statistics.
    protocol_->reject(s.ms, s.timestamp_rejected ? "timestamp-rejected" : "timestamp-missing", s.note);
    return s;
  }
  protocol_->add(s.ms);
  return s;
}

void ClockedSampler::restart_on_wall_clock(const TimedSample& trigger) {
  // Samples taken so far were timed on GPU timestamps that have now proven untrustworthy, and the
  // calibration that sized the batch read the same timer: start again on the wall clock. What was
  // measured before stays in the record, as discarded.
  const Record before = protocol_->record();
  const Action pending = protocol_->next();  // the Run whose result `trigger` is
  for (const double ms : before.kept_ms) {
    earlier_discarded_.push_back({ms, before.repetitions, before.knob, "sample", "clock-demoted",
                                  "kept on gpu-timestamp before the row was demoted to the wall clock"});
  }
  for (const double ms : before.throttled_ms) {
    earlier_discarded_.push_back({ms, before.repetitions, before.knob, "sample", "clock-demoted",
                                  "thermal discard on gpu-timestamp before the row was demoted to the wall clock"});
  }
  earlier_discarded_.insert(earlier_discarded_.end(), before.discarded.begin(), before.discarded.end());
  const std::uint32_t reps = pending.repetitions > 0 ? pending.repetitions : 1;
  earlier_discarded_.push_back(
      {trigger.ms / reps, reps, pending.knob, to_string(pending.stage), "clock-demoted", trigger.note});
  earlier_notes_.insert(earlier_notes_.end(), before.notes.begin(), before.notes.end());
  std::ostringstream os;
  os << "GPU timestamps distrusted " << arbiter_.strikes() << " times: sampling restarted on the wall clock; the "
     << before.kept_ms.size() + before.throttled_ms.size()
     << " timed round(s) taken on timestamps are in the discarded record";
  earlier_notes_.push_back(os.str());
  earlier_cooldowns_ += before.cooldowns_taken;
  ++restarts_;
  protocol_ = make_(ClockKind::WallClock);
}

Record ClockedSampler::record() const {
  Record r = protocol_->record();
  r.clock = arbiter_.clock();
  r.timestamp_strikes = arbiter_.strikes();
  r.restarts = restarts_;
  if (restarts_ == 0) return r;
  std::vector<DiscardedSample> discarded = earlier_discarded_;
  discarded.insert(discarded.end(), r.discarded.begin(), r.discarded.end());
  r.discarded = std::move(discarded);
  std::vector<std::string> notes = earlier_notes_;
  notes.insert(notes.end(), r.notes.begin(), r.notes.end());
  r.notes = std::move(notes);
  r.cooldowns_taken += earlier_cooldowns_;
  return r;
}

}  // namespace wgb::measure
