// `webgpu-bench memory` as a user meets it (the library is tested in memory_test.cpp): a bad option
// is one line and exit code 2; a tiny run writes a document with every phase validated and the
// fields every phase reports (median, CV, sample count, rejected count, clock); Ctrl-C exits 130
// keeping the completed phases. Also `--clock wall`, the option that makes the wall-clock path run
// on adapters that have timestamps.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_process.hpp"
#include "gpu_fixture.hpp"
#include "report/csv.hpp"

namespace wgb {
namespace {

using test::lines;
using test::run_cli;
using test::slurp;

std::filesystem::path temp_json(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("wgb-cli-memory-" + name + "-" + std::to_string(getpid()) + ".json");
}

// 2 x 16 MiB, a few milliseconds per sample: seconds on lavapipe.
std::vector<std::string> tiny_memory(const std::filesystem::path& json, const std::string& sustain_ms = "100") {
  return {"memory",      "--working-set",
          "16",          "--min-working-set",
          "16",          "--budget-ms",
          "30",          "--latency-budget-ms",
          "30",          "--sustain-ms",
          sustain_ms,    "--sample-ms",
          "4",           "--latency-sample-ms",
          "4",           "--warmup-ms",
          "10",          "--transition-ms",
          "5",           "--json",
          json.string(), "--quiet"};
}

TEST(CliMemory, WorkingSetNotAPowerOfTwoIsAUsageErrorOnOneLine) {
  auto r = run_cli({"memory", "--working-set", "24"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("working-set"), std::string::npos) << r.err;
}

TEST(CliMemory, ATinyRunWritesEveryPhaseValidatedWithItsFields) {
  WGB_GPU_OR_SKIP(ctx);
  const auto json = temp_json("tiny");
  auto r = run_cli(tiny_memory(json));
  ASSERT_EQ(r.code, 0) << r.err;
  auto doc = nlohmann::json::parse(slurp(json));
  std::filesystem::remove(json);
  EXPECT_EQ(doc["suite"], "memory");
  EXPECT_EQ(doc["state"], "complete");
  EXPECT_FALSE(doc["scope"].empty());
  EXPECT_EQ(doc["working_set"]["bytes"], 16u << 20);
  ASSERT_EQ(doc["rows"].size(), 6u);
  for (const auto& row : doc["rows"]) {
    SCOPED_TRACE(row["id"].get<std::string>());
    EXPECT_EQ(row["status"], "ok") << row["message"];
    EXPECT_FALSE(row["validation"].get<std::string>().empty());
    EXPECT_GT(row["value"].get<double>(), 0);
    // Every phase's fields: median, CV, sample count, rejected count, clock.
    EXPECT_GT(row["stats_ms"]["median"].get<double>(), 0);
    EXPECT_GE(row["parameters"]["cv"].get<double>(), 0);
    EXPECT_GE(row["parameters"]["samples"].get<std::size_t>(), 1u);
    EXPECT_TRUE(row["parameters"].contains("rejected_samples"));
    const auto clock = row["parameters"]["clock"].get<std::string>();
    EXPECT_TRUE(clock == "gpu-timestamp" || clock == "wall-clock") << clock;
    EXPECT_EQ(row["procedure"]["timing_method"], clock);
  }
  const auto& sustain = doc["rows"][5];
  EXPECT_EQ(sustain["id"], "memory-sustain");
  EXPECT_GT(sustain["parameters"]["retention"].get<double>(), 0);
  EXPECT_FALSE(sustain["parameters"]["timeline"].empty());
  // What the retention says is in the document and on the console, the same sentence.
  const auto reading = sustain["parameters"]["retention_reading"].get<std::string>();
  EXPECT_NE(reading.find("throughput"), std::string::npos) << reading;
  // The console wraps long sentences to its width: compare with every run of whitespace as one space.
  auto words = [](const std::string& s) {
    std::string out;
    for (char ch : s) {
      const bool space = ch == ' ' || ch == '\n' || ch == '\t';
      if (!space) out += ch;
      else if (!out.empty() && out.back() != ' ') out += ' ';
    }
    return out;
  };
  EXPECT_NE(words(r.out).find(words(reading)), std::string::npos) << r.out;
  // The console summary names every phase.
  for (const char* phase : {"read", "write", "copy", "random", "latency", "sustain"}) {
    EXPECT_NE(r.out.find(phase), std::string::npos) << phase;
  }
}

// --csv: the phase rows with run's CSV conventions (report::write_csv): its header, one line a row.
TEST(CliMemory, CsvHasRunsHeaderAndOneLinePerPhase) {
  WGB_GPU_OR_SKIP(ctx);
  const auto json = temp_json("csv");
  auto csv = json;
  csv.replace_extension(".csv");
  auto args = tiny_memory(json);
  args.insert(args.end(), {"--phases", "read,write", "--csv", csv.string()});
  auto r = run_cli(args);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string text = slurp(csv);
  std::filesystem::remove(json);
  std::filesystem::remove(csv);
  std::ostringstream header;
  report::write_csv(header, {});
  EXPECT_EQ(text.substr(0, text.find('\n') + 1), header.str());
  EXPECT_EQ(lines(text), 3) << text;
  EXPECT_NE(text.find(",memory-read,"), std::string::npos) << text;
  EXPECT_NE(text.find(",memory-write,"), std::string::npos) << text;
}

TEST(CliMemory, CtrlCExits130AndKeepsTheCompletedPhases) {
  WGB_GPU_OR_SKIP(ctx);
  const auto json = temp_json("int");
  // Read completes in a fraction of a second; sustain then runs for a minute unless interrupted.
  auto args = tiny_memory(json, "60000");
  args.insert(args.end(), {"--phases", "read,sustain"});
  auto c = test::spawn(args);
  ASSERT_TRUE(test::wait_for_rows(json)) << "the read phase never completed: " << slurp(c.err);
  kill(c.pid, SIGINT);
  const int code = test::wait_exit(c);
  EXPECT_EQ(code, 130) << slurp(c.err);
  auto doc = nlohmann::json::parse(slurp(json));
  std::filesystem::remove(json);
  EXPECT_EQ(doc["state"], "cancelled");
  ASSERT_GE(doc["rows"].size(), 1u);
  EXPECT_EQ(doc["rows"][0]["id"], "memory-read");
  EXPECT_EQ(doc["rows"][0]["status"], "ok");
}

// run's stderr conventions: off a terminal (and without --progress) no bar, no adapter line and no
// per-phase lines; --quiet the same anywhere.
TEST(CliMemory, StderrStaysQuietOffATerminal) {
  WGB_GPU_OR_SKIP(ctx);
  const auto json = temp_json("quiet");
  auto args = tiny_memory(json);
  args.pop_back();  // drop --quiet: stderr is a file here, not a terminal
  args.insert(args.end(), {"--phases", "read"});
  auto r = run_cli(args);
  std::filesystem::remove(json);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

// --clock wall on memory: every phase on the wall clock, minus the recorded empty-submit cost.
TEST(CliClock, MemoryOnTheWallClockRecordsItAndTheEmptySubmitCost) {
  WGB_GPU_OR_SKIP(ctx);
  const auto json = temp_json("wall");
  auto args = tiny_memory(json);
  args.pop_back();  // not --quiet: the adapter line names the clock (shown with --progress off a terminal)
  args.insert(args.end(), {"--clock", "wall", "--phases", "read,latency", "--progress"});
  auto r = run_cli(args);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("clock wall-clock"), std::string::npos) << r.err;
  auto doc = nlohmann::json::parse(slurp(json));
  std::filesystem::remove(json);
  EXPECT_EQ(doc["options"]["clock"], "wall");
  EXPECT_EQ(doc["machine"]["dawn"]["timestamps"], false);
  ASSERT_EQ(doc["rows"].size(), 2u);
  for (const auto& row : doc["rows"]) {
    EXPECT_EQ(row["status"], "ok") << row["message"];
    EXPECT_EQ(row["parameters"]["clock"], "wall-clock");
    EXPECT_GT(row["parameters"]["empty_submit_ms"].get<double>(), 0);
  }
}

// --clock wall on run: the row says it was timed on the wall clock.
TEST(CliClock, RunOnTheWallClockRecordsIt) {
  WGB_GPU_OR_SKIP(ctx);
  const auto json = temp_json("run-wall");
  auto r = run_cli({"run", "--clock", "wall", "--filter", "read-linear", "--bandwidth-mib", "1", "--measurement-ms",
                    "5", "--idle-gap-ms", "0", "--max-rounds", "3", "--throttle-ratio", "100", "--json", json.string(),
                    "--quiet"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto doc = nlohmann::json::parse(slurp(json));
  std::filesystem::remove(json);
  ASSERT_EQ(doc["rows"].size(), 1u);
  EXPECT_EQ(doc["rows"][0]["status"], "ok");
  EXPECT_EQ(doc["rows"][0]["procedure"]["timing_method"], "wall-clock");
  EXPECT_EQ(doc["machine"]["dawn"]["timestamps"], false);
}

TEST(CliClock, AnUnknownClockIsAUsageError) {
  auto r = run_cli({"memory", "--clock", "sundial"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
}

}  // namespace
}  // namespace wgb
