// Accuracy entries as JSON and as the console's table (accuracy.hpp).
#include "report/accuracy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "report/field_reader.hpp"
#include "report/table.hpp"

namespace wgb::report {

namespace {

using nlohmann::json;

json number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return x;
}

json sample_json(const AccuracySample& s) {
  json input = json::array();
  for (const double x : s.input) input.push_back(number(x));
  json allowed = s.allowed.size() == 2 ? json::array({number(s.allowed[0]), number(s.allowed[1])}) : json(nullptr);
  return {{"input", input},          {"output", number(s.output)}, {"expected", number(s.expected)},
          {"error", number(s.error)}, {"allowed", allowed}};
}

// A sample (worst, worst_violation), or nothing where the field is absent or null.
std::optional<AccuracySample> sample_from(const FieldReader& in, const char* key) {
  if (!in.is_object(key)) return std::nullopt;
  const FieldReader f = in.child(key);
  AccuracySample s;
  f.get_reals("input", s.input);
  f.get_real("output", s.output);
  f.get_real("expected", s.expected);
  f.get_real("error", s.error);
  f.get_reals("allowed", s.allowed);
  return s;
}

// A power of two as "2^-11", else three significant digits.
std::string magnitude_text(double v) {
  int e = 0;
  if (v > 0 && std::frexp(v, &e) == 0.5) return fmt::format("2^{}", e - 1);
  return fmt::format("{:.3g}", v);
}

}  // namespace

std::string builtin_text(const BuiltinAccuracy& e) {
  if (e.type != e.result_type) return e.type + "->" + e.result_type;
  const auto paren = e.builtin.find('(');
  return paren == std::string::npos ? e.builtin : e.builtin.substr(0, paren);
}

json accuracy_json(const std::vector<BuiltinAccuracy>& entries) {
  json out = json::array();
  for (const auto& e : entries) {
    out.push_back({{"builtin", e.builtin},
                   {"type", e.type},
                   {"result_type", e.result_type},
                   {"range", e.range},
                   {"status", e.status},
                   {"reason", e.reason},
                   {"kernel", e.kernel},
                   {"wgsl_hash", e.wgsl_hash},
                   {"unit", e.unit},
                   {"inputs", e.inputs},
                   {"excluded", e.excluded},
                   {"flushed", e.flushed},
                   {"correctly_rounded", e.correctly_rounded},
                   {"nonfinite", e.nonfinite},
                   {"max_error", number(e.max_error)},
                   {"mean_error", number(e.mean_error)},
                   {"max_ulp", number(e.max_ulp)},
                   {"mean_ulp", number(e.mean_ulp)},
                   {"worst", e.worst.input.empty() ? json(nullptr) : sample_json(e.worst)},
                   {"bound", e.bound},
                   {"bound_value", e.bound_value ? number(*e.bound_value) : json(nullptr)},
                   {"within", e.within ? json(*e.within) : json(nullptr)},
                   {"violations", e.violations},
                   {"worst_violation", e.worst_violation ? sample_json(*e.worst_violation) : json(nullptr)}});
  }
  return out;
}

Expected<std::vector<BuiltinAccuracy>> accuracy_from_json(const json& j) {
  if (!j.is_array()) return make_error(ErrorKind::Usage, "\"accuracy\" is not an array");
  std::vector<BuiltinAccuracy> out;
  std::string error;
  for (std::size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_object()) return make_error(ErrorKind::Usage, fmt::format("\"accuracy[{}]\" is not an object", i));
    const FieldReader in(j[i], fmt::format("accuracy[{}]", i), &error);
    BuiltinAccuracy e;
    for (auto [key, field] : {std::pair{"builtin", &e.builtin}, {"type", &e.type}, {"result_type", &e.result_type},
                              {"range", &e.range}, {"status", &e.status}, {"reason", &e.reason}, {"kernel", &e.kernel},
                              {"wgsl_hash", &e.wgsl_hash}, {"unit", &e.unit}, {"bound", &e.bound}}) {
      in.get(key, *field);
    }
    for (auto [key, field] : {std::pair{"inputs", &e.inputs}, {"excluded", &e.excluded}, {"flushed", &e.flushed},
                              {"correctly_rounded", &e.correctly_rounded}, {"nonfinite", &e.nonfinite},
                              {"violations", &e.violations}}) {
      in.get_uint(key, *field);
    }
    for (auto [key, field] : {std::pair{"max_error", &e.max_error}, {"mean_error", &e.mean_error},
                              {"max_ulp", &e.max_ulp}, {"mean_ulp", &e.mean_ulp}}) {
      in.get_real(key, *field);
    }
    if (auto s = sample_from(in, "worst")) e.worst = *s;
    if (in.has("bound_value")) {
      double v = 0;
      in.get_real("bound_value", v);
      e.bound_value = v;
    }
    in.get("within", e.within);
    e.worst_violation = sample_from(in, "worst_violation");
    if (!error.empty()) return make_error(ErrorKind::Usage, error);
    out.push_back(std::move(e));
  }
  return out;
}

std::string error_text(double error, const std::string& unit) {
  if (std::isinf(error)) return "inf";
  if (std::isnan(error)) return "nan";
  if (error == 0) return "0";
  return unit == "absolute" ? fmt::format("{:.2g}", error) : fmt::format("{:.3g}", error);
}

std::string bound_text(const BuiltinAccuracy& e) {
  if (e.bound.empty()) return "-";
  if (!e.bound_value) return e.bound.rfind("inherited", 0) == 0 ? "inherited" : "faithful";
  if (*e.bound_value == 0) return "exact";
  return e.unit == "absolute" ? magnitude_text(*e.bound_value) + " abs" : fmt::format("{:g} ulp", *e.bound_value);
}

std::string verdict_text(const BuiltinAccuracy& e) {
  if (e.status != "measured") return e.status;
  if (!e.within) return "-";
  return *e.within ? "within" : "OUTSIDE";
}

std::string input_text(const AccuracySample& s) {
  static const char* kNames[] = {"x", "y"};
  std::string out;
  for (std::size_t i = 0; i < s.input.size() && i < 2; ++i) {
    out += fmt::format("{}{} = {:.9g}", i > 0 ? ", " : "", kNames[i], s.input[i]);
  }
  return out;
}

void write_accuracy_table(std::ostream& out, const std::vector<ReportRow>& rows, std::size_t width) {
  enum Col { kId, kRate, kBuiltin, kRange, kMax, kMean, kBound, kVerdict, kCols };
  using Line = std::array<std::string, kCols>;
  std::vector<Line> lines;
  std::vector<std::string> findings;
  std::map<std::string, std::vector<std::string>> unmeasured;  // reason -> the rows with such entries
  for (const auto& row : rows) {
    const BenchmarkResult& r = row.result;
    bool first = true;
    for (const auto& e : r.accuracy) {
      const bool measured = e.status == "measured";
      lines.push_back({first ? r.id : "", first && has_rate(r) ? format_rate(r.value, r.metric.unit) : first ? "-" : "",
                       builtin_text(e),
                       e.range, measured ? error_text(e.max_error, e.unit) : "-",
                       measured ? error_text(e.mean_error, e.unit) : "-", bound_text(e), verdict_text(e)});
      first = false;
      const std::string name = fmt::format("{} {} {}", r.id, e.builtin, e.range);
      auto& ids = unmeasured[e.reason];
      if (!measured && std::find(ids.begin(), ids.end(), r.id) == ids.end()) ids.push_back(r.id);
      if (e.within && !*e.within && e.worst_violation) {
        const auto& w = *e.worst_violation;
        findings.push_back(fmt::format(
            "OUTSIDE {}: {} of {} values; worst at {}: returned {:.9g}, exact {:.9g} (error {} {}{})", name,
            e.violations, e.inputs - e.excluded, input_text(w), w.output, w.expected, error_text(w.error, e.unit),
            e.unit == "absolute" ? "abs" : "ulp",
            w.allowed.size() == 2 ? fmt::format(", allowed [{:.9g}, {:.9g}]", w.allowed[0], w.allowed[1]) : ""));
      }
    }
  }
  if (lines.empty()) return;
  const Line header{"benchmark", "rate", "builtin", "range", "max", "mean", "bound", "verdict"};
  std::array<std::size_t, kCols> w{};
  for (std::size_t c = 0; c < kCols; ++c) w[c] = header[c].size();
  for (const auto& l : lines) {
    for (std::size_t c = 0; c < kCols; ++c) w[c] = std::max(w[c], l[c].size());
  }
  std::array<bool, kCols> show;
  show.fill(true);
  auto total = [&] {
    std::size_t t = 0, n = 0;
    for (std::size_t c = 0; c < kCols; ++c) {
      if (show[c]) {
        t += w[c];
        ++n;
      }
    }
    return t + 2 * (n - 1);
  };
  std::vector<std::string> left_out;
  for (const Col c : {kMean, kRate}) {
    if (total() <= width) break;
    show[c] = false;
    left_out.push_back(header[c]);
  }
  constexpr std::array<bool, kCols> kRight{false, true, false, false, true, true, true, false};
  auto render = [&](const Line& l) {
    std::string s;
    bool first_cell = true;
    for (std::size_t c = 0; c < kCols; ++c) {
      if (!show[c]) continue;
      if (!first_cell) s += "  ";
      first_cell = false;
      s += kRight[c] ? fmt::format("{:>{}}", l[c], w[c]) : fmt::format("{:<{}}", l[c], w[c]);
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
  };
  out << '\n'
      << wrap_text("accuracy (each builtin's error against the exact result over its inputs; bounds from the WGSL "
                   "specification; docs/method.md#accuracy)",
                   width, 0, 2)
      << '\n'
      << render(header) << '\n'
      << std::string(total(), '-') << '\n';
  for (const auto& l : lines) out << render(l) << '\n';
  auto note = [&](const std::string& text) { out << wrap_text(text, width, 0, 2) << '\n'; };
  note("max, mean: in ULPs of the result type, or as the absolute error where the bound is absolute (abs); a "
       "value outside its bound is a finding about the implementation, not a failure of the run.");
  if (!left_out.empty()) {
    note(fmt::format("left out to fit {} columns: {} (the JSON document and the HTML report show it)", width,
                     fmt::join(left_out, ", ")));
  }
  for (const auto& f : findings) note(f);
  for (const auto& [reason, ids] : unmeasured) {
    if (ids.empty()) continue;
    note(fmt::format("not measured: {}: {}", fmt::join(ids, ", "), reason.empty() ? "no reason recorded" : reason));
  }
}

}  // namespace wgb::report
