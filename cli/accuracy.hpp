// `run --accuracy`: after the speed rows, the accuracy pass over the floating-point builtins they time,
// on the same device (src/catalog/accuracy/, docs/method.md#accuracy). Each row's entries become its
// `accuracy` fields, and the document is written again.
#pragma once

#include <ostream>

#include "cli/session.hpp"
#include "report/document.hpp"
#include "webgpu_bench/context.hpp"

namespace wgb::cli {

// Measures every row of `doc` that times a builtin, in order, and writes the document after each;
// stops at an interrupt (the rows done keep their entries). `err` gets a line when no row times a
// builtin and, with `progress`, one line per row measured.
void add_accuracy(gpu::Context& gpu, report::ResultDocument& doc, Session& session, std::ostream& err, bool progress);

}  // namespace wgb::cli
