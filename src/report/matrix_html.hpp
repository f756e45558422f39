// The HTML report of `webgpu-bench browser --out` (every WebGPU implementation side by side):
// one self-contained page with the columns (implementation, adapter, rounds, wall time, skipped
// ones with their reason), a heat table benchmark x implementation of the ratios to native Dawn on
// the same adapter (colour only where the change is significant), and per benchmark the rates of
// every implementation as bars whose whiskers span the lowest to the highest round.
#pragma once

#include <ostream>

#include "report/matrix_document.hpp"

namespace wgb::report {

void write_matrix_html(std::ostream& out, const MatrixDocument& matrix);

}  // namespace wgb::report
