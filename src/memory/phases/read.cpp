// memory-read: four independent 16-byte loads per invocation, grid-stride, XOR-folded and kept by a
// sentinel compare; consecutive dispatches read A then B (docs/method.md#memory-workload).
#include <fmt/format.h>

#include "memory/phases.hpp"

namespace wgb::memory {

namespace {

class ReadWorkload final : public AlternatingWorkload {
 public:
  explicit ReadWorkload(Fixture& f)
      : AlternatingWorkload(f, {"memory/read", f.geometry().workgroups, f.geometry().invocations, "reads A then B",
                                {{f.geometry().invocations, kMagic0, kMagic1, 0}, {}}, true, "memory read params",
                                {"ASP", "BSP"}}) {}
  // Each buffer probed through its own bind group: invocation t's sentinels set to its true fold.
  Expected<std::string> validate() override {
    const std::uint32_t n = a_.invocations;
    const std::uint32_t ta = (n / 2 + 77) % n, tb = (n / 3 + 5) % n;
    const Vec4 wa = read_fold(f_.content_a, ta, n), wb = read_fold(f_.content_b, tb, n);
    auto a = f_.probe_sink(a_.kernel, groups_[0], a_.workgroups, params_[0], {n, wa[0], wa[1], 0}, a_.params[0], ta,
                           wa, "buffer A");
    if (!a) return a;
    auto b = f_.probe_sink(a_.kernel, groups_[1], a_.workgroups, params_[0], {n, wb[0], wb[1], 0}, a_.params[0], tb,
                           wb, "buffer B");
    if (!b) return b;
    return fmt::format("sentinels set to one invocation's true XOR fold of its 4 loads; {}; {}", *a, *b);
  }
};

WorkModel read_work(const Geometry& g) { return {.bytes_read = static_cast<double>(g.bytes)}; }

}  // namespace

PhaseDefinition read_phase() {
  return {.phase = Phase::Read, .name = "read", .kernel = "memory/read", .kernels = {"memory/read"},
          .label = "Sequential read",
          .description = "Four independent 16-byte loads per invocation, grid-stride, XOR-folded and kept by a "
                         "sentinel compare; consecutive dispatches read A then B. Counts the working set read per "
                         "dispatch.",
          .metric = {"bytes", "B", "Bytes read"},
          .work = read_work,
          .prepare = prepared<ReadWorkload>};
}

}  // namespace wgb::memory
