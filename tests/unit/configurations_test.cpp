// The native configurations (src/gpu/configurations.cpp): the table the command line and the
// browser matrix's native columns read, and an unknown name as a usage error before any device.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "webgpu_bench/context.hpp"

namespace wgb::gpu {
namespace {

TEST(NativeConfigurations, TheDefaultIsDawnAsShippedWithRobustness) {
  const auto& all = native_configurations();
  ASSERT_GE(all.size(), 2u);
  EXPECT_EQ(all.front().name, "shipped");
  EXPECT_TRUE(all.front().robustness);
  EXPECT_EQ(find_native_configuration(""), &all.front());
  EXPECT_EQ(find_native_configuration("shipped"), &all.front());
  // A browser keeps WebGPU's bounds checks: the default turns nothing of them off.
  for (const auto& t : all.front().enabled_toggles) EXPECT_NE(t, "disable_robustness");
}

TEST(NativeConfigurations, NoRobustnessTurnsTheChecksOff) {
  const NativeConfiguration* c = find_native_configuration("no-robustness");
  ASSERT_NE(c, nullptr);
  EXPECT_FALSE(c->robustness);
  EXPECT_NE(std::find(c->enabled_toggles.begin(), c->enabled_toggles.end(), "disable_robustness"),
            c->enabled_toggles.end());
}

TEST(NativeConfigurations, NamesAreUniqueAndDescribed) {
  std::set<std::string> names;
  for (const auto& c : native_configurations()) {
    EXPECT_TRUE(names.insert(c.name).second) << c.name;
    EXPECT_FALSE(c.description.empty()) << c.name;
    EXPECT_EQ(c.name.find(' '), std::string::npos) << "a name is one word for the command line: " << c.name;
  }
  EXPECT_EQ(find_native_configuration("no-such-configuration"), nullptr);
}

TEST(NativeConfigurations, AnUnknownNameIsAUsageErrorBeforeAnyDevice) {
  ContextOptions o;
  o.configuration = "fastest";
  auto c = Context::create(o);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().kind, ErrorKind::Usage);
  EXPECT_NE(c.error().message.find("shipped"), std::string::npos) << c.error().message;
}

}  // namespace
}  // namespace wgb::gpu
