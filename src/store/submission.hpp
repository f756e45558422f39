// A submitted result document, checked and reduced to what the store indexes. Everything a
// client sends passes through `parse_submission` before any of it reaches the database: a document
// that fails any check is refused with one reason and nothing of it is stored.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/device_class.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::store {

// One row of a document, as the results table indexes it.
struct RowRecord {
  int row_index = 0;
  std::string benchmark_id;  // the row's id: a benchmark id or a memory phase (memory-read, ...)
  std::string metric;        // metric.key ("bytes", "flops", ...), "" when the row has none
  std::string status;        // ok, skipped, error, throttled, cancelled, suspect
  double value = 0;          // in value_unit; >= 0 and finite (checked)
  std::string value_unit;    // "B/s", "ns", ...
  std::string statistic;     // median, best, ...
  std::optional<double> cv;  // stats_ms.cv when present
  bool unranked = false;     // parameters.unranked == true: shown, never ranked
};

struct Submission {
  nlohmann::json document;
  std::string canonical;  // compact JSON of `document`: what is stored
  std::string digest;     // SHA-256 of `canonical`, hex: the same document is stored once
  std::string suite;
  std::string state;       // "complete", "cancelled", ...; "unknown" when absent
  std::string started_at;  // as the document says (ISO 8601, UTC)
  DeviceClass device_class;
  // "" when the run used its suite's default options; else why none of its rows is ranked
  // (store/ranking.hpp): "robustness off (--no-robustness)", "sampling changed: ...", ...
  std::string unranked_reason;
  // "browser" when the document has machine.browser (measured by the /run page), else "native".
  std::string runtime = "native";
  std::vector<RowRecord> rows;
};

struct SubmissionLimits {
  std::size_t max_rows = 10000;
  std::size_t max_depth = 64;          // nesting of arrays/objects
  std::size_t max_string = 64 * 1024;  // any one string
};

// Checks `text` as a result document for the store. Errors are ErrorKind::Usage with a message
// fit to send back to the client: malformed JSON, foreign or unsupported schema/schema_version,
// missing or mistyped fields, negative or non-finite values, nesting too deep, too many rows.
Expected<Submission> parse_submission(std::string_view text, const SubmissionLimits& limits = {});

// Same, from a document already parsed (what `run --submit` holds).
Expected<Submission> make_submission(nlohmann::json document, const SubmissionLimits& limits = {});

// Which way is better, from the value's unit alone (the same for every benchmark and both
// databases): time or time per X ("ns", "ms", "ns/load") is lower-is-better; a rate per second
// ("B/s", "FLOP/s", "load/s": the memory suite's latency phase) and anything else higher-is-better.
bool lower_is_better(std::string_view value_unit);

// An RFC 3339 time ("2026-11-30T06:01:17Z", "...T08:01:17.5+02:00") with every field
// range-checked, as UTC text "YYYY-MM-DDTHH:MM:SS[.f]Z"; nullopt when it is not one.
std::optional<std::string> normalize_timestamp(std::string_view text);

// Lower-case hex SHA-256.
std::string sha256_hex(std::string_view data);

}  // namespace wgb::store
