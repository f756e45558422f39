// Every WebGPU implementation side by side (`webgpu-bench browser`): the columns (native Dawn in
// each native configuration, and each runtime) with their rounds, each column compared with native
// Dawn on its own adapter by the pooled comparison of against_native.hpp, and the text and JSON of
// the result. A column that could not run is kept with its reason and install hint.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "browser/against_native.hpp"
#include "browser/columns.hpp"
#include "report/matrix_document.hpp"

namespace wgb::browser {

struct ColumnSpec {
  std::string name;     // "dawn", "dawn-no-robustness", "firefox", "dawn@swiftshader", ...
  std::string label;    // "native Dawn", "Firefox 153.8 (wgpu)"
  std::string kind;     // "native" or "runtime"
  std::string runtime;  // "native", "chromium", "firefox", "deno"
  std::string version;  // the runtime's (or this program's) version
  std::string webgpu, webgpu_version;  // "Dawn" / "wgpu", and its version where known
  std::string group;    // the adapter it runs on, short ("llvmpipe"); its reference shares it
  std::string baseline;  // the column it is compared with; "" for a reference
  std::string status = "ok";  // "ok", "skipped" (could not start or reach the adapter), "failed"
  std::string reason, install;
  nlohmann::json adapter = nlohmann::json::object();  // as the implementation reports it
  std::string adapter_name;  // the native adapter's name it was matched with (what the text shows)
  nlohmann::json detail = nlohmann::json::object();   // environment, command, matching, ...
};

struct Matrix {
  std::vector<ColumnSpec> columns;
  std::vector<std::vector<RoundRun>> runs;  // per column (empty for a column that did not run)
  int rounds = 0;                           // rounds started
  std::vector<std::string> notes;           // said under the summary (e.g. why a group has its own adapter)
};

struct MatrixCell {
  std::string status;        // the row's status in the column's last document ("" when absent)
  std::string reason;        // why it has no rate (the row's message when skipped or an error)
  double rate = 0;           // median over the column's rounds (0 when never measured)
  std::optional<PooledRow> vs_baseline;  // against the column's reference
};

struct MatrixRow {
  std::string key, unit;
  std::vector<MatrixCell> cells;  // per column
};

struct MatrixResult {
  std::vector<MatrixRow> rows;
  std::vector<std::optional<Pooled>> pooled;  // per column against its reference
  std::vector<double> wall_s;                 // per column, summed over its rounds
  std::vector<int> rounds_run;                // per column
};

// Pools every column against its reference over the rounds in which both gave a document (cancelled
// runs left out).
MatrixResult pool_matrix(const Matrix& m);

// The summary (columns, adapters, wall time, geometric means, skipped and failed columns with their
// reasons), then a block per benchmark: each column's rate, ratio to its reference with its standard
// error, verdict, rounds, and whether the validated outputs agree. Fits `width` columns.
void write_matrix(std::ostream& out, const Matrix& m, const MatrixResult& r, std::size_t width);

// Everything: columns, every round of every column (status, wall time, rows), and the pooled rows.
report::MatrixDocument matrix_document(const Matrix& m, const MatrixResult& r);

}  // namespace wgb::browser
