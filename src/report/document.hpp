// The result document (docs/results-schema.md): one versioned JSON object holding the machine,
// the build, the options and every row, with what the report derives (roofline) and checks
// (reproducibility). Written incrementally and atomically (write, then rename) so a cancelled or
// crashed run keeps what completed.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report/host_section.hpp"
#include "report/machine.hpp"
#include "report/model.hpp"
#include "report/repro.hpp"
#include "webgpu_bench/adapter.hpp"
#include "webgpu_bench/expected.hpp"
#include "webgpu_bench/result.hpp"
#include "webgpu_bench/sampling.hpp"

namespace wgb::report {

// Version policy (docs/results-schema.md): adding a field keeps the version; removing or renaming
// a field, or changing its type or meaning, increments it. Readers accept any version up to theirs
// and ignore fields they do not know.
inline constexpr int kSchemaVersion = 3;
inline constexpr const char* kSchemaName = "webgpu-bench/result";

nlohmann::json to_json(const BenchmarkResult& row);
nlohmann::json to_json(const ReportRow& row);
nlohmann::json to_json(const Roofline& r);
nlohmann::json to_json(const ReproCheck& c);
// Reads a row written by to_json. Only id, status and value are required; any other field that is
// present must have the documented type. The error names the field.
Expected<ReportRow> row_from_json(const nlohmann::json& j);
// A row's `stats_ms` as the document writes it: each field's key and value, in the writer's order.
std::vector<std::pair<const char*, double>> stats_ms_fields(const BenchmarkResult& row);

nlohmann::json adapter_json(const gpu::AdapterDescription& a);
// One entry of `devices --json`: the adapter before a device exists, with what it offers
// (`adapter_features`) and what a run's device enables (`features`). Read back by
// read_adapter_identity (files.hpp).
nlohmann::json adapter_listing_json(const gpu::AdapterDescription& a, const std::vector<std::string>& enabled);
std::string utc_now_iso8601();

// The document of one run, growing as rows complete.
class ResultDocument {
 public:
  // `machine`: where it runs (host, build, replaced kernels), measured by the caller; a document
  // given none records an empty host and build (tests, documents assembled from parts).
  ResultDocument(std::string suite, std::vector<std::string> command, MachineRecord machine = {});
  // The device a run used (natively gpu::device_record(context)).
  void set_device(const gpu::DeviceRecord& device);
  // What set_device records, from parts (tests and documents built without a device).
  void set_adapter(const gpu::AdapterDescription& adapter, nlohmann::json dawn);
  void set_options(nlohmann::json options);
  // One option added after set_options (the memory suite's clock).
  void set_option(const std::string& key, nlohmann::json value);
  // The sections a suite adds (docs/results-schema.md): a sweep's description, the hierarchy's
  // inferred levels, the memory suite's working set and scope, why a run stopped.
  void set_sweep(nlohmann::json sweep);
  void set_hierarchy(nlohmann::json hierarchy);
  void set_working_set(nlohmann::json working_set);
  void set_scope(nlohmann::json scope);
  void set_stopped_because(const std::string& reason);
  // The host suite's record of the CPU (machine.host), as the run learns it: written when the
  // suite starts and again, whole, when it ends; the host description every run records stays.
  void set_host_suite(const HostSuiteRecord& record);
  // A run in a browser: runtime "browser", machine.browser and the implementation that ran it.
  void set_browser(nlohmann::json browser_machine, nlohmann::json implementation);
  // --repro's second process marks its own document; a test-only perturbation says what it did.
  void mark_second_run();
  void set_test_perturbation(const std::string& what);
  // Appends a row and recomputes the roofline of every row (a ceiling may arrive after the rows
  // it bounds).
  void add_row(const BenchmarkResult& row);
  void set_repro(const ReproSummary& summary, const ReproSecondRun& second_run);
  const std::optional<ReproSummary>& repro() const { return repro_; }
  std::vector<ReportRow>& rows() { return rows_; }
  const std::vector<ReportRow>& rows() const { return rows_; }
  // Re-derives the roofline and rewrites the JSON rows (after editing rows()).
  void refresh();
  void finish(std::string end_state);  // "complete", "cancelled", "device-lost", ...
  const nlohmann::json& json() const { return doc_; }
  // The sections as recorded so far (an empty object before they are).
  const nlohmann::json& machine() const;
  const nlohmann::json& options() const;
  nlohmann::json& json() { return doc_; }

 private:
  nlohmann::json doc_;
  std::vector<ReportRow> rows_;
  std::optional<ReproSummary> repro_;
  std::function<nlohmann::json()> host_at_finish_;
};

}  // namespace wgb::report
