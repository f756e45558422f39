// The machine section read into types: what the HTML machine card prints and what tells two
// documents' machines apart (report/machine_facts.hpp).
#include "report/machine_facts.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace wgb::report {
namespace {

using Json = nlohmann::json;

Json machine() {
  return Json::parse(R"({
    "adapter": {"vendor": "nvidia", "vendor_id": 4318, "device": "NVIDIA H200", "backend": "vulkan",
                "adapter_type": "discrete-gpu", "driver": "580.159.04", "subgroup_min_size": 32,
                "subgroup_max_size": 32, "features": ["shader-f16", "subgroups"],
                "limits": {"maxBufferSize": 1024, "name": "x"}, "adapter_toggles": ["vulkan_enable_f16_on_nvidia"]},
    "dawn": {"version": "0.0~git", "robustness": true, "empty_submit_ms": 0.04, "device_toggles": ["a", "b"]},
    "host": {"cpu_model": "Xeon", "logical_cpus": 16, "vector_isa": ["avx2", "fma"], "memory_bytes": 1073741824,
             "roofline": {"bandwidth_Bps": 1e11, "peak_flops_f32": 2e12},
             "caches": [{"level": 1, "type": "Data", "size": "48K", "ways_of_associativity": 12,
                         "line_size": 64, "shared_cpu_list": "0"}]}
  })");
}

TEST(MachineFacts, FieldsReadAsTheCardPrintsThem) {
  const MachineFacts m = machine_facts(machine(), Json{{"compiler", "GNU 12.2.0"}, {"git_revision", "abc"}});
  EXPECT_TRUE(m.has_adapter);
  EXPECT_TRUE(m.has_dawn);
  EXPECT_EQ(m.adapter.vendor_id, "4318");  // a number, as JSON writes it
  EXPECT_EQ(m.adapter.device, "NVIDIA H200");
  EXPECT_TRUE(m.adapter.has_subgroups);
  EXPECT_EQ(m.adapter.subgroup_max_size, "32");
  EXPECT_EQ(m.adapter.features, (std::vector<std::string>{"shader-f16", "subgroups"}));
  ASSERT_TRUE(m.adapter.has_limits);
  ASSERT_EQ(m.adapter.limits.size(), 2u);
  EXPECT_EQ(m.adapter.limits[0], (std::pair<std::string, std::string>{"maxBufferSize", "1024"}));
  EXPECT_EQ(m.adapter.limits[1].second, "x");  // a string as it is, not quoted
  EXPECT_EQ(m.dawn.robustness, "true");
  ASSERT_TRUE(m.dawn.empty_submit_ms.has_value());
  EXPECT_EQ(*m.dawn.empty_submit_ms, "0.04");
  EXPECT_EQ(m.dawn.device_toggles.size(), 2u);
  EXPECT_EQ(m.host.logical_cpus, "16");
  EXPECT_EQ(m.host.vector_isa, (std::vector<std::string>{"avx2", "fma"}));
  ASSERT_TRUE(m.host.memory_bytes.has_value());
  EXPECT_DOUBLE_EQ(*m.host.memory_bytes, 1073741824.0);
  EXPECT_TRUE(m.host.has_roofline);
  EXPECT_TRUE(m.host.bandwidth_Bps.has_value());
  EXPECT_FALSE(m.host.peak_flops_f64.has_value());
  ASSERT_EQ(m.host.caches.size(), 1u);
  EXPECT_EQ(m.host.caches[0].level, "1");
  EXPECT_EQ(m.host.caches[0].ways, "12");
  EXPECT_EQ(m.build.compiler, "GNU 12.2.0");
  EXPECT_EQ(m.build.git_revision, "abc");
}

TEST(MachineFacts, MissingWrongAndNullFieldsReadAsAbsent) {
  Json j = machine();
  j["adapter"] = "not an object";
  j["dawn"] = Json::object();
  j["host"]["memory_bytes"] = "lots";                      // not a number: no memory line
  j["host"]["vector_isa"] = "avx2";                        // not an array: no names
  j["host"]["cpu_model"] = nullptr;                        // null: empty
  j["host"]["caches"] = Json::object();                    // not an array: no cache table
  const MachineFacts m = machine_facts(j, Json::array());  // a build that is not an object
  EXPECT_FALSE(m.has_adapter);
  EXPECT_FALSE(m.has_dawn);
  EXPECT_TRUE(m.adapter.device.empty());
  EXPECT_FALSE(m.adapter.has_subgroups);
  EXPECT_FALSE(m.adapter.has_limits);
  EXPECT_FALSE(m.dawn.empty_submit_ms.has_value());
  EXPECT_FALSE(m.host.memory_bytes.has_value());
  EXPECT_TRUE(m.host.vector_isa.empty());
  EXPECT_TRUE(m.host.cpu_model.empty());
  EXPECT_TRUE(m.host.caches.empty());
  EXPECT_TRUE(m.build.compiler.empty());
  const MachineFacts none = machine_facts(Json(), Json());
  EXPECT_FALSE(none.has_adapter);
  EXPECT_TRUE(none.host.caches.empty());
}

TEST(MachineFacts, TheKeyTellsMachinesAndBuildsApart) {
  const Json build{{"git_revision", "abc"}};
  const std::string key = machine_key(machine_facts(machine(), build), build);
  EXPECT_EQ(key, machine_key(machine_facts(machine(), build), build));
  Json other_driver = machine();
  other_driver["adapter"]["driver"] = "581.0";
  EXPECT_NE(key, machine_key(machine_facts(other_driver, build), build));
  Json other_host = machine();
  other_host["host"]["cpu_model"] = "EPYC";
  EXPECT_NE(key, machine_key(machine_facts(other_host, build), build));
  Json other_toggles = machine();
  other_toggles["dawn"]["device_toggles"] = Json::array({"a"});
  EXPECT_NE(key, machine_key(machine_facts(other_toggles, build), build));
  const Json other_build{{"git_revision", "def"}};
  EXPECT_NE(key, machine_key(machine_facts(machine(), other_build), other_build));
  // What the key leaves out (the clocks, the limits) does not tell machines apart.
  Json other_limits = machine();
  other_limits["adapter"]["limits"]["maxBufferSize"] = 2048;
  EXPECT_EQ(key, machine_key(machine_facts(other_limits, build), build));
}

}  // namespace
}  // namespace wgb::report
