// `webgpu-bench host`: the host CPU as a second device (to be written).
#include "cli/common.hpp"

namespace wgb::cli {

void register_host(CLI::App& /*app*/, int& /*exit_code*/) {}

}  // namespace wgb::cli
