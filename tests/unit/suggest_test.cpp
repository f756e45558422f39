// "Did you mean ...?" (cli/suggest.hpp): the distance counts typos, and only a near word is offered.
#include "cli/suggest.hpp"

#include <gtest/gtest.h>

namespace wgb::cli {
namespace {

TEST(Suggest, EditDistanceCountsInsertionsDeletionsSubstitutionsAndSwaps) {
  EXPECT_EQ(edit_distance("run", "run"), 0u);
  EXPECT_EQ(edit_distance("runn", "run"), 1u);           // an extra letter
  EXPECT_EQ(edit_distance("rn", "run"), 1u);             // a missing one
  EXPECT_EQ(edit_distance("ron", "run"), 1u);            // a wrong one
  EXPECT_EQ(edit_distance("--fliter", "--filter"), 1u);  // two neighbours swapped
  EXPECT_EQ(edit_distance("", "abc"), 3u);
}

TEST(Suggest, NearestOffersOnlyAPlausibleTypo) {
  const std::vector<std::string> commands{"run", "list", "devices", "memory", "report", "compare", "sweep", "host"};
  EXPECT_EQ(nearest("runn", commands), "run");
  EXPECT_EQ(nearest("memroy", commands), "memory");
  EXPECT_EQ(nearest("swep", commands), "sweep");
  EXPECT_EQ(nearest("xyzzyplugh", commands), "");
  const std::vector<std::string> options{"--filter", "--json", "--csv", "--threads", "--threads-list"};
  EXPECT_EQ(nearest("--fliter", options), "--filter");
  EXPECT_EQ(nearest("--thread", options), "--threads");
  EXPECT_EQ(nearest("--bandwidth", options), "");
}

}  // namespace
}  // namespace wgb::cli
