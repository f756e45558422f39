// Unit tests for the memory suite's options, phase names, estimates, scope statement, document
// pieces and console summary (no GPU).
#include <gtest/gtest.h>

#include <sstream>

#include "memory/document.hpp"
#include "memory/memory.hpp"

namespace wgb::memory {
namespace {

TEST(MemoryOptions, PhaseIdsArePublicNames) {
  std::vector<std::string> ids;
  for (Phase p : kAllPhases) ids.push_back(phase_id(p));
  EXPECT_EQ(ids, (std::vector<std::string>{"memory-read", "memory-write", "memory-copy", "memory-random",
                                           "memory-latency", "memory-sustain"}));
}

TEST(MemoryOptions, ParsesPhasesInSuiteOrder) {
  auto all = parse_phases("all");
  ASSERT_TRUE(all);
  EXPECT_EQ(all->size(), 6u);
  auto some = parse_phases("Sustain, read,latency");
  ASSERT_TRUE(some);
  EXPECT_EQ(*some, (std::vector<Phase>{Phase::Read, Phase::Latency, Phase::Sustain}));
  auto bad = parse_phases("read,bogus");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, ErrorKind::Usage);
  EXPECT_NE(bad.error().message.find("bogus"), std::string::npos);
  EXPECT_FALSE(parse_phases("read,,write"));
}

TEST(MemoryOptions, RejectsOutOfRangeValues) {
  EXPECT_TRUE(validate_options(MemoryOptions{}));
  auto with = [](auto edit) {
    MemoryOptions o;
    edit(o);
    return validate_options(o);
  };
  EXPECT_FALSE(with([](MemoryOptions& o) { o.working_set_mib = 100; }));
  EXPECT_FALSE(with([](MemoryOptions& o) { o.working_set_mib = 1024; }));
  EXPECT_FALSE(with([](MemoryOptions& o) { o.min_working_set_mib = 0; }));
  EXPECT_FALSE(with([](MemoryOptions& o) { o.budget_ms = 0; }));
  EXPECT_FALSE(with([](MemoryOptions& o) { o.sustain_ms = -1; }));
  EXPECT_FALSE(with([](MemoryOptions& o) { o.sample_ms = std::numeric_limits<double>::quiet_NaN(); }));
  EXPECT_FALSE(with([](MemoryOptions& o) { o.phases.clear(); }));
  EXPECT_TRUE(with([](MemoryOptions& o) { o.transition_ms = 0; }));
  const auto e = with([](MemoryOptions& o) { o.working_set_mib = 100; });
  EXPECT_EQ(e.error().kind, ErrorKind::Usage);
}

TEST(MemoryOptions, EstimatesCoverBudgetsAndTransitions) {
  MemoryOptions o;
  const auto ts = estimate_phase_seconds(o, true);
  ASSERT_EQ(ts.size(), 6u);
  EXPECT_GT(ts[0], o.budget_ms / 1000.0);
  EXPECT_GT(ts[5], o.sustain_ms / 1000.0);
  EXPECT_GT(ts[1], ts[0] - 0.01);  // includes the 650 ms transition
  const auto wall = estimate_phase_seconds(o, false);
  EXPECT_GE(wall[0], ts[0]);
}

TEST(MemoryOptions, ScopeStatementIsTheSuitesTable) {
  MemoryOptions o;
  const auto s = scope_statement(o);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_NE(s[0].measured.find("Effective throughput"), std::string::npos);
  EXPECT_NE(s[0].not_measured.find("Manufacturer peak bandwidth"), std::string::npos);
  EXPECT_NE(s[1].measured.find("dependent-load latency proxy"), std::string::npos);
  EXPECT_NE(s[1].not_measured.find("Memory capacity"), std::string::npos);
  EXPECT_NE(s[2].measured.find("18 s"), std::string::npos);
  EXPECT_NE(s[2].not_measured.find("memory vendor"), std::string::npos);
  o.sustain_ms = 5000;
  EXPECT_NE(scope_statement(o)[2].measured.find("5 s"), std::string::npos);
  const auto j = scope_json(o);
  ASSERT_EQ(j.size(), 3u);
  EXPECT_TRUE(j[0].contains("measured"));
  EXPECT_TRUE(j[0].contains("not_measured"));
}

TEST(MemoryOptions, SummaryShowsEveryPhaseRetentionAndScope) {
  MemoryOptions o;
  MemoryRun run;
  WorkingSet ws;
  ws.requested_bytes = ws.bytes = 256 * kMiB;
  ws.geometry = Geometry::of(ws.bytes);
  ws.ranked = true;
  run.working_set = ws;
  BenchmarkResult read;
  read.id = "memory-read";
  read.value = 3.5e12;
  read.timing_method = TimingMethod::GpuTimestamp;
  read.parameters = {{"cv", 0.01}, {"samples", 75}, {"rejected_samples", 2}};
  BenchmarkResult latency = read;
  latency.id = "memory-latency";
  latency.value = 1e9 / 612.5;
  latency.parameters["ns_per_load"] = 612.5;
  BenchmarkResult sustain = read;
  sustain.id = "memory-sustain";
  sustain.parameters["retention"] = 0.991;
  sustain.parameters["timeline"] = nlohmann::json::array({{{"t_s", 0.04}, {"gbps", 3500.0}},
                                                          {{"t_s", 0.08}, {"gbps", 3480.0}}});
  BenchmarkResult lost;
  lost.id = "memory-write";
  lost.status = RowStatus::Error;
  lost.message = "device lost: forced";
  run.rows = {read, lost, latency, sustain};
  run.fatal = make_error(ErrorKind::DeviceLost, "device lost: forced");
  gpu::AdapterDescription a;
  a.device = "Test GPU";
  std::ostringstream out;
  write_summary(out, run, o, a);
  const std::string s = out.str();
  for (const char* want : {"Test GPU", "2 x 256 MiB", "ranked", "read", "3.5", "TB/s", "612.5 ns/load",
                           "retention 99.1%", "throughput held within 5%", "device lost: forced", "Measured", "Not measured",
                           "Stopped early (device-lost)", "75", "gpu-timestamp", "0.0 s 3.50 TB/s"}) {
    EXPECT_NE(s.find(want), std::string::npos) << want << "\n" << s;
  }
  EXPECT_NE(phase_line(read).find("75 samples, 2 rejected"), std::string::npos) << phase_line(read);
  // Laid out for the width it is given: no line of the summary is wider (words are never cut).
  std::ostringstream narrow;
  write_summary(narrow, run, o, a, 100);
  std::istringstream lines(narrow.str());
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 100u) << line;
  EXPECT_NE(phase_line(lost).find("error: device lost"), std::string::npos) << phase_line(lost);
}

TEST(MemoryOptions, WorkingSetJsonSaysWhyItIsUnranked) {
  WorkingSet ws;
  ws.requested_bytes = 512 * kMiB;
  ws.bytes = 128 * kMiB;
  ws.geometry = Geometry::of(ws.bytes);
  ws.reductions = {"capped"};
  ws.unranked_reason = "capped";
  const auto j = working_set_json(ws);
  EXPECT_EQ(j["bytes"], 128 * kMiB);
  EXPECT_EQ(j["ranked"], false);
  EXPECT_EQ(j["unranked_reason"], "capped");
  EXPECT_EQ(j["workgroups"], 8192);
  const auto o = options_json(MemoryOptions{});
  EXPECT_EQ(o["wall_clock_sample_ms"], 80);
  EXPECT_EQ(o["phases"].size(), 6u);
}

}  // namespace
}  // namespace wgb::memory
