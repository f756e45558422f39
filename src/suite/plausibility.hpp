// Plausibility: a rate above what the adapter can do means the kernel was optimised away or the
// work model is wrong; such a row is marked `suspect` with the reason instead of reported silently.
#pragma once

#include "webgpu_bench/context.hpp"
#include "webgpu_bench/result.hpp"

namespace wgb {

// Checks a completed row against the ceilings known for this adapter; may set status Suspect.
void apply_plausibility(BenchmarkResult& row, const gpu::Context& gpu);

}  // namespace wgb
