// The GPU context on a real adapter: enumeration, device creation, limits, errors as values.
#include <gtest/gtest.h>

#include <algorithm>
#include <span>
#include <vector>

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
  EXPECT_GT(t->wall_ms, 0);  // a submit and its completion always take some time
  // A GPU reading exactly when the device offers timestamps.
  EXPECT_EQ(t->gpu_ms.has_value(), ctx->has_timestamps());
  EXPECT_GT(ctx->empty_submit_ms(), 0);
}

// Textures, samplers and mixed bind groups: a kernel reads back what was uploaded, and resources
// that do not fit are error values (never uncaptured errors that would poison later timings).
constexpr std::string_view kLoadTexel = R"(
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@group(0) @binding(1) var tex: texture_2d<f32>;
@compute @workgroup_size(1) fn main() {
  for (var i = 0u; i < 4u; i++) {
    let v = textureLoad(tex, vec2<u32>(i, 1u), 0);
    out[4u * i] = v.x; out[4u * i + 1u] = v.y; out[4u * i + 2u] = v.z; out[4u * i + 3u] = v.w;
  }
})";

TEST(Context, TextureWithDataIsReadBackByAKernel) {
  WGB_GPU_OR_SKIP(ctx);
  std::vector<float> texels(4 * 2 * 4);  // 4 x 2 rgba32float
  for (std::size_t i = 0; i < texels.size(); ++i) texels[i] = static_cast<float>(i) * 0.5f;
  gpu::TextureData data{.width = 4, .height = 2, .texels = std::as_bytes(std::span<const float>(texels))};
  auto tex = ctx->texture_with_data(data, "test-texels");
  ASSERT_TRUE(tex) << tex.error().message;
  auto pipeline = ctx->pipeline(kLoadTexel, "load-texel");
  ASSERT_TRUE(pipeline) << pipeline.error().message;
  auto out = ctx->buffer(16 * 4, wgpu::BufferUsage::Storage | wgpu::BufferUsage::CopySrc, "texel-out");
  ASSERT_TRUE(out);
  const std::vector<gpu::BindingResource> resources{*out, *tex};
  auto group = ctx->bind_group(*pipeline, resources, "load-texel");
  ASSERT_TRUE(group) << group.error().message;
  ASSERT_TRUE(ctx->run_pass([&](wgpu::ComputePassEncoder& pass) {
    pass.SetPipeline(*pipeline);
    pass.SetBindGroup(0, *group);
    pass.DispatchWorkgroups(1);
  }));
  auto got = ctx->read_as<float>(*out, 0, 16);
  ASSERT_TRUE(got);
  for (std::size_t i = 0; i < 16; ++i) EXPECT_EQ((*got)[i], texels[16 + i]) << i;  // row 1
}

TEST(Context, TextureAndBindGroupMistakesAreErrorValues) {
  WGB_GPU_OR_SKIP(ctx);
  std::vector<float> texels(8);
  // Two texels of data for a 4 x 1 texture.
  auto tex = ctx->texture_with_data({.width = 4, .height = 1, .texels = std::as_bytes(std::span<const float>(texels))},
                                    "short");
  ASSERT_FALSE(tex);
  EXPECT_EQ(tex.error().kind, ErrorKind::Failed);
  EXPECT_NE(tex.error().message.find("'short'"), std::string::npos) << tex.error().message;
  // Wider than the device allows: Dawn's validation error, captured.
  const std::uint32_t too_wide = ctx->limits().maxTextureDimension2D * 2;
  std::vector<std::byte> wide(static_cast<std::size_t>(too_wide) * 16);
  auto big = ctx->texture_with_data({.width = too_wide, .height = 1, .texels = wide}, "too-wide");
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().kind, ErrorKind::Failed);
  // A sampler where the layout wants a texture.
  auto pipeline = ctx->pipeline(kLoadTexel, "load-texel");
  ASSERT_TRUE(pipeline);
  auto out = ctx->buffer(64, wgpu::BufferUsage::Storage, "texel-out");
  auto sampler = ctx->sampler({}, "linear");
  ASSERT_TRUE(out && sampler);
  const std::vector<gpu::BindingResource> wrong{*out, *sampler};
  auto group = ctx->bind_group(*pipeline, wrong, "wrong");
  ASSERT_FALSE(group);
  EXPECT_EQ(group.error().kind, ErrorKind::Failed);
  EXPECT_NE(group.error().message.find("bind group 'wrong'"), std::string::npos) << group.error().message;
  EXPECT_TRUE(ctx->check_errors()) << "nothing may escape as an uncaptured error";
}

TEST(Context, Float32FilterableIsRequestedWhereTheAdapterOffersIt) {
  WGB_GPU_OR_SKIP(ctx);
  auto adapters = gpu::Context::enumerate();
  ASSERT_TRUE(adapters);
  for (const auto& a : *adapters) {
    if (a.device != ctx->adapter().device) continue;
    const bool offered = std::find(a.features.begin(), a.features.end(), "float32-filterable") != a.features.end();
    EXPECT_EQ(ctx->has_feature("float32-filterable"), offered);
  }
}

// What a configuration does to the device, and what the document records: the default keeps
// WebGPU's bounds checks, no-robustness (or --no-robustness on the default) turns them off.
TEST(Context, TheNativeConfigurationIsAppliedAndRecorded) {
  WGB_GPU_OR_SKIP(shared);
  auto has = [](const std::vector<std::string>& v, const char* t) { return std::find(v.begin(), v.end(), t) != v.end(); };
  const auto shipped = gpu::device_record(*shared).implementation;
  EXPECT_EQ(shared->options().configuration, "shipped");
  EXPECT_EQ(shipped["configuration"], "shipped");
  EXPECT_FALSE(has(shared->toggles(), "disable_robustness"));
  for (bool flag : {false, true}) {
    SCOPED_TRACE(flag ? "--no-robustness" : "--dawn-config no-robustness");
    gpu::ContextOptions o = shared->options();
    o.configuration = flag ? "" : "no-robustness";
    o.robustness = !flag;
    auto c = gpu::Context::create(o);
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_TRUE(has((*c)->toggles(), "disable_robustness"));
    const auto j = gpu::device_record(**c).implementation;
    EXPECT_EQ(j["configuration"], "no-robustness");
    EXPECT_EQ(j["robustness"], false);
  }
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
