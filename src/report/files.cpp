// Writing result documents atomically and loading them with clear errors (files.hpp).
#include "report/files.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "report/csv.hpp"
#include "report/field_reader.hpp"
#include "report/roofline.hpp"

namespace wgb::report {

// ---- files ------------------------------------------------------------------------------------

Status write_csv_atomic(const std::filesystem::path& path, const std::vector<ReportRow>& rows) {
  std::ostringstream csv;
  write_csv(csv, rows);
  return write_text_atomic(path, csv.str());
}

Status write_outputs(const std::string& json_path, const std::string& csv_path, const ResultDocument& doc) {
  if (!json_path.empty()) {
    if (auto st = write_json_atomic(json_path, doc.json()); !st) return st;
  }
  if (!csv_path.empty()) return write_csv_atomic(csv_path, doc.rows());
  return ok();
}

Status write_text_atomic(const std::filesystem::path& path, const std::string& text) {
  // Every error names the path the user gave and the system's reason (not the temporary file).
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return make_error(ErrorKind::Io, fmt::format("cannot write {}: {}", path.string(), std::strerror(EISDIR)));
  }
  const auto dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  const auto tmp = dir / fmt::format(".{}.tmp-{}", path.filename().string(), getpid());
  {
    errno = 0;
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      const int err = errno != 0 ? errno : EIO;
      return make_error(ErrorKind::Io, fmt::format("cannot write {}: {}", path.string(), std::strerror(err)));
    }
    out << text;
    out.flush();
    if (!out) {
      const int err = errno != 0 ? errno : EIO;
      out.close();
      std::filesystem::remove(tmp, ec);
      return make_error(ErrorKind::Io, fmt::format("cannot write {}: {}", path.string(), std::strerror(err)));
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    const std::string reason = ec.message();  // before remove() reuses ec
    std::filesystem::remove(tmp, ec);
    return make_error(ErrorKind::Io, fmt::format("cannot replace {}: {}", path.string(), reason));
  }
  return ok();
}

Status write_json_atomic(const std::filesystem::path& path, const nlohmann::json& doc) {
  return write_text_atomic(path, doc.dump(2) + "\n");
}

Expected<nlohmann::json> load_result_document(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return make_error(ErrorKind::Usage, fmt::format("{}: is a directory, not a result document", name));
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(ErrorKind::Usage,
                      fmt::format("{}: cannot open the file: {}", name, std::strerror(errno != 0 ? errno : ENOENT)));
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_result_document(buffer.str(), name);
}

Status check_result_document(const nlohmann::json& doc, const std::string& name) {
  if (!doc.is_object()) {
    return make_error(ErrorKind::Usage, fmt::format("{}: not a webgpu-bench result document (the JSON is not an object)", name));
  }
  if (!doc.contains("schema") || !doc["schema"].is_string()) {
    return make_error(ErrorKind::Usage,
                      fmt::format("{}: not a webgpu-bench result document (no \"schema\": \"{}\")", name, kSchemaName));
  }
  if (doc["schema"] != kSchemaName) {
    return make_error(ErrorKind::Usage, fmt::format("{}: not a webgpu-bench result document (foreign document: schema is \"{}\", expected \"{}\")", name,
                                                    doc["schema"].get<std::string>(), kSchemaName));
  }
  if (!doc.contains("schema_version") || !doc["schema_version"].is_number_integer()) {
    return make_error(ErrorKind::Usage, fmt::format("{}: missing or non-integer schema_version", name));
  }
  if (doc["schema_version"].get<std::int64_t>() < 1) {
    return make_error(ErrorKind::Usage, fmt::format("{}: schema_version {} is not a valid version (1 to {})", name,
                                                    doc["schema_version"].dump(), kSchemaVersion));
  }
  if (doc["schema_version"].get<std::int64_t>() > kSchemaVersion) {
    return make_error(ErrorKind::Usage, fmt::format("{}: schema_version {} is newer than this program reads ({})", name,
                                                    doc["schema_version"].dump(), kSchemaVersion));
  }
  if (!doc.contains("rows") || !doc["rows"].is_array()) {
    return make_error(ErrorKind::Usage, fmt::format("{}: missing the \"rows\" array", name));
  }
  for (std::size_t i = 0; i < doc["rows"].size(); ++i) {
    const auto& r = doc["rows"][i];
    if (!r.is_object() || !r.contains("id") || !r["id"].is_string() || !r.contains("value") ||
        !r["value"].is_number() || !r.contains("status") || !r["status"].is_string()) {
      return make_error(ErrorKind::Usage,
                        fmt::format("{}: row {} lacks id/status/value of the right types", name, i));
    }
    // A rate is a count per second: negative or non-finite values are corrupt, not measurements.
    auto bad_rate = [](const nlohmann::json& v) {
      return !v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0;
    };
    if (bad_rate(r["value"])) {
      return make_error(ErrorKind::Usage, fmt::format("{}: row {} ({}): \"value\" is {}, expected a finite rate >= 0",
                                                      name, i, r["id"].get<std::string>(), r["value"].dump()));
    }
    if (r.contains("value_iqr") && r["value_iqr"].is_array()) {
      for (const auto& v : r["value_iqr"]) {
        if (bad_rate(v)) {
          return make_error(ErrorKind::Usage,
                            fmt::format("{}: row {} ({}): \"value_iqr\" holds {}, expected finite rates >= 0", name, i,
                                        r["id"].get<std::string>(), v.dump()));
        }
      }
    }
  }
  for (const char* section : {"machine", "build", "options"}) {
    if (doc.contains(section) && !doc[section].is_object()) {
      return make_error(ErrorKind::Usage, fmt::format("{}: \"{}\" is not an object", name, section));
    }
  }
  return ok();
}

// The checks of a result document, for a file (load_result_document) or a request body (the store):
// one-line errors that name `origin` and the problem.
Expected<nlohmann::json> parse_result_document(std::string_view text, const std::string& name) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return make_error(ErrorKind::Usage, fmt::format("{}: not valid JSON: the file is empty", name));
  }
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    const bool at_end = e.byte >= text.size();
    return make_error(ErrorKind::Usage,
                      fmt::format("{}: not valid JSON ({} at byte {})", name,
                                  at_end ? "ends early: truncated?" : "corrupt", e.byte));
  } catch (const nlohmann::json::exception& e) {  // out_of_range: a number too large for a double (1e400)
    return make_error(ErrorKind::Usage, fmt::format("{}: not valid JSON: {}", name, e.what()));
  }
  if (auto st = check_result_document(doc, name); !st) return st.error();
  return doc;
}

namespace {

std::string text_at(const nlohmann::json& j, std::initializer_list<const char*> path) {
  const nlohmann::json* node = &j;
  for (const char* key : path) {
    if (!node->is_object()) return {};
    const auto it = node->find(key);
    if (it == node->end()) return {};
    node = &*it;
  }
  return node->is_string() ? node->get<std::string>() : std::string();
}

std::vector<std::string> strings_of(const nlohmann::json& j) {
  std::vector<std::string> out;
  if (!j.is_array()) return out;
  for (const auto& v : j) out.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  return out;
}

// Everything but the rows. A machine.browser or an implementation that does not read is left out,
// and the first such error goes to `problem` (read_document refuses the document with it).
Document header_of(const nlohmann::json& j, const std::string& origin, std::optional<Error>* problem = nullptr) {
  auto note = [problem](const Error& e) {
    if (problem != nullptr && !*problem) *problem = e;
  };
  Document d;
  d.origin = origin;
  if (!j.is_object()) return d;
  if (const auto v = j.find("schema_version"); v != j.end() && v->is_number_integer()) d.schema_version = v->get<int>();
  d.suite = text_at(j, {"suite"});
  d.state = text_at(j, {"state"});
  d.started_at = text_at(j, {"started_at"});
  d.finished_at = text_at(j, {"finished_at"});
  if (const auto rt = text_at(j, {"runtime"}); !rt.empty()) d.runtime = rt;
  if (const auto c = j.find("command"); c != j.end()) d.command = strings_of(*c);
  auto section = [&j](const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_object() ? *it : nlohmann::json::object();
  };
  d.machine = section("machine");
  d.build = section("build");
  d.options = section("options");
  const auto& m = d.machine;
  const auto adapter = m.find("adapter");
  d.adapter = read_adapter_identity(adapter == m.end() ? nlohmann::json() : *adapter);
  d.host_cpu = text_at(m, {"host", "cpu_model"});
  if (const auto h = m.find("host"); h != m.end() && h->is_object()) d.host_recorded = true;
  if (const auto b = m.find("browser"); b != m.end()) {
    if (auto browser = read_browser_record(*b)) {
      d.browser = std::move(*browser);
    } else {
      note(browser.error());
    }
    if (d.runtime == "native") d.runtime = "browser";
  }
  d.implementation = implementation_of(j);
  if (auto recorded = recorded_implementation(j)) {
    d.recorded_implementation = std::move(*recorded);
  } else {
    note(recorded.error());
  }
  d.build_version = text_at(d.build, {"version"});
  d.build_revision = text_at(d.build, {"git_revision"});
  if (const auto r = j.find("repro"); r != j.end() && r->is_object()) {
    ReproSummary s;
    s.verdict = text_at(*r, {"verdict"});
    if (const auto t = r->find("tolerance"); t != r->end() && t->is_number()) s.tolerance = t->get<double>();
    if (const auto k = r->find("disagreeing"); k != r->end()) s.disagreeing = strings_of(*k);
    s.reason = text_at(*r, {"reason"});
    d.repro = std::move(s);
  }
  d.sweep = j.contains("sweep");
  if (const auto k = j.find("kernel_overrides"); k != j.end() && !k->is_null()) d.kernels_replaced = true;
  if (const auto sw = j.find("sweep"); sw != j.end() && sw->is_object() && sw->contains("notes")) {
    d.sweep_notes = strings_of((*sw)["notes"]);
  }
  if (const auto p = j.find("test_perturbation"); p != j.end()) d.test_perturbation = p->is_string() ? p->get<std::string>() : p->dump();
  return d;
}

}  // namespace

namespace {

// What read_document holds a document's header to, beyond what header_of reads tolerantly (it
// reports machine.browser and the implementation itself).
Status check_header(const nlohmann::json& j) {
  std::string error;
  const FieldReader in(j, "", &error);
  std::string text;
  for (const char* key : {"suite", "state", "started_at", "finished_at", "runtime"}) in.get(key, text);
  if (!error.empty()) return make_error(ErrorKind::Usage, error);
  // The machine's identity, as the results store classes devices by it.
  if (in.has("machine") && in.is_object("machine")) {
    const FieldReader m = in.child("machine");
    if (m.is_object("adapter")) {
      const FieldReader a = m.child("adapter");
      for (const char* key : {"vendor", "architecture", "device", "description", "driver", "backend", "adapter_type"}) {
        a.get(key, text);
      }
    }
    if (m.is_object("host")) {
      const FieldReader h = m.child("host");
      // Its counts are read tolerantly (read_host_description): version 1 wrote cores_per_socket as text.
      h.get("cpu_model", text);
      h.get("arch", text);
    }
  }
  if (!error.empty()) return make_error(ErrorKind::Usage, error);
  const nlohmann::json& machine = in.raw("machine");
  const bool in_browser = machine.is_object() && machine.contains("browser");
  // The engine writes "runtime": "browser" beside machine.browser; the two must agree.
  if (in.has("runtime")) {
    in.get("runtime", text);
    if (text != "browser" && text != "native") {
      return make_error(ErrorKind::Usage, "\"runtime\" must be \"browser\" or \"native\"");
    }
    if ((text == "browser") != in_browser) {
      return make_error(ErrorKind::Usage, in_browser ? "machine.browser in a document whose runtime is \"native\""
                                                     : "\"runtime\": \"browser\" without machine.browser");
    }
  }
  return ok();
}

}  // namespace

std::string Document::device_name() const {
  if (host_suite()) return "host CPU" + (host_cpu.empty() ? "" : ": " + host_cpu);
  return adapter.device;
}

Expected<Document> read_document(const nlohmann::json& checked, const std::string& origin) {
  std::optional<Error> problem;
  Document out = header_of(checked, origin, &problem);
  if (auto st = check_header(checked); !st) problem = st.error();
  if (problem) return make_error(ErrorKind::Usage, fmt::format("{}: {}", origin, problem->message));
  const auto& rows = checked["rows"];
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto row = row_from_json(rows[i]);
    if (!row) {
      return make_error(ErrorKind::Usage, fmt::format("{}: row {} ({}): {}", origin, i,
                                                      rows[i]["id"].get<std::string>(), row.error().message));
    }
    out.rows.push_back(std::move(*row));
  }
  apply_roofline(out.rows);
  if (const auto h = checked.find("hierarchy"); h != checked.end()) {
    auto section = hierarchy::section_from_json(*h);
    if (!section) return make_error(ErrorKind::Usage, fmt::format("{}: {}", origin, section.error().message));
    out.hierarchy = std::move(*section);
  }
  return out;
}

Document stored_document(const nlohmann::json& doc, const std::string& origin) {
  Document out = header_of(doc, origin);
  if (doc.is_object() && doc.contains("rows") && doc["rows"].is_array()) {
    for (const auto& j : doc["rows"]) {
      if (auto row = row_from_json(j)) out.rows.push_back(std::move(*row));
    }
  }
  apply_roofline(out.rows);
  if (const auto h = doc.find("hierarchy"); doc.is_object() && h != doc.end()) {
    if (auto section = hierarchy::section_from_json(*h)) out.hierarchy = std::move(*section);
  }
  return out;
}

Expected<Document> load_document(const std::filesystem::path& path) {
  auto doc = load_result_document(path);
  if (!doc) return std::move(doc).error();
  return read_document(*doc, path.string());
}

}  // namespace wgb::report
