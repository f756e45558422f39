// Reading a result document's optional fields with their documented types: one reader for the
// rows (document.cpp) and their accuracy entries (accuracy.cpp). The first field of the wrong type
// is remembered with its path ("rows[3].accuracy[0].max_ulp"), so the error names it.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace wgb::report {

// Reads optional fields of one JSON object; the first type mismatch is remembered with its path.
class FieldReader {
 public:
  FieldReader(const nlohmann::json& j, std::string path, std::string* error) : j_(j), path_(std::move(path)), error_(error) {}

  bool has(const char* key) const { return j_.is_object() && j_.contains(key) && !j_.at(key).is_null(); }
  FieldReader child(const char* key) const { return FieldReader(has(key) ? j_.at(key) : empty(), join(key), error_); }
  bool is_object(const char* key) const {
    if (!has(key)) return false;
    if (!j_.at(key).is_object()) return fail(key, "an object");
    return true;
  }

  void get(const char* key, double& out) const {
    if (!has(key)) return;
    const auto& v = j_.at(key);
    if (!v.is_number()) return (void)fail(key, "a number");
    out = v.get<double>();
  }
  template <class T>
  void get_uint(const char* key, T& out) const {
    if (!has(key)) return;
    const auto& v = j_.at(key);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0)) {
      return (void)fail(key, "a non-negative integer");
    }
    out = static_cast<T>(v.get<std::uint64_t>());
  }
  void get(const char* key, int& out) const {
    if (!has(key)) return;
    const auto& v = j_.at(key);
    if (!v.is_number_integer()) return (void)fail(key, "an integer");
    out = v.get<int>();
  }
  void get(const char* key, bool& out) const {
    if (!has(key)) return;
    const auto& v = j_.at(key);
    if (!v.is_boolean()) return (void)fail(key, "true or false");
    out = v.get<bool>();
  }
  void get(const char* key, std::string& out) const {
    if (!has(key)) return;
    const auto& v = j_.at(key);
    if (!v.is_string()) return (void)fail(key, "a string");
    out = v.get<std::string>();
  }
  void get(const char* key, std::vector<double>& out) const {
    if (!has(key)) return;
    const auto& v = j_.at(key);
    if (!v.is_array()) return (void)fail(key, "an array of numbers");
    out.clear();
    for (const auto& x : v) {
      if (!x.is_number()) return (void)fail(key, "an array of numbers");
      out.push_back(x.get<double>());
    }
  }
  void get(const char* key, std::vector<std::string>& out) const {
    if (!has(key)) return;
    const auto& v = j_.at(key);
    if (!v.is_array()) return (void)fail(key, "an array of strings");
    out.clear();
    for (const auto& x : v) {
      if (!x.is_string()) return (void)fail(key, "an array of strings");
      out.push_back(x.get<std::string>());
    }
  }
  // A number that may not be finite: a JSON number, or the string "nan", "inf" or "-inf".
  void get_real(const char* key, double& out) const {
    if (has(key) && !real(j_.at(key), out)) fail(key, "a number, \"nan\", \"inf\" or \"-inf\"");
  }
  void get_reals(const char* key, std::vector<double>& out) const {
    if (!has(key)) return;
    const auto& v = j_.at(key);
    if (!v.is_array()) return (void)fail(key, "an array of numbers");
    out.clear();
    for (const auto& x : v) {
      double d = 0;
      if (!real(x, d)) return (void)fail(key, "an array of numbers");
      out.push_back(d);
    }
  }
  // true, false, or null (left empty).
  void get(const char* key, std::optional<bool>& out) const {
    if (!has(key)) return;
    const auto& v = j_.at(key);
    if (!v.is_boolean()) return (void)fail(key, "true, false or null");
    out = v.get<bool>();
  }
  const nlohmann::json& raw(const char* key) const { return has(key) ? j_.at(key) : empty(); }
  bool fail(const char* key, const char* expected) const {
    if (error_->empty()) {
      *error_ = fmt::format("\"{}\" is {}, expected {}", join(key), type_name(j_.at(key)), expected);
    }
    return false;
  }

 private:
  static const nlohmann::json& empty() {
    static const nlohmann::json e = nlohmann::json::object();
    return e;
  }
  static std::string type_name(const nlohmann::json& v) {
    if (v.is_number()) return "a number";
    if (v.is_string()) return "a string";
    if (v.is_boolean()) return "a boolean";
    if (v.is_array()) return "an array";
    if (v.is_object()) return "an object";
    return "null";
  }
  static bool real(const nlohmann::json& v, double& out) {
    if (v.is_number()) {
      out = v.get<double>();
      return true;
    }
    if (!v.is_string()) return false;
    const auto& s = v.get_ref<const std::string&>();
    if (s == "nan") {
      out = std::numeric_limits<double>::quiet_NaN();
    } else if (s == "inf" || s == "-inf") {
      out = s == "inf" ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
    } else {
      return false;
    }
    return true;
  }
  std::string join(const char* key) const { return path_.empty() ? key : path_ + "." + key; }
  const nlohmann::json& j_;
  std::string path_;
  std::string* error_;
};

}  // namespace wgb::report
