// The result document (docs/results-schema.md): one versioned JSON object holding the machine,
// the build, the options and every row. Written incrementally and atomically (write, then rename)
// so a cancelled or crashed run keeps what completed.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "webgpu_bench/context.hpp"
#include "webgpu_bench/expected.hpp"
#include "webgpu_bench/options.hpp"
#include "webgpu_bench/result.hpp"

namespace wgb::report {

inline constexpr int kSchemaVersion = 1;
inline constexpr const char* kSchemaName = "webgpu-bench/result";

nlohmann::json to_json(const BenchmarkResult& row);
nlohmann::json adapter_json(const gpu::AdapterDescription& a);
nlohmann::json build_json();
nlohmann::json sampling_json(const SamplingOptions& s);
std::string utc_now_iso8601();

// The document of one run, growing as rows complete.
class ResultDocument {
 public:
  ResultDocument(std::string suite, std::vector<std::string> command);
  void set_device(gpu::Context& gpu);
  void set_options(nlohmann::json options);
  void add_row(const BenchmarkResult& row);
  void finish(std::string end_state);  // "complete", "cancelled", "device-lost", ...
  const nlohmann::json& json() const { return doc_; }
  nlohmann::json& json() { return doc_; }

 private:
  nlohmann::json doc_;
};

// Writes `doc` to `path` atomically: a temporary file in the same folder, then rename.
Status write_json_atomic(const std::filesystem::path& path, const nlohmann::json& doc);

// Loads and checks a result document: clear errors naming the file for unreadable, truncated,
// non-JSON or foreign content.
Expected<nlohmann::json> load_result_document(const std::filesystem::path& path);

// The same checks on a document already in memory (a request body, say): `origin` names it in the
// error messages the way the path does for load_result_document.
Expected<nlohmann::json> parse_result_document(std::string_view text, const std::string& origin);

}  // namespace wgb::report
