// Starting this same program again as a child process (for `run --repro`): through
// /proc/self/exe, and through the same dynamic loader and its options when the program was started
// by the loader explicitly (scripts/wgb does that in a copy of the tree).
#pragma once

#include <string>
#include <vector>

#include "webgpu_bench/expected.hpp"

namespace wgb::cli {

// The command that starts this program: {exe} or {loader, loader options..., program}.
std::vector<std::string> self_command();
// Runs self_command() + args with stdout discarded and stderr inherited; returns the exit status
// (128 + signal when killed by a signal).
Expected<int> run_self(const std::vector<std::string>& args);

}  // namespace wgb::cli
