// The host's second process (--repro) writes only its own document: it must not overwrite the
// first process's CSV nor submit a second copy of the run to a results server.
#include <gtest/gtest.h>

#include "host/repro.hpp"

namespace wgb::host {
namespace {

TEST(HostReproArguments, TheSecondProcessNeitherWritesCsvNorSubmits) {
  const auto a = repro_arguments({"webgpu-bench", "host", "--quick", "--csv", "rows.csv", "--submit", "http://h:1",
                                  "--submit-token", "t", "--repro", "--json", "out.json"},
                                 "/tmp/x.json");
  EXPECT_EQ(a, (std::vector<std::string>{"webgpu-bench", "host", "--quick", "--json", "/tmp/x.json", "--quiet"}));
  const auto b = repro_arguments({"webgpu-bench", "run", "--device", "host", "--csv=r.csv", "--submit=http://h:1",
                                  "--token", "t", "--threads", "2"},
                                 "/tmp/y.json");
  EXPECT_EQ(b, (std::vector<std::string>{"webgpu-bench", "run", "--device", "host", "--threads", "2", "--json",
                                         "/tmp/y.json", "--quiet"}));
}

}  // namespace
}  // namespace wgb::host
