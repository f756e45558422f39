// SuiteProgress and ProgressEvent live in the public API (include/webgpu_bench/progress.hpp): a
// user's own display needs them. The measurement engine names them wgb::measure:: as well.
#pragma once

#include "webgpu_bench/progress.hpp"

namespace wgb::measure {
using wgb::ProgressEvent;
using wgb::SuiteProgress;
}  // namespace wgb::measure
