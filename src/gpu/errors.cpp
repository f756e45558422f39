// Names of the error kinds (expected.hpp).
#include "webgpu_bench/expected.hpp"

namespace wgb {

const char* to_string(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::Skipped: return "skipped";
    case ErrorKind::Failed: return "failed";
    case ErrorKind::Compile: return "compile";
    case ErrorKind::OutOfMemory: return "out-of-memory";
    case ErrorKind::DeviceLost: return "device-lost";
    case ErrorKind::GpuError: return "gpu-error";
    case ErrorKind::Cancelled: return "cancelled";
    case ErrorKind::Usage: return "usage";
    case ErrorKind::NoAdapter: return "no-adapter";
    case ErrorKind::Io: return "io";
  }
  return "unknown";
}

}  // namespace wgb
