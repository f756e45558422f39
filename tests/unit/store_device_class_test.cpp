// Device-class rules of docs/store.md ("Device classes"), one test per rule.
#include <gtest/gtest.h>

#include "store/device_class.hpp"
#include "store/submission.hpp"
#include "store_test_support.hpp"

namespace wgb::store {
namespace {

nlohmann::json adapter_json(std::string vendor, std::string arch, std::string device, std::string backend,
                            std::string type) {
  return {{"vendor", vendor}, {"architecture", arch}, {"device", device}, {"description", device + " desc"},
          {"backend", backend}, {"adapter_type", type}};
}

// A document's machine as the reporting module reads it (leniently: these are fragments).
report::Document read(const nlohmann::json& doc) { return report::stored_document(doc, "test"); }

report::AdapterIdentity adapter(std::string vendor, std::string arch, std::string device, std::string backend,
                                std::string type) {
  return read({{"machine", {{"adapter", adapter_json(vendor, arch, device, backend, type)}}}}).adapter;
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
  auto c = adapter_class(read({{"machine", {{"adapter", a}}}}).adapter);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->vendor, "amd");            // from the PCI vendor id
  EXPECT_EQ(c->device, "Some GPU");       // from the description
  EXPECT_EQ(c->backend, "unknown");
  EXPECT_EQ(c->adapter_type, "unknown");
  EXPECT_EQ(c->key, "amd/-/some-gpu/unknown");
  EXPECT_TRUE(c->variable);
}

TEST(StoreDeviceClass, MistypedFieldIsAnError) {
  auto d = test::make_document({}, {{}});
  d["machine"]["adapter"]["device"] = 42;
  auto c = make_submission(d);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().kind, ErrorKind::Usage);
  EXPECT_NE(c.error().message.find("machine.adapter.device"), std::string::npos) << c.error().message;
  // A CPU adapter is classed with its host, whose topology must then read.
  d = test::make_document(
      {.vendor = "mesa", .architecture = "", .device = "llvmpipe", .backend = "vulkan", .adapter_type = "cpu"}, {{}});
  d["machine"]["host"]["sockets"] = "two";
  c = make_submission(d);
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("machine.host.sockets"), std::string::npos) << c.error().message;
}

TEST(StoreDeviceClass, MarkupIsKeptInTheLabelAndStrippedFromTheKey) {
  // Escaping is the page's job (html_escape); the class keeps what the driver said, but the key
  // (used in URLs) holds only [a-z0-9._+-/].
  auto c = adapter_class(adapter("nvidia", "x", "<script>alert(1)</script>", "vulkan", "discrete-gpu"));
  ASSERT_TRUE(c);
  EXPECT_NE(c->label.find("<script>"), std::string::npos);
  EXPECT_EQ(c->key, "nvidia/x/script-alert-1-script/vulkan");
}

nlohmann::json host(std::string model, int sockets, nlohmann::json cores_per_socket, int logical) {
  return {{"cpu_model", model},
          {"arch", "x86_64"},
          {"sockets", sockets},
          {"cores_per_socket", cores_per_socket},
          {"logical_cpus", logical}};
}

report::Document host_doc(nlohmann::json h) { return read({{"suite", "host"}, {"machine", {{"host", std::move(h)}}}}); }

TEST(StoreDeviceClass, HostSuiteWithoutAdapterUsesTheCpuAndItsTopology) {
  auto c = device_class_of(host_doc(host("AMD EPYC 9654 96-Core Processor", 2, 96, 384)));
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->backend, "host");
  EXPECT_EQ(c->vendor, "amd");
  EXPECT_EQ(c->device, "AMD EPYC 9654 96-Core Processor (2 sockets, 192 cores, 384 threads)");
  EXPECT_EQ(c->key, "amd/x86_64/amd-epyc-9654-96-core-processor-2-sockets-192-cores-384-threads/host");
  EXPECT_TRUE(c->variable);
}

TEST(StoreDeviceClass, OneCpuModelOnDifferentHostsMakesDifferentClasses) {
  // The model string of this 2-core VM and of the H200 machine's 16-core host is the same.
  const std::string xeon = "Intel(R) Xeon(R) Processor";
  auto vm = device_class_of(host_doc(host(xeon, 1, 2, 2)));
  auto big = device_class_of(host_doc(host(xeon, 1, 16, 16)));
  auto two_sockets = device_class_of(host_doc(host(xeon, 2, 8, 16)));
  auto smt = device_class_of(host_doc(host(xeon, 1, 8, 16)));
  auto again = device_class_of(host_doc(host(" Intel(R)  Xeon(R) Processor", 1, 16, 16)));
  ASSERT_TRUE(vm && big && two_sockets && smt && again);
  EXPECT_NE(vm->key, big->key);
  EXPECT_NE(big->key, two_sockets->key);  // sockets
  EXPECT_NE(big->key, smt->key);          // physical cores
  EXPECT_NE(two_sockets->key, smt->key);
  EXPECT_EQ(big->key, again->key);  // spelling still does not split a class
  EXPECT_EQ(big->key, "intel/x86_64/intel-r-xeon-r-processor-1-socket-16-cores-16-threads/host");
  // Unknown cores per socket (null): the class says what is known.
  auto unknown = device_class_of(host_doc(host(xeon, 1, nullptr, 16)));
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->device, "Intel(R) Xeon(R) Processor (1 socket, 16 threads)");
}

TEST(StoreDeviceClass, AHostClassNeedsTheTopology) {
  for (const char* field : {"sockets", "logical_cpus"}) {
    auto h = host("Intel(R) Xeon(R) Processor", 1, 2, 2);
    h.erase(field);
    auto c = device_class_of(host_doc(h));
    ASSERT_FALSE(c) << field;
    EXPECT_NE(c.error().message.find(std::string("machine.host.") + field), std::string::npos) << c.error().message;
    h[field] = "two";
    EXPECT_FALSE(device_class_of(host_doc(h))) << field;
  }
}

TEST(StoreDeviceClass, ACpuAdapterIsClassedWithItsHost) {
  // llvmpipe on the 2-core VM and on the 16-core host are different devices; a GPU is not.
  auto doc = [](const char* type, int cores) {
    return read({{"suite", "default"},
                 {"machine",
                  {{"adapter", adapter_json("mesa", "software", "llvmpipe", "vulkan", type)},
                   {"host", host("Intel(R) Xeon(R) Processor", 1, cores, cores)}}}});
  };
  auto small = device_class_of(doc("cpu", 2));
  auto large = device_class_of(doc("cpu", 16));
  ASSERT_TRUE(small && large);
  EXPECT_NE(small->key, large->key);
  EXPECT_EQ(small->key, "mesa/software/llvmpipe-on-intel-r-xeon-r-processor-1-socket-2-cores-2-threads/vulkan");
  auto gpu_small = device_class_of(doc("discrete-gpu", 2));
  auto gpu_large = device_class_of(doc("discrete-gpu", 16));
  ASSERT_TRUE(gpu_small && gpu_large);
  EXPECT_EQ(gpu_small->key, gpu_large->key);
  EXPECT_EQ(gpu_small->key, "mesa/software/llvmpipe/vulkan");
}

TEST(StoreDeviceClass, OtherSuitesNeedAnAdapter) {
  nlohmann::json doc = {{"suite", "default"}, {"machine", {{"host", {{"cpu_model", "x"}, {"arch", "x86_64"}}}}}};
  auto c = device_class_of(read(doc));
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("machine.adapter"), std::string::npos);
  EXPECT_FALSE(device_class_of(read({{"suite", "default"}})));
}

TEST(StoreDeviceClass, SlugAndTidy) {
  EXPECT_EQ(slug("  Radeon RX 7900 XTX (RADV NAVI31) "), "radeon-rx-7900-xtx-radv-navi31");
  EXPECT_EQ(slug("Apple M3 Max"), "apple-m3-max");
  EXPECT_EQ(slug("!!!"), "");
  EXPECT_EQ(tidy(" a \t b\n\x01 c "), "a b c");
}

}  // namespace
}  // namespace wgb::store
