// Result documents as files: written atomically (a temporary file in the same folder, then rename)
// so a cancelled or crashed run keeps what completed, and read back with clear one-line errors.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "report/document.hpp"

namespace wgb::report {

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
