// Plausibility checks (filled in with the raw catalog).
#include "suite/plausibility.hpp"

namespace wgb {

void apply_plausibility(BenchmarkResult& /*row*/, const gpu::Context& /*gpu*/) {}

}  // namespace wgb
