// The typed reading (and the few writes) of a row's parameters: facts.hpp.
#include "report/facts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/field_reader.hpp"
#include "report/host_parameters.hpp"

namespace wgb::report {

namespace {

using json = nlohmann::json;

// Reads the fields of one object, remembering the first one of the wrong type (named by its path).
class Fields {
 public:
  Fields(const json& j, std::string path, std::string* error) : j_(j), path_(std::move(path)), error_(error) {}

  std::optional<double> number(const char* key) {
    const json* v = find(key);
    if (v == nullptr) return std::nullopt;
    if (v->is_number()) return v->get<double>();
    return wrong(key, "a number");
  }
  std::optional<bool> boolean(const char* key) {
    const json* v = find(key);
    if (v == nullptr) return std::nullopt;
    if (v->is_boolean()) return v->get<bool>();
    return wrong(key, "true or false");
  }
  std::string text(const char* key) {
    const json* v = find(key);
    if (v == nullptr) return {};
    if (v->is_string()) return v->get<std::string>();
    wrong(key, "a string");
    return {};
  }
  bool object(const char* key) {
    const json* v = find(key);
    if (v == nullptr) return false;
    if (v->is_object()) return true;
    wrong(key, "an object");
    return false;
  }
  std::optional<std::uint64_t> count(const char* key) {
    const json* v = find(key);
    if (v == nullptr) return std::nullopt;
    if (v->is_number_unsigned() || (v->is_number_integer() && v->get<std::int64_t>() >= 0))
      return v->get<std::uint64_t>();
    return wrong(key, "a non-negative integer");
  }
  const json* array(const char* key) {
    const json* v = find(key);
    if (v == nullptr) return nullptr;
    if (v->is_array()) return v;
    wrong(key, "an array");
    return nullptr;
  }
  std::string path(const char* key) const { return path_.empty() ? key : path_ + "." + key; }

 private:
  const json* find(const char* key) const {
    if (!j_.is_object()) return nullptr;
    const auto it = j_.find(key);
    return it == j_.end() || it->is_null() ? nullptr : &*it;
  }
  std::nullopt_t wrong(const char* key, const char* want) {
    if (error_->empty()) *error_ = fmt::format("parameters.{} is not {}", path(key), want);
    return std::nullopt;
  }

  const json& j_;
  std::string path_;
  std::string* error_;
};

// The numeric fields of a point and of a row, by key: read in one loop each.
template <class T>
struct NumberField {
  const char* key;
  std::optional<double> T::*member;
};
// A field's key is its member's name, so the two cannot drift apart.
// clang-format off
#define WGB_POINT(name) NumberField<CurvePoint>{#name, &CurvePoint::name}
#define WGB_ROW(name) NumberField<RowFacts>{#name, &RowFacts::name}
constexpr NumberField<CurvePoint> kPointNumbers[] = {
    WGB_POINT(working_set_bytes), WGB_POINT(threads), WGB_POINT(array_bytes), WGB_POINT(value), WGB_POINT(time_ms),
    WGB_POINT(iqr_relative), WGB_POINT(repeat), WGB_POINT(cpu_share), WGB_POINT(ns_per_load),
    WGB_POINT(cycles_per_load), WGB_POINT(clock_mhz), WGB_POINT(repro_second_ms)};
// The row's: what plausibility, --ceilings, the roofline's notes and the memory suite's lines read.
constexpr NumberField<RowFacts> kRowNumbers[] = {
    WGB_ROW(footprint_bytes), WGB_ROW(launch_ms), WGB_ROW(working_set_bytes), WGB_ROW(buffers), WGB_ROW(cv),
    WGB_ROW(ns_per_load), WGB_ROW(g_accesses_per_s), WGB_ROW(last60_median_gbps), WGB_ROW(first20_median_gbps),
    WGB_ROW(window_bytes), WGB_ROW(retention)};
#undef WGB_POINT
#undef WGB_ROW
// clang-format on

CurvePoint point_from(const json& j, const std::string& path, std::string* error) {
  Fields f(j, path, error);
  CurvePoint p;
  for (const auto& [key, member] : kPointNumbers) p.*member = f.number(key);
  p.valid = f.boolean("valid");
  p.repro_agree = f.boolean("repro_agree");
  if (const json* iqr = f.array("value_iqr");
      iqr != nullptr && iqr->size() == 2 && (*iqr)[0].is_number() && (*iqr)[1].is_number()) {
    p.value_iqr = std::make_pair((*iqr)[0].get<double>(), (*iqr)[1].get<double>());
  }
  return p;
}

Curve curve_from(const json& j, const std::string& path, std::string* error) {
  Fields f(j, path, error);
  Curve c;
  c.name = f.text("name");
  c.x = f.text("x");
  c.statistic = f.text("statistic");
  c.threads = f.number("threads");
  if (const json* levels = f.array("cache_boundaries")) {
    c.cache_boundaries.emplace();
    for (std::size_t i = 0; i < levels->size(); ++i) {
      Fields b((*levels)[i], fmt::format("{}.cache_boundaries[{}]", path, i), error);
      c.cache_boundaries->push_back(
          {static_cast<int>(b.number("level").value_or(0)), b.number("total_bytes").value_or(0)});
    }
  }
  if (const json* points = f.array("points")) {
    for (std::size_t i = 0; i < points->size(); ++i) {
      c.points.push_back(point_from((*points)[i], fmt::format("{}.points[{}]", path, i), error));
    }
  }
  return c;
}

// A sweep's point: none without its value.
std::optional<SweepPoint> sweep_from(const json& j, std::string* error) {
  Fields f(j, "sweep", error);
  const auto value = f.count("value");
  if (!value) return std::nullopt;
  return SweepPoint{f.text("parameter"), *value, f.text("option")};
}

// The sustain timeline, tolerantly (facts.hpp names the older keys).
std::vector<std::pair<double, double>> read_timeline(const json& tl) {
  std::vector<std::pair<double, double>> out;
  if (!tl.is_array()) return out;
  for (const auto& e : tl) {
    std::optional<double> t, v;
    if (e.is_array() && e.size() >= 2 && e[0].is_number() && e[1].is_number()) {
      t = e[0].get<double>();
      v = e[1].get<double>();
    } else if (e.is_object()) {
      for (const char* k : {"t_s", "time_s", "t", "seconds"}) {
        if (e.contains(k) && e[k].is_number()) {
          t = e[k].get<double>();
          break;
        }
      }
      for (const char* k : {"gbps", "GBps", "gb_s", "gb_per_s"}) {
        if (e.contains(k) && e[k].is_number()) {
          v = e[k].get<double>() * 1e9;
          break;
        }
      }
      for (const char* k : {"bytes_per_second", "value", "rate"}) {
        if (!v && e.contains(k) && e[k].is_number()) v = e[k].get<double>();
      }
    }
    if (t && v && std::isfinite(*t) && std::isfinite(*v)) out.emplace_back(*t, *v);
  }
  return out;
}

}  // namespace

std::optional<double> CurvePoint::at(const std::string& x) const {
  if (x == "working_set_bytes") return working_set_bytes;
  if (x == "threads") return threads;
  if (x == "array_bytes") return array_bytes;
  return std::nullopt;
}

std::pair<double, double> CurvePoint::rate_range() const {
  if (!value_iqr || !(value_iqr->first > 0) || !(value_iqr->second > 0)) return {0.0, 0.0};
  const double v = value.value_or(value_iqr->first);
  return {std::min(value_iqr->first, v), std::max(value_iqr->second, v)};
}

Expected<RowFacts> read_row_facts(const json& parameters) {
  if (parameters.is_null()) return RowFacts{};
  if (!parameters.is_object()) return make_error(ErrorKind::Usage, "parameters is not an object");
  std::string error;
  Fields f(parameters, "", &error);
  RowFacts r;
  r.peak_class = f.text("peak_class");
  r.access = f.text("access");
  for (const auto& [key, member] : kRowNumbers) r.*member = f.number(key);
  r.operand_bits = static_cast<int>(f.number("operand_bits").value_or(32));
  r.dispatches_per_repetition = f.number("dispatches_per_repetition").value_or(1);
  r.samples = static_cast<std::int64_t>(f.number("samples").value_or(0));
  r.rejected_samples = static_cast<std::int64_t>(f.number("rejected_samples").value_or(0));
  if (const json* series = f.array("series")) {
    for (std::size_t i = 0; i < series->size(); ++i) {
      r.curves.push_back(curve_from((*series)[i], fmt::format("series[{}]", i), &error));
    }
  }
  r.precision = f.text("precision");
  r.unranked = f.boolean("unranked");
  r.unranked_reason = f.text("unranked_reason");
  if (f.object("sweep")) r.sweep = sweep_from(parameters.at("sweep"), &error);
  if (const auto tl = parameters.find("timeline"); tl != parameters.end()) r.timeline = read_timeline(*tl);
  if (const auto reading = parameters.find("retention_reading"); reading != parameters.end() && reading->is_string()) {
    r.retention_reading = reading->get<std::string>();
  }
  // The host suite's objects (host_parameters.hpp).
  std::string host_error;
  const HostParameters host = read_host_parameters(parameters, &host_error);
  if (error.empty()) error = host_error;
  if (host.threads) r.host_threads = host.threads->count;
  if (host.frequency) r.sustained_mhz_median = host.frequency->sustained_mhz_median;
  if (host.timing) r.cpu_share = host.timing->protocol.cpu_share;
  if (!error.empty()) return make_error(ErrorKind::Usage, error);
  return r;
}

RowFacts row_facts(const BenchmarkResult& row) {
  auto facts = read_row_facts(row.parameters);
  return facts ? std::move(*facts) : RowFacts{};
}

std::optional<SweepPoint> sweep_point(const json& parameters) {
  const auto sw = parameters.is_object() ? parameters.find("sweep") : parameters.end();
  if (sw == parameters.end() || !sw->is_object()) return std::nullopt;
  std::string error;
  auto point = sweep_from(*sw, &error);
  if (!error.empty()) return std::nullopt;
  return point;
}

void set_sweep_point(BenchmarkResult& row, const SweepPoint& point) {
  if (!row.parameters.is_object()) row.parameters = json::object();
  row.parameters["sweep"] = {{"parameter", point.parameter}, {"value", point.value}, {"option", point.option}};
}

void mark_rows_unranked(json& document) {
  const auto rows = document.is_object() ? document.find("rows") : document.end();
  if (rows == document.end() || !rows->is_array()) return;
  for (auto& r : *rows) {
    if (!r.is_object()) continue;
    if (const auto p = r.find("parameters"); p == r.end()) {
      r["parameters"] = {{"unranked", true}};
    } else if (p->is_object()) {
      (*p)["unranked"] = true;
    }
  }
}

void set_launch_share(BenchmarkResult& row, double dispatch_ms) {
  if (!row.parameters.is_object()) row.parameters = json::object();
  row.parameters["dispatch_ms"] = dispatch_ms;
  const double launch_ms = row_facts(row).launch_ms.value_or(0);
  if (launch_ms > 0) row.parameters["launch_share"] = launch_ms / dispatch_ms;
}

void set_point_repro(BenchmarkResult& row, std::size_t c, std::size_t p, double second_ms, bool agree) {
  json& point = row.parameters.at("series").at(c).at("points").at(p);
  point["repro_second_ms"] = second_ms;
  point["repro_agree"] = agree;
}

namespace {
// clang-format off
template <class S, class F> void probe_fact_fields(S& p, F&& f) {
  f("peak_class", p.peak_class), f("access", p.access), f("footprint_bytes", p.footprint_bytes);
  f("buffers", p.buffers), f("operand_bits", p.operand_bits), f("working_set_bytes", p.working_set_bytes);
  f("window_bytes", p.window_bytes), f("nominal_window_bytes", p.nominal_window_bytes);
  f("loads_per_pass", p.loads_per_pass), f("launch_ms", p.launch_ms);
  f("dispatches_per_repetition", p.dispatches_per_repetition), f("repetitions_per_batch", p.repetitions_per_batch);
  f("workgroups", p.workgroups), f("note", p.note), f("kernel_form", p.kernel_form);
  f("experimental", p.experimental), f("wgsl_variant", p.wgsl_variant), f("f16", p.f16);
  f("time_split", p.time_split);
}
// clang-format on
}  // namespace

void write_facts(json& parameters, const ProbeFacts& facts) {
  if (!parameters.is_object()) parameters = json::object();
  probe_fact_fields(facts, present_writer(parameters));
  if (const auto& c = facts.fma_contraction) {
    parameters["fma_contraction"] =
        c->not_checked.empty() ? json{{"x * m + c", c->mul_add}, {"fma()", c->fma_builtin}} : json(c->not_checked);
  }
  if (facts.knob) parameters[facts.knob->first] = facts.knob->second;
  if (facts.time_split_ms) {
    json split = json::object();
    for (const auto& [stage, ms] : *facts.time_split_ms) split[stage] = ms;
    parameters["time_split_ms"] = std::move(split);
  }
}

json with_facts(json parameters, const ProbeFacts& facts) {
  write_facts(parameters, facts);
  return parameters;
}

}  // namespace wgb::report
