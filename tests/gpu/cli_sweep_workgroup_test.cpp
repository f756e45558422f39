// `webgpu-bench sweep --param workgroup`: a benchmark that does not declare the parameter (every
// probe but the ALU ones) is refused on one line with exit code 2, before any GPU work.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
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

TEST(CliSweepWorkgroup, AProbeThatDoesNotDeclareWorkgroupIsRefused) {
  for (const char* id : {"read-linear", "workgroup-64"}) {
    auto r = run_cli({"sweep", id, "--param", "workgroup", "--values", "64,128"});
    EXPECT_EQ(r.code, 2) << id << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("does not use --param workgroup"), std::string::npos) << r.err;
  }
  // A value that is no workgroup size is a usage error too.
  auto r = run_cli({"sweep", "f32-sqrt", "--param", "workgroup", "--values", "1K"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("not a workgroup size"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace wgb
