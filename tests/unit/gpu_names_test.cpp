// The adapter description's names (src/gpu/names.cpp): every wgpu::Limits field is listed by its
// WebGPU name, and `devices` can say which of the offered features a run's device enables.
#include "gpu/names.hpp"

#include <gtest/gtest.h>

#include <set>

namespace wgb::gpu {
namespace {

TEST(GpuNames, EveryLimitIsListed) {
  wgpu::Limits l;
  l.maxTextureDimension2D = 8192;
  l.maxImmediateSize = 64;
  l.maxBufferSize = 1ull << 40;
  const auto list = limit_list(l);
  // wgpu::Limits has 32 limit fields in this Dawn (the review found a hand-picked 12).
  EXPECT_EQ(list.size(), 32u);
  std::set<std::string> names;
  for (const auto& [k, v] : list) names.insert(k);
  EXPECT_EQ(names.size(), list.size()) << "a name twice";
  auto value = [&](const std::string& k) {
    for (const auto& [n, v] : list) {
      if (n == k) return v;
    }
    return std::uint64_t{0};
  };
  EXPECT_EQ(value("maxTextureDimension2D"), 8192u);
  EXPECT_EQ(value("maxImmediateSize"), 64u);
  EXPECT_EQ(value("maxBufferSize"), 1ull << 40);
  for (const char* k : {"maxBindGroups", "maxVertexBuffers", "maxColorAttachments", "maxComputeWorkgroupStorageSize",
                        "minStorageBufferOffsetAlignment", "maxInterStageShaderVariables"}) {
    EXPECT_TRUE(names.count(k)) << k;
  }
}

TEST(GpuNames, EnabledFeaturesAreTheRequestedOnesTheAdapterOffers) {
  const std::vector<std::string> offered{"core-features-and-limits", "shader-f16", "texture-compression-bc",
                                         "timestamp-query", "chromium-experimental-subgroup-matrix",
                                         "float32-filterable"};
  EXPECT_EQ(enabled_features(offered, false), (std::vector<std::string>{"core-features-and-limits", "float32-filterable",
                                                                        "shader-f16", "timestamp-query"}));
  const auto experimental = enabled_features(offered, true);
  EXPECT_EQ(experimental.size(), 5u);
  EXPECT_TRUE(enabled_features({"texture-compression-bc"}, false).empty());
}

}  // namespace
}  // namespace wgb::gpu
