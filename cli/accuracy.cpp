// `run --accuracy` (accuracy.hpp).
#include "cli/accuracy.hpp"

#include <fmt/format.h>

#include <chrono>

#include "catalog/accuracy/accuracy.hpp"

namespace wgb::cli {

void add_accuracy(gpu::Context& gpu, report::ResultDocument& doc, Session& session, std::ostream& err, bool progress) {
  bool any = false;
  for (auto& row : doc.rows()) {
    if (session.cancelled()) break;
    const auto cases = catalog::accuracy::cases_for(row.result.id);
    if (cases.empty()) continue;
    any = true;
    const auto started = std::chrono::steady_clock::now();
    row.result.accuracy = catalog::accuracy::measure_probe(gpu, row.result.id);
    doc.refresh();
    session.write(doc);
    if (progress) {
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      err << fmt::format("accuracy: {} ({} entr{}, {:.1f} s)\n", row.result.id, cases.size(),
                         cases.size() == 1 ? "y" : "ies", s)
          << std::flush;
    }
  }
  if (!any) err << "accuracy: none of the rows run times a floating-point builtin\n";
}

}  // namespace wgb::cli
