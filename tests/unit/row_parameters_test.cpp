// A row's parameters are written through typed records (a GPU probe's ProbeFacts, the memory
// suite's phase record, the host suite's row record) and read back through RowFacts: what one
// writes, the other reads, field by field.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "report/facts.hpp"
#include "report/host_parameters.hpp"
#include "report/memory_parameters.hpp"
#include "report/run_options.hpp"

namespace wgb::report {
namespace {

using nlohmann::json;

TEST(RowParameters, AProbesFactsAreReadBack) {
  const json own = {{"elements", 1024}, {"kernel", "bandwidth/read"}};
  const json p = with_facts(own, {.peak_class = "memory",
                                  .access = "gather",
                                  .footprint_bytes = 1u << 20,
                                  .buffers = 2,
                                  .operand_bits = 16,
                                  .working_set_bytes = 4096,
                                  .window_bytes = 65536,
                                  .launch_ms = 0.004,
                                  .dispatches_per_repetition = 3});
  // The probe's own description is kept as it stated it.
  EXPECT_EQ(p.at("elements"), 1024);
  EXPECT_EQ(p.at("kernel"), "bandwidth/read");
  // Byte counts stay integers in the document.
  EXPECT_TRUE(p.at("footprint_bytes").is_number_unsigned());
  const auto facts = read_row_facts(p);
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_EQ(facts->peak_class, "memory");
  EXPECT_EQ(facts->access, "gather");
  EXPECT_EQ(facts->footprint_bytes, 1u << 20);
  EXPECT_EQ(facts->buffers, 2);
  EXPECT_EQ(facts->operand_bits, 16);
  EXPECT_EQ(facts->working_set_bytes, 4096);
  EXPECT_EQ(facts->window_bytes, 65536);
  EXPECT_EQ(facts->launch_ms, 0.004);
  EXPECT_EQ(facts->dispatches_per_repetition, 3);
  // Facts not present are not written: no key for them, and the reader's defaults.
  EXPECT_FALSE(p.contains("note"));
  const auto none = read_row_facts(with_facts(json::object(), {}));
  ASSERT_TRUE(none);
  EXPECT_EQ(none->peak_class, "");
  EXPECT_FALSE(none->footprint_bytes);
  EXPECT_EQ(none->dispatches_per_repetition, 1);
}

TEST(RowParameters, TheContractionCheckIsAnObjectOrItsReason) {
  json p = json::object();
  write_facts(p, {.fma_contraction = ProbeFacts::Contraction{.mul_add = "fused", .fma_builtin = "separate"}});
  EXPECT_EQ(p.at("fma_contraction"), (json{{"x * m + c", "fused"}, {"fma()", "separate"}}));
  write_facts(p, {.fma_contraction = ProbeFacts::Contraction{.not_checked = "not checked: no device"}});
  EXPECT_EQ(p.at("fma_contraction"), "not checked: no device");
  write_facts(p, {.time_split_ms = std::vector<std::pair<std::string, double>>{{"map", 0.5}, {"copy", 1.5}}});
  EXPECT_EQ(p.at("time_split_ms"), (json{{"map", 0.5}, {"copy", 1.5}}));
}

TEST(RowParameters, AMemoryPhasesRecordIsReadBack) {
  MemoryPhaseParameters m{.working_set_bytes = 256u << 20,
                          .ranked = false,
                          .unranked_reason = "capped",
                          .samples = 40,
                          .rejected_samples = 3,
                          .cv = 0.02};
  m.ns_per_load = 512.5;
  m.g_accesses_per_s = 41.1;
  m.retention = 0.97;
  m.retention_reading = "holds";
  m.first20_median_gbps = 100;
  m.last60_median_gbps = 97;
  m.timeline = std::vector<MemoryTimelinePoint>{{.t_s = 0.5, .gbps = 100, .ms = 2, .rejected = false},
                                                {.t_s = 1.0, .gbps = 97, .ms = 2.1, .rejected = true}};
  const json p = to_json(m);
  EXPECT_EQ(p.at("unranked"), true);
  EXPECT_EQ(p.at("unranked_reason"), "capped");
  EXPECT_FALSE(p.contains("slots"));  // latency's, not written for another phase
  const auto facts = read_row_facts(p);
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_EQ(facts->working_set_bytes, 256u << 20);
  EXPECT_EQ(facts->buffers, 2);
  EXPECT_EQ(facts->samples, 40);
  EXPECT_EQ(facts->rejected_samples, 3);
  EXPECT_EQ(facts->cv, 0.02);
  EXPECT_EQ(facts->ns_per_load, 512.5);
  EXPECT_EQ(facts->g_accesses_per_s, 41.1);
  EXPECT_EQ(facts->retention, 0.97);
  EXPECT_EQ(facts->retention_reading, "holds");
  EXPECT_EQ(facts->first20_median_gbps, 100);
  EXPECT_EQ(facts->last60_median_gbps, 97);
  EXPECT_EQ(facts->unranked, true);
  EXPECT_EQ(facts->unranked_reason, "capped");
  ASSERT_EQ(facts->timeline.size(), 2u);
  EXPECT_EQ(facts->timeline[1], std::make_pair(1.0, 97e9));
}

TEST(RowParameters, AHostRowsCurvesAreReadBack) {
  HostPointRecord point{.at = {.threads = 4, .working_set_bytes = 1u << 20},
                        .value = 2e9,
                        .value_unit = "B/s",
                        .value_iqr = {1.9e9, 2.1e9},
                        .time_ms = 0.5,
                        .iqr_relative = 0.03,
                        .clock_mhz = 3000,
                        .os_mhz = {2900.0, std::nullopt}};
  point.protocol.repeat = 8;
  point.protocol.cpu_share = 0.98;
  HostRowParameters row{.input = {{"element_type", "f64"}}, .note = "a note", .ns_per_load = 80.0};
  row.series.push_back({.name = "working_set",
                        .x = "working_set_bytes",
                        .description = "bandwidth over the working set",
                        .statistic = "median",
                        .value_unit = "B/s",
                        .threads = 4,
                        .cache_boundaries = std::vector<HostCacheBoundaryRecord>{{.level = 2, .total_bytes = 1u << 21}},
                        .points = {point}});
  row.threads.count = 4;
  row.frequency.sustained_mhz_median = 3000;
  row.timing.protocol.cpu_share = 0.97;
  const json p = to_json(row);
  EXPECT_EQ(p.at("input").at("element_type"), "f64");
  EXPECT_EQ(p.at("series")[0].at("points")[0].at("os_mhz"), (json{2900.0, nullptr}));
  const auto facts = read_row_facts(p);
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_EQ(facts->ns_per_load, 80.0);
  EXPECT_EQ(facts->host_threads, 4);
  EXPECT_EQ(facts->sustained_mhz_median, 3000);
  EXPECT_EQ(facts->cpu_share, 0.97);
  ASSERT_EQ(facts->curves.size(), 1u);
  const Curve& c = facts->curves[0];
  EXPECT_EQ(c.name, "working_set");
  EXPECT_EQ(c.statistic, "median");
  EXPECT_EQ(c.threads, 4);
  ASSERT_TRUE(c.cache_boundaries);
  EXPECT_EQ((*c.cache_boundaries)[0].level, 2);
  EXPECT_EQ((*c.cache_boundaries)[0].total_bytes, 1u << 21);
  ASSERT_EQ(c.points.size(), 1u);
  EXPECT_EQ(c.points[0].at(c.x), 1u << 20);
  EXPECT_EQ(c.points[0].value, 2e9);
  EXPECT_EQ(c.points[0].repeat, 8);
  EXPECT_EQ(c.points[0].cpu_share, 0.98);
  EXPECT_EQ(c.points[0].rate_range(), std::make_pair(1.9e9, 2.1e9));
  // The roofline's derived quantities, written after the run.
  json q = p;
  set_derived(q, {.flops_per_second = 1e9, .bytes_per_second = 2e9, .fraction_of_roofline = 0.5, .roofline = "r"});
  EXPECT_TRUE(q.at("derived").at("arithmetic_intensity").is_null());
  EXPECT_EQ(q.at("derived").at("fraction_of_roofline"), 0.5);
}

TEST(RunOptions, EachSuitesDefaultsChangeNothingAndEachChangeIsNamed) {
  EXPECT_TRUE(option_changes("default", to_json(DefaultRunOptions{})).empty());
  EXPECT_TRUE(option_changes("memory", to_json(MemoryRunOptions{})).empty());
  EXPECT_TRUE(option_changes("host", default_options("host")).empty());
  // An option not recorded is its default (it did not exist when the run was made).
  EXPECT_TRUE(option_changes("memory", json::object()).empty());

  DefaultRunOptions run;
  run.sampling.max_rounds = 4;
  run.bandwidth_bytes = 4u << 20;
  run.filter = "read-*";  // chooses what runs: not compared
  const auto changes = option_changes("default", to_json(run));
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[0].key, "sampling.max_rounds");
  EXPECT_EQ(changes[0].recorded, "4");
  EXPECT_EQ(changes[0].default_, "10");
  EXPECT_EQ(changes[1].key, "bandwidth_bytes");
  EXPECT_EQ(changes[1].number, 4u << 20);

  MemoryRunOptions memory;
  memory.working_set_mib = 16;
  memory.clock = "wall";  // recorded, not a ranking option
  const auto m = option_changes("memory", to_json(memory));
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].key, "working_set_mib");
  EXPECT_EQ(m[0].default_, "256");
  EXPECT_TRUE(option_changes("sweep", to_json(SweepRunOptions{})).empty());
  EXPECT_TRUE(default_options("sweep").is_null());
}

}  // namespace
}  // namespace wgb::report
