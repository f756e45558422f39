// The browser tests skip, with the reason, where Chromium, a WebGPU adapter in it, or the engine
// compiled to WebAssembly is missing; under CI=true (scripts/test.sh installs all three) the same
// reason is a failure, as for the store's tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace wgb::test {
inline bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}
}  // namespace wgb::test

// In a test body or SetUp(): returns from it.
#define WGB_SKIP_UNLESS_CI(reason)                                     \
  do {                                                                 \
    if (::wgb::test::in_ci()) FAIL() << "CI=true, but " << (reason);   \
    GTEST_SKIP() << (reason);                                          \
  } while (0)
