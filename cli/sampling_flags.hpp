// The sampling options shared by `run` and `sweep` (each is a SamplingOptions field).
#pragma once

#include <CLI/CLI.hpp>

#include "webgpu_bench/options.hpp"

namespace wgb::cli {

void add_sampling_flags(CLI::App& cmd, SamplingOptions& s);

}  // namespace wgb::cli
