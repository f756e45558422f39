// Checks of submitted documents (docs/store.md, "What the server accepts").
#include "store/submission.hpp"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <utility>

#include "report/document.hpp"
#include "store/ranking.hpp"

namespace wgb::store {

namespace {

Error refuse(std::string message) { return make_error(ErrorKind::Usage, std::move(message)); }

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

// Walks a parsed document without recursion: depth, string sizes and finiteness of every number.
Status check_tree(const nlohmann::json& doc, const SubmissionLimits& limits) {
  std::vector<std::pair<const nlohmann::json*, std::size_t>> stack{{&doc, 1}};
  while (!stack.empty()) {
    auto [node, depth] = stack.back();
    stack.pop_back();
    if (depth > limits.max_depth) return refuse(fmt::format("nesting deeper than {} levels", limits.max_depth));
    if (node->is_string()) {
      if (node->get_ref<const std::string&>().size() > limits.max_string) {
        return refuse(fmt::format("a string longer than {} bytes", limits.max_string));
      }
    } else if (node->is_number_float()) {
      if (!std::isfinite(node->get<double>())) return refuse("a number that is not finite");
    } else if (node->is_object()) {
      for (const auto& [k, v] : node->items()) {
        if (k.size() > limits.max_string) return refuse(fmt::format("a key longer than {} bytes", limits.max_string));
        stack.emplace_back(&v, depth + 1);
      }
    } else if (node->is_array()) {
      for (const auto& v : *node) stack.emplace_back(&v, depth + 1);
    }
  }
  return ok();
}

bool known_status(const std::string& s) {
  static constexpr std::array<const char*, 6> kStatuses{"ok", "skipped", "error", "throttled", "cancelled", "suspect"};
  for (const char* k : kStatuses) {
    if (s == k) return true;
  }
  return false;
}

// A short name: 1..max characters of [A-Za-z0-9._+-] (benchmark ids, suites, units stay plain).
bool plain_name(const std::string& s, std::size_t max) {
  if (s.empty() || s.size() > max) return false;
  for (unsigned char c : s) {
    if (!(std::isalnum(c) || c == '.' || c == '_' || c == '+' || c == '-' || c == '/')) return false;
  }
  return true;
}

// "2026-11-30T06:01:17Z" and the like: digits where digits belong, nothing exotic.
bool timestamp_like(const std::string& s) {
  if (s.size() < 10 || s.size() > 40) return false;
  for (std::size_t i = 0; i < 10; ++i) {
    const bool digit = std::isdigit(static_cast<unsigned char>(s[i])) != 0;
    if ((i == 4 || i == 7) ? s[i] != '-' : !digit) return false;
  }
  for (unsigned char c : s) {
    if (!(std::isdigit(c) || c == '-' || c == ':' || c == 'T' || c == 'Z' || c == '.' || c == '+' || c == ' ')) {
      return false;
    }
  }
  return true;
}

Expected<RowRecord> check_row(const nlohmann::json& r, std::size_t i) {
  RowRecord row;
  row.row_index = static_cast<int>(i);
  row.benchmark_id = r["id"].get<std::string>();
  if (!plain_name(row.benchmark_id, 128)) {
    return refuse(fmt::format("row {}: id must be 1-128 characters of [A-Za-z0-9._+/-]", i));
  }
  row.status = r["status"].get<std::string>();
  if (!known_status(row.status)) return refuse(fmt::format("row {} ({}): unknown status", i, row.benchmark_id));
  row.value = r["value"].get<double>();
  if (!std::isfinite(row.value) || row.value < 0) {
    return refuse(fmt::format("row {} ({}): value must be a finite number >= 0", i, row.benchmark_id));
  }
  if (row.status == "ok" && row.value <= 0) {
    return refuse(fmt::format("row {} ({}): status ok with a value of 0", i, row.benchmark_id));
  }
  if (auto m = r.find("metric"); m != r.end() && !m->is_null()) {
    if (m->is_object()) {
      auto key = m->find("key");
      if (key != m->end() && !key->is_string()) return refuse(fmt::format("row {}: metric.key must be a string", i));
      if (key != m->end()) row.metric = key->get<std::string>();
    } else if (m->is_string()) {
      row.metric = m->get<std::string>();
    } else {
      return refuse(fmt::format("row {}: metric must be an object or a string", i));
    }
  }
  if (!row.metric.empty() && !plain_name(row.metric, 64)) return refuse(fmt::format("row {}: metric key is not plain", i));
  if (auto u = r.find("value_unit"); u != r.end()) {
    if (!u->is_string() || u->get<std::string>().size() > 32) {
      return refuse(fmt::format("row {}: value_unit must be a short string", i));
    }
    row.value_unit = u->get<std::string>();
  }
  if (auto s = r.find("statistic"); s != r.end()) {
    if (!s->is_string() || s->get<std::string>().size() > 32) {
      return refuse(fmt::format("row {}: statistic must be a short string", i));
    }
    row.statistic = s->get<std::string>();
  }
  if (auto st = r.find("stats_ms"); st != r.end()) {
    if (!st->is_object()) return refuse(fmt::format("row {}: stats_ms must be an object", i));
    for (const auto& [k, v] : st->items()) {
      if (!v.is_number()) return refuse(fmt::format("row {}: stats_ms.{} must be a number", i, k));
      if (v.get<double>() < 0) return refuse(fmt::format("row {}: stats_ms.{} is negative", i, k));
    }
    if (auto cv = st->find("cv"); cv != st->end()) row.cv = cv->get<double>();
  }
  if (auto iqr = r.find("value_iqr"); iqr != r.end()) {
    if (!iqr->is_array()) return refuse(fmt::format("row {}: value_iqr must be an array", i));
    for (const auto& v : *iqr) {
      if (!v.is_number() || v.get<double>() < 0) {
        return refuse(fmt::format("row {}: value_iqr holds a negative or non-numeric value", i));
      }
    }
  }
  if (auto p = r.find("parameters"); p != r.end() && !p->is_null()) {
    if (!p->is_object()) return refuse(fmt::format("row {}: parameters must be an object", i));
    if (auto u = p->find("unranked"); u != p->end()) {
      if (!u->is_boolean()) return refuse(fmt::format("row {}: parameters.unranked must be true or false", i));
      row.unranked = u->get<bool>();
    }
  }
  return row;
}

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
  auto doc = report::parse_result_document(text, "the document");
  if (!doc) return refuse(doc.error().message);
  return make_submission(std::move(*doc), limits);
}

Expected<Submission> make_submission(nlohmann::json document, const SubmissionLimits& limits) {
  // The reporting module's checks first (schema, version, rows with id/status/value).
  auto schema = document.is_object() ? document.find("schema") : document.end();
  if (!document.is_object() || schema == document.end() || *schema != report::kSchemaName) {
    return refuse(fmt::format("not a webgpu-bench result document (no \"schema\": \"{}\")", report::kSchemaName));
  }
  auto version = document.find("schema_version");
  if (version == document.end()) return refuse("missing schema_version");
  if (!version->is_number_integer() || version->get<std::int64_t>() < 1 ||
      version->get<std::int64_t>() > report::kSchemaVersion) {
    return refuse(fmt::format("schema_version {} is not supported (this server reads 1 to {})",
                              version->dump(), report::kSchemaVersion));
  }
  if (auto st = check_tree(document, limits); !st) return st.error();

  Submission s;
  auto suite = document.find("suite");
  if (suite == document.end() || !suite->is_string() || !plain_name(suite->get<std::string>(), 64)) {
    return refuse("missing or malformed \"suite\" (a short name such as \"default\" or \"memory\")");
  }
  s.suite = suite->get<std::string>();
  auto started = document.find("started_at");
  if (started == document.end() || !started->is_string() || !timestamp_like(started->get<std::string>())) {
    return refuse("missing or malformed \"started_at\" (ISO 8601 time)");
  }
  s.started_at = started->get<std::string>();
  s.state = "unknown";
  if (auto st = document.find("state"); st != document.end()) {
    if (!st->is_string() || !plain_name(st->get<std::string>(), 32)) return refuse("\"state\" must be a short name");
    s.state = st->get<std::string>();
  }
  auto cls = device_class_of(document);
  if (!cls) return refuse(cls.error().message);
  s.device_class = std::move(*cls);
  // A run with non-default options (replaced kernels, robustness off, shortened sampling, ...) is
  // kept and shown, never ranked.
  s.unranked_reason = unranked_reason(document);

  auto rows = document.find("rows");
  if (rows == document.end() || !rows->is_array()) return refuse("missing the \"rows\" array");
  if (rows->empty()) return refuse("the document has no rows");
  if (rows->size() > limits.max_rows) return refuse(fmt::format("more than {} rows", limits.max_rows));
  for (std::size_t i = 0; i < rows->size(); ++i) {
    const auto& r = (*rows)[i];
    if (!r.is_object() || !r.contains("id") || !r["id"].is_string() || !r.contains("value") ||
        !r["value"].is_number() || !r.contains("status") || !r["status"].is_string()) {
      return refuse(fmt::format("row {} lacks id/status/value of the right types", i));
    }
    auto row = check_row(r, i);
    if (!row) return row.error();
    s.rows.push_back(std::move(*row));
  }

  s.canonical = document.dump();
  s.digest = sha256_hex(s.canonical);
  if (s.digest.empty()) return make_error(ErrorKind::Failed, "SHA-256 failed");
  s.document = std::move(document);
  return s;
}

}  // namespace wgb::store
