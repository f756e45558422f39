// memory-write: four 16-byte stores per invocation, grid-stride, data varying per element;
// consecutive dispatches write B then A (docs/method.md#memory-workload).
#include "memory/phases.hpp"

namespace wgb::memory {

namespace {

// Seeds of the written data: validators recompute every element from them (host_model.hpp).
constexpr std::uint32_t kWriteSeedA = 0x3C6EF372u, kWriteSeedB = 0xA54FF53Au;

class WriteWorkload final : public AlternatingWorkload {
 public:
  explicit WriteWorkload(Fixture& f)
      : AlternatingWorkload(f, {"memory/write", f.geometry().workgroups, f.geometry().invocations, "writes B then A",
                                {{f.geometry().invocations, kWriteSeedB, 0, 0},
                                 {f.geometry().invocations, kWriteSeedA, 0, 0}},
                                false, "memory write params", {"BP", "AP"}}) {}
  void after_timing() override {  // the first dispatch of a phase uses group 0 (B)
    if (f_.alternation >= 1) f_.content_b = {Content::Kind::Written, kWriteSeedB};
    if (f_.alternation >= 2) f_.content_a = {Content::Kind::Written, kWriteSeedA};
  }
  Expected<std::string> validate() override {
    return f_.spot_check_both("the write kernel's per-element values (host formula)");
  }
};

}  // namespace

PhaseDefinition write_phase() {
  return {.phase = Phase::Write, .name = "write", .kernel = "memory/write", .kernels = {"memory/write"},
          .label = "Sequential write", .description = "Four 16-byte stores per invocation, grid-stride, data "
                                                     "varying per element; consecutive dispatches write B then A. "
                                                     "Counts the working set written per dispatch.",
          .metric = {"bytes", "B", "Bytes written"},
          .work = [](const Geometry& g) { return WorkModel{.bytes_written = static_cast<double>(g.bytes)}; },
          .prepare = prepared<WriteWorkload>};
}

}  // namespace wgb::memory
