// `webgpu-bench sweep`: curves over a parameter (to be written).
#include "cli/common.hpp"

namespace wgb::cli {

void register_sweep(CLI::App& /*app*/, int& /*exit_code*/) {}

}  // namespace wgb::cli
