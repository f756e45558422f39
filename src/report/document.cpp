// JSON form of rows and documents, atomic writing, and loading with clear errors.
#include "report/document.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <limits>

#include "report/accuracy.hpp"
#include "report/field_reader.hpp"
#include "report/host_parameters.hpp"
#include "report/implementation.hpp"
#include "report/roofline.hpp"
#include "report/verdict.hpp"

namespace wgb::report {

namespace {

// How the sampler warms up (src/measure/sampler.hpp), stated in every row (docs/method.md#record).
constexpr const char* kWarmUpPolicy =
    "untimed calibration runs (work knob, then batch size), then one untimed batch at the calibrated "
    "knob and batch size (about measurement_ms) to ramp clocks and fault in caches; none of these "
    "enter the statistics";

nlohmann::json number_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

// What ran untimed before a row's samples, from the procedure that measured it: the host suite's
// protocol (parameters.timing.warmup), the memory suite's phase sampler (parameters.warmup_ms), or
// the GPU sampler of run and sweep.
nlohmann::json warm_up_of(const BenchmarkResult& r) {
  const auto& p = r.parameters;
  if (const auto host = read_host_parameters(p).timing) {
    return fmt::format("host protocol: {} untimed regions, {} ms, {}{}", host->warmup_runs,
                       nlohmann::json(host->warmup_ms).dump(),
                       host->warmup_steady ? "steady" : "stopped at the cap (not steady)",
                       host->warmup_rule.empty() ? "" : "; rule: " + host->warmup_rule);
  }
  if (r.category == "memory" && p.is_object() && p.contains("warmup_ms") && p["warmup_ms"].is_number()) {
    return fmt::format(
        "memory phase sampler: {:.0f} ms of untimed passes at the calibrated size (up to --warmup-ms, "
        "at most a tenth of the phase budget) to ramp clocks; not in the statistics",
        p["warmup_ms"].get<double>());
  }
  return kWarmUpPolicy;
}

// The plainly copied fields of the records below, each named once for to_json and for
// row_from_json, so that a key cannot be written under one name and read under another. `S` is
// the record or its const form; `f(key, member)` writes or reads one field.
template <class S, class F>
void stats_fields(S& s, F&& f) {
  f("count", s.count), f("min", s.min), f("max", s.max), f("mean", s.mean), f("median", s.median);
  f("stddev", s.stddev), f("ci95", s.ci95), f("cv", s.cv), f("q1", s.q1), f("q3", s.q3), f("iqr", s.iqr);
}
template <class R, class F>
void repro_fields(R& c, F&& f) {
  f("verdict", c.verdict), f("second_status", c.second_status), f("second_value", c.second_value);
  f("second_time_ms", c.second_time_ms), f("ratio", c.ratio), f("difference", c.difference);
  f("allowed", c.allowed), f("dispersion_first", c.dispersion_first);
  f("dispersion_second", c.dispersion_second), f("reason", c.reason);
}
// The roofline's other fields have a form of their own in JSON (null, absent, a kind beside a number).
template <class R, class F>
void roofline_fields(R& r, F&& f) {
  f("applies", r.applies), f("flops", r.flops), f("bytes", r.bytes);
  f("flops_per_second", r.flops_per_second), f("bytes_per_second", r.bytes_per_second);
}


}  // namespace

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
  const auto d = row_dispersion(r);
  j["dispersion"] = {{"kind", d.kind},
                     {"relative", d.relative},
                     {"of", d.kind == std::string("iqr") ? "interquartile range of the per-repetition times / median"
                                                         : "standard deviation / mean of the per-repetition times"}};
  j["work"] = {{"bytes_read", r.work.bytes_read}, {"bytes_written", r.work.bytes_written},
               {"operations", r.work.operations}};
  j["procedure"] = {{"timing_method", to_string(r.timing_method)},
                    {"timestamp_strikes", r.timestamp_strikes},
                    {"timing_notes", r.timing_notes},
                    {"knob_name", r.knob_name},
                    {"knob", r.knob},
                    {"repetitions_per_batch", r.repetitions},
                    {"samples", r.stats.count},
                    {"warm_up", warm_up_of(r)},
                    {"calibration", r.calibration},
                    {"stop_reason", to_string(r.stop_reason)},
                    {"cooldowns", r.cooldowns}};
  stats_fields(r.stats, field_writer(j["stats_ms"]));
  j["samples_ms"] = r.samples_ms;
  j["throttled_ms"] = r.throttled_ms;
  j["discarded"] = nlohmann::json::array();
  for (const auto& x : r.discarded) {
    j["discarded"].push_back({{"ms", number_or_null(x.ms)}, {"repetitions", x.repetitions}, {"knob", x.knob},
                              {"stage", x.stage}, {"reason", x.reason}, {"note", x.note}});
  }
  j["wgsl_hash"] = r.wgsl_hash;
  j["validation"] = r.validation;
  j["parameters"] = r.parameters;
  j["duration_s"] = r.duration_s;
  j["notes"] = r.notes;
  if (!r.accuracy.empty()) j["accuracy"] = accuracy_json(r.accuracy);  // run --accuracy
  return j;
}

nlohmann::json to_json(const Roofline& r) {
  nlohmann::json j;
  roofline_fields(r, field_writer(j));
  j["arithmetic_intensity"] = number_or_null(r.arithmetic_intensity);
  j["arithmetic_intensity_kind"] = std::isnan(r.arithmetic_intensity)   ? "undefined"
                                   : std::isinf(r.arithmetic_intensity) ? "infinite"
                                                                        : "finite";
  j["fraction_of_roofline"] = r.applies ? number_or_null(r.fraction) : nlohmann::json(nullptr);
  j["bound"] = r.bound.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.bound);
  if (!r.precision.empty()) j["precision"] = r.precision;
  j["note"] = r.note;
  return j;
}

nlohmann::json to_json(const ReproCheck& c) {
  nlohmann::json j;
  repro_fields(c, field_writer(j));
  return j;
}

nlohmann::json to_json(const ReportRow& row) {
  nlohmann::json j = to_json(row.result);
  if (row.roofline) {
    j["roofline"] = to_json(*row.roofline);
    // Derived from the row (roofline.hpp), so it is written, never read back.
    if (const std::string over = over_ceiling(row); !over.empty()) j["roofline"]["over_ceiling"] = over;
  }
  if (row.repro) j["repro"] = to_json(*row.repro);
  return j;
}

// ---- reading rows back ------------------------------------------------------------------------

std::vector<std::pair<const char*, double>> stats_ms_fields(const BenchmarkResult& row) {
  std::vector<std::pair<const char*, double>> out;
  stats_fields(row.stats, [&out](const char* key, auto value) { out.emplace_back(key, static_cast<double>(value)); });
  return out;
}

Expected<ReportRow> row_from_json(const nlohmann::json& j) {
  if (!j.is_object()) return make_error(ErrorKind::Usage, "a row is not a JSON object");
  std::string error;
  FieldReader in(j, "", &error);
  ReportRow row;
  BenchmarkResult& r = row.result;
  if (!in.has("id") || !j["id"].is_string()) return make_error(ErrorKind::Usage, "\"id\" is missing or not a string");
  if (!in.has("status") || !j["status"].is_string()) {
    return make_error(ErrorKind::Usage, "\"status\" is missing or not a string");
  }
  if (!in.has("value") || !j["value"].is_number()) {
    return make_error(ErrorKind::Usage, "\"value\" is missing or not a number");
  }
  in.get_uint("index", r.index);
  in.get("id", r.id);
  in.get("label", r.label);
  in.get("category", r.category);
  in.get("family", r.family);
  in.get("description", r.description);
  const auto metric = in.child("metric");
  metric.get("key", r.metric.key);
  metric.get("unit", r.metric.unit);
  metric.get("name", r.metric.name);
  // Without a known status and statistic the row cannot be read at all.
  std::string status, statistic = "best";
  in.get("status", status);
  in.get("message", r.message);
  in.get("statistic", statistic);
  const auto known_status = parse_row_status(status);
  if (!known_status) {
    return make_error(ErrorKind::Usage, fmt::format("\"status\" is '{}', not a known row status", status));
  }
  const auto known_statistic = parse_statistic(statistic);
  if (!known_statistic) {
    return make_error(ErrorKind::Usage, fmt::format("\"statistic\" is '{}', expected best or median", statistic));
  }
  r.status = *known_status;
  r.statistic = *known_statistic;
  in.get("statistic_reason", r.statistic_reason);
  in.get("value", r.value);
  if (in.has("value_iqr")) {
    std::vector<double> iqr;
    in.get("value_iqr", iqr);
    if (error.empty() && iqr.size() != 2) error = "\"value_iqr\" must hold two numbers";
    if (iqr.size() == 2) {
      r.value_low = iqr[0];
      r.value_high = iqr[1];
    }
  }
  in.get("time_ms", r.time_ms);
  const auto work = in.child("work");
  work.get("bytes_read", r.work.bytes_read);
  work.get("bytes_written", r.work.bytes_written);
  work.get("operations", r.work.operations);
  const auto proc = in.child("procedure");
  // The row vocabulary (docs/results-schema.md): a value outside it names the field and the value.
  auto vocabulary = [&error](const FieldReader& from, const char* key, auto parse, auto& out, const char* what) {
    std::string text;
    from.get(key, text);
    if (auto v = parse(text)) {
      out = *v;
    } else if (error.empty()) {
      error = fmt::format("\"procedure.{}\" is '{}', not a known {}", key, text, what);
    }
  };
  vocabulary(proc, "timing_method", parse_timing_method, r.timing_method, "timing method");
  proc.get("timestamp_strikes", r.timestamp_strikes);
  proc.get("timing_notes", r.timing_notes);
  proc.get("knob_name", r.knob_name);
  proc.get_uint("knob", r.knob);
  proc.get_uint("repetitions_per_batch", r.repetitions);
  vocabulary(proc, "stop_reason", parse_stop_reason, r.stop_reason, "stop reason");
  proc.get("cooldowns", r.cooldowns);
  if (proc.has("calibration")) {
    const auto& cal = proc.raw("calibration");
    bool good = cal.is_array();
    for (const auto& step : cal) {
      if (!good) break;
      good = step.is_array() && step.size() == 2 && step[0].is_number_unsigned() && step[1].is_number();
      if (good) r.calibration.emplace_back(step[0].get<std::uint64_t>(), step[1].get<double>());
    }
    if (!good && error.empty()) error = "\"procedure.calibration\" must be an array of [knob, ms] pairs";
  }
  stats_fields(r.stats, field_reader(in.child("stats_ms")));
  in.get("samples_ms", r.samples_ms);
  in.get("throttled_ms", r.throttled_ms);
  for (const auto& d : in.raw("discarded")) {  // absent in documents written before it existed
    if (!d.is_object()) continue;
    DiscardedSample x;
    x.ms = d.contains("ms") && d["ms"].is_number() ? d["ms"].get<double>() : std::nan("");
    x.repetitions = d.value("repetitions", 1u);
    x.knob = d.value("knob", std::uint64_t{0});
    x.stage = d.value("stage", std::string());
    x.reason = d.value("reason", std::string());
    x.note = d.value("note", std::string());
    r.discarded.push_back(std::move(x));
  }
  in.get("wgsl_hash", r.wgsl_hash);
  in.get("validation", r.validation);
  if (in.is_object("parameters")) r.parameters = j["parameters"];
  in.get("duration_s", r.duration_s);
  in.get("notes", r.notes);
  if (in.has("accuracy")) {
    auto accuracy = accuracy_from_json(j["accuracy"]);
    if (accuracy) {
      r.accuracy = std::move(*accuracy);
    } else if (error.empty()) {
      error = accuracy.error().message;
    }
  }
  if (in.is_object("roofline")) {
    const auto rf = in.child("roofline");
    Roofline x;
    roofline_fields(x, field_reader(rf));
    std::string kind = "undefined";
    rf.get("arithmetic_intensity_kind", kind);
    if (kind == "infinite") x.arithmetic_intensity = std::numeric_limits<double>::infinity();
    if (kind == "finite") rf.get("arithmetic_intensity", x.arithmetic_intensity);
    rf.get("fraction_of_roofline", x.fraction);
    rf.get("bound", x.bound);
    rf.get("precision", x.precision);
    rf.get("note", x.note);
    row.roofline = x;
  }
  if (in.is_object("repro")) {
    const auto rp = in.child("repro");
    ReproCheck c;
    repro_fields(c, field_reader(rp));
    // Host documents before version 3 compared per-pass times: {first_ms, second_ms, dispersion_ms, agree}.
    if (c.verdict.empty() && j["repro"].contains("agree") && j["repro"]["agree"].is_boolean()) {
      c.verdict = j["repro"]["agree"].get<bool>() ? "agree" : "disagree";
      double first_ms = 0, dispersion_ms = 0;
      rp.get("first_ms", first_ms);
      rp.get("second_ms", c.second_time_ms);
      rp.get("dispersion_ms", dispersion_ms);
      c.second_status = "ok";  // only rows ok in both were compared
      if (first_ms > 0 && c.second_time_ms > 0) {
        c.ratio = first_ms / c.second_time_ms;  // second / first rate
        c.difference = std::fabs(c.second_time_ms / first_ms - 1.0);
        c.allowed = dispersion_ms / first_ms;
      }
      c.reason = "compared by the per-pass times within the larger IQR (a version 2 host document)";
    }
    row.repro = c;
  }
  if (!error.empty()) return make_error(ErrorKind::Usage, error);
  return row;
}

// ---- the machine and the build ----------------------------------------------------------------

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
          {"adapter_features", a.features},  // set_device replaces it by the adapter's own list
          {"wgsl_language_features", a.wgsl_features},
          {"adapter_toggles", a.adapter_toggles},
          {"subgroup_matrix_configs", [&] {
             nlohmann::json c = nlohmann::json::array();
             for (const auto& m : a.subgroup_matrix_configs) {
               c.push_back({{"component", m.component}, {"result", m.result}, {"M", m.m}, {"N", m.n}, {"K", m.k}});
             }
             return c;
           }()},
          {"memory_heaps", [&] {
             nlohmann::json h = nlohmann::json::array();
             for (const auto& m : a.memory_heaps) h.push_back({{"size_bytes", m.size}, {"properties", m.properties}});
             return h;
           }()}};
}

nlohmann::json adapter_listing_json(const gpu::AdapterDescription& a, const std::vector<std::string>& enabled) {
  nlohmann::json j = adapter_json(a);
  j["adapter_features"] = a.features;
  j["features"] = enabled;
  return j;
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

// ---- the document -----------------------------------------------------------------------------

ResultDocument::ResultDocument(std::string suite, std::vector<std::string> command, MachineRecord machine)
    : host_at_finish_(std::move(machine.host_at_finish)) {
  doc_["schema"] = kSchemaName;
  doc_["schema_version"] = kSchemaVersion;
  doc_["suite"] = std::move(suite);
  doc_["command"] = std::move(command);
  doc_["started_at"] = utc_now_iso8601();
  doc_["state"] = "running";
  doc_["build"] = std::move(machine.build);
  if (!machine.build_runtime.empty()) doc_["build"]["runtime"] = machine.build_runtime;
  doc_["machine"] = {{"host", std::move(machine.host)}};
  doc_["rows"] = nlohmann::json::array();
  // --kernel-dir: which built-in kernels this process replaced by files, so no number measured with
  // a replacement passes for the shipped kernel's (rows carry the hash of the source they ran).
  if (!machine.kernel_overrides.is_null()) doc_["kernel_overrides"] = std::move(machine.kernel_overrides);
  refresh();
}

void ResultDocument::set_device(const gpu::DeviceRecord& device) {
  set_adapter(device.adapter, device.implementation);
  // Both feature lists: what the adapter offers, and what the device enabled (the description's).
  doc_["machine"]["adapter"]["adapter_features"] = device.adapter_features;
}

void ResultDocument::set_adapter(const gpu::AdapterDescription& adapter, nlohmann::json dawn) {
  doc_["machine"]["adapter"] = adapter_json(adapter);
  // This program through Dawn; the browser engine replaces it with its runtime's (src/web/engine.cpp).
  const auto text = [](const nlohmann::json& j, const char* key) {
    return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
  };
  doc_["implementation"] = implementation_json(native_implementation(text(doc_["build"], "version"), text(dawn, "version")));
  doc_["machine"]["dawn"] = std::move(dawn);
}

void ResultDocument::set_options(nlohmann::json options) { doc_["options"] = std::move(options); }

void ResultDocument::set_option(const std::string& key, nlohmann::json value) {
  doc_["options"][key] = std::move(value);
}
void ResultDocument::set_sweep(nlohmann::json sweep) { doc_["sweep"] = std::move(sweep); }
void ResultDocument::set_hierarchy(nlohmann::json hierarchy) { doc_["hierarchy"] = std::move(hierarchy); }
void ResultDocument::set_working_set(nlohmann::json working_set) { doc_["working_set"] = std::move(working_set); }
void ResultDocument::set_scope(nlohmann::json scope) { doc_["scope"] = std::move(scope); }
void ResultDocument::set_stopped_because(const std::string& reason) { doc_["stopped_because"] = reason; }
const nlohmann::json& ResultDocument::machine() const {
  static const nlohmann::json none = nlohmann::json::object();
  const auto it = doc_.find("machine");
  return it != doc_.end() && it->is_object() ? *it : none;
}
const nlohmann::json& ResultDocument::options() const {
  static const nlohmann::json none = nlohmann::json::object();
  const auto it = doc_.find("options");
  return it != doc_.end() && it->is_object() ? *it : none;
}

void ResultDocument::set_host_suite(const HostSuiteRecord& record) {
  doc_["machine"]["host"].update(to_json(record), /*merge_objects=*/true);
}
void ResultDocument::set_browser(nlohmann::json browser_machine, nlohmann::json implementation) {
  doc_["runtime"] = "browser";
  doc_["machine"]["browser"] = std::move(browser_machine);
  doc_["implementation"] = std::move(implementation);
}
void ResultDocument::mark_second_run() { doc_["repro_second_run"] = true; }
void ResultDocument::set_test_perturbation(const std::string& what) { doc_["test_perturbation"] = what; }

void ResultDocument::add_row(const BenchmarkResult& row) {
  rows_.push_back(ReportRow{row, std::nullopt, std::nullopt});
  refresh();
}

void ResultDocument::set_repro(const ReproSummary& summary, const ReproSecondRun& second_run) {
  repro_ = summary;
  doc_["repro"] = repro_summary_json(summary);
  doc_["repro"]["second_run"] = to_json(second_run);
  refresh();
}

void ResultDocument::refresh() {
  const Ceilings c = apply_roofline(rows_);
  doc_["roofline"] = roofline_summary_json(rows_, c);
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : rows_) rows.push_back(to_json(r));
  doc_["rows"] = std::move(rows);
  // Per-family verdicts of the technique comparisons, derived from the rows (readers re-derive
  // them the same way, so documents written before this field still get them).
  doc_["technique_verdicts"] = verdicts_json(family_verdicts(rows_));
}

void ResultDocument::finish(std::string end_state) {
  doc_["state"] = std::move(end_state);
  doc_["finished_at"] = utc_now_iso8601();
  if (!host_at_finish_) return;
  // The host's clock at the end of the run: with the start value, what the CPU sustained. Objects
  // (the clocks) are merged key by key, other values replace.
  const nlohmann::json at_finish = host_at_finish_();  // a local: items() must not outlive it
  auto& host = doc_["machine"]["host"];
  if (!host.is_object()) host = nlohmann::json::object();
  for (const auto& [k, v] : at_finish.items()) {
    if (v.is_object() && host.contains(k) && host[k].is_object()) {
      for (const auto& [kk, vv] : v.items()) host[k][kk] = vv;
    } else {
      host[k] = v;
    }
  }
}

}  // namespace wgb::report
