// The HTML report of `webgpu-bench browser --out` (every WebGPU implementation side by side):
// one self-contained page with the columns (implementation, adapter, rounds, wall time, skipped
// ones with their reason), a heat table benchmark x implementation of the ratios to native Dawn on
// the same adapter (colour only where the change is significant), and per benchmark the rates of
// every implementation as bars whose whiskers span the lowest to the highest round.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

namespace wgb::report {

// The "kind" that marks such a file, beside "rounds", "columns" and "rows".
inline constexpr const char* kImplementationsKind = "webgpu-bench-implementations";

bool is_implementations_matrix(const nlohmann::json& j);
void write_matrix_html(std::ostream& out, const nlohmann::json& matrix);

}  // namespace wgb::report
