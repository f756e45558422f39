// The result document (docs/results-schema.md): one versioned JSON object holding the machine,
// the build, the options and every row, with what the report derives (roofline) and checks
// (reproducibility). Written incrementally and atomically (write, then rename) so a cancelled or
// crashed run keeps what completed.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "report/model.hpp"
#include "report/repro.hpp"
#include "webgpu_bench/context.hpp"
#include "webgpu_bench/expected.hpp"
#include "webgpu_bench/options.hpp"
#include "webgpu_bench/result.hpp"

namespace wgb::report {

// Version policy (docs/results-schema.md): adding a field keeps the version; removing or renaming
// a field, or changing its type or meaning, increments it. Readers accept any version up to theirs
// and ignore fields they do not know.
inline constexpr int kSchemaVersion = 2;
inline constexpr const char* kSchemaName = "webgpu-bench/result";

nlohmann::json to_json(const BenchmarkResult& row);
nlohmann::json to_json(const ReportRow& row);
nlohmann::json to_json(const Roofline& r);
nlohmann::json to_json(const ReproCheck& c);
// Reads a row written by to_json. Only id, status and value are required; any other field that is
// present must have the documented type. The error names the field.
Expected<ReportRow> row_from_json(const nlohmann::json& j);

nlohmann::json adapter_json(const gpu::AdapterDescription& a);
nlohmann::json build_json();
nlohmann::json sampling_json(const SamplingOptions& s);
std::string utc_now_iso8601();

// The document of one run, growing as rows complete.
class ResultDocument {
 public:
  ResultDocument(std::string suite, std::vector<std::string> command);
  void set_device(gpu::Context& gpu);
  // What set_device records, from parts (tests and documents built without a device).
  void set_adapter(const gpu::AdapterDescription& adapter, nlohmann::json dawn);
  void set_options(nlohmann::json options);
  // Appends a row and recomputes the roofline of every row (a ceiling may arrive after the rows
  // it bounds).
  void add_row(const BenchmarkResult& row);
  void set_repro(const ReproSummary& summary, nlohmann::json second_run);
  std::vector<ReportRow>& rows() { return rows_; }
  const std::vector<ReportRow>& rows() const { return rows_; }
  // Re-derives the roofline and rewrites the JSON rows (after editing rows()).
  void refresh();
  void finish(std::string end_state);  // "complete", "cancelled", "device-lost", ...
  const nlohmann::json& json() const { return doc_; }
  nlohmann::json& json() { return doc_; }

 private:
  nlohmann::json doc_;
  std::vector<ReportRow> rows_;
};

// Writes `doc` to `path` atomically: a temporary file in the same folder, then rename.
Status write_json_atomic(const std::filesystem::path& path, const nlohmann::json& doc);
Status write_text_atomic(const std::filesystem::path& path, const std::string& text);
// The rows as CSV (write_csv's conventions), written atomically.
Status write_csv_atomic(const std::filesystem::path& path, const std::vector<ReportRow>& rows);
// A command's outputs: the document's JSON and its rows as CSV, each when its path is not empty.
Status write_outputs(const std::string& json_path, const std::string& csv_path, const ResultDocument& doc);

// Loads and checks a result document: clear one-line errors naming the file for unreadable,
// empty, truncated, non-JSON or foreign content, a newer schema, or malformed rows.
Expected<nlohmann::json> load_result_document(const std::filesystem::path& path);

// The same checks on a document already in memory (a request body, say): `origin` names it in the
// error messages the way the path does for load_result_document.
Expected<nlohmann::json> parse_result_document(std::string_view text, const std::string& origin);

struct LoadedDocument {
  std::filesystem::path path;
  nlohmann::json json;
  std::vector<ReportRow> rows;  // roofline re-derived from the rows; repro as stored
};
Expected<LoadedDocument> load_document(const std::filesystem::path& path);

}  // namespace wgb::report
