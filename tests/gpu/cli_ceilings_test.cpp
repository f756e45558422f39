// `webgpu-bench run --ceilings FILE`: ceilings measured earlier on this adapter feed the
// plausibility check. A document whose measured rates were made artificially low marks the rows
// above them suspect (a linear stream and an alu probe), with the reason naming the file and the
// margin, and the exit code stays 0 as README documents; a document of another adapter, or a file
// that is not a result document, is refused with one line and exit code 2.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_process.hpp"
#include "gpu_fixture.hpp"

namespace wgb {
namespace {

namespace fs = std::filesystem;

using test::Result;
using test::run_cli;
using test::slurp;

std::vector<std::string> quick(std::vector<std::string> a) {
  for (const char* s : {"--bandwidth-mib", "1", "--compute-threads", "256", "--measurement-ms", "5", "--idle-gap-ms",
                        "0", "--max-rounds", "2", "--min-rounds", "1", "--throttle-ratio", "100", "--quiet"}) {
    a.emplace_back(s);
  }
  return a;
}

int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

const nlohmann::json* find_row(const nlohmann::json& doc, const std::string& id) {
  for (const auto& r : doc["rows"]) {
    if (r["id"] == id) return &r;
  }
  return nullptr;
}

TEST(CliCeilings, ArtificiallyLowMeasuredCeilingsMarkRowsSuspect) {
  WGB_GPU_OR_SKIP(ctx);
  const auto dir = fs::temp_directory_path() / ("wgb-ceilings-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const auto first = dir / "first.json";
  auto r = run_cli(quick({"run", "--filter", "read-linear,u32-shift", "--json", first.string()}));
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json doc = nlohmann::json::parse(slurp(first));
  for (const char* id : {"read-linear", "u32-shift"}) {
    const auto* row = find_row(doc, id);
    ASSERT_NE(row, nullptr) << id;
    ASSERT_EQ((*row)["status"], "ok") << id << ": " << (*row)["message"];
  }

  // The same document with its streaming rate divided by 1000, plus an f32 FMA row far below what
  // the adapter does (the peak instruction rate the alu class is compared with).
  nlohmann::json low = doc;
  for (auto& row : low["rows"]) {
    if (row["id"] == "read-linear") row["value"] = row["value"].get<double>() / 1000;
  }
  nlohmann::json fma = {{"id", "f32-fma-vec4"},
                        {"status", "ok"},
                        {"value", 2000.0},
                        {"metric", {{"key", "flops"}, {"unit", "FLOP"}, {"name", "Floating-point ops"}}},
                        {"parameters", {{"peak_class", "fp32"}}}};
  low["rows"].push_back(fma);
  const auto low_path = dir / "low.json";
  std::ofstream(low_path) << low.dump();

  const auto second = dir / "second.json";
  r = run_cli(
      quick({"run", "--filter", "read-linear,u32-shift", "--ceilings", low_path.string(), "--json", second.string()}));
  // README: a suspect row leaves the exit code at 0 (only a failed benchmark makes it 1).
  EXPECT_EQ(r.code, 0) << r.err;
  doc = nlohmann::json::parse(slurp(second));
  EXPECT_EQ(doc["options"]["ceilings"], low_path.string());
  const auto* linear = find_row(doc, "read-linear");
  const auto* shift = find_row(doc, "u32-shift");
  ASSERT_TRUE(linear && shift);
  EXPECT_EQ((*linear)["status"], "suspect");
  const std::string why = (*linear)["message"];
  EXPECT_NE(why.find("linear streaming rate measured on this adapter"), std::string::npos) << why;
  EXPECT_NE(why.find(low_path.string()), std::string::npos) << why;
  EXPECT_NE(why.find("1.25 margin"), std::string::npos) << why;
  EXPECT_EQ((*shift)["status"], "suspect");
  const std::string alu_why = (*shift)["message"];
  EXPECT_NE(alu_why.find("peak 32-bit instruction rate"), std::string::npos) << alu_why;
  EXPECT_NE(alu_why.find("f32-fma-vec4 / 2"), std::string::npos) << alu_why;
  EXPECT_NE(r.out.find("suspect"), std::string::npos) << r.out;

  // Another adapter's document: refused before any row, one line, exit code 2.
  nlohmann::json other = low;
  other["machine"]["adapter"]["device"] = "Some Other GPU";
  const auto other_path = dir / "other.json";
  std::ofstream(other_path) << other.dump();
  r = run_cli(quick({"run", "--filter", "read-linear", "--ceilings", other_path.string()}));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("another adapter"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Some Other GPU"), std::string::npos) << r.err;

  // Not a result document: one line naming the file, exit code 2.
  const auto junk = dir / "junk.json";
  std::ofstream(junk) << "{\"rows\": 3";
  r = run_cli(quick({"run", "--filter", "read-linear", "--ceilings", junk.string()}));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("junk.json"), std::string::npos) << r.err;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace wgb
