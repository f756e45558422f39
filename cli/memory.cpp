// `webgpu-bench memory`: the memory suite (to be written).
#include "cli/common.hpp"

namespace wgb::cli {

void register_memory(CLI::App& /*app*/, int& /*exit_code*/) {}

}  // namespace wgb::cli
