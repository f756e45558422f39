// The memory suite's phase definitions (src/memory/phases.hpp), without a GPU: one definition per
// phase in kAllPhases order under its public name, an embedded kernel for each, the work model each
// row counts, and the budget and sample length each phase samples with.
#include "memory/phases.hpp"

#include <gtest/gtest.h>

namespace wgb::memory {
namespace {

TEST(MemoryPhases, OneDefinitionPerPhaseInOrder) {
  const auto& all = phase_definitions();
  ASSERT_EQ(all.size(), kAllPhases.size());
  const char* names[] = {"read", "write", "copy", "random", "latency", "sustain"};
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].phase, kAllPhases[i]);
    EXPECT_STREQ(all[i].name, names[i]);
    EXPECT_EQ(&definition(kAllPhases[i]), &all[i]);
    EXPECT_EQ(phase_id(kAllPhases[i]), std::string("memory-") + names[i]);
    EXPECT_FALSE(kernels::find(all[i].kernel).empty()) << all[i].kernel;
    for (const auto& k : all[i].kernels) EXPECT_FALSE(kernels::find(k).empty()) << k;
    EXPECT_TRUE(all[i].prepare && all[i].work && all[i].budget_ms && all[i].sample_ms) << names[i];
  }
}

TEST(MemoryPhases, WorkPerRepetition) {
  const Geometry g = Geometry::of(256 * kMiB);
  const double w = 256.0 * kMiB;
  EXPECT_DOUBLE_EQ(definition(Phase::Read).work(g).bytes_read, w);
  EXPECT_DOUBLE_EQ(definition(Phase::Write).work(g).bytes_written, w);
  const WorkModel copy = definition(Phase::Copy).work(g);
  EXPECT_DOUBLE_EQ(copy.bytes_read + copy.bytes_written, 2 * w);
  const WorkModel sustain = definition(Phase::Sustain).work(g);
  EXPECT_DOUBLE_EQ(sustain.bytes_read + sustain.bytes_written, 2 * w);
  EXPECT_DOUBLE_EQ(definition(Phase::Random).work(g).bytes_read, 256.0 * kMiB);  // 1M x 16 x 16 B
  EXPECT_DOUBLE_EQ(definition(Phase::Latency).work(g).operations, 1);
  EXPECT_EQ(definition(Phase::Latency).metric.key, "loads");
  EXPECT_DOUBLE_EQ(definition(Phase::Latency).units_per_repetition, kHopsPerUnit);
  EXPECT_TRUE(definition(Phase::Latency).needs_chain);
  EXPECT_TRUE(definition(Phase::Copy).needs_distinct_buffers);
  EXPECT_TRUE(definition(Phase::Sustain).needs_distinct_buffers);
  EXPECT_FALSE(definition(Phase::Read).needs_distinct_buffers);
}

TEST(MemoryPhases, BudgetsAndSampleLengths) {
  MemoryOptions o;
  o.budget_ms = 1000;
  o.latency_budget_ms = 2000;
  o.sustain_ms = 5000;
  o.sample_ms = 40;
  o.latency_sample_ms = 45;
  EXPECT_DOUBLE_EQ(phase_config(definition(Phase::Read), o, false).budget_ms, 1000);
  EXPECT_DOUBLE_EQ(phase_config(definition(Phase::Latency), o, false).budget_ms, 2000);
  EXPECT_DOUBLE_EQ(phase_config(definition(Phase::Sustain), o, false).budget_ms, 5000);
  EXPECT_DOUBLE_EQ(phase_config(definition(Phase::Copy), o, false).target_sample_ms, 40);
  EXPECT_DOUBLE_EQ(phase_config(definition(Phase::Copy), o, true).target_sample_ms, 80);  // wall clock: twice
  EXPECT_DOUBLE_EQ(phase_config(definition(Phase::Latency), o, false).target_sample_ms, 45);
  EXPECT_EQ(phase_config(definition(Phase::Latency), o, false).max_dispatches, 1u << 21);
}

}  // namespace
}  // namespace wgb::memory
