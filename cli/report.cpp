// `webgpu-bench report`: a result document (and optionally more, e.g. sweeps) as one
// self-contained HTML file (-o), a CSV (--csv), or a console table.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli/common.hpp"
#include "cli/terminal.hpp"
#include "report/accuracy.hpp"
#include "report/csv.hpp"
#include "report/document.hpp"
#include "report/files.hpp"
#include "report/html.hpp"
#include "report/matrix_html.hpp"
#include "report/table.hpp"
#include "report/verdict.hpp"

namespace wgb::cli {

namespace {

struct ReportFlags {
  std::vector<std::string> inputs;
  std::string html_path;
  std::string csv_path;
};

// `webgpu-bench browser --out` writes a comparison of implementations, not a result document: its
// own page (the heat table and the bars).
std::optional<int> report_implementations(const ReportFlags& f) {
  if (f.inputs.size() != 1) return std::nullopt;
  std::ifstream in(f.inputs.front());
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (!report::is_implementations_matrix(j)) return std::nullopt;
  if (f.html_path.empty() || !f.csv_path.empty()) {
    return fail(ErrorKind::Usage, fmt::format("{} compares implementations (webgpu-bench browser --out): report it "
                                              "with -o FILE.html only", f.inputs.front()));
  }
  const auto matrix = report::read_matrix_document(j, f.inputs.front());
  if (!matrix) return fail(matrix.error());
  std::ostringstream html;
  report::write_matrix_html(html, *matrix);
  if (auto st = report::write_text_atomic(f.html_path, html.str()); !st) return fail(st.error());
  std::cout << fmt::format("wrote {} ({} implementations, {} rows)\n", f.html_path, matrix->columns.size(),
                           matrix->rows.size());
  return kExitOk;
}

int report_command(const ReportFlags& f) {
  if (auto code = report_implementations(f)) return *code;
  std::vector<report::Document> docs;
  for (const auto& path : f.inputs) {
    auto doc = report::load_document(path);
    if (!doc) return fail(doc.error());
    docs.push_back(std::move(*doc));
  }
  if (!f.html_path.empty()) {
    std::ostringstream html;
    report::write_html(html, docs);
    if (auto st = report::write_text_atomic(f.html_path, html.str()); !st) return fail(st.error());
    std::size_t rows = 0;  // every document's rows, not the first one's
    for (const auto& d : docs) rows += d.rows.size();
    std::cout << fmt::format("wrote {} ({} {}, {} {})\n", f.html_path, docs.size(),
                             docs.size() == 1 ? "document" : "documents", rows, rows == 1 ? "row" : "rows");
  }
  if (!f.csv_path.empty()) {
    std::ostringstream csv;
    for (std::size_t i = 0; i < docs.size(); ++i) {
      if (i == 0) {
        report::write_csv(csv, docs[i].rows);
      } else {  // one header for all documents
        std::ostringstream more;
        report::write_csv(more, docs[i].rows);
        const auto s = more.str();
        csv << s.substr(s.find('\n') + 1);
      }
    }
    if (auto st = report::write_text_atomic(f.csv_path, csv.str()); !st) return fail(st.error());
    std::cout << fmt::format("wrote {}\n", f.csv_path);
  }
  if (f.html_path.empty() && f.csv_path.empty()) {
    for (const auto& d : docs) {
      std::cout << d.origin << ":\n";
      report::write_table(std::cout, d.rows, terminal_width());
      report::write_accuracy_table(std::cout, d.rows, terminal_width());  // nothing without run --accuracy
      report::write_summary(std::cout, d.rows, d.repro, terminal_width());
      // Technique verdicts derived from the rows (documents written before the technique_verdicts
      // field get them too).
      report::write_verdicts(std::cout, report::family_verdicts(d.rows));
    }
  }
  return kExitOk;
}

}  // namespace

void register_report(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "report", "Report result documents: one self-contained HTML file (-o), a CSV (--csv), or a table on stdout");
  static ReportFlags f;
  cmd->add_option(
         "documents", f.inputs,
         "Result documents (JSON from run, sweep, memory or host); each gets its machine card and its device's "
         "roofline, sweep and host documents add curves. Or one comparison of implementations (browser --out) "
         "with -o: a heat table and bars")
      ->required();
  cmd->add_option("-o,--output", f.html_path, "Write the HTML report here");
  cmd->add_option("--csv", f.csv_path, "Write the rows of all documents as CSV here");
  cmd->callback([&exit_code] { exit_code = report_command(f); });
}

}  // namespace wgb::cli
