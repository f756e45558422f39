// A browser's machine.browser and machine.host are read into the types they are written from, and
// the strict reader names the field a hostile document gets wrong.
#include "report/browser_section.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace wgb::report {
namespace {

using nlohmann::json;

TEST(BrowserSection, WhatIsWrittenReadsBackTheSame) {
  BrowserRecord b{"Mozilla/5.0 UA", "worker", 100000, "adapter.info"};
  const json j = to_json(b);
  EXPECT_EQ(j["timestamp_quantization_ns"], 100000);
  const auto back = read_browser_record(j);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(to_json(*back), j);
  b.timestamp_quantization_ns.reset();
  b.adapter_source.clear();
  const json sparse = to_json(b);
  EXPECT_TRUE(sparse["timestamp_quantization_ns"].is_null());
  EXPECT_FALSE(sparse.contains("adapter_source"));
  EXPECT_EQ(to_json(*read_browser_record(sparse)), sparse);
}

TEST(BrowserSection, TheHostSaysBrowserAndTheCpusOnlyWhenKnown) {
  EXPECT_EQ(to_json(BrowserHostRecord{"UA", 8}),
            json({{"runtime", "browser"}, {"user_agent", "UA"}, {"logical_cpus", 8}}));
  EXPECT_FALSE(to_json(BrowserHostRecord{"UA", std::nullopt}).contains("logical_cpus"));
}

TEST(BrowserSection, AFieldOfAnotherTypeIsRefusedWithItsName) {
  auto refused = [](const json& j) {
    const auto r = read_browser_record(j);
    return r ? std::string("accepted") : r.error().message;
  };
  EXPECT_EQ(refused(json::array()), "machine.browser must be an object");
  EXPECT_EQ(refused({{"webgpu_thread", "main"}}), "machine.browser.user_agent must be a string");
  EXPECT_EQ(refused({{"user_agent", "UA"}, {"webgpu_thread", 1}}),
            "machine.browser.webgpu_thread must be \"worker\" or \"main\"");
  EXPECT_EQ(refused({{"user_agent", "UA"}, {"webgpu_thread", "main"}, {"timestamp_quantization_ns", -1}}),
            "machine.browser.timestamp_quantization_ns must be null or a number >= 0");
  EXPECT_EQ(refused({{"user_agent", "UA"}, {"webgpu_thread", "main"}, {"adapter_source", 3}}),
            "machine.browser.adapter_source must be a string");
  EXPECT_EQ(refused({{"user_agent", "UA"}, {"webgpu_thread", "main"}}), "accepted");
}

}  // namespace
}  // namespace wgb::report
