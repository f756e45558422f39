// Comparing output with a file in tests/golden/ (WGB_GOLDEN_DIR). With WGB_UPDATE_GOLDEN=1 the
// file is rewritten instead, so a deliberate format change is one command and a reviewed diff.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace wgb::test {

inline void expect_golden(const std::string& name, const std::string& actual) {
  const std::string path = std::string(WGB_GOLDEN_DIR) + "/" + name;
  const char* update = std::getenv("WGB_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    GTEST_SKIP() << "rewrote " << path;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "missing golden file " << path << " (run with WGB_UPDATE_GOLDEN=1 to create it)";
  std::stringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(actual, expected.str()) << "output differs from " << path
                                    << " (if the change is intended: WGB_UPDATE_GOLDEN=1 ctest -L golden)";
}

}  // namespace wgb::test
