// The GPU context on a real adapter: enumeration, device creation, limits, errors as values.
#include <gtest/gtest.h>

#include <algorithm>

#include "gpu/hash.hpp"
#include "report/document.hpp"
#include "gpu_fixture.hpp"

namespace wgb {
namespace {

TEST(Context, EnumeratesAVulkanAdapterNotNull) {
  auto adapters = gpu::Context::enumerate();
  ASSERT_TRUE(adapters) << adapters.error().message;
  if (adapters->empty()) {
    if (test::adapter_required()) FAIL() << "no adapter";
    GTEST_SKIP() << "no adapter";
  }
  for (const auto& a : *adapters) EXPECT_NE(a.backend, "null");
}

TEST(Context, MemoryHeapsAreReportedWhereTheAdapterHasTheFeature) {
  auto adapters = gpu::Context::enumerate();
  ASSERT_TRUE(adapters) << adapters.error().message;
  if (adapters->empty()) GTEST_SKIP() << "no adapter";
  for (const auto& a : *adapters) {
    SCOPED_TRACE(a.device);
    const bool has = std::find(a.features.begin(), a.features.end(), "adapter-properties-memory-heaps") != a.features.end();
    if (!has) {
      EXPECT_TRUE(a.memory_heaps.empty());
      continue;
    }
    ASSERT_FALSE(a.memory_heaps.empty());
    bool device_local = false;
    for (const auto& h : a.memory_heaps) {
      EXPECT_GT(h.size, 0u);
      device_local |= std::find(h.properties.begin(), h.properties.end(), "device-local") != h.properties.end();
    }
    EXPECT_TRUE(device_local) << "every Vulkan adapter has a device-local heap";
    const auto j = report::adapter_json(a);
    ASSERT_EQ(j["memory_heaps"].size(), a.memory_heaps.size());
    EXPECT_EQ(j["memory_heaps"][0]["size_bytes"].get<std::uint64_t>(), a.memory_heaps[0].size);
  }
}

TEST(Context, RequestsAdapterMaximumLimitsAndDisablesQuantization) {
  WGB_GPU_OR_SKIP(ctx);
  std::uint64_t adapter_max_binding = 0;
  for (const auto& [k, v] : ctx->adapter().limits) {
    if (k == "maxStorageBufferBindingSize") adapter_max_binding = v;
  }
  EXPECT_EQ(ctx->limits().maxStorageBufferBindingSize, adapter_max_binding);
  const auto toggles = ctx->toggles();
  EXPECT_EQ(std::find(toggles.begin(), toggles.end(), "timestamp_quantization"), toggles.end())
      << "timestamp quantization must be off for native timing";
}

TEST(Context, BadWgslIsACompileErrorWithLineNumbers) {
  WGB_GPU_OR_SKIP(ctx);
  auto p = ctx->pipeline("@compute @workgroup_size(1) fn main() { let x: u32 = undefined_thing; }", "bad");
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().kind, ErrorKind::Compile);
  EXPECT_NE(p.error().message.find("1:"), std::string::npos) << p.error().message;
}

TEST(Context, OversizedBufferIsAnErrorNotACrash) {
  WGB_GPU_OR_SKIP(ctx);
  auto b = ctx->buffer(ctx->limits().maxBufferSize + 4096, wgpu::BufferUsage::Storage, "too-big");
  EXPECT_FALSE(b);
}

TEST(Context, FillHashedMatchesTheHostHash) {
  WGB_GPU_OR_SKIP(ctx);
  constexpr std::uint64_t kWords = 100003;  // not a multiple of the workgroup
  auto b = ctx->buffer(kWords * 4, wgpu::BufferUsage::Storage | wgpu::BufferUsage::CopySrc, "fill");
  ASSERT_TRUE(b);
  ASSERT_TRUE(ctx->fill_hashed(*b, kWords * 4, 1234));
  auto words = ctx->read_as<std::uint32_t>(*b, 0, kWords);
  ASSERT_TRUE(words) << words.error().message;
  for (std::uint64_t i = 0; i < kWords; ++i) ASSERT_EQ((*words)[i], gpu::filled_word(i, 1234)) << i;
}

TEST(Context, TimedPassReportsBothClocks) {
  WGB_GPU_OR_SKIP(ctx);
  auto t = ctx->time_pass([](wgpu::ComputePassEncoder&) {});
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_GE(t->wall_ms, 0);
  if (ctx->has_timestamps()) {
    EXPECT_TRUE(t->gpu_ms.has_value());
  }
  EXPECT_GT(ctx->empty_submit_ms(), 0);
}

TEST(Context, BadAdapterSelectorsAreClearErrors) {
  gpu::ContextOptions o;
  o.adapter = "no-such-gpu-xyz";
  auto c = gpu::Context::create(o);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().kind, ErrorKind::NoAdapter);
  o.adapter = "97";
  c = gpu::Context::create(o);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().kind, ErrorKind::NoAdapter);
}

}  // namespace
}  // namespace wgb
