// The comparison of WebGPU implementations that `webgpu-bench browser --out` writes, typed both
// ways: the columns (each implementation with its adapter, rounds and the rows of every round), the
// pooled rows (each column's median rate and its ratio to its reference) and the notes. The browser
// command fills these types and writes them through `to_json`; the report page reads them back
// through `read_matrix_document`, so no other file picks these keys by hand
// (docs/results-schema.md "Comparisons of implementations").
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "webgpu_bench/expected.hpp"

namespace wgb::report {

inline constexpr const char* kImplementationsKind = "webgpu-bench-implementations";

// One row of one round's document, as much of it as the comparison keeps.
struct MatrixRoundRowRecord {
  std::string id, status;
  double rate = 0;
  std::string unit, timing, validation;
  std::string message;  // written only when not empty
};

// One round of one column.
struct MatrixRoundRecord {
  int round = 0;
  bool ran = false;
  double wall_s = 0;
  bool cancelled = false;
  int exit_status = 0;                                    // written only when not 0
  std::string error, warning;                             // written only when not empty
  std::optional<std::string> state;                       // the round's document's state, when it gave one
  std::optional<std::vector<MatrixRoundRowRecord>> rows;  // with the state
};

// One implementation (native Dawn in one configuration, a browser, a runtime).
struct MatrixColumnRecord {
  std::string name, label, kind, runtime, version, webgpu, group, baseline, status;
  std::optional<std::string> webgpu_version;          // null where unknown
  std::string reason, install;                        // written only when not empty
  nlohmann::json adapter = nlohmann::json::object();  // as the implementation reports it
  nlohmann::json detail = nlohmann::json::object();   // environment, command, matching, ...
  double wall_s = 0;                                  // summed over its rounds
  std::optional<double> geomean;                      // against its reference, when pooled
  std::vector<MatrixRoundRecord> rounds;

  // The adapter's device name, or its description where the device is not named; "" when neither.
  std::string adapter_device() const;
};

// A pooled row's comparison with its column's reference.
struct MatrixComparisonRecord {
  std::size_t rounds = 0;  // rounds measured on both sides
  std::vector<double> ratios;
  std::string outputs;  // "agree", "differ: ...", "-"
  // The rest only when rounds > 0.
  double ratio = 0, ratio_se = 0, noise = 0;
  bool significant = false;
  std::size_t significant_rounds = 0;
};

struct MatrixCellRecord {
  std::string status;
  double rate = 0;                                   // median over the rounds (0 when never measured)
  std::string reason;                                // written only when not empty
  std::optional<MatrixComparisonRecord> comparison;  // none for a reference column
};

struct MatrixRowRecord {
  std::string id, unit;
  std::map<std::string, MatrixCellRecord> columns;  // by column name
};

struct MatrixDocument {
  int rounds = 0;
  std::vector<MatrixColumnRecord> columns;
  std::vector<MatrixRowRecord> rows;
  std::vector<std::string> notes;
  std::optional<std::string> page;                       // the page that runs the same selection
  std::optional<std::vector<std::string>> command_line;  // the command that wrote it
};

nlohmann::json to_json(const MatrixDocument& m);

// Whether `j` says it is a comparison of implementations (its "kind").
bool is_implementations_matrix(const nlohmann::json& j);
// Reads one back; a missing list or a field of the wrong type is an error that names it.
Expected<MatrixDocument> read_matrix_document(const nlohmann::json& j, const std::string& name);

}  // namespace wgb::report
