// Accuracy entries as JSON and as the console's table (accuracy.hpp).
#include "report/accuracy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

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

// Reads the fields of one entry; the first one of the wrong type is remembered with its path.
class Reader {
 public:
  Reader(const json& j, std::string path, std::string* error) : j_(j), path_(std::move(path)), error_(error) {}
  bool has(const char* key) const { return j_.is_object() && j_.contains(key) && !j_.at(key).is_null(); }
  void text(const char* key, std::string& out) const {
    if (!has(key)) return;
    if (!j_.at(key).is_string()) return fail(key, "a string");
    out = j_.at(key).get<std::string>();
  }
  void count(const char* key, std::uint64_t& out) const {
    if (!has(key)) return;
    if (!j_.at(key).is_number_unsigned()) return fail(key, "a non-negative integer");
    out = j_.at(key).get<std::uint64_t>();
  }
  void real(const char* key, double& out) const {
    if (has(key) && !read_number(j_.at(key), out)) fail(key, "a number, \"nan\", \"inf\" or \"-inf\"");
  }
  void reals(const char* key, std::vector<double>& out) const {
    if (!has(key)) return;
    const json& v = j_.at(key);
    if (!v.is_array()) return fail(key, "an array of numbers");
    out.clear();
    for (const auto& x : v) {
      double d = 0;
      if (!read_number(x, d)) return fail(key, "an array of numbers");
      out.push_back(d);
    }
  }
  void flag(const char* key, std::optional<bool>& out) const {
    if (!has(key)) return;
    if (!j_.at(key).is_boolean()) return fail(key, "true, false or null");
    out = j_.at(key).get<bool>();
  }
  std::optional<AccuracySample> sample(const char* key) const {
    if (!has(key)) return std::nullopt;
    if (!j_.at(key).is_object()) {
      fail(key, "an object");
      return std::nullopt;
    }
    const Reader in(j_.at(key), path_ + "." + key, error_);
    AccuracySample s;
    in.reals("input", s.input);
    in.real("output", s.output);
    in.real("expected", s.expected);
    in.real("error", s.error);
    in.reals("allowed", s.allowed);
    return s;
  }
  void fail(const char* key, const char* expected) const {
    if (error_->empty()) *error_ = fmt::format("\"{}.{}\" is not {}", path_, key, expected);
  }

 private:
  static bool read_number(const json& v, double& out) {
    if (v.is_number()) {
      out = v.get<double>();
      return true;
    }
    if (!v.is_string()) return false;
    const auto& s = v.get_ref<const std::string&>();
    if (s == "nan") out = std::nan("");
    else if (s == "inf") out = INFINITY;
    else if (s == "-inf") out = -INFINITY;
    else return false;
    return true;
  }
  const json& j_;
  std::string path_;
  std::string* error_;
};

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
    const Reader in(j[i], fmt::format("accuracy[{}]", i), &error);
    BuiltinAccuracy e;
    in.text("builtin", e.builtin);
    in.text("type", e.type);
    in.text("result_type", e.result_type);
    in.text("range", e.range);
    in.text("status", e.status);
    in.text("reason", e.reason);
    in.text("kernel", e.kernel);
    in.text("wgsl_hash", e.wgsl_hash);
    in.text("unit", e.unit);
    in.count("inputs", e.inputs);
    in.count("excluded", e.excluded);
    in.count("flushed", e.flushed);
    in.count("correctly_rounded", e.correctly_rounded);
    in.count("nonfinite", e.nonfinite);
    in.real("max_error", e.max_error);
    in.real("mean_error", e.mean_error);
    in.real("max_ulp", e.max_ulp);
    in.real("mean_ulp", e.mean_ulp);
    if (auto s = in.sample("worst")) e.worst = *s;
    in.text("bound", e.bound);
    if (in.has("bound_value")) {
      double v = 0;
      in.real("bound_value", v);
      e.bound_value = v;
    }
    in.flag("within", e.within);
    in.count("violations", e.violations);
    e.worst_violation = in.sample("worst_violation");
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
