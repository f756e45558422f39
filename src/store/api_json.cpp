// The results server's API records (api_json.hpp).
#include "store/api_json.hpp"

#include <fmt/format.h>

namespace wgb::store {

namespace {

using json = nlohmann::json;

json entry_json(const Entry& e) {
  return {{"id", e.run_id},
          {"value", e.value},
          {"status", e.status},
          {"ranked", e.ranked},
          {"unranked_reason", e.unranked_reason},
          {"started_at", e.started_at},
          {"suite", e.suite},
          {"runtime", e.runtime}};
}

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

json class_json(const DeviceClass& c) {
  return {{"key", c.key},
          {"label", c.label},
          {"vendor", c.vendor},
          {"architecture", c.architecture},
          {"device", c.device},
          {"backend", c.backend},
          {"adapter_type", c.adapter_type},
          {"variable", c.variable}};
}

json class_json(const ClassInfo& c) {
  json j = class_json(c.device_class);
  j["runs"] = c.runs;
  return j;
}

json run_summary_json(const RunSummary& s) {
  return {{"id", s.id},
          {"url", fmt::format("/runs/{}", s.id)},
          {"submitted_at", s.submitted_at},
          {"started_at", s.started_at},
          {"suite", s.suite},
          {"state", s.state},
          {"rows", s.row_count},
          {"ranked", s.unranked_reason.empty()},
          {"unranked_reason", s.unranked_reason},
          {"runtime", s.runtime},
          {"class", class_json(s.device_class)}};
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
  const auto id = j.find("id");
  if (id == j.end() || !id->is_number_integer()) return make_error(ErrorKind::Io, "the answer has no integer \"id\"");
  a.id = id->get<std::int64_t>();
  const auto url = j.find("url");
  if (url == j.end() || !url->is_string()) return make_error(ErrorKind::Io, "the answer has no \"url\"");
  a.url = url->get<std::string>();
  if (const auto d = j.find("duplicate"); d != j.end() && d->is_boolean()) a.duplicate = d->get<bool>();
  if (const auto r = j.find("unranked_reason"); r != j.end() && r->is_string())
    a.unranked_reason = r->get<std::string>();
  if (const auto c = j.find("class"); c != j.end() && c->is_object()) {
    if (const auto k = c->find("key"); k != c->end() && k->is_string()) a.device_class.key = k->get<std::string>();
  }
  return a;
}

std::optional<std::string> read_error_reason(std::string_view body) {
  const json j = json::parse(body, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  const auto e = j.find("error");
  return e != j.end() && e->is_string() ? std::optional<std::string>(e->get<std::string>()) : std::nullopt;
}

}  // namespace wgb::store
