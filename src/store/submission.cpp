// Checks of submitted documents (docs/store.md, "What the server accepts").
#include "store/submission.hpp"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <optional>
#include <unordered_set>
#include <utility>

#include "report/browser_section.hpp"
#include "report/document.hpp"
#include "report/facts.hpp"
#include "report/files.hpp"
#include "store/ranking.hpp"
#include "store/runtime_filter.hpp"

namespace wgb::store {

namespace {

Error refuse(std::string message) { return make_error(ErrorKind::Usage, std::move(message)); }

constexpr std::size_t kMaxUserAgent = 512;  // real user agents stay under 300 bytes

}  // namespace

// RFC 3339: "2026-11-30T06:01:17Z", "2026-11-30T06:01:17.250+02:00". Every field range-checked
// (the day against its month and leap years; a leap second is allowed); years 1970-9999.
// Returns the instant in UTC as "YYYY-MM-DDTHH:MM:SS[.fff]Z", which sorts as text.
std::optional<std::string> normalize_timestamp(std::string_view s) {
  auto digits = [&](std::size_t at, std::size_t n, int& out) {
    if (at + n > s.size()) return false;
    out = 0;
    for (std::size_t i = at; i < at + n; ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      out = out * 10 + (s[i] - '0');
    }
    return true;
  };
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0;
  if (s.size() < 20 || s.size() > 40) return std::nullopt;
  if (!digits(0, 4, y) || s[4] != '-' || !digits(5, 2, mo) || s[7] != '-' || !digits(8, 2, d) ||
      (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || !digits(11, 2, h) || s[13] != ':' || !digits(14, 2, mi) ||
      s[16] != ':' || !digits(17, 2, sec)) {
    return std::nullopt;
  }
  std::size_t at = 19;
  std::string fraction;
  if (at < s.size() && s[at] == '.') {
    const std::size_t begin = ++at;
    while (at < s.size() && s[at] >= '0' && s[at] <= '9') ++at;
    if (at == begin || at - begin > 9) return std::nullopt;
    fraction = std::string(s.substr(begin - 1, at - begin + 1));
  }
  int offset_min = 0;
  if (at < s.size() && (s[at] == 'Z' || s[at] == 'z')) {
    ++at;
  } else if (at < s.size() && (s[at] == '+' || s[at] == '-')) {
    int oh = 0, om = 0;
    if (!digits(at + 1, 2, oh) || at + 3 >= s.size() || s[at + 3] != ':' || !digits(at + 4, 2, om) || oh > 23 ||
        om > 59) {
      return std::nullopt;
    }
    offset_min = (s[at] == '-' ? -1 : 1) * (oh * 60 + om);
    at += 6;
  } else {
    return std::nullopt;  // a time without a zone is not an instant
  }
  if (at != s.size()) return std::nullopt;
  static constexpr std::array<int, 12> kDays{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > kDays[mo - 1] + (mo == 2 && leap ? 1 : 0) || h > 23 || mi > 59 ||
      sec > 60) {
    return std::nullopt;
  }
  std::tm tm{};
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = std::min(sec, 59);  // a leap second reads as :59
  const std::time_t t = timegm(&tm) - static_cast<std::time_t>(offset_min) * 60;
  std::tm utc{};
  if (gmtime_r(&t, &utc) == nullptr || utc.tm_year + 1900 < 1970 || utc.tm_year + 1900 > 9999) return std::nullopt;
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &utc);
  return std::string(buf) + fraction + "Z";
}

namespace {

// Physical ranges of what numbers mean (docs/store.md, "What the server accepts"). Generous: a
// bound an honest measurement of any machine of the next decades stays far inside, chosen so
// that nothing stored can be absurd (a subnormal rate, a 290-digit bandwidth).
struct Range {
  double min_positive;  // a non-zero magnitude below this is refused (subnormals, 1e-300)
  double max;           // magnitude above this is refused
  const char* meaning;
};
constexpr Range kAnyNumber{1e-30, 2e19, "any number (at most a 64-bit count)"};
constexpr Range kRate{1e-6, 1e18, "a rate per second"};
constexpr Range kTimeSeconds{1e-15, 1e6, "a time (1 fs to 11.6 days)"};
constexpr Range kSizeBytes{1, 0x1p60, "a size in bytes (at most 1 EiB)"};
constexpr Range kClockHz{1, 1e13, "a clock (at most 10 THz)"};
constexpr Range kCount{1, 1e15, "a count"};
// The values a builtin was evaluated at and returned, and its errors in ULPs (a row's `accuracy`
// entries, docs/method.md#accuracy): any finite f32 value, subnormals included, up to f32's largest
// (3.4e38) with room for an error counted in ULPs of it.
constexpr Range kFloatValue{0, 1e39, "a floating-point value of a builtin (finite, at most 1e39)"};

// Seconds per unit of a time unit ("ns" -> 1e-9), 0 when `u` is not one.
double seconds_per(std::string_view u) {
  if (u == "s") return 1;
  if (u == "ms") return 1e-3;
  if (u == "us" || u == "\u00b5s") return 1e-6;
  if (u == "ns") return 1e-9;
  if (u == "ps") return 1e-12;
  if (u == "min") return 60;
  if (u == "h") return 3600;
  return 0;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The range a field's name says its number has, scaled to the field's unit; nullopt: only the
// general bound applies.
std::optional<Range> range_of_key(std::string_view key) {
  auto scaled = [](Range r, double factor) {
    r.min_positive *= factor;
    r.max *= factor;
    return r;
  };
  for (auto [suffix, unit] : {std::pair{"_ns", "ns"}, std::pair{"_us", "us"}, std::pair{"_ms", "ms"},
                              std::pair{"_s", "s"}}) {
    if (ends_with(key, suffix)) return scaled(kTimeSeconds, 1 / seconds_per(unit));
  }
  if (ends_with(key, "bytes")) return kSizeBytes;
  if (ends_with(key, "_kib")) return scaled(kSizeBytes, 1.0 / 1024);
  if (ends_with(key, "_mib")) return scaled(kSizeBytes, 1.0 / (1024 * 1024));
  if (ends_with(key, "_hz")) return kClockHz;
  if (ends_with(key, "_khz")) return scaled(kClockHz, 1e-3);
  if (ends_with(key, "_mhz")) return scaled(kClockHz, 1e-6);
  if (key == "count" || ends_with(key, "_count") || key == "repetitions" || key == "invocations") return kCount;
  return std::nullopt;
}

// `value` (a JSON number) within `r`; the field is named in the refusal.
Status check_range(double v, const Range& r, const std::string& field) {
  const double a = std::fabs(v);
  if (a > r.max || (a != 0 && a < r.min_positive)) {
    return refuse(fmt::format("{} = {:g} is outside the physical range of {} ({:g} to {:g})", field, v, r.meaning,
                              r.min_positive, r.max));
  }
  return ok();
}

// The row's value by what its unit says it is: a time, a rate per second, or anything else.
Range range_of_unit(std::string_view unit) {
  const auto slash = unit.find('/');
  const double sec = seconds_per(unit.substr(0, slash));
  if (sec > 0) return {kTimeSeconds.min_positive / sec, kTimeSeconds.max / sec, kTimeSeconds.meaning};
  if (slash != std::string_view::npos && unit.substr(slash + 1) == "s") return kRate;
  return {kRate.min_positive, kRate.max, "a measured value"};
}

}  // namespace

namespace {

// Nesting depth of raw JSON text, outside strings. Checked before parsing so that no later step
// (parsing, dumping, destroying) ever recurses deeper than `max_depth`.
bool depth_within(std::string_view text, std::size_t max_depth) {
  std::size_t depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') {
      if (++depth > max_depth) return false;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return true;
}

// Walks a parsed document without recursion: depth, string sizes, and every number finite and
// within the range its field's name gives it (times, sizes, clocks, counts), else within the
// general bound. A refusal names the field by its path ("rows[3].stats_ms.median").
Status check_tree(const nlohmann::json& doc, const SubmissionLimits& limits) {
  struct Item {
    const nlohmann::json* node;
    std::size_t depth;
    std::string path;
    std::optional<Range> range;  // from the nearest named field
    bool float_values = false;   // under a row's `accuracy`: kFloatValue replaces kAnyNumber
  };
  std::vector<Item> stack;
  stack.push_back({&doc, 1, "", std::nullopt});
  while (!stack.empty()) {
    Item it = std::move(stack.back());
    stack.pop_back();
    const auto* node = it.node;
    if (it.depth > limits.max_depth) return refuse(fmt::format("nesting deeper than {} levels", limits.max_depth));
    if (node->is_string()) {
      if (node->get_ref<const std::string&>().size() > limits.max_string) {
        return refuse(fmt::format("{}: a string longer than {} bytes", it.path, limits.max_string));
      }
    } else if (node->is_number()) {
      const double v = node->get<double>();
      if (!std::isfinite(v)) return refuse(fmt::format("{}: a number that is not finite", it.path));
      if (auto st = check_range(v, it.float_values ? kFloatValue : kAnyNumber, it.path); !st) return st;
      if (it.range) {
        if (auto st = check_range(v, *it.range, it.path); !st) return st;
      }
    } else if (node->is_object()) {
      for (const auto& [k, v] : node->items()) {
        if (k.size() > limits.max_string) return refuse(fmt::format("a key longer than {} bytes", limits.max_string));
        // Name the field by its path; keys from a document are trimmed to keep messages short.
        std::string path = it.path.empty() ? k.substr(0, 64) : it.path + "." + k.substr(0, 64);
        // A field's range applies to its number or to the numbers of its array ("samples_ms"),
        // not to the fields of an object under it.
        const bool floats = it.float_values || (k == "accuracy" && it.path.starts_with("rows["));
        stack.push_back({&v, it.depth + 1, std::move(path), floats ? std::nullopt : range_of_key(k), floats});
      }
    } else if (node->is_array()) {
      std::size_t i = 0;
      for (const auto& v : *node) {
        stack.push_back({&v, it.depth + 1, fmt::format("{}[{}]", it.path, i++), it.range, it.float_values});
      }
    }
  }
  return ok();
}

// A short name: 1..max characters of [A-Za-z0-9._+-] (benchmark ids, suites, units stay plain).
bool plain_name(const std::string& s, std::size_t max) {
  if (s.empty() || s.size() > max) return false;
  for (unsigned char c : s) {
    if (!(std::isalnum(c) || c == '.' || c == '_' || c == '+' || c == '-' || c == '/')) return false;
  }
  return true;
}

// A row as the reporting module read it (report::read_document refused the fields of another type),
// held to what the store keeps: plain names, physical ranges, nothing negative.
Expected<RowRecord> check_row(const BenchmarkResult& r, std::size_t i) {
  RowRecord row;
  row.row_index = static_cast<int>(i);
  row.benchmark_id = r.id;
  if (!plain_name(row.benchmark_id, 128)) {
    return refuse(fmt::format("row {}: id must be 1-128 characters of [A-Za-z0-9._+/-]", i));
  }
  row.status = to_string(r.status);
  row.value = r.value;
  if (!std::isfinite(row.value) || row.value < 0) {
    return refuse(fmt::format("row {} ({}): value must be a finite number >= 0", i, row.benchmark_id));
  }
  if (row.status == "ok" && row.value <= 0) {
    return refuse(fmt::format("row {} ({}): status ok with a value of 0", i, row.benchmark_id));
  }
  // The unit the document writes beside the value (docs/results-schema.md "rows[]").
  row.value_unit = r.metric.unit + "/s";
  if (row.value_unit.size() > 32) return refuse(fmt::format("row {}: value_unit must be a short string", i));
  const Range range = range_of_unit(row.value_unit);
  if (auto st = check_range(row.value, range, fmt::format("rows[{}].value ({})", i, row.benchmark_id)); !st) {
    return st.error();
  }
  for (const double v : {r.value_low, r.value_high}) {
    if (!(v >= 0)) return refuse(fmt::format("row {}: value_iqr holds a negative or non-numeric value", i));
    if (auto st = check_range(v, range, fmt::format("rows[{}].value_iqr", i)); !st) return st.error();
  }
  row.metric = r.metric.key;
  if (!row.metric.empty() && !plain_name(row.metric, 64)) return refuse(fmt::format("row {}: metric key is not plain", i));
  row.statistic = to_string(r.statistic);
  for (const auto& [k, v] : report::stats_ms_fields(r)) {
    if (v < 0) return refuse(fmt::format("row {}: stats_ms.{} is negative", i, k));
    // Milliseconds for the location statistics; dispersions (stddev, iqr, cv, ...) may be
    // arbitrarily small, so only the general bound applies to them.
    const std::string_view key = k;
    const bool location =
        key == "median" || key == "mean" || key == "min" || key == "max" || key == "q1" || key == "q3";
    const Range stat_range = key == "count" ? kCount
                             : location
                                 ? Range{kTimeSeconds.min_positive * 1e3, kTimeSeconds.max * 1e3, kTimeSeconds.meaning}
                                 : kAnyNumber;
    if (auto c = check_range(v, stat_range, fmt::format("rows[{}].stats_ms.{}", i, k)); !c) return c.error();
  }
  row.cv = r.stats.cv;
  // The facts readers interpret of its parameters, each of its documented type.
  const auto facts = report::read_row_facts(r.parameters);
  if (!facts) return refuse(fmt::format("row {} ({}): {}", i, row.benchmark_id, facts.error().message));
  row.unranked = facts->unranked.value_or(false);
  return row;
}

// The suite says which rows a document can hold: the memory suite's phases are memory-*, the
// host's rows host-*, and the default suite runs the catalog (neither).
Status check_suite_row(const std::string& suite, const std::string& id, std::size_t i) {
  const bool memory = id.rfind("memory-", 0) == 0, host = id.rfind("host-", 0) == 0;
  if (suite == "memory" && !memory) {
    return refuse(fmt::format("rows[{}].id {}: the memory suite's rows are memory phases (memory-*)", i, id));
  }
  if (suite == "host" && !host) {
    return refuse(fmt::format("rows[{}].id {}: the host suite's rows are host benchmarks (host-*)", i, id));
  }
  if (suite == "default" && (memory || host)) {
    return refuse(fmt::format("rows[{}].id {}: a row of the {} suite in a document of the default suite", i, id,
                              memory ? "memory" : "host"));
  }
  return ok();
}

// What only a browser knows (machine.browser, written by the /run page's engine): the user agent,
// the thread WebGPU ran on, the timer's observed step. Untrusted text: short, no control
// characters; the pages escape it where they show it.
Status check_browser(const report::BrowserRecord& browser) {
  const std::string& text = browser.user_agent;
  if (text.empty() || text.size() > kMaxUserAgent) {
    return refuse(fmt::format("machine.browser.user_agent must be 1 to {} bytes", kMaxUserAgent));
  }
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) return refuse("machine.browser.user_agent holds a control character");
  }
  if (browser.webgpu_thread != "worker" && browser.webgpu_thread != "main") {
    return refuse("machine.browser.webgpu_thread must be \"worker\" or \"main\"");
  }
  return ok();
}

// Keys of every object, checked for duplicates before the document is parsed into a tree (which
// would keep the last silently). SAX: nothing but the keys of the open objects is held.
class DuplicateKeys : public nlohmann::json_sax<nlohmann::json> {
 public:
  std::string duplicate;
  bool key(string_t& k) override {
    if (objects_.empty()) return true;
    if (!objects_.back().insert(k).second) {
      duplicate = k.substr(0, 64);
      return false;
    }
    return true;
  }
  bool start_object(std::size_t) override {
    objects_.emplace_back();
    return true;
  }
  bool end_object() override {
    objects_.pop_back();
    return true;
  }
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  std::vector<std::unordered_set<std::string>> objects_;
};

}  // namespace

std::string sha256_hex(std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
  unsigned int len = 0;
  if (EVP_Digest(data.data(), data.size(), md.data(), &len, EVP_sha256(), nullptr) != 1) return {};
  std::string hex;
  hex.reserve(len * 2);
  for (unsigned int i = 0; i < len; ++i) hex += fmt::format("{:02x}", md[i]);
  return hex;
}

namespace {

// A unit of time: the direction of "ns" and of "ns/load" (time per thing) is "lower is better".
bool time_unit(std::string_view u) {
  for (std::string_view t : {"s", "ms", "us", "\u00b5s", "ns", "ps", "min", "h", "cycle", "cycles", "clk"}) {
    if (u == t) return true;
  }
  return false;
}

}  // namespace

bool lower_is_better(std::string_view value_unit) {
  // "X/s" (a rate: B/s, FLOP/s, load/s) is higher-is-better; "ns" or "ns/load" (time, or time per
  // X) is lower-is-better; anything else (a count, a ratio) is higher-is-better.
  const auto slash = value_unit.find('/');
  return time_unit(value_unit.substr(0, slash));
}

Expected<Submission> parse_submission(std::string_view text, const SubmissionLimits& limits) {
  if (!depth_within(text, limits.max_depth)) {
    return refuse(fmt::format("nesting deeper than {} levels", limits.max_depth));
  }
  // Malformed JSON is left to the parser below, which says where; only a duplicate key stops here.
  DuplicateKeys keys;
  if (!nlohmann::json::sax_parse(text, &keys) && !keys.duplicate.empty()) {
    return refuse(fmt::format("duplicate key \"{}\" in one object (which value is meant?)", keys.duplicate));
  }
  auto doc = report::parse_result_document(text, "the document");
  if (!doc) return refuse(doc.error().message);
  return make_submission(std::move(*doc), limits);
}

Expected<Submission> make_submission(nlohmann::json document, const SubmissionLimits& limits) {
  // The reporting module's checks first (schema, a version this program reads, rows with id, status
  // and a finite rate): what every reader of a stored document relies on.
  if (auto st = report::check_result_document(document, "the document"); !st) return st.error();
  if (auto st = check_tree(document, limits); !st) return st.error();

  // The document read into the types it was written from: a field of another type is refused
  // here, naming it (a row's with the row), so that every reader of a stored run can read all of it.
  const auto typed = report::read_document(document, "the document");
  if (!typed) return refuse(typed.error().message);

  Submission s;
  if (!plain_name(typed->suite, 64)) {
    return refuse("missing or malformed \"suite\" (a short name such as \"default\" or \"memory\")");
  }
  s.suite = typed->suite;
  const std::optional<std::string> started_utc = normalize_timestamp(typed->started_at);
  if (!started_utc) {
    return refuse("missing or malformed \"started_at\" (an RFC 3339 time such as 2026-11-30T06:01:17Z, with valid "
                  "date and time fields)");
  }
  s.started_at = *started_utc;  // UTC, so that the store's time filters compare instants
  if (!typed->finished_at.empty() && !normalize_timestamp(typed->finished_at)) {
    return refuse("malformed \"finished_at\" (an RFC 3339 time such as 2026-11-30T06:01:17Z)");
  }
  s.state = typed->state.empty() ? "unknown" : typed->state;
  if (!plain_name(s.state, 32)) return refuse("\"state\" must be a short name");
  // machine.browser read (report::read_browser_record) and agreeing with "runtime": what the store
  // adds is the limits on its untrusted text.
  const bool browser = typed->browser.has_value();
  if (browser) {
    if (auto st = check_browser(*typed->browser); !st) return st.error();
  }
  // Which implementation measured it (chromium, firefox, deno, ...; native): the runtime the
  // leaderboard filters and compares by (runtime_filter.hpp).
  if (auto st = check_implementation(*typed); !st) return st.error();
  s.runtime = stored_runtime(*typed);
  auto cls = device_class_of(*typed);
  if (!cls) return refuse(cls.error().message);
  s.device_class = std::move(*cls);
  // A run with non-default options (replaced kernels, robustness off, shortened sampling, ...) is
  // kept and shown, never ranked.
  s.unranked_reason = unranked_reason(*typed);

  const auto& rows = typed->rows;
  if (rows.empty()) return refuse("the document has no rows");
  if (rows.size() > limits.max_rows) return refuse(fmt::format("more than {} rows", limits.max_rows));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto row = check_row(rows[i].result, i);
    if (!row) return row.error();
    if (auto st = check_suite_row(s.suite, row->benchmark_id, i); !st) return st.error();
    s.rows.push_back(std::move(*row));
  }

  s.canonical = document.dump();
  s.digest = sha256_hex(s.canonical);
  if (s.digest.empty()) return make_error(ErrorKind::Failed, "SHA-256 failed");
  s.document = std::move(document);
  return s;
}

}  // namespace wgb::store
