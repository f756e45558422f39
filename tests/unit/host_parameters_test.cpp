// The host suite's objects in a row's parameters (timing, threads, frequency) are read back into the
// records they are written from (report/host_parameters.hpp).
#include "report/host_parameters.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace wgb::report {
namespace {

using json = nlohmann::json;

HostTimingRecord timing() {
  return {.protocol = {1024, 15, 2.5, 1, 0.97, 3, 1, 1.98, 2},
          .clock_resolution_ns = 17,
          .clock_overhead_ns = 18.5,
          .min_region_ms = 1,
          .warmup_runs = 12,
          .warmup_ms = 52.25,
          .warmup_steady = true,
          .warmup_rule = "at least 3 regions",
          .statistic = "best",
          .regime = "compute",
          .iqr_ms = 0.01,
          .iqr_relative = 0.004,
          .cv = 0.003,
          .min_ms = 2.5,
          .max_ms = 2.6};
}

TEST(HostParameters, EachObjectReadsBackAsItWasWritten) {
  HostThreadsRecord threads{4, "cores", "each member pins itself", std::string("0-3"), {0, 1}};
  HostFrequencyRecord frequency{"add chain", 3500.5, 3400.0, std::nullopt, std::string("/proc/cpuinfo")};
  const json parameters = {{"timing", to_json(timing())},
                           {"threads", to_json(threads)},
                           {"frequency", to_json(frequency)},
                           {"series", json::array()}};
  std::string error;
  const HostParameters p = read_host_parameters(parameters, &error);
  EXPECT_EQ(error, "");
  ASSERT_TRUE(p.timing && p.threads && p.frequency);
  EXPECT_EQ(to_json(*p.timing), parameters["timing"]);
  EXPECT_EQ(to_json(*p.threads), parameters["threads"]);
  EXPECT_EQ(to_json(*p.frequency), parameters["frequency"]);
  EXPECT_EQ(p.timing->protocol.repeat, 1024u);
  EXPECT_EQ(p.timing->protocol.cpu_share, 0.97);
  EXPECT_EQ(p.timing->warmup_runs, 12);
  EXPECT_EQ(p.threads->numa_nodes, (std::vector<int>{0, 1}));
  EXPECT_TRUE(parameters["frequency"]["os_reported_mhz_median"].is_null());
  EXPECT_FALSE(p.frequency->os_reported_mhz_median);
  // A point's protocol fields are the timing's first ones.
  const json protocol = to_json(timing().protocol);  // a local: items() must not outlive it
  for (const auto& [key, value] : protocol.items()) EXPECT_EQ(parameters["timing"][key], value) << key;
}

TEST(HostParameters, AnotherSuitesKeysAreNotTheHostSuitesAndAWrongTypeIsNamed) {
  std::string error;
  const HostParameters gpu = read_host_parameters(json{{"threads", 256}, {"timing", "gpu"}}, &error);
  EXPECT_FALSE(gpu.threads);
  EXPECT_FALSE(gpu.timing);
  EXPECT_EQ(error, "");
  json bad = {{"threads", to_json(HostThreadsRecord{2, "none", "", std::nullopt, {}})}};
  bad["threads"]["count"] = "two";
  const HostParameters p = read_host_parameters(bad, &error);
  ASSERT_TRUE(p.threads);
  EXPECT_EQ(p.threads->count, 0u);
  EXPECT_NE(error.find("parameters.threads.count"), std::string::npos) << error;
}

}  // namespace
}  // namespace wgb::report
