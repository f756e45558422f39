// The comparison of implementations, written and read (matrix_document.hpp).
#include "report/matrix_document.hpp"

#include <fmt/format.h>

#include "report/field_reader.hpp"

namespace wgb::report {

namespace {

using json = nlohmann::json;

// The fields of each record, named once for writing and reading (field_reader.hpp). The `sparse`
// lists are written only when they say something (not empty, not 0), and read like the others.
// clang-format off
template <class S, class F> void round_row_fields(S& r, F&& f) {
  f("id", r.id), f("status", r.status), f("rate", r.rate), f("unit", r.unit), f("timing", r.timing);
  f("validation", r.validation);
}
template <class S, class F> void round_row_sparse(S& r, F&& f) { f("message", r.message); }
template <class S, class F> void round_fields(S& r, F&& f) {
  f("round", r.round), f("ran", r.ran), f("wall_s", r.wall_s), f("cancelled", r.cancelled);
}
template <class S, class F> void round_sparse(S& r, F&& f) {
  f("exit_status", r.exit_status), f("error", r.error), f("warning", r.warning);
}
template <class S, class F> void column_fields(S& c, F&& f) {
  f("name", c.name), f("label", c.label), f("kind", c.kind), f("runtime", c.runtime), f("version", c.version);
  f("webgpu", c.webgpu), f("group", c.group), f("baseline", c.baseline), f("status", c.status);
  f("webgpu_version", c.webgpu_version), f("wall_s", c.wall_s);
}
template <class S, class F> void column_sparse(S& c, F&& f) { f("reason", c.reason), f("install", c.install); }
template <class S, class F> void comparison_fields(S& c, F&& f) {
  f("rounds", c.rounds), f("ratios", c.ratios), f("outputs", c.outputs);
}
template <class S, class F> void ratio_fields(S& c, F&& f) {
  f("ratio", c.ratio), f("ratio_se", c.ratio_se), f("noise", c.noise), f("significant", c.significant);
  f("significant_rounds", c.significant_rounds);
}
template <class S, class F> void cell_fields(S& c, F&& f) { f("status", c.status), f("rate", c.rate); }
template <class S, class F> void cell_sparse(S& c, F&& f) { f("reason", c.reason); }
template <class S, class F> void row_fields(S& r, F&& f) { f("id", r.id), f("unit", r.unit); }
template <class S, class F> void document_fields(S& m, F&& f) { f("rounds", m.rounds), f("notes", m.notes); }
// clang-format on

// Writes the fields that say something: a string that is not empty, a number that is not 0.
auto sparse_writer(json& j) {
  return [&j](const char* key, const auto& value) {
    using T = std::decay_t<decltype(value)>;
    if constexpr (std::is_same_v<T, std::string>) {
      if (!value.empty()) j[key] = value;
    } else {
      if (value != T{}) j[key] = value;
    }
  };
}

template <class R, class Fields, class Sparse>
json written_with(const R& r, Fields fields, Sparse sparse) {
  json j = written(r, fields);
  sparse(r, sparse_writer(j));
  return j;
}

template <class R, class Fields, class Sparse>
void read_with(const FieldReader& f, R& r, Fields fields, Sparse sparse) {
  fields(r, field_reader(f));
  sparse(r, field_reader(f));
}

json round_json(const MatrixRoundRecord& r) {
  json j = written_with(r, WGB_FIELDS(round_fields), WGB_FIELDS(round_sparse));
  if (r.state) j["state"] = *r.state;
  if (r.rows) {
    json rows = json::array();
    for (const auto& x : *r.rows)
      rows.push_back(written_with(x, WGB_FIELDS(round_row_fields), WGB_FIELDS(round_row_sparse)));
    j["rows"] = std::move(rows);
  }
  return j;
}

json column_json(const MatrixColumnRecord& c) {
  json j = written_with(c, WGB_FIELDS(column_fields), WGB_FIELDS(column_sparse));
  j["adapter"] = c.adapter;
  j["detail"] = c.detail;
  if (c.geomean) j["geomean"] = *c.geomean;
  json rounds = json::array();
  for (const auto& r : c.rounds) rounds.push_back(round_json(r));
  j["rounds"] = std::move(rounds);
  return j;
}

json cell_json(const MatrixCellRecord& c) {
  json j = written_with(c, WGB_FIELDS(cell_fields), WGB_FIELDS(cell_sparse));
  if (c.comparison) {
    comparison_fields(*c.comparison, field_writer(j));
    if (c.comparison->rounds > 0) ratio_fields(*c.comparison, field_writer(j));
  }
  return j;
}

MatrixRoundRecord round_from(const FieldReader& f, std::string* error) {
  MatrixRoundRecord r;
  read_with(f, r, WGB_FIELDS(round_fields), WGB_FIELDS(round_sparse));
  if (f.has("state")) f.get("state", r.state.emplace());
  if (f.has("rows")) {
    r.rows = std::vector<MatrixRoundRowRecord>{};
    for (const auto& x : f.raw("rows")) {
      read_with(FieldReader(x, "rows[]", error), r.rows->emplace_back(), WGB_FIELDS(round_row_fields),
                WGB_FIELDS(round_row_sparse));
    }
  }
  return r;
}

MatrixColumnRecord column_from(const FieldReader& f, std::string* error) {
  MatrixColumnRecord c;
  read_with(f, c, WGB_FIELDS(column_fields), WGB_FIELDS(column_sparse));
  if (f.is_object("adapter")) c.adapter = f.raw("adapter");
  if (f.is_object("detail")) c.detail = f.raw("detail");
  if (f.has("geomean")) f.get("geomean", c.geomean.emplace());
  if (f.raw("rounds").is_array()) {
    for (const auto& r : f.raw("rounds")) c.rounds.push_back(round_from(FieldReader(r, "rounds[]", error), error));
  }
  return c;
}

MatrixCellRecord cell_from(const FieldReader& f) {
  MatrixCellRecord c;
  read_with(f, c, WGB_FIELDS(cell_fields), WGB_FIELDS(cell_sparse));
  if (f.has("rounds")) {
    MatrixComparisonRecord& k = c.comparison.emplace();
    comparison_fields(k, field_reader(f));
    ratio_fields(k, field_reader(f));
  }
  return c;
}

}  // namespace

std::string MatrixColumnRecord::adapter_device() const {
  std::string error;
  const FieldReader a(object_or_empty(adapter), "adapter", &error);
  std::string device, description;
  a.get("device", device);
  a.get("description", description);
  return device.empty() || device == "0" ? description : device;
}

json to_json(const MatrixDocument& m) {
  json j = written(m, WGB_FIELDS(document_fields));
  j["kind"] = kImplementationsKind;
  json columns = json::array();
  for (const auto& c : m.columns) columns.push_back(column_json(c));
  j["columns"] = std::move(columns);
  json rows = json::array();
  for (const auto& r : m.rows) {
    json row = written(r, WGB_FIELDS(row_fields));
    json cells = json::object();
    for (const auto& [name, cell] : r.columns) cells[name] = cell_json(cell);
    row["columns"] = std::move(cells);
    rows.push_back(std::move(row));
  }
  j["rows"] = std::move(rows);
  if (m.page) j["page"] = *m.page;
  if (m.command_line) j["command_line"] = *m.command_line;
  return j;
}

bool is_implementations_matrix(const json& j) {
  if (!j.is_object()) return false;
  const auto kind = j.find("kind");
  return kind != j.end() && kind->is_string() && kind->get_ref<const std::string&>() == kImplementationsKind;
}

Expected<MatrixDocument> read_matrix_document(const json& j, const std::string& name) {
  std::string error;
  const FieldReader f(object_or_empty(j), "", &error);
  for (const char* list : {"columns", "rows"}) {
    if (!f.raw(list).is_array()) {
      return make_error(ErrorKind::Usage,
                        fmt::format("{}: a comparison of implementations without its \"{}\" list", name, list));
    }
  }
  MatrixDocument m;
  document_fields(m, field_reader(f));
  for (const auto& c : f.raw("columns")) m.columns.push_back(column_from(FieldReader(c, "columns[]", &error), &error));
  for (const auto& r : f.raw("rows")) {
    const FieldReader row(r, "rows[]", &error);
    MatrixRowRecord& x = m.rows.emplace_back();
    row_fields(x, field_reader(row));
    const FieldReader cells = row.child("columns");
    for (const auto& [column, cell] : object_or_empty(row.raw("columns")).items()) {
      x.columns[column] = cell_from(cells.child(column.c_str()));
    }
  }
  if (f.has("page")) f.get("page", m.page.emplace());
  if (f.has("command_line")) f.get("command_line", m.command_line.emplace());
  if (!error.empty()) return make_error(ErrorKind::Usage, fmt::format("{}: {}", name, error));
  return m;
}

}  // namespace wgb::report
