// memory-random: 1M invocations, 16 gathers of 16 bytes each from both buffers at xorshift
// addresses; consecutive dispatches use different seeds (docs/method.md#memory-workload).
#include <fmt/format.h>

#include "memory/phases.hpp"

namespace wgb::memory {

namespace {

constexpr std::uint32_t kRandomSeeds[2] = {0x510E527Fu, 0x9B05688Cu};

std::uint32_t mask(const Fixture& f) { return static_cast<std::uint32_t>(f.geometry().elements - 1); }

// Both buffers in every dispatch; the two groups differ in the xorshift seed, so consecutive
// dispatches gather from different addresses.
class RandomWorkload final : public AlternatingWorkload {
 public:
  explicit RandomWorkload(Fixture& f)
      : AlternatingWorkload(f, {"memory/random", f.geometry().random_workgroups, kRandomInvocations,
                                "gathers from A and B; consecutive dispatches use different seeds",
                                {{mask(f), kRandomSeeds[0], kMagic0, kMagic1}, {mask(f), kRandomSeeds[1], kMagic0, kMagic1}},
                                false, "memory random params", {"ABSP", "ABSP"}}) {}
  Expected<std::string> validate() override {
    const std::uint32_t t = kRandomInvocations / 2 + 123, m = mask(f_);
    const Vec4 want = random_fold(f_.content_a, f_.content_b, t, kRandomSeeds[0], m);
    auto r = f_.probe_sink(a_.kernel, groups_[0], a_.workgroups, params_[0], {m, kRandomSeeds[0], want[0], want[1]},
                           a_.params[0], t, want, "gathers from A and B");
    if (!r) return r;
    return fmt::format("sentinels set to one invocation's true fold of its 16 xorshift gathers; {}", *r);
  }
  void describe(BenchmarkResult& row, const PhaseOutcome& o, report::MemoryPhaseParameters& p) const override {
    AlternatingWorkload::describe(row, o, p);
    p.gathers_per_invocation = kGathersPerInvocation;
    p.bytes_per_gather = kElementBytes;
    const double median = row.stats.median;
    p.g_accesses_per_s = median > 0 ? row.work.operations / (median / 1000.0) / 1e9 : 0;
  }
};

}  // namespace

PhaseDefinition random_phase() {
  return {.phase = Phase::Random, .name = "random", .kernel = "memory/random", .kernels = {"memory/random"},
          .label = "Random gather",
          .description = "1M invocations, 16 gathers of 16 bytes each from both buffers at xorshift addresses. "
                         "Counts 256 MiB of useful bytes per dispatch; also G accesses/s.",
          .metric = {"bytes", "B", "Useful bytes gathered"},
          .work =
              [](const Geometry&) {
                const double gathers = static_cast<double>(kRandomInvocations) * kGathersPerInvocation;
                return WorkModel{.bytes_read = gathers * kElementBytes, .operations = gathers};
              },
          .prepare = prepared<RandomWorkload>};
}

}  // namespace wgb::memory
