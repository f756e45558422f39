// `webgpu-bench serve/submit`: results store and leaderboard server (to be written).
#include "cli/common.hpp"

namespace wgb::cli {

void register_store(CLI::App& /*app*/, int& /*exit_code*/) {}

}  // namespace wgb::cli
