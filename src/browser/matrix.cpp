// The matrix of matrix.hpp: pooling per column, the text and the JSON.
#include "browser/matrix.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "measure/stats.hpp"
#include "report/matrix_document.hpp"
#include "report/model.hpp"
#include "report/table.hpp"

namespace wgb::browser {

namespace {

bool usable(const RoundRun& r) { return r.document.has_value() && !r.cancelled; }

bool has_rate(const BenchmarkResult& r) {
  return r.value > 0 && (r.status == RowStatus::Ok || r.status == RowStatus::Throttled || r.status == RowStatus::Suspect);
}

std::string per_second(const std::string& unit) {
  return unit.size() > 2 && unit.compare(unit.size() - 2, 2, "/s") == 0 ? unit.substr(0, unit.size() - 2) : unit;
}

std::optional<std::size_t> index_of(const Matrix& m, const std::string& name) {
  for (std::size_t i = 0; i < m.columns.size(); ++i) {
    if (m.columns[i].name == name) return i;
  }
  return std::nullopt;
}

std::string verdict(const PooledRow& p) { return !p.significant ? "same" : p.geomean < 1 ? "slower" : "faster"; }

// Words filled into lines of at most `width` columns.
std::string wrap(const std::string& text, std::size_t width) {
  std::string out, line, word;
  auto flush_word = [&] {
    if (word.empty()) return;
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    word.clear();
  };
  for (char c : text) {
    if (c == ' ') {
      flush_word();
    } else {
      word += c;
    }
  }
  flush_word();
  return out + line + "\n";
}

std::string cut(const std::string& s, std::size_t n) { return s.size() <= n ? s : s.substr(0, n > 1 ? n - 1 : 0) + "~"; }

}  // namespace

MatrixResult pool_matrix(const Matrix& m) {
  MatrixResult out;
  const std::size_t n = m.columns.size();
  out.pooled.resize(n);
  out.wall_s.assign(n, 0);
  out.rounds_run.assign(n, 0);
  // Keys in the order the columns' documents list them (references first: they come first).
  std::vector<std::string> keys;
  std::map<std::string, std::string> units;
  std::vector<std::map<std::string, std::vector<double>>> rates(n);
  std::vector<std::map<std::string, std::string>> status(n), reasons(n);
  for (std::size_t c = 0; c < n && c < m.runs.size(); ++c) {
    for (const auto& r : m.runs[c]) {
      if (!r.ran) continue;
      out.wall_s[c] += r.wall_s;
      out.rounds_run[c] += 1;
      if (!usable(r)) continue;
      for (const auto& row : r.document->rows) {
        const std::string key = report::row_key(row.result);
        if (!units.count(key)) {
          keys.push_back(key);
          units[key] = row.result.metric.unit + "/s";
        }
        status[c][key] = to_string(row.result.status);
        reasons[c][key] = has_rate(row.result) ? "" : row.result.message;
        if (has_rate(row.result)) rates[c][key].push_back(row.result.value);
      }
    }
  }
  std::vector<std::map<std::string, PooledRow>> vs(n);
  for (std::size_t c = 0; c < n; ++c) {
    const auto b = index_of(m, m.columns[c].baseline);
    if (!b || c >= m.runs.size() || *b >= m.runs.size()) continue;
    // Each round's pair is (reference, column), compared as `compare` compares two documents.
    std::vector<Round> pairs;
    const std::size_t rounds = std::min(m.runs[c].size(), m.runs[*b].size());
    for (std::size_t i = 0; i < rounds; ++i) {
      const RoundRun& subject = m.runs[c][i];
      const RoundRun& reference = m.runs[*b][i];
      if (!usable(subject) || !usable(reference)) continue;
      Round r;
      r.index = subject.round;
      r.browser_wall_s = subject.wall_s;
      r.native_wall_s = reference.wall_s;
      r.browser = *subject.document;
      r.native = *reference.document;
      pairs.push_back(std::move(r));
    }
    if (pairs.empty()) continue;
    out.pooled[c] = pool_rounds(pairs);
    for (const auto& row : out.pooled[c]->rows) vs[c][row.key] = row;
  }
  for (const auto& key : keys) {
    MatrixRow row;
    row.key = key;
    row.unit = units[key];
    for (std::size_t c = 0; c < n; ++c) {
      MatrixCell cell;
      if (auto it = status[c].find(key); it != status[c].end()) cell.status = it->second;
      if (auto it = rates[c].find(key); it != rates[c].end()) cell.rate = measure::median(it->second);
      if (cell.rate <= 0) cell.reason = reasons[c][key];
      if (auto it = vs[c].find(key); it != vs[c].end()) cell.vs_baseline = it->second;
      row.cells.push_back(std::move(cell));
    }
    out.rows.push_back(std::move(row));
  }
  return out;
}

void write_matrix(std::ostream& out, const Matrix& m, const MatrixResult& r, std::size_t width) {
  width = std::max<std::size_t>(width, 60);
  std::size_t label_w = 12;
  for (const auto& c : m.columns) label_w = std::max(label_w, std::min<std::size_t>(c.label.size(), 30));
  out << wrap(fmt::format("WebGPU implementations side by side: {} round{} in alternating order; each column "
                          "against native Dawn on its own adapter",
                          m.rounds, m.rounds == 1 ? "" : "s"),
              width)
      << "\n";
  const std::size_t adapter_w = std::min<std::size_t>(34, width > label_w + 44 ? width - label_w - 44 : 10);
  out << fmt::format("{:<{}}  {:<{}}  {:>6}  {:>10}  {}\n", "column", label_w, "adapter", adapter_w, "rounds",
                     "wall/round", "vs reference");
  out << std::string(std::min<std::size_t>(width, label_w + adapter_w + 44), '-') << "\n";
  for (std::size_t c = 0; c < m.columns.size(); ++c) {
    const auto& col = m.columns[c];
    const std::string adapter = col.adapter_name.empty() ? adapter_text(report::read_adapter_identity(col.adapter)) : col.adapter_name;
    if (col.status == "skipped") {
      out << fmt::format("{:<{}}  skipped: see below\n", cut(col.label, label_w), label_w);
      continue;
    }
    std::string versus = col.baseline.empty() ? "reference" : "-";
    if (c < r.pooled.size() && r.pooled[c] && r.pooled[c]->geomean > 0) {
      versus = fmt::format("{:.3f} (geometric mean)", r.pooled[c]->geomean);
    }
    if (col.status == "failed") versus += ", failed";
    const int n = c < r.rounds_run.size() ? r.rounds_run[c] : 0;
    out << fmt::format("{:<{}}  {:<{}}  {:>6}  {:>10}  {}\n", cut(col.label, label_w), label_w,
                       cut(adapter, adapter_w), adapter_w, fmt::format("{}/{}", n, m.rounds),
                       n > 0 ? fmt::format("{:.1f} s", r.wall_s[c] / n) : "-", versus);
  }
  for (const auto& note : m.notes) out << wrap(note, width);
  for (std::size_t c = 0; c < m.columns.size() && c < m.runs.size(); ++c) {
    for (const auto& run : m.runs[c]) {
      if (!run.warning.empty()) out << wrap(fmt::format("{} round {}: {}", m.columns[c].name, run.round, run.warning), width);
    }
  }
  for (const auto& col : m.columns) {
    if (col.status == "skipped") {
      out << wrap(fmt::format("skipped {}: {}{}", col.name, col.reason,
                              col.install.empty() ? "" : fmt::format(" (to get it: {})", col.install)),
                  width);
    } else if (col.status == "failed") {
      out << wrap(fmt::format("failed {}: {}", col.name, col.reason), width);
    }
  }

  for (const auto& row : r.rows) {
    out << fmt::format("\n{}\n", row.key);
    std::string group;
    for (std::size_t c = 0; c < m.columns.size(); ++c) {
      const auto& col = m.columns[c];
      if (col.status == "skipped") continue;
      if (col.group != group && !group.empty()) out << "\n";
      group = col.group;
      const MatrixCell& cell = row.cells[c];
      const std::string rate = cell.rate > 0 ? report::format_rate(cell.rate, per_second(row.unit))
                                             : (cell.status.empty() ? "-" : cell.status);
      std::string line = fmt::format("  {:<{}}  {:>11}", cut(col.label, label_w), label_w, rate);
      if (col.baseline.empty()) {
        line += "  reference";
      } else if (cell.vs_baseline && cell.vs_baseline->rounds > 0) {
        const PooledRow& p = *cell.vs_baseline;
        line += fmt::format("  {:>15}  {:<6}  {:>5}  {}", fmt::format("{:.3f} ± {:.3f}", p.geomean, p.se), verdict(p),
                            fmt::format("{}/{}", p.significant_rounds, p.rounds), cut(p.outputs, 12));
      } else if (cell.vs_baseline) {
        line += fmt::format("  {:>15}  {:<6}  {:>5}  {}", "-", "-", "0", cut(cell.vs_baseline->outputs, 12));
      }
      out << line << "\n";
      if (!cell.reason.empty()) out << fmt::format("    {}\n", cut(cell.reason, width > 5 ? width - 5 : 20));
      if (cell.vs_baseline && cell.vs_baseline->outputs.size() > 12) {
        out << fmt::format("    outputs: {}\n", cut(cell.vs_baseline->outputs, width > 14 ? width - 14 : 20));
      }
    }
  }
  out << "\n"
      << wrap("vs reference: the geometric mean of the per-round rate ratios to native Dawn on the same adapter ± its "
              "standard error; verdict by the rule every comparison uses, for paired rounds (docs/method.md#differ); "
              "the count: rounds whose own comparison (as `compare`) found the change significant; "
              "outputs: whether both validated the same check. Rates: medians over the rounds.",
              width);
}

report::MatrixDocument matrix_document(const Matrix& m, const MatrixResult& r) {
  report::MatrixDocument out;
  out.rounds = m.rounds;
  out.notes = m.notes;
  for (std::size_t c = 0; c < m.columns.size(); ++c) {
    const auto& col = m.columns[c];
    report::MatrixColumnRecord& j = out.columns.emplace_back();
    j.name = col.name, j.label = col.label, j.kind = col.kind, j.runtime = col.runtime, j.version = col.version;
    j.webgpu = col.webgpu, j.group = col.group, j.baseline = col.baseline, j.status = col.status;
    j.adapter = col.adapter, j.detail = col.detail, j.reason = col.reason, j.install = col.install;
    if (!col.webgpu_version.empty()) j.webgpu_version = col.webgpu_version;
    j.wall_s = c < r.wall_s.size() ? r.wall_s[c] : 0.0;
    if (c < r.pooled.size() && r.pooled[c]) j.geomean = r.pooled[c]->geomean;
    for (const auto& run : c < m.runs.size() ? m.runs[c] : std::vector<RoundRun>{}) {
      report::MatrixRoundRecord& rj = j.rounds.emplace_back();
      rj.round = run.round, rj.ran = run.ran, rj.wall_s = run.wall_s, rj.cancelled = run.cancelled;
      rj.exit_status = run.exit_status, rj.error = run.error, rj.warning = run.warning;
      if (!run.document) continue;
      rj.state = run.document->state;
      rj.rows.emplace();
      for (const auto& row : run.document->rows) {
        const auto& x = row.result;
        rj.rows->push_back({report::row_key(x), to_string(x.status), x.value, x.metric.unit + "/s",
                            to_string(x.timing_method), x.validation, x.message});
      }
    }
  }
  for (const auto& row : r.rows) {
    report::MatrixRowRecord& x = out.rows.emplace_back();
    x.id = row.key, x.unit = row.unit;
    for (std::size_t c = 0; c < row.cells.size(); ++c) {
      const MatrixCell& cell = row.cells[c];
      report::MatrixCellRecord& j = x.columns[m.columns[c].name];
      j.status = cell.status, j.rate = cell.rate, j.reason = cell.reason;
      if (cell.vs_baseline) {
        const PooledRow& p = *cell.vs_baseline;
        j.comparison = report::MatrixComparisonRecord{p.rounds, p.ratios, p.outputs,     p.geomean,
                                                      p.se,     p.noise,  p.significant, p.significant_rounds};
      }
    }
  }
  return out;
}

}  // namespace wgb::browser
