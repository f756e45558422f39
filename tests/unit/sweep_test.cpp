// Sweep points: size parsing, ranges in powers of two, explicit lists, points above the adapter's
// limits skipped with the reason (never measured at another value in their place).
#include <gtest/gtest.h>

#include "suite/sweep.hpp"

namespace wgb {
namespace {

TEST(Sweep, ParsesSizes) {
  EXPECT_EQ(*parse_size("4096"), 4096u);
  EXPECT_EQ(*parse_size("16K"), 16384u);
  EXPECT_EQ(*parse_size("16KiB"), 16384u);
  EXPECT_EQ(*parse_size("64mb"), 64u << 20);
  EXPECT_EQ(*parse_size(" 1G "), 1ull << 30);
  for (const char* bad : {"", "K", "12Q", "-1", "1.5M", "99999999999999999999G"}) {
    auto v = parse_size(bad);
    ASSERT_FALSE(v) << bad;
    EXPECT_EQ(v.error().kind, ErrorKind::Usage);
  }
}

TEST(Sweep, DefaultRangesArePowersOfTwo) {
  auto s = make_sweep_spec("size", "", "", "");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->values.front(), 16u << 10);
  EXPECT_EQ(s->values.back(), 1ull << 30);
  EXPECT_EQ(s->values.size(), 17u);  // 2^14 .. 2^30
  auto t = make_sweep_spec("threads", "", "", "");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->values.front(), 64u);
  EXPECT_EQ(t->values.back(), 1u << 20);
  auto odd = make_sweep_spec("size", "16K", "100K", "");
  EXPECT_EQ(odd->values, (std::vector<std::uint64_t>{16384, 32768, 65536, 102400}));
}

TEST(Sweep, ListsAndErrors) {
  auto l = make_sweep_spec("size", "", "", "1M, 16K,1M,64K");
  ASSERT_TRUE(l);
  EXPECT_EQ(l->values, (std::vector<std::uint64_t>{1 << 20, 16384, 65536}));
  EXPECT_FALSE(make_sweep_spec("colour", "", "", ""));
  EXPECT_FALSE(make_sweep_spec("size", "1M", "16K", ""));
  EXPECT_FALSE(make_sweep_spec("size", "0", "16K", ""));
  EXPECT_FALSE(make_sweep_spec("threads", "", "", "64,1K"));
  EXPECT_FALSE(make_sweep_spec("size", "", "", " , "));
}

TEST(Sweep, PointsAboveTheAdapterLimitAreSkippedWithTheReason) {
  auto s = make_sweep_spec("size", "64M", "1G", "");
  ASSERT_TRUE(s);
  limit_sweep(*s, 134217728, "largest storage binding (maxStorageBufferBindingSize)");
  // Every point stays in the series; the three that do not fit are skipped, not moved to the limit.
  EXPECT_EQ(s->values, (std::vector<std::uint64_t>{64u << 20, 128u << 20, 256u << 20, 512u << 20, 1u << 30}));
  ASSERT_EQ(s->skipped.size(), 3u);
  EXPECT_EQ(s->skipped.at(256u << 20),
            "256 MiB is above the adapter's largest storage binding (maxStorageBufferBindingSize): 128 MiB");
  auto odd = make_sweep_spec("size", "", "", "8G");
  limit_sweep(*odd, 4294967295ull, "largest storage binding");
  EXPECT_EQ(odd->values, std::vector<std::uint64_t>{8ull << 30});
  EXPECT_EQ(odd->skipped.count(8ull << 30), 1u);
  // Human sizes and words, never raw bytes or option names.
  EXPECT_EQ(sweep_value_text("size", 16777216), "16 MiB");
  EXPECT_EQ(sweep_value_text("size", 100 * 1024), "100 KiB");
  EXPECT_EQ(sweep_value_text("threads", 4096), "4096");
  EXPECT_EQ(sweep_parameter_text("size"), "buffer or working-set size");
}

TEST(Sweep, AppliesTheValueToTheRightOptions) {
  SuiteOptions o;
  apply_sweep_value(o, "size", 1 << 20);
  EXPECT_EQ(o.bandwidth_bytes, 1u << 20);
  EXPECT_EQ(o.working_set_bytes, 1u << 20);
  apply_sweep_value(o, "threads", 4096);
  EXPECT_EQ(o.compute_threads, 4096u);
  apply_sweep_value(o, "workgroup", 64);
  EXPECT_EQ(o.compute_workgroup_size, 64u);
  EXPECT_EQ(o.compute_threads, 4096u);
  EXPECT_EQ(sweep_option_name("workgroup"), "compute_workgroup_size");
}

// Workgroup size for the ALU probes, 32 .. 1024 by default; sizes above the adapter's limit skipped.
TEST(Sweep, WorkgroupSizesDefaultToPowersOfTwoAndAreCappedByTheAdapter) {
  auto s = make_sweep_spec("workgroup", "", "", "");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->values, (std::vector<std::uint64_t>{32, 64, 128, 256, 512, 1024}));
  limit_sweep(*s, 256, "maxComputeInvocationsPerWorkgroup");
  EXPECT_EQ(s->values, (std::vector<std::uint64_t>{32, 64, 128, 256, 512, 1024}));
  ASSERT_EQ(s->skipped.size(), 2u);
  EXPECT_EQ(s->skipped.at(512), "512 is above the adapter's maxComputeInvocationsPerWorkgroup: 256");
  auto l = make_sweep_spec("workgroup", "", "", "64,96");
  ASSERT_TRUE(l);
  EXPECT_EQ(l->values, (std::vector<std::uint64_t>{64, 96}));
  auto bad = make_sweep_spec("workgroup", "", "", "1K");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("not a workgroup size"), std::string::npos) << bad.error().message;
  EXPECT_EQ(sweep_json("f32-sqrt", *s)["option"], "compute_workgroup_size");
}

}  // namespace
}  // namespace wgb::report
