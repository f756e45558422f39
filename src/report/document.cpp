// JSON form of rows and documents, atomic writing, and loading with clear errors.
#include "report/document.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <fstream>

#include "gpu/build_info.hpp"
#include "report/machine.hpp"

namespace wgb::report {

nlohmann::json to_json(const BenchmarkResult& r) {
  nlohmann::json j;
  j["index"] = r.index;
  j["id"] = r.id;
  j["label"] = r.label;
  j["category"] = r.category;
  if (!r.family.empty()) j["family"] = r.family;
  j["description"] = r.description;
  j["metric"] = {{"key", r.metric.key}, {"unit", r.metric.unit}, {"name", r.metric.name}};
  j["status"] = to_string(r.status);
  j["message"] = r.message;
  j["statistic"] = to_string(r.statistic);
  j["statistic_reason"] = r.statistic_reason;
  j["value"] = r.value;
  j["value_unit"] = r.metric.unit + "/s";
  j["value_iqr"] = {r.value_low, r.value_high};
  j["time_ms"] = r.time_ms;
  j["work"] = {{"bytes_read", r.work.bytes_read}, {"bytes_written", r.work.bytes_written},
               {"operations", r.work.operations}};
  j["procedure"] = {{"timing_method", r.timing_method},
                    {"timestamp_strikes", r.timestamp_strikes},
                    {"timing_notes", r.timing_notes},
                    {"knob_name", r.knob_name},
                    {"knob", r.knob},
                    {"repetitions_per_batch", r.repetitions},
                    {"calibration", r.calibration},
                    {"stop_reason", r.stop_reason},
                    {"cooldowns", r.cooldowns}};
  j["stats_ms"] = {{"count", r.stats.count}, {"min", r.stats.min},   {"max", r.stats.max},
                   {"mean", r.stats.mean},   {"median", r.stats.median}, {"stddev", r.stats.stddev},
                   {"ci95", r.stats.ci95},   {"cv", r.stats.cv},     {"q1", r.stats.q1},
                   {"q3", r.stats.q3},       {"iqr", r.stats.iqr}};
  j["samples_ms"] = r.samples_ms;
  j["throttled_ms"] = r.throttled_ms;
  j["wgsl_hash"] = r.wgsl_hash;
  j["validation"] = r.validation;
  j["parameters"] = r.parameters;
  j["duration_s"] = r.duration_s;
  j["notes"] = r.notes;
  return j;
}

nlohmann::json adapter_json(const gpu::AdapterDescription& a) {
  nlohmann::json limits = nlohmann::json::object();
  for (const auto& [k, v] : a.limits) limits[k] = v;
  return {{"index", a.index},
          {"vendor", a.vendor},
          {"architecture", a.architecture},
          {"device", a.device},
          {"description", a.description},
          {"backend", a.backend},
          {"adapter_type", a.adapter_type},
          {"driver", a.driver},
          {"vendor_id", a.vendor_id},
          {"device_id", a.device_id},
          {"subgroup_min_size", a.subgroup_min_size},
          {"subgroup_max_size", a.subgroup_max_size},
          {"limits", limits},
          {"features", a.features},
          {"wgsl_language_features", a.wgsl_features},
          {"adapter_toggles", a.adapter_toggles},
          {"subgroup_matrix_configs", [&] {
             nlohmann::json c = nlohmann::json::array();
             for (const auto& m : a.subgroup_matrix_configs) {
               c.push_back({{"component", m.component}, {"result", m.result}, {"M", m.m}, {"N", m.n}, {"K", m.k}});
             }
             return c;
           }()}};
}

nlohmann::json build_json() {
  const auto& b = build_info();
  return {{"version", b.version},           {"git_revision", b.git_revision},
          {"compiler", fmt::format("{} {}", b.compiler_id, b.compiler_version)},
          {"compiler_path", b.compiler_path}, {"build_type", b.build_type},
          {"flags", b.flags},               {"dawn_version", b.dawn_version},
          {"dawn_source", b.dawn_source}};
}

nlohmann::json sampling_json(const SamplingOptions& s) {
  return {{"target_dispatch_ms", s.target_dispatch_ms}, {"measurement_ms", s.measurement_ms},
          {"idle_gap_ms", s.idle_gap_ms},               {"min_rounds", s.min_rounds},
          {"stable_rounds", s.stable_rounds},           {"improvement_tolerance", s.improvement_tolerance},
          {"max_rounds", s.max_rounds},                 {"throttle_ratio", s.throttle_ratio},
          {"cooldown_ms", s.cooldown_ms},               {"max_cooldowns", s.max_cooldowns}};
}

std::string utc_now_iso8601() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

ResultDocument::ResultDocument(std::string suite, std::vector<std::string> command) {
  doc_["schema"] = kSchemaName;
  doc_["schema_version"] = kSchemaVersion;
  doc_["suite"] = std::move(suite);
  doc_["command"] = std::move(command);
  doc_["started_at"] = utc_now_iso8601();
  doc_["state"] = "running";
  doc_["build"] = build_json();
  doc_["machine"] = {{"host", host_description()}};
  doc_["rows"] = nlohmann::json::array();
}

void ResultDocument::set_device(gpu::Context& gpu) {
  doc_["machine"]["adapter"] = adapter_json(gpu.adapter());
  doc_["machine"]["dawn"] = {{"version", build_info().dawn_version},
                             {"device_toggles", gpu.toggles()},
                             {"robustness", gpu.options().robustness},
                             {"experimental", gpu.options().experimental},
                             {"timestamps", gpu.has_timestamps()},
                             {"empty_submit_ms", gpu.empty_submit_ms()}};
}

void ResultDocument::set_options(nlohmann::json options) { doc_["options"] = std::move(options); }

void ResultDocument::add_row(const BenchmarkResult& row) { doc_["rows"].push_back(to_json(row)); }

void ResultDocument::finish(std::string end_state) {
  doc_["state"] = std::move(end_state);
  doc_["finished_at"] = utc_now_iso8601();
}

Status write_json_atomic(const std::filesystem::path& path, const nlohmann::json& doc) {
  const auto dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  const auto tmp = dir / fmt::format(".{}.tmp-{}", path.filename().string(), getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return make_error(ErrorKind::Io, fmt::format("cannot write {}", tmp.string()));
    out << doc.dump(2) << '\n';
    out.flush();
    if (!out) return make_error(ErrorKind::Io, fmt::format("error writing {}", tmp.string()));
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    return make_error(ErrorKind::Io, fmt::format("cannot replace {}: {}", path.string(), ec.message()));
  }
  return ok();
}

Expected<nlohmann::json> load_result_document(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorKind::Io, fmt::format("{}: cannot open the file", path.string()));
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    return make_error(ErrorKind::Usage, fmt::format("{}: not valid JSON (truncated or corrupt?): byte {}: {}",
                                                    path.string(), e.byte, e.what()));
  }
  if (!doc.is_object() || !doc.contains("schema") || doc["schema"] != kSchemaName) {
    return make_error(ErrorKind::Usage,
                      fmt::format("{}: not a webgpu-bench result document (no \"schema\": \"{}\")", path.string(),
                                  kSchemaName));
  }
  if (!doc.contains("schema_version") || !doc["schema_version"].is_number_integer()) {
    return make_error(ErrorKind::Usage, fmt::format("{}: missing schema_version", path.string()));
  }
  if (doc["schema_version"].get<int>() > kSchemaVersion) {
    return make_error(ErrorKind::Usage, fmt::format("{}: schema_version {} is newer than this program reads ({})",
                                                    path.string(), doc["schema_version"].get<int>(), kSchemaVersion));
  }
  if (!doc.contains("rows") || !doc["rows"].is_array()) {
    return make_error(ErrorKind::Usage, fmt::format("{}: missing the \"rows\" array", path.string()));
  }
  for (std::size_t i = 0; i < doc["rows"].size(); ++i) {
    const auto& r = doc["rows"][i];
    if (!r.is_object() || !r.contains("id") || !r["id"].is_string() || !r.contains("value") ||
        !r["value"].is_number() || !r.contains("status") || !r["status"].is_string()) {
      return make_error(ErrorKind::Usage,
                        fmt::format("{}: row {} lacks id/status/value of the right types", path.string(), i));
    }
  }
  return doc;
}

// The checks of load_result_document on a document already in memory (a request body). Kept next
// to it so the two stay alike; load_result_document could delegate here.
Expected<nlohmann::json> parse_result_document(std::string_view text, const std::string& origin) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    return make_error(ErrorKind::Usage,
                      fmt::format("{}: not valid JSON (truncated or corrupt?): byte {}: {}", origin, e.byte, e.what()));
  } catch (const nlohmann::json::exception& e) {  // out_of_range: a number too large for a double (1e400)
    return make_error(ErrorKind::Usage, fmt::format("{}: not valid JSON: {}", origin, e.what()));
  }
  if (!doc.is_object() || !doc.contains("schema") || doc["schema"] != kSchemaName) {
    return make_error(ErrorKind::Usage, fmt::format("{}: not a webgpu-bench result document (no \"schema\": \"{}\")",
                                                    origin, kSchemaName));
  }
  if (!doc.contains("schema_version") || !doc["schema_version"].is_number_integer()) {
    return make_error(ErrorKind::Usage, fmt::format("{}: missing schema_version", origin));
  }
  if (doc["schema_version"].get<int>() > kSchemaVersion) {
    return make_error(ErrorKind::Usage, fmt::format("{}: schema_version {} is newer than this program reads ({})",
                                                    origin, doc["schema_version"].get<int>(), kSchemaVersion));
  }
  if (!doc.contains("rows") || !doc["rows"].is_array()) {
    return make_error(ErrorKind::Usage, fmt::format("{}: missing the \"rows\" array", origin));
  }
  for (std::size_t i = 0; i < doc["rows"].size(); ++i) {
    const auto& r = doc["rows"][i];
    if (!r.is_object() || !r.contains("id") || !r["id"].is_string() || !r.contains("value") ||
        !r["value"].is_number() || !r.contains("status") || !r["status"].is_string()) {
      return make_error(ErrorKind::Usage, fmt::format("{}: row {} lacks id/status/value of the right types", origin, i));
    }
  }
  return doc;
}

}  // namespace wgb::report
