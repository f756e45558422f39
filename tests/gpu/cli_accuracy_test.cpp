// `run --accuracy` as a user meets it: the accuracy entries beside the probe's rate in the table
// (and in `report`'s) and as typed fields of the row in the JSON document, and a builtin replaced
// by an inaccurate implementation (a polynomial sin through --kernel-dir) reported outside its
// bound with its worst input, the run still exiting 0 (a finding is not an error).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_process.hpp"
#include "gpu_fixture.hpp"
#include "polynomial_sin.hpp"

namespace wgb {
namespace {

using test::run_cli;
using test::slurp;

const std::vector<std::string> kQuick = {"--measurement-ms", "5", "--idle-gap-ms", "0", "--max-rounds", "2",
                                         "--min-rounds", "1", "--throttle-ratio", "100", "--quiet"};

std::vector<std::string> with_quick(std::vector<std::string> a) {
  a.insert(a.end(), kQuick.begin(), kQuick.end());
  return a;
}

TEST(CliAccuracy, APolynomialSinIsAFindingBesideTheRate) {
  WGB_GPU_OR_SKIP(ctx);
  const auto dir = test::polynomial_sin_dir("wgb-cli-acc");
  const auto json = dir / "out.json";
  auto r = run_cli(with_quick({"run", "--filter", "f32-sincos", "--accuracy", "--kernel-dir", dir.string(), "--json",
                               json.string()}));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("OUTSIDE f32-sincos sin(x) [-pi, pi]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("accuracy ("), std::string::npos) << r.out;
  const auto doc = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(doc["options"]["accuracy"], true);
  ASSERT_EQ(doc["rows"].size(), 1u);
  const auto& row = doc["rows"][0];
  EXPECT_EQ(row["status"], "ok") << row["message"];
  ASSERT_EQ(row["accuracy"].size(), 4u);
  const auto& sin = row["accuracy"][0];
  EXPECT_EQ(sin["builtin"], "sin(x)");
  EXPECT_EQ(sin["range"], "[-pi, pi]");
  EXPECT_EQ(sin["status"], "measured");
  EXPECT_EQ(sin["within"], false);
  EXPECT_GT(sin["violations"].get<std::uint64_t>(), 0u);
  EXPECT_NEAR(std::fabs(sin["worst_violation"]["input"][0].get<double>()), 3.14159, 1e-3);
  const auto& cos = row["accuracy"][2];
  EXPECT_EQ(cos["builtin"], "cos(x)");
  EXPECT_EQ(cos["within"], true);  // cos was not replaced
  EXPECT_TRUE(row["accuracy"][1]["within"].is_null());  // sin outside [-pi, pi]: no bound
  // `report` prints the document's accuracy table as run did.
  const auto again = run_cli({"report", json.string()});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.out.find("OUTSIDE f32-sincos sin(x) [-pi, pi]"), std::string::npos) << again.out;
  std::filesystem::remove_all(dir);
}

TEST(CliAccuracy, WithoutTheFlagNoRowCarriesAccuracy) {
  WGB_GPU_OR_SKIP(ctx);
  const auto json = std::filesystem::temp_directory_path() / ("wgb-cli-noacc-" + std::to_string(getpid()) + ".json");
  auto r = run_cli(with_quick({"run", "--filter", "f32-sqrt", "--json", json.string()}));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto doc = nlohmann::json::parse(slurp(json));
  EXPECT_FALSE(doc["rows"][0].contains("accuracy"));
  EXPECT_EQ(r.out.find("accuracy ("), std::string::npos);
  std::filesystem::remove(json);
}

}  // namespace
}  // namespace wgb
