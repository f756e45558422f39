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
#include <type_traits>
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
    get_array(key, out, "an array of numbers", [](const nlohmann::json& x, double& d) {
      if (x.is_number()) d = x.get<double>();
      return x.is_number();
    });
  }
  void get(const char* key, std::vector<std::uint64_t>& out) const {
    get_array(key, out, "an array of non-negative integers", [](const nlohmann::json& x, std::uint64_t& n) {
      const bool whole = x.is_number_unsigned() || (x.is_number_integer() && x.get<std::int64_t>() >= 0);
      if (whole) n = x.get<std::uint64_t>();
      return whole;
    });
  }
  void get(const char* key, std::vector<std::string>& out) const {
    get_array(key, out, "an array of strings", [](const nlohmann::json& x, std::string& t) {
      if (x.is_string()) t = x.get<std::string>();
      return x.is_string();
    });
  }
  // A field by its C++ type, for code that visits a list of fields: unsigned integers through
  // get_uint, the rest through get.
  template <class T>
  void read(const char* key, T& out) const {
    if constexpr (std::is_unsigned_v<T> && !std::is_same_v<T, bool>) {
      get_uint(key, out);
    } else {
      get(key, out);
    }
  }
  // A number that may not be finite: a JSON number, or the string "nan", "inf" or "-inf".
  void get_real(const char* key, double& out) const {
    if (has(key) && !real(j_.at(key), out)) fail(key, "a number, \"nan\", \"inf\" or \"-inf\"");
  }
  void get_reals(const char* key, std::vector<double>& out) const { get_array(key, out, "an array of numbers", real); }
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
  // An array whose every element `element` converts; the first that it refuses fails the field.
  template <class T, class Convert>
  void get_array(const char* key, std::vector<T>& out, const char* expected, Convert element) const {
    if (!has(key)) return;
    const auto& v = j_.at(key);
    if (!v.is_array()) return (void)fail(key, expected);
    out.clear();
    for (const auto& x : v) {
      T t{};
      if (!element(x, t)) return (void)fail(key, expected);
      out.push_back(std::move(t));
    }
  }
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

// The visitors for a record's field list (`fields(record, visit)` calling `visit(key, member)` for
// each plainly copied field, so that a key cannot be written under one name and read under another):
// one fills a JSON object, one reads from a FieldReader. An optional member is written as null when
// empty and read only when the field has its type.
template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

inline auto field_writer(nlohmann::json& j) {
  return [&j](const char* key, const auto& value) {
    if constexpr (is_optional<std::decay_t<decltype(value)>>::value) {
      j[key] = value ? nlohmann::json(*value) : nlohmann::json(nullptr);
    } else {
      j[key] = value;
    }
  };
}
// The same, writing an optional member only when it holds a value (a row's parameters record
// what their workload measured, nothing for what it did not).
inline auto present_writer(nlohmann::json& j) {
  return [&j](const char* key, const auto& value) {
    if constexpr (is_optional<std::decay_t<decltype(value)>>::value) {
      if (value) j[key] = *value;
    } else {
      j[key] = value;
    }
  };
}
inline auto field_reader(const FieldReader& in) {
  return [&in](const char* key, auto& out) {
    using T = std::decay_t<decltype(out)>;
    if constexpr (is_optional<T>::value) {
      const nlohmann::json& v = in.raw(key);
      if constexpr (std::is_same_v<typename T::value_type, std::string>) {
        if (v.is_string()) out = v.template get<std::string>();
      } else {
        if (v.is_number()) out = v.template get<typename T::value_type>();
      }
    } else {
      in.read(key, out);
    }
  };
}

// A record written through its field list.
template <class R, class Fields>
nlohmann::json written(const R& r, Fields fields) {
  nlohmann::json j = nlohmann::json::object();
  fields(r, field_writer(j));
  return j;
}

// Each element of an array of objects, read through a field list.
template <class T, class Fields>
std::vector<T> read_objects(const FieldReader& f, const char* key, std::string* error, Fields fields) {
  std::vector<T> out;
  if (!f.raw(key).is_array()) return out;
  for (const auto& e : f.raw(key)) {
    const FieldReader element(e, key, error);
    fields(out.emplace_back(), field_reader(element));
  }
  return out;
}

// A message's member by key, for the readers of loosely typed messages (the page's channel, the
// browsers' protocols): the member, or null (never a temporary); its text, where it is one; it as an
// object, else an empty one.
inline const nlohmann::json& json_member(const nlohmann::json& j, const char* key) {
  static const nlohmann::json none;
  if (!j.is_object()) return none;
  const auto it = j.find(key);
  return it == j.end() ? none : *it;
}
inline std::optional<std::string> json_text(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = json_member(j, key);
  return v.is_string() ? std::optional<std::string>(v.get<std::string>()) : std::nullopt;
}
inline std::optional<double> json_number(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = json_member(j, key);
  return v.is_number() ? std::optional<double>(v.get<double>()) : std::nullopt;
}
inline const nlohmann::json& json_object(const nlohmann::json& j, const char* key) {
  static const nlohmann::json empty = nlohmann::json::object();
  const nlohmann::json& v = json_member(j, key);
  return v.is_object() ? v : empty;
}

// An object to read from: `j` itself, or an empty object (a reader keeps a reference: never a temporary).
inline const nlohmann::json& object_or_empty(const nlohmann::json& j) {
  static const nlohmann::json empty = nlohmann::json::object();
  return j.is_object() ? j : empty;
}

}  // namespace wgb::report

// A field list as a callable for `written` and `read_objects`.
#define WGB_FIELDS(list) [](auto& record, auto&& visit) { list(record, visit); }
