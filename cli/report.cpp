// `webgpu-bench report`: HTML report (to be written).
#include "cli/common.hpp"

namespace wgb::cli {

void register_report(CLI::App& /*app*/, int& /*exit_code*/) {}

}  // namespace wgb::cli
