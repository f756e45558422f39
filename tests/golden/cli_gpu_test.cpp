// The CLI end to end on a real adapter (lavapipe in CI), small and fast: run writes JSON + CSV,
// --repro flags a row whose second run was perturbed (test-only WGB_TEST_REPRO_PERTURB), sweep
// writes a series and says when a benchmark has no such knob, and report renders both.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/golden/process.hpp"

namespace wgb {
namespace {

using test::quoted;
using test::run_command;

constexpr const char* kQuick =
    "--min-rounds 2 --max-rounds 3 --measurement-ms 5 --target-dispatch-ms 2 --idle-gap-ms 0 --cooldown-ms 0";

std::string bin() { return quoted(WGB_CLI_BIN); }

bool adapter_required() {
  const char* v = std::getenv("WGB_REQUIRE_ADAPTER");
  return v != nullptr && std::string(v) == "1";
}

#define WGB_SKIP_WITHOUT_ADAPTER(result)                                                 \
  if ((result).exit_code == 3 && !adapter_required()) {                                 \
    GTEST_SKIP() << "no WebGPU adapter: " << (result).err;                              \
  }

TEST(CliGpu, RunWritesJsonCsvAndReproFlagsThePerturbedRow) {
  test::TempFolder dir("cli-gpu-repro");
  const auto json = dir / "run.json", csv = dir / "run.csv";
  // The second process multiplies read-linear's times by 20 after measuring: a disagreement far
  // beyond any dispersion lavapipe shows.
  auto r = run_command(fmt::format("WGB_TEST_REPRO_PERTURB=read-linear=20 {} run --filter read-linear --bandwidth-mib 1 {} "
                                   "--json {} --csv {} --repro -q",
                                   bin(), kQuick, quoted(json), quoted(csv)),
                       dir);
  WGB_SKIP_WITHOUT_ADAPTER(r);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("DISAGREE"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("repro (second process): FAIL: disagreeing rows: read-linear"), std::string::npos) << r.out;
  const auto doc = nlohmann::json::parse(test::read_file(json));
  EXPECT_EQ(doc["state"], "complete");
  EXPECT_EQ(doc["repro"]["verdict"], "fail");
  EXPECT_EQ(doc["repro"]["disagreeing"], nlohmann::json::array({"read-linear"}));
  EXPECT_NE(doc["repro"]["second_run"]["test_perturbation"].get<std::string>().find("TEST-ONLY"), std::string::npos);
  ASSERT_EQ(doc["rows"].size(), 1u);
  const auto& row = doc["rows"][0];
  EXPECT_EQ(row["status"], "suspect");  // a measured row the second process disagrees with
  EXPECT_NE(row["message"].get<std::string>().find("the second process disagrees"), std::string::npos);
  EXPECT_EQ(row["repro"]["verdict"], "disagree");
  // 1/20 apart from the two runs' own noise (lavapipe on a busy 2-core machine can vary 2-3x).
  EXPECT_LT(row["repro"]["ratio"].get<double>(), 0.25) << row["repro"].dump();
  EXPECT_TRUE(row["notes"].empty()) << "the first run must not be perturbed";
  // A row that did not reproduce sets no ceiling (a ceiling comes only from an ok row).
  EXPECT_FALSE(row["roofline"]["applies"].get<bool>());
  EXPECT_NE(row["roofline"]["note"].get<std::string>().find("read-linear is suspect"), std::string::npos);
  const auto text = test::read_file(csv);
  EXPECT_EQ(text.rfind("index,id,", 0), 0u);
  EXPECT_NE(text.find(",disagree,"), std::string::npos) << text;

  r = run_command(fmt::format("{} report {} -o {}", bin(), quoted(json), quoted(dir / "run.html")), dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto html = test::read_file(dir / "run.html");
  EXPECT_NE(html.find("id=\"repro-verdict\" class=\"verdict fail\""), std::string::npos);
  EXPECT_NE(html.find("the second process disagrees"), std::string::npos);
}

TEST(CliGpu, SweepWritesASeriesAndNamesAMissingKnob) {
  test::TempFolder dir("cli-gpu-sweep");
  const auto json = dir / "sweep.json", csv = dir / "sweep.csv";
  auto r = run_command(fmt::format("{} sweep read-linear --values 16K,256K {} --json {} --csv {} -q", bin(), kQuick,
                                   quoted(json), quoted(csv)),
                       dir);
  WGB_SKIP_WITHOUT_ADAPTER(r);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("16 KiB"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("256 KiB"), std::string::npos) << r.out;
  const auto doc = nlohmann::json::parse(test::read_file(json));
  EXPECT_EQ(doc["suite"], "sweep");
  EXPECT_EQ(doc["sweep"]["values"], nlohmann::json::array({16384, 262144}));
  ASSERT_EQ(doc["rows"].size(), 2u);
  EXPECT_EQ(doc["rows"][1]["parameters"]["sweep"]["value"], 262144);
  EXPECT_EQ(doc["rows"][1]["parameters"]["buffer_bytes"], 262144);
  EXPECT_NE(test::read_file(csv).find(",size,262144,"), std::string::npos);
  // Words, not field names or raw bytes: the heading names what varies, the table its clock.
  EXPECT_NE(r.out.find("read-linear over the buffer or working-set size"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("bandwidth_bytes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("clock"), std::string::npos) << r.out;

  r = run_command(fmt::format("{} report {} -o {}", bin(), quoted(json), quoted(dir / "sweep.html")), dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(test::read_file(dir / "sweep.html").find("id=\"sweep-read-linear-size\""), std::string::npos);

  // read-linear has no thread-count knob: the sweep says so after two points and stops.
  r = run_command(fmt::format("{} sweep read-linear --param threads --values 64,128,256 {} -q", bin(), kQuick), dir);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("read-linear does not vary with the invocations in flight"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\n    256"), std::string::npos) << r.out;

  // A point above the adapter's largest storage binding stays in the series as a skipped row naming
  // the limit; it is never measured at another size in its place.
  r = run_command(fmt::format("{} sweep read-linear --values 16K,64G {} --json {} -q", bin(), kQuick, quoted(json)), dir);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto skipped = nlohmann::json::parse(test::read_file(json));
  ASSERT_EQ(skipped["rows"].size(), 2u);
  EXPECT_EQ(skipped["rows"][1]["status"], "skipped");
  EXPECT_EQ(skipped["rows"][1]["parameters"]["sweep"]["value"], 64ull << 30);
  EXPECT_NE(skipped["rows"][1]["message"].get<std::string>().find("64 GiB is above the adapter's largest"),
            std::string::npos)
      << skipped["rows"][1]["message"];
  EXPECT_EQ(skipped["sweep"]["skipped"].size(), 1u);

  // Bad sweep input: usage errors, one line.
  r = run_command(fmt::format("{} sweep read-linear --from 1M --to 16K", bin()), dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--from 1 MiB is above --to 16 KiB"), std::string::npos) << r.err;
  r = run_command(fmt::format("{} sweep 'read-*x'", bin()), dir);
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace
}  // namespace wgb
