// `report` and `compare` on GPU, host and older documents (the built binary, no GPU needed):
// the text report gives the technique verdicts even for a document written before the
// technique_verdicts field; a GPU document and a host document make one HTML page with both machine
// cards and both rooflines; impossible values (schema_version -1, negative rates) give one line
// naming the file and the problem, and exit code 2.
#include <gtest/gtest.h>

#include "report/document.hpp"
#include "report/files.hpp"
#include "tests/golden/process.hpp"
#include "tests/golden/synthetic.hpp"

namespace wgb::report {
namespace {

using test::quoted;
using test::run_command;

std::string bin() { return quoted(WGB_CLI_BIN); }

class CliReportDocs : public ::testing::Test {
 protected:
  CliReportDocs() : dir_("cli-report-docs") {}
  std::filesystem::path save(const std::string& name, const nlohmann::json& doc) {
    EXPECT_TRUE(write_json_atomic(dir_ / name, doc));
    return dir_ / name;
  }
  test::TempFolder dir_;
};

TEST_F(CliReportDocs, TextReportDerivesVerdictsFromTheRows) {
  auto doc = test::synthetic_document().json();
  doc.erase("technique_verdicts");  // as written before the field existed
  const auto path = save("old.json", doc);
  const auto r = run_command(fmt::format("{} report {}", bin(), quoted(path)), dir_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("technique verdicts"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("workgroup: fastest workgroup-128"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("this workload on this GPU and runtime only"), std::string::npos) << r.out;
}

TEST_F(CliReportDocs, GpuAndHostDocumentsInOneReport) {
  const auto gpu = save("gpu.json", test::synthetic_document().json());
  const auto host = save("host.json", test::synthetic_host_document().json());
  const auto r = run_command(
      fmt::format("{} report {} {} -o {}", bin(), quoted(gpu), quoted(host), quoted(dir_ / "r.html")), dir_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto html = test::read_file(dir_ / "r.html");
  EXPECT_NE(html.find("<svg id=\"roofline-chart\""), std::string::npos);
  EXPECT_NE(html.find("<svg id=\"roofline-chart-2\""), std::string::npos);
  EXPECT_NE(html.find("Machine: Synthetic GPU"), std::string::npos);
  EXPECT_NE(html.find("Machine: host CPU: Synthetic CPU 9000"), std::string::npos);
}

TEST_F(CliReportDocs, ImpossibleValuesExitWithCodeTwo) {
  const auto good = save("good.json", test::synthetic_document().json());
  auto minus = test::synthetic_document().json();
  minus["schema_version"] = -1;
  auto negative = test::synthetic_document().json();
  negative["rows"][0]["value"] = -3.5;
  const std::vector<std::pair<std::filesystem::path, std::string>> bad{
      {save("minus.json", minus), "schema_version -1 is not a valid version"},
      {save("negative.json", negative), "row 0 (memory-read): \"value\" is -3.5, expected a finite rate >= 0"},
  };
  for (const auto& [file, problem] : bad) {
    for (const auto& cmd : {fmt::format("{} report {} -o {}", bin(), quoted(file), quoted(dir_ / "r.html")),
                            fmt::format("{} compare {} {}", bin(), quoted(good), quoted(file))}) {
      SCOPED_TRACE(cmd);
      const auto r = run_command(cmd, dir_);
      EXPECT_EQ(r.exit_code, 2) << r.err;
      EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not one line: " << r.err;
      EXPECT_NE(r.err.find(file.string()), std::string::npos) << r.err;
      EXPECT_NE(r.err.find(problem), std::string::npos) << r.err;
    }
    EXPECT_FALSE(std::filesystem::exists(dir_ / "r.html"));
  }
}

}  // namespace
}  // namespace wgb::report
