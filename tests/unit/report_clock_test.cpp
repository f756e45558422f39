// The host clock in the machine description (the base clock and the clock sustained during the
// run): every figure names its source, the base clock is measured (TSC) where cpufreq
// does not expose it (virtual machines), and `compare` reports clock differences between documents.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "host/machine.hpp"
#include "report/compare.hpp"
#include "report/document.hpp"
#include "report/files.hpp"

namespace wgb::report {
namespace {

TEST(HostClocks, EveryFigureNamesItsSource) {
  const auto c = host::host_clocks("start");
  for (const char* k : {"base", "max", "observed_at_start", "sustained_at_start"}) {
    ASSERT_NE(find_clock(c, k), nullptr) << k;
    EXPECT_FALSE(find_clock(c, k)->source.empty()) << k;
    // Written with its two fields, mhz null when unknown.
    const auto j = to_json(c)[k];
    EXPECT_TRUE(j.contains("mhz")) << k;
    EXPECT_TRUE(j["source"].is_string()) << k;
  }
  // The sustained clock is always measured (add chain), so it exists everywhere.
  ASSERT_TRUE(find_clock(c, "sustained_at_start")->mhz);
  EXPECT_GT(*find_clock(c, "sustained_at_start")->mhz, 50.0);
  EXPECT_EQ(find_clock(c, "sustained_at_start")->source.rfind("measured: dependent add chain", 0), 0u);
  EXPECT_EQ(find_clock(c, "observed_at_finish"), nullptr);
}

TEST(HostClocks, BaseIsMeasuredWhereCpufreqIsAbsent) {
  const auto c = host::host_clocks("start");
  const std::string source = find_clock(c, "base")->source;
  if (std::filesystem::exists("/sys/devices/system/cpu/cpu0/cpufreq/base_frequency")) {
    EXPECT_EQ(source, "cpufreq base_frequency");
  } else {
#if defined(__x86_64__) || defined(__i386__)
    // This machine (a VM without cpufreq) is the case the measured base exists for.
    EXPECT_EQ(source.rfind("measured: TSC", 0), 0u) << source;
    ASSERT_TRUE(find_clock(c, "base")->mhz);
    EXPECT_GT(*find_clock(c, "base")->mhz, 100.0);
#else
    GTEST_SKIP() << "no cpufreq and no TSC on this architecture";
#endif
  }
}

TEST(HostClocks, DocumentRecordsStartAndFinish) {
  ResultDocument doc("default", {"webgpu-bench", "run"}, host::native_machine());
  doc.finish("complete");
  const auto& c = doc.json()["machine"]["host"]["clocks"];
  for (const char* k :
       {"base", "observed_at_start", "sustained_at_start", "observed_at_finish", "sustained_at_finish"}) {
    EXPECT_TRUE(c.contains(k)) << k;
  }
}

Document with_clocks(double base, double sustained, const std::string& base_source) {
  Document d;
  d.origin = "x.json";
  d.machine["host"]["clocks"] = {{"base", {{"mhz", base}, {"source", base_source}}},
                                 {"sustained_at_start", {{"mhz", sustained}, {"source", "measured: add chain"}}}};
  return d;
}

TEST(CompareClocks, ReportsFrequencyDifferences) {
  const auto a = with_clocks(2100, 3000, "cpufreq base_frequency");
  const auto b = with_clocks(2100, 2700, "measured: TSC");
  const auto c = compare_documents(a, b);
  ASSERT_EQ(c.clocks.size(), 2u);
  EXPECT_EQ(c.clocks[0].what, "base");
  EXPECT_FALSE(c.clocks[0].differs);
  EXPECT_EQ(c.clocks[0].source_b, "measured: TSC");
  EXPECT_EQ(c.clocks[1].what, "sustained at start");
  EXPECT_TRUE(c.clocks[1].differs);
  // Clocks are not repeated among the machine differences: they have their own section.
  for (const auto& d : c.differences) EXPECT_EQ(d.what.find("clocks"), std::string::npos) << d.what;
  std::ostringstream out;
  CompareStyle verbose;
  verbose.verbose = true;  // with the sources
  write_comparison(out, c, a, b, std::nullopt, verbose);
  const auto s = out.str();
  EXPECT_NE(
      s.find("  sustained at start    3000 MHz    2700 MHz   -10.0%  DIFFERS\n      source: measured: add chain\n"),
      std::string::npos)
      << s;
  EXPECT_NE(s.find("  base                  2100 MHz    2100 MHz    +0.0%\n      sources: a cpufreq base_frequency; b "
                   "measured: TSC\n"),
            std::string::npos)
      << s;
  const auto j = comparison_json(c, std::nullopt);
  ASSERT_EQ(j["clocks"].size(), 2u);
  EXPECT_EQ(j["clocks"][1]["differs"], true);
}

TEST(CompareClocks, OlderDocumentsAndTheHostSuiteClock) {
  Document a;
  a.machine = {{"host", {{"base_khz", 2000000}, {"observed_mhz", 2500.0}}}};
  Document b = a;
  b.machine["host"]["observed_mhz"] = 1800.0;
  b.machine["host"]["clock"] = {{"sustained_add_chain_mhz", {{"median", 2400.0}}}};
  const auto c = compare_documents(a, b);
  ASSERT_EQ(c.clocks.size(), 3u);
  EXPECT_EQ(c.clocks[0].what, "base");
  EXPECT_DOUBLE_EQ(c.clocks[0].a_mhz, 2000.0);
  EXPECT_FALSE(c.clocks[0].differs);
  EXPECT_EQ(c.clocks[1].what, "observed at start");
  EXPECT_TRUE(c.clocks[1].differs);
  EXPECT_EQ(c.clocks[2].what, "host suite: sustained");
  EXPECT_EQ(c.clocks[2].a_mhz, 0.0);  // stated in b only
  EXPECT_TRUE(c.clocks[2].differs);
}

}  // namespace
}  // namespace wgb::report
