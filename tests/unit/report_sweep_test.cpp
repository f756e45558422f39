// Sweep points: size parsing, ranges in powers of two, explicit lists, clamping to the adapter.
#include <gtest/gtest.h>

#include "report/sweep.hpp"

namespace wgb::report {
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

TEST(Sweep, ClampsToTheAdapterLimitWithANote) {
  auto s = make_sweep_spec("size", "64M", "1G", "");
  ASSERT_TRUE(s);
  clamp_sweep(*s, 134217728, "maxStorageBufferBindingSize");
  EXPECT_EQ(s->values, (std::vector<std::uint64_t>{64u << 20, 128u << 20}));
  ASSERT_EQ(s->notes.size(), 1u);
  EXPECT_NE(s->notes[0].find("256 MiB, 512 MiB, 1 GiB exceed(s) the adapter's maxStorageBufferBindingSize (128 MiB)"),
            std::string::npos)
      << s->notes[0];
  auto odd = make_sweep_spec("size", "", "", "8G");
  clamp_sweep(*odd, 4294967295ull, "maxStorageBufferBindingSize");
  EXPECT_EQ(odd->values, std::vector<std::uint64_t>{4294967040ull});  // a multiple of 256 below the limit
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

// Issue 7: workgroup size for the ALU probes, 32 .. 1024 by default, capped by the adapter.
TEST(Sweep, WorkgroupSizesDefaultToPowersOfTwoAndAreCappedByTheAdapter) {
  auto s = make_sweep_spec("workgroup", "", "", "");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->values, (std::vector<std::uint64_t>{32, 64, 128, 256, 512, 1024}));
  clamp_sweep(*s, 256, "maxComputeInvocationsPerWorkgroup");
  EXPECT_EQ(s->values, (std::vector<std::uint64_t>{32, 64, 128, 256}));
  ASSERT_EQ(s->notes.size(), 1u);
  EXPECT_NE(s->notes[0].find("512, 1024 exceed(s) the adapter's maxComputeInvocationsPerWorkgroup (256)"),
            std::string::npos)
      << s->notes[0];
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
