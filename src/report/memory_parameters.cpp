// The memory suite's records, written (memory_parameters.hpp).
#include "report/memory_parameters.hpp"

#include "report/field_reader.hpp"

namespace wgb::report {

namespace {

using json = nlohmann::json;

// clang-format off
template <class S, class F> void working_set_fields(S& w, F&& f) {
  f("requested_bytes", w.requested_bytes), f("bytes", w.bytes), f("floor_bytes", w.floor_bytes);
  f("buffers", w.buffers), f("element", w.element), f("invocations", w.invocations);
  f("workgroups", w.workgroups), f("workgroup_size", w.workgroup_size), f("latency_slots", w.latency_slots);
  f("reductions", w.reductions), f("ranked", w.ranked);
}
template <class S, class F> void scope_fields(S& l, F&& f) { f("measured", l.measured), f("not_measured", l.not_measured); }
template <class S, class F> void timeline_fields(S& t, F&& f) {
  f("t_s", t.t_s), f("gbps", t.gbps), f("ms", t.ms), f("rejected", t.rejected);
}
template <class S, class F> void phase_fields(S& p, F&& f) {
  f("working_set_bytes", p.working_set_bytes), f("requested_working_set_bytes", p.requested_working_set_bytes);
  f("ranked", p.ranked), f("unranked_reason", p.unranked_reason), f("buffers", p.buffers);
  f("element", p.element), f("clock", p.clock), f("empty_submit_ms", p.empty_submit_ms);
  f("target_sample_ms", p.target_sample_ms), f("budget_ms", p.budget_ms), f("warmup_ms", p.warmup_ms);
  f("sampled_ms", p.sampled_ms), f("samples", p.samples), f("kept_samples", p.kept_samples);
  f("rejected_samples", p.rejected_samples), f("rejected_ms", p.rejected_ms);
  f("invalid_samples", p.invalid_samples), f("pass_ms", p.pass_ms), f("cv", p.cv);
  f("median_pass_ms", p.median_pass_ms), f("phase_restarts", p.phase_restarts);
  f("workgroup_size", p.workgroup_size), f("workgroups", p.workgroups), f("invocations", p.invocations);
  f("dispatches_per_sample", p.dispatches_per_sample), f("bytes_per_dispatch", p.bytes_per_dispatch);
  f("alternation", p.alternation), f("median_gbps", p.median_gbps);
  f("slots", p.slots), f("slot_bytes", p.slot_bytes), f("chain_bytes", p.chain_bytes), f("cycle", p.cycle);
  f("cycle_seed", p.cycle_seed), f("hops_per_sample", p.hops_per_sample), f("total_hops", p.total_hops);
  f("ns_per_load", p.ns_per_load);
  f("gathers_per_invocation", p.gathers_per_invocation), f("bytes_per_gather", p.bytes_per_gather);
  f("g_accesses_per_s", p.g_accesses_per_s);
  f("sustain_ms", p.sustain_ms), f("retention", p.retention), f("retention_reading", p.retention_reading);
  f("first20_median_gbps", p.first20_median_gbps), f("last60_median_gbps", p.last60_median_gbps);
  f("first20_samples", p.first20_samples), f("last60_samples", p.last60_samples);
}
// clang-format on

}  // namespace

json to_json(const MemoryWorkingSetRecord& w) {
  json j = written(w, WGB_FIELDS(working_set_fields));
  if (!w.ranked) j["unranked_reason"] = w.unranked_reason;
  return j;
}

json to_json(const std::vector<MemoryScopeLine>& scope) {
  json out = json::array();
  for (const auto& l : scope) out.push_back(written(l, WGB_FIELDS(scope_fields)));
  return out;
}

json to_json(const MemoryPhaseParameters& p) {
  json j = json::object();
  phase_fields(p, present_writer(j));
  j["unranked"] = !p.ranked;
  if (p.timeline) {
    json t = json::array();
    for (const auto& x : *p.timeline) t.push_back(written(x, WGB_FIELDS(timeline_fields)));
    j["timeline"] = std::move(t);
  }
  return j;
}

}  // namespace wgb::report
