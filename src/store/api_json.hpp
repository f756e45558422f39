// The results server's JSON API, written and read in one place (docs/store.md, "API"): the server
// writes its answers from the store's records here, and `--submit` reads the submit answer and an
// error's reason here.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/store.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::store {

nlohmann::json class_json(const DeviceClass& c);
nlohmann::json class_json(const ClassInfo& c);  // with its run count
nlohmann::json run_summary_json(const RunSummary& s);
nlohmann::json run_json(const StoredRun& run);  // the summary and the document
nlohmann::json run_list_json(std::int64_t total, const RunFilter& filter, const std::vector<RunSummary>& runs);
nlohmann::json leaderboard_json(const Leaderboard& board);
nlohmann::json benchmarks_json(const std::vector<BenchmarkInfo>& list);
nlohmann::json classes_json(const std::vector<ClassInfo>& list);
nlohmann::json error_json(const std::string& reason);

// The answer to a submission: where the run is, whether it was already there, its rank and class.
struct SubmitAnswer {
  std::int64_t id = 0;
  std::string url;  // the run's page, relative to the server ("/runs/7")
  bool duplicate = false;
  std::string unranked_reason;  // "" when ranked
  DeviceClass device_class;     // written whole; read: its key
};
nlohmann::json submit_answer_json(const SubmitAnswer& a);
// The answer read back: an error naming what is missing when `id` or `url` is.
Expected<SubmitAnswer> read_submit_answer(std::string_view body);
// An error answer's reason ({"error": reason}); none when the body is not one.
std::optional<std::string> read_error_reason(std::string_view body);

}  // namespace wgb::store
