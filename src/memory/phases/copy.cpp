// memory-copy: load from one buffer, store to the other; consecutive dispatches copy A to B then B
// to A (docs/method.md#memory-workload). Sustain runs the same workload (sustain.cpp).
#include "memory/phases.hpp"

namespace wgb::memory {

namespace {

class CopyWorkload final : public AlternatingWorkload {
 public:
  explicit CopyWorkload(Fixture& f)
      : AlternatingWorkload(f, {"memory/copy", f.geometry().workgroups, f.geometry().invocations,
                                "copies A to B then B to A", {{f.geometry().invocations, 0, 0, 0}, {}}, true,
                                "memory copy params", {"ABP", "BAP"}}) {}
  // After the first copy (A to B) both buffers hold what A held before the phase.
  void after_timing() override {
    if (f_.alternation >= 1) f_.content_b = f_.content_a;
  }
  Expected<std::string> validate() override {
    return f_.spot_check_both("what A held before the timed copies (B differed)");
  }
};

}  // namespace

Expected<std::unique_ptr<PhaseWorkload>> prepare_copy(Fixture& f) { return prepared<CopyWorkload>(f); }

PhaseDefinition copy_phase() {
  return {.phase = Phase::Copy,
          .name = "copy",
          .kernel = "memory/copy",
          .kernels = {"memory/copy"},
          .needs_distinct_buffers = true,
          .label = "Copy",
          .description = "Load from one buffer, store to the other; consecutive dispatches copy A to B then B to A. "
                         "Counts read + write: twice the working set per dispatch.",
          .metric = {"bytes", "B", "Bytes read + written"},
          .work =
              [](const Geometry& g) {
                const auto w = static_cast<double>(g.bytes);
                return WorkModel{.bytes_read = w, .bytes_written = w};
              },
          .prepare = prepare_copy};
}

}  // namespace wgb::memory
