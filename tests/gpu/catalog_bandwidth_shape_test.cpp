// The bandwidth rows describe the buffer they actually used: with --bandwidth-mib 4 the shape says
// 1024x1024 words (4 MiB), not the default 4096x4096, and no description claims a fixed 64 MiB.
// Also the text itself (bw::buffer_shape) at square, non-square and default sizes.
#include <gtest/gtest.h>

#include "catalog/bandwidth/bandwidth.hpp"
#include "gpu_fixture.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb {
namespace {

namespace bw = catalog::bandwidth;
constexpr std::uint64_t kMiB = 1 << 20;

TEST(CatalogBandwidthShape, ShapeTextNamesTheBufferSize) {
  EXPECT_EQ(bw::buffer_shape(64 * kMiB), "4096x4096 4-byte words (64 MiB, the default size)");
  EXPECT_EQ(bw::buffer_shape(4 * kMiB), "1024x1024 4-byte words (4 MiB)");
  EXPECT_EQ(bw::buffer_shape(2 * kMiB), "524288 4-byte words (2 MiB)");
  EXPECT_EQ(bw::buffer_shape(1024 * kMiB), "16384x16384 4-byte words (1 GiB)");
  EXPECT_EQ(bw::buffer_shape(16 * 1024), "64x64 4-byte words (16 KiB)");
  EXPECT_EQ(bw::buffer_shape(32 * 1024), "8192 4-byte words (32 KiB)");
  EXPECT_EQ(bw::buffer_shape(48), "12 4-byte words (48 bytes)");
}

TEST(CatalogBandwidthShape, RowsAtFourMiBDescribeTheirFourMiBBuffer) {
  WGB_GPU_OR_SKIP(ctx);
  SuiteOptions o;
  o.context = ctx;
  o.bandwidth_bytes = 4 * kMiB;
  for (const auto& d : builtin_benchmarks()) {
    if (d.id == "read-linear" || d.id == "write-linear" || d.id == "read-gather-16kb") o.benchmarks.push_back(d);
  }
  ASSERT_EQ(o.benchmarks.size(), 3u);
  for (const auto& d : o.benchmarks) {
    // The description is the definition's, the same at every size: it must not claim one.
    EXPECT_EQ(d.description.find("a 64 MiB buffer"), std::string::npos) << d.id << ": " << d.description;
    EXPECT_NE(d.description.find("by default"), std::string::npos) << d.id << ": " << d.description;
  }
  PrepareContext pc{*ctx, o};
  for (const auto& d : o.benchmarks) {
    auto w = d.prepare(pc);
    ASSERT_TRUE(w) << d.id << ": " << w.error().message;
    const nlohmann::json p = (*w)->parameters();
    EXPECT_EQ(p.value("shape", std::string()), "1024x1024 4-byte words (4 MiB)") << d.id << ": " << p.dump();
    EXPECT_EQ(p.value("buffer_bytes", std::uint64_t{0}), 4 * kMiB) << d.id;
  }
  // At the default size the shape says so.
  SuiteOptions defaults;
  PrepareContext pd{*ctx, defaults};
  auto w = o.benchmarks.front().prepare(pd);
  ASSERT_TRUE(w) << w.error().message;
  EXPECT_EQ((*w)->parameters().value("shape", std::string()), "4096x4096 4-byte words (64 MiB, the default size)");
}

}  // namespace
}  // namespace wgb
