// Device-class rules of docs/store.md ("Device classes"), one test per rule.
#include <gtest/gtest.h>

#include "store/device_class.hpp"

namespace wgb::store {
namespace {

nlohmann::json adapter(std::string vendor, std::string arch, std::string device, std::string backend,
                       std::string type) {
  return {{"vendor", vendor}, {"architecture", arch}, {"device", device}, {"description", device + " desc"},
          {"backend", backend}, {"adapter_type", type}};
}

TEST(StoreDeviceClass, DiscreteGpuKeyAndLabel) {
  auto c = adapter_class(adapter("nvidia", "hopper", "NVIDIA H200", "vulkan", "discrete-gpu"));
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->key, "nvidia/hopper/nvidia-h200/vulkan");
  EXPECT_EQ(c->device, "NVIDIA H200");
  EXPECT_FALSE(c->variable);
  EXPECT_NE(c->label.find("NVIDIA H200"), std::string::npos);
  EXPECT_NE(c->label.find("vulkan"), std::string::npos);
}

TEST(StoreDeviceClass, IntegratedCpuAndUnknownAdaptersAreVariable) {
  for (const char* type : {"integrated-gpu", "cpu", "unknown", ""}) {
    auto c = adapter_class(adapter("intel", "xe-lpg", "Intel Arc Graphics", "vulkan", type));
    ASSERT_TRUE(c) << type;
    EXPECT_TRUE(c->variable) << type;
  }
}

TEST(StoreDeviceClass, SpellingDifferencesLandInOneClass) {
  auto a = adapter_class(adapter("NVIDIA", "Hopper", "NVIDIA  H200", "Vulkan", "discrete-gpu"));
  auto b = adapter_class(adapter(" nvidia", "hopper ", "nvidia h200", "vulkan", "discrete-gpu"));
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->key, b->key);
}

TEST(StoreDeviceClass, BackendAndArchitectureSeparateClasses) {
  auto vk = adapter_class(adapter("nvidia", "hopper", "NVIDIA H200", "vulkan", "discrete-gpu"));
  auto gl = adapter_class(adapter("nvidia", "hopper", "NVIDIA H200", "opengl", "discrete-gpu"));
  auto other = adapter_class(adapter("nvidia", "ada", "NVIDIA H200", "vulkan", "discrete-gpu"));
  ASSERT_TRUE(vk && gl && other);
  EXPECT_NE(vk->key, gl->key);
  EXPECT_NE(vk->key, other->key);
}

TEST(StoreDeviceClass, MissingNamesFallBack) {
  nlohmann::json a = {{"vendor", ""},  {"architecture", ""}, {"device", ""}, {"description", "Some GPU"},
                      {"backend", ""}, {"vendor_id", 0x1002}};
  auto c = adapter_class(a);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->vendor, "amd");            // from the PCI vendor id
  EXPECT_EQ(c->device, "Some GPU");       // from the description
  EXPECT_EQ(c->backend, "unknown");
  EXPECT_EQ(c->adapter_type, "unknown");
  EXPECT_EQ(c->key, "amd/-/some-gpu/unknown");
  EXPECT_TRUE(c->variable);
}

TEST(StoreDeviceClass, MistypedFieldIsAnError) {
  auto a = adapter("nvidia", "hopper", "NVIDIA H200", "vulkan", "discrete-gpu");
  a["device"] = 42;
  auto c = adapter_class(a);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().kind, ErrorKind::Usage);
  EXPECT_NE(c.error().message.find("machine.adapter.device"), std::string::npos);
}

TEST(StoreDeviceClass, MarkupIsKeptInTheLabelAndStrippedFromTheKey) {
  // Escaping is the page's job (html_escape); the class keeps what the driver said, but the key
  // (used in URLs) holds only [a-z0-9._+-/].
  auto c = adapter_class(adapter("nvidia", "x", "<script>alert(1)</script>", "vulkan", "discrete-gpu"));
  ASSERT_TRUE(c);
  EXPECT_NE(c->label.find("<script>"), std::string::npos);
  EXPECT_EQ(c->key, "nvidia/x/script-alert-1-script/vulkan");
}

TEST(StoreDeviceClass, HostSuiteWithoutAdapterUsesTheCpu) {
  nlohmann::json doc = {{"suite", "host"},
                        {"machine", {{"host", {{"cpu_model", "AMD EPYC 9654 96-Core Processor"}, {"arch", "x86_64"}}}}}};
  auto c = device_class_of(doc);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->backend, "host");
  EXPECT_EQ(c->vendor, "amd");
  EXPECT_EQ(c->key, "amd/x86_64/amd-epyc-9654-96-core-processor/host");
  EXPECT_TRUE(c->variable);
}

TEST(StoreDeviceClass, OtherSuitesNeedAnAdapter) {
  nlohmann::json doc = {{"suite", "default"}, {"machine", {{"host", {{"cpu_model", "x"}, {"arch", "x86_64"}}}}}};
  auto c = device_class_of(doc);
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("machine.adapter"), std::string::npos);
  EXPECT_FALSE(device_class_of(nlohmann::json{{"suite", "default"}}));
}

TEST(StoreDeviceClass, SlugAndTidy) {
  EXPECT_EQ(slug("  Radeon RX 7900 XTX (RADV NAVI31) "), "radeon-rx-7900-xtx-radv-navi31");
  EXPECT_EQ(slug("Apple M3 Max"), "apple-m3-max");
  EXPECT_EQ(slug("!!!"), "");
  EXPECT_EQ(tidy(" a \t b\n\x01 c "), "a b c");
}

}  // namespace
}  // namespace wgb::store
