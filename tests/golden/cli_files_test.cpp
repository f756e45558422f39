// `report` and `compare` as a user meets them (the built binary, no GPU needed): corrupt,
// truncated, empty, missing or foreign files give ONE line on stderr naming the file and the
// problem, and exit code 2; good documents give HTML/CSV; compare's exit code follows
// --fail-on-regression.
#include <gtest/gtest.h>

#include <fstream>

#include "report/document.hpp"
#include "report/files.hpp"
#include "report/repro.hpp"
#include "tests/golden/process.hpp"
#include "tests/golden/synthetic.hpp"

namespace wgb::report {
namespace {

using test::quoted;
using test::run_command;

std::string bin() { return quoted(WGB_CLI_BIN); }

class CliFiles : public ::testing::Test {
 protected:
  CliFiles() : dir_("cli-files") {
    good_ = dir_ / "good.json";
    EXPECT_TRUE(write_json_atomic(good_, test::synthetic_document().json()));
  }
  std::filesystem::path write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return dir_ / name;
  }
  test::TempFolder dir_;
  std::filesystem::path good_;
};

void expect_one_line_error(const test::CommandResult& r, const std::filesystem::path& file, const std::string& problem) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line: " << r.err;
  EXPECT_EQ(r.err.rfind("webgpu-bench: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(file.string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(problem), std::string::npos) << r.err;
}

TEST_F(CliFiles, BadInputsToReportAndCompare) {
  const std::string text = test::read_file(good_);
  const std::vector<std::pair<std::filesystem::path, std::string>> bad{
      {write("truncated.json", text.substr(0, text.size() * 2 / 3)), "truncated"},
      {write("corrupt.json", "{\"schema\": \"webgpu-bench/result\",, }"), "corrupt"},
      {write("empty.json", ""), "empty"},
      {write("foreign.json", "{\"compilerOptions\": {\"strict\": true}}"), "not a webgpu-bench result document"},
      {write("other.json", "{\"schema\": \"other/result\", \"schema_version\": 1, \"rows\": []}"), "foreign document"},
      {dir_ / "missing.json", "cannot open"},
  };
  for (const auto& [file, problem] : bad) {
    SCOPED_TRACE(file.string());
    expect_one_line_error(run_command(fmt::format("{} report {} -o {}", bin(), quoted(file), quoted(dir_ / "r.html")), dir_),
                          file, problem);
    EXPECT_FALSE(std::filesystem::exists(dir_ / "r.html"));
    expect_one_line_error(run_command(fmt::format("{} compare {} {}", bin(), quoted(good_), quoted(file)), dir_), file,
                          problem);
    expect_one_line_error(run_command(fmt::format("{} compare {} {}", bin(), quoted(file), quoted(good_)), dir_), file,
                          problem);
  }
}

TEST_F(CliFiles, ReportWritesHtmlAndCsv) {
  auto r = run_command(fmt::format("{} report {} -o {} --csv {}", bin(), quoted(good_), quoted(dir_ / "r.html"),
                                   quoted(dir_ / "r.csv")),
                       dir_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto html = test::read_file(dir_ / "r.html");
  EXPECT_NE(html.find("id=\"roofline-chart\""), std::string::npos);
  const auto csv = test::read_file(dir_ / "r.csv");
  EXPECT_EQ(csv.rfind("index,id,", 0), 0u);
  r = run_command(fmt::format("{} report {}", bin(), quoted(good_)), dir_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("below 0.2 of the roofline (an unexplained bottleneck): read-gather-64mb"), std::string::npos) << r.out;
}

TEST_F(CliFiles, CompareExitCodesFollowFailOnRegression) {
  ResultDocument slower("default", {"webgpu-bench", "run"});
  slower.set_adapter(test::synthetic_adapter(), test::synthetic_dawn());
  auto rows = test::synthetic_rows();
  apply_test_perturbation(rows[0], {"memory-read", 1.10});  // 9.1% slower
  for (const auto& row : rows) slower.add_row(row);
  const auto b = dir_ / "slower.json";
  ASSERT_TRUE(write_json_atomic(b, slower.json()));

  auto r = run_command(fmt::format("{} compare {} {}", bin(), quoted(good_), quoted(b)), dir_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("memory-read"), std::string::npos);
  EXPECT_NE(r.out.find("0.909 (-9.1%)"), std::string::npos) << r.out;
  r = run_command(fmt::format("{} compare {} {} --fail-on-regression 5 --json {}", bin(), quoted(good_), quoted(b),
                              quoted(dir_ / "c.json")),
                  dir_);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("regressions beyond 5%: memory-read (-9.1%)"), std::string::npos) << r.out;
  EXPECT_NE(test::read_file(dir_ / "c.json").find("\"regressions\""), std::string::npos);
  r = run_command(fmt::format("{} compare {} {} --fail-on-regression 10", bin(), quoted(good_), quoted(b)), dir_);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  r = run_command(fmt::format("{} compare {} {} --fail-on-regression banana", bin(), quoted(good_), quoted(b)), dir_);
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace
}  // namespace wgb::report
