// `webgpu-bench compare`: compare two result documents (to be written).
#include "cli/common.hpp"

namespace wgb::cli {

void register_compare(CLI::App& /*app*/, int& /*exit_code*/) {}

}  // namespace wgb::cli
