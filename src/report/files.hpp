// Result documents as files: written atomically (a temporary file in the same folder, then rename)
// so a cancelled or crashed run keeps what completed, and read back with clear one-line errors.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/adapter_identity.hpp"
#include "report/browser_section.hpp"
#include "report/document.hpp"
#include "report/hierarchy.hpp"
#include "report/implementation.hpp"

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

// The same checks on a document's text in memory: `origin` names it in the error messages the way
// the path does for load_result_document.
Expected<nlohmann::json> parse_result_document(std::string_view text, const std::string& origin);
// The checks on a parsed document (what every reader relies on: schema, a version this program reads,
// rows with id, status and a finite rate, objects where sections are): the results server's too.
Status check_result_document(const nlohmann::json& doc, const std::string& origin);

// A result document as its readers see it (the table, CSV, HTML, compare, the results server's
// pages): what they interpret, typed and read once. The machine description, the build and the
// options stay as recorded: open-ended records (a browser's and a native run's differ, older
// versions wrote fewer keys) that readers show and compare key by key.
struct Document {
  std::string origin;  // the file it was read from, or the name it was given (a stored run)
  int schema_version = 0;
  std::string suite;  // "default", "memory", "host", "sweep", ...
  std::string state;  // "complete", "cancelled", "device-lost", ...; "running" while being written
  std::string started_at, finished_at;
  std::string runtime = "native";  // "native" or "browser"
  std::vector<std::string> command;
  AdapterIdentity adapter;                         // empty for host documents
  std::string host_cpu;                            // machine.host.cpu_model
  bool host_recorded = false;                      // machine.host is there (an object)
  std::optional<BrowserRecord> browser;            // browser runs: machine.browser
  Implementation implementation;                   // recorded, or derived for older documents
  std::optional<Implementation> recorded_implementation;  // as the document records it, when it does
  std::string build_version, build_revision;
  std::optional<ReproSummary> repro;  // --repro's verdict
  bool sweep = false;                 // a sweep's document (it has a "sweep" section)
  std::vector<std::string> sweep_notes;
  bool kernels_replaced = false;  // kernel_overrides recorded: --kernel-dir replaced shipped kernels
  std::string test_perturbation;  // the test-only perturbation a second process of --repro honoured
  nlohmann::json machine = nlohmann::json::object();  // as recorded: adapter, dawn, host, browser
  nlohmann::json build = nlohmann::json::object();
  nlohmann::json options = nlohmann::json::object();
  std::vector<ReportRow> rows;  // roofline derived again from the rows; repro as stored
  std::optional<hierarchy::Section> hierarchy;  // `hierarchy` documents: the levels inferred

  bool host_suite() const { return suite == "host"; }
  // The device it measured: the adapter's name, or "host CPU: <model>" for host documents.
  std::string device_name() const;
};

// The typed view of a checked document (parse_result_document): a row whose fields do not have
// their documented types is an error naming the row and the field; so is a top-level text field
// (suite, state, started_at, finished_at, runtime) of another type, a machine.browser that does not
// read, and a recorded runtime that is not "browser" or "native" or disagrees with machine.browser.
Expected<Document> read_document(const nlohmann::json& checked, const std::string& origin);
// The same for a document that was checked when it was stored (the results server): rows that do
// not read are left out rather than refusing the page.
Document stored_document(const nlohmann::json& doc, const std::string& origin);
Expected<Document> load_document(const std::filesystem::path& path);

}  // namespace wgb::report
