// The results server's API records (api_json.hpp).
#include "store/api_json.hpp"

#include <fmt/format.h>

#include "report/field_reader.hpp"

namespace wgb::store {

namespace {

using json = nlohmann::json;

// The fields copied as they are, named once (report/field_reader.hpp).
// clang-format off
template <class S, class F> void entry_fields(S& e, F&& f) {
  f("id", e.run_id), f("value", e.value), f("status", e.status), f("ranked", e.ranked);
  f("unranked_reason", e.unranked_reason), f("started_at", e.started_at), f("suite", e.suite), f("runtime", e.runtime);
}
template <class S, class F> void class_fields(S& c, F&& f) {
  f("key", c.key), f("label", c.label), f("vendor", c.vendor), f("architecture", c.architecture);
  f("device", c.device), f("backend", c.backend), f("adapter_type", c.adapter_type), f("variable", c.variable);
}
template <class S, class F> void summary_fields(S& s, F&& f) {
  f("id", s.id), f("submitted_at", s.submitted_at), f("started_at", s.started_at), f("suite", s.suite);
  f("state", s.state), f("rows", s.row_count), f("unranked_reason", s.unranked_reason), f("runtime", s.runtime);
}
// clang-format on

json entry_json(const Entry& e) { return report::written(e, WGB_FIELDS(entry_fields)); }

json standing_json(const ClassStanding& c) {
  json runs = json::array();
  for (const auto& e : c.entries) runs.push_back(entry_json(e));
  json cj = {{"class", class_json(c.device_class)},
             {"ranked_runs", c.ranked},
             {"runs", runs},
             {"rank", c.rank > 0 ? json(c.rank) : json(nullptr)}};
  // The spread of the class's ranked values, where it has any.
  if (c.ranked > 0) cj.update({{"median", c.median}, {"q1", c.q1}, {"q3", c.q3}, {"min", c.min}, {"max", c.max}});
  return cj;
}

}  // namespace

json class_json(const DeviceClass& c) { return report::written(c, WGB_FIELDS(class_fields)); }

json class_json(const ClassInfo& c) {
  json j = class_json(c.device_class);
  j["runs"] = c.runs;
  return j;
}

json run_summary_json(const RunSummary& s) {
  json j = report::written(s, WGB_FIELDS(summary_fields));
  j["url"] = fmt::format("/runs/{}", s.id);
  j["ranked"] = s.unranked_reason.empty();
  j["class"] = class_json(s.device_class);
  return j;
}

json run_json(const StoredRun& run) {
  json j = run_summary_json(run.summary);
  j["document"] = run.document;
  return j;
}

json run_list_json(std::int64_t total, const RunFilter& filter, const std::vector<RunSummary>& runs) {
  json list = json::array();
  for (const auto& r : runs) list.push_back(run_summary_json(r));
  return {{"total", total}, {"offset", filter.offset}, {"limit", filter.limit}, {"runs", list}};
}

json leaderboard_json(const Leaderboard& board) {
  json classes = json::array();
  for (const auto& c : board.classes) classes.push_back(standing_json(c));
  return {{"benchmark", board.benchmark},
          {"unit", board.unit},
          {"lower_is_better", board.lower_is_better},
          {"classes", classes}};
}

json benchmarks_json(const std::vector<BenchmarkInfo>& list) {
  json out = json::array();
  for (const auto& b : list) out.push_back({{"id", b.id}, {"suite", b.suite}, {"unit", b.unit}, {"runs", b.runs}});
  return out;
}

json classes_json(const std::vector<ClassInfo>& list) {
  json out = json::array();
  for (const auto& c : list) out.push_back(class_json(c));
  return out;
}

json error_json(const std::string& reason) { return {{"error", reason}}; }

json submit_answer_json(const SubmitAnswer& a) {
  return {{"id", a.id},
          {"url", a.url},
          {"duplicate", a.duplicate},
          {"ranked", a.unranked_reason.empty()},
          {"unranked_reason", a.unranked_reason},
          {"class", class_json(a.device_class)}};
}

Expected<SubmitAnswer> read_submit_answer(std::string_view body) {
  const json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return make_error(ErrorKind::Io, "the answer is not a JSON object");
  SubmitAnswer a;
  const json& id = report::json_member(j, "id");
  if (!id.is_number_integer()) return make_error(ErrorKind::Io, "the answer has no integer \"id\"");
  a.id = id.get<std::int64_t>();
  const auto url = report::json_text(j, "url");
  if (!url) return make_error(ErrorKind::Io, "the answer has no \"url\"");
  a.url = *url;
  if (const json& d = report::json_member(j, "duplicate"); d.is_boolean()) a.duplicate = d.get<bool>();
  a.unranked_reason = report::json_text(j, "unranked_reason").value_or("");
  a.device_class.key = report::json_text(report::json_object(j, "class"), "key").value_or("");
  return a;
}

std::optional<std::string> read_error_reason(std::string_view body) {
  return report::json_text(json::parse(body, nullptr, false), "error");
}

}  // namespace wgb::store
