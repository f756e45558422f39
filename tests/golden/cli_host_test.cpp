// `webgpu-bench host` and `--device host` as a user meets them (the built binary; no GPU needed):
// the smallest run passes every correctness check and writes every field recorded of the host;
// `run`, `memory` and `sweep` with --device host take every host option and forward their output
// options, and refuse GPU options (and host options without --device host) with one line, exit 2;
// --repro runs the second process and records its verdict; --csv follows run's CSV conventions.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "report/csv.hpp"
#include "tests/golden/process.hpp"

namespace wgb {
namespace {

using json = nlohmann::json;
using test::quoted;
using test::run_command;

std::string bin() { return quoted(WGB_CLI_BIN); }

// The smallest settings: one thread, arrays of 256 KiB, sweeps of three points, three repetitions.
const char* kSmallest =
    "--quick --threads 1 --array-bytes 256K --sweep-min-bytes 16K --sweep-max-bytes 64K --latency-max-bytes 64K "
    "--repetitions 3 --warmup-ms 1";
// Sweep takes its points from --from/--to/--values, so not the --sweep-* options.
const char* kSmallestForSweep = "--quick --array-bytes 256K --repetitions 3 --warmup-ms 1";

json load(const std::filesystem::path& p) { return json::parse(test::read_file(p)); }

void expect_one_line(const test::CommandResult& r, const std::string& needle) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

// Every row passed its correctness check and carries the row side of the reporting table.
void expect_checked_rows(const json& doc, std::size_t rows) {
  EXPECT_EQ(doc["suite"], "host");
  EXPECT_EQ(doc["state"], "complete");
  ASSERT_EQ(doc["rows"].size(), rows);
  for (const auto& r : doc["rows"]) {
    SCOPED_TRACE(r["id"].get<std::string>());
    EXPECT_EQ(r["status"], "ok") << r["message"];
    EXPECT_FALSE(r["validation"].get<std::string>().empty());
    EXPECT_GT(r["value"].get<double>(), 0);
    const json& p = r["parameters"];
    EXPECT_EQ(p["timing"]["clock"], "std::chrono::steady_clock");
    EXPECT_TRUE(p["timing"]["dispersion"].contains("iqr_ms"));
    EXPECT_TRUE(p["threads"].contains("affinity"));
    EXPECT_TRUE(p["input"].contains("shape"));
    EXPECT_TRUE(p["frequency"].contains("sustained_mhz_median"));
  }
}

// What the document records of the host machine.
void expect_reporting_fields(const json& doc) {
  const json& h = doc["machine"]["host"];
  EXPECT_FALSE(h["cpu_model"].get<std::string>().empty());
  EXPECT_GE(h["topology"]["physical_cores_allowed"].get<int>(), 1);
  EXPECT_TRUE(h["vector_isa"].is_array());
  EXPECT_TRUE(h["clock"]["base"].contains("tsc_mhz"));
  EXPECT_FALSE(h["topology"]["caches_over_allowed_cpus"].empty());
  EXPECT_TRUE(h["topology"]["numa"].contains("node_count"));
  EXPECT_FALSE(h["compiler"]["command"].get<std::string>().empty());
  EXPECT_GT(h["timer"]["resolution_ns"].get<double>(), 0);
  EXPECT_TRUE(doc["options"].contains("repetitions"));
}

std::string csv_header() {
  std::ostringstream s;
  report::write_csv(s, {});
  return s.str().substr(0, s.str().find('\n'));
}

// The CSV has run's header and one line per row of the document.
void expect_csv_of(const std::filesystem::path& csv, const json& doc) {
  const std::string text = test::read_file(csv);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.substr(0, text.find('\n')), csv_header());
  EXPECT_EQ(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')), doc["rows"].size() + 1) << text;
  for (const auto& r : doc["rows"]) EXPECT_NE(text.find(r["id"].get<std::string>()), std::string::npos);
}

TEST(CliHost, TheSmallestRunPassesEveryCheckAndReports) {
  test::TempFolder dir("cli-host");
  const auto out = dir / "host.json", csv = dir / "host.csv";
  const auto r = run_command(
      fmt::format("{} host {} --json {} --csv {} --quiet", bin(), kSmallest, quoted(out), quoted(csv)), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = load(out);
  expect_checked_rows(doc, 7);
  expect_reporting_fields(doc);
  expect_csv_of(csv, doc);
  EXPECT_NE(r.out.find("host-stream-triad"), std::string::npos);
}

TEST(CliHost, RunDeviceHostForwardsHostAndOutputOptions) {
  test::TempFolder dir("cli-run-host");
  const auto out = dir / "run.json", csv = dir / "run.csv";
  const auto r = run_command(fmt::format("{} run --device host {} --filter 'host-stream-*' --json {} --csv {} --quiet",
                                         bin(), kSmallest, quoted(out), quoted(csv)),
                             dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = load(out);
  expect_checked_rows(doc, 4);
  expect_reporting_fields(doc);
  expect_csv_of(csv, doc);
  // The host options arrived: one thread, three repetitions, arrays of 256 KiB.
  EXPECT_EQ(doc["options"]["threads"], 1);
  EXPECT_EQ(doc["options"]["repetitions"], 3);
  EXPECT_EQ(doc["options"]["array_bytes"], 256 << 10);
}

TEST(CliHost, NothingIsSilentlyDropped) {
  test::TempFolder dir("cli-host-refuse");
  // GPU options mean nothing for the host.
  expect_one_line(run_command(fmt::format("{} run --device host --bandwidth-mib 4", bin()), dir), "--bandwidth-mib");
  expect_one_line(run_command(fmt::format("{} run --device host --clock wall", bin()), dir), "--clock");
  expect_one_line(run_command(fmt::format("{} memory --device host --working-set 64", bin()), dir), "--working-set");
  expect_one_line(run_command(fmt::format("{} sweep --device host host-stream-triad --max-rounds 3", bin()), dir),
                  "--max-rounds");
  // Host options mean nothing for the GPU.
  expect_one_line(run_command(fmt::format("{} run --quick --filter read-linear", bin()), dir), "--device host");
  expect_one_line(run_command(fmt::format("{} run --device gpu --threads 2", bin()), dir), "--device host");
  expect_one_line(run_command(fmt::format("{} memory --repetitions 3", bin()), dir), "--device host");
  // A malformed --submit URL is refused before any work.
  expect_one_line(run_command(fmt::format("{} host --quick --submit ftp://example", bin()), dir), "ftp://example");
}

TEST(CliHost, ReproRunsTheSecondProcessAndRecordsItsVerdict) {
  test::TempFolder dir("cli-host-repro");
  const auto out = dir / "repro.json";
  const auto r = run_command(fmt::format("{} host {} --filter host-stream-triad,host-load-latency --repro --json {}",
                                         bin(), kSmallest, quoted(out)),
                             dir);
  // A busy machine may make the two processes disagree (exit 1, rows "suspect"); either way the
  // second process ran and its verdict is recorded.
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  EXPECT_NE(r.err.find("repro: running the whole procedure again in a second process"), std::string::npos) << r.err;
  const json doc = load(out);
  ASSERT_TRUE(doc.contains("repro")) << doc.dump();
  const json& repro = doc["repro"];
  EXPECT_EQ(repro["second_run"]["exit_code"], 0);
  EXPECT_EQ(repro["second_run"]["rows"], 2);
  // The second process measured the same curve points (the same thread counts: it was not started
  // on the CPUs a thread team had pinned the first process's main thread to).
  int points = 0;
  for (const auto& row : doc["rows"]) {
    for (const auto& s : row["parameters"]["series"]) points += static_cast<int>(s["points"].size());
  }
  EXPECT_GT(points, 0);
  EXPECT_EQ(repro["second_run"]["points_compared"].get<int>(), points);
  EXPECT_EQ(repro["verdict"], r.exit_code == 0 ? "pass" : "fail");
  // Every row is compared by the rule every suite uses, and a disagreeing one is suspect.
  for (const auto& row : doc["rows"]) {
    ASSERT_TRUE(row.contains("repro")) << row["id"];
    EXPECT_NE(row["repro"]["verdict"], "not-compared") << row["id"];
    EXPECT_EQ(row["status"] == "suspect", row["repro"]["verdict"] == "disagree") << row.dump();
  }
  // The second process wrote its own document, not the first one's.
  const auto& second = repro["second_run"]["command"];
  EXPECT_EQ(std::find(second.begin(), second.end(), out.string()), second.end());
}

TEST(CliHost, MemoryDeviceHostMeasuresStreamAndTheLatencyCurve) {
  test::TempFolder dir("cli-memory-host");
  const auto out = dir / "memory.json", csv = dir / "memory.csv";
  const auto r = run_command(
      fmt::format("{} memory --device host {} --json {} --csv {} --quiet", bin(), kSmallest, quoted(out), quoted(csv)),
      dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = load(out);
  expect_checked_rows(doc, 5);
  std::vector<std::string> ids;
  for (const auto& row : doc["rows"]) ids.push_back(row["id"]);
  EXPECT_EQ(ids, (std::vector<std::string>{"host-stream-copy", "host-stream-scale", "host-stream-add",
                                           "host-stream-triad", "host-load-latency"}));
  expect_csv_of(csv, doc);
}

TEST(CliHost, SweepDeviceHostGivesOneCurve) {
  test::TempFolder dir("cli-sweep-host");
  const auto threads = dir / "threads.json", size = dir / "size.json";
  auto r = run_command(fmt::format("{} sweep --device host host-stream-triad --param threads --values 1,2 "
                                   "--affinity none {} --json {} --quiet",
                                   bin(), kSmallestForSweep, quoted(threads)),
                       dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json doc = load(threads);
  expect_checked_rows(doc, 1);
  auto series = doc["rows"][0]["parameters"]["series"];
  ASSERT_EQ(series.size(), 1u) << series.dump();
  EXPECT_EQ(series[0]["name"], "threads");
  EXPECT_EQ(series[0]["points"].size(), 2u);

  r = run_command(fmt::format("{} sweep --device host host-load-latency --param size --from 16K --to 64K --threads 1 "
                              "{} --json {} --quiet",
                              bin(), kSmallestForSweep, quoted(size)),
                  dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  doc = load(size);
  expect_checked_rows(doc, 1);
  series = doc["rows"][0]["parameters"]["series"];
  ASSERT_EQ(series.size(), 1u) << series.dump();
  EXPECT_EQ(series[0]["name"], "working_set");
  EXPECT_EQ(series[0]["points"].front()["working_set_bytes"], 16 << 10);
  EXPECT_EQ(series[0]["points"].back()["working_set_bytes"], 64 << 10);

  // One benchmark per sweep.
  expect_one_line(run_command(fmt::format("{} sweep --device host 'host-stream-*' {}", bin(), kSmallestForSweep), dir),
                  "exactly one");
}

}  // namespace
}  // namespace wgb
