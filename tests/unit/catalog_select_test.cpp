// Unit tests for catalog/select: globs over ids in catalog order, the default suite, and the usage
// errors an unknown id or an empty filter must give (never a silent run of nothing or everything).
#include <gtest/gtest.h>

#include "catalog/select.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb::catalog {
namespace {

std::vector<std::string> ids_of(const std::vector<BenchmarkDefinition>& defs) {
  std::vector<std::string> out;
  for (const auto& d : defs) out.push_back(d.id);
  return out;
}

TEST(CatalogSelect, GlobsSelectInCatalogOrderWhateverTheirOrder) {
  auto chosen = select_benchmarks(builtin_benchmarks(), " write-linear , read-linear", false);
  ASSERT_TRUE(chosen) << chosen.error().message;
  EXPECT_EQ(ids_of(*chosen), (std::vector<std::string>{"read-linear", "write-linear"}));
}

TEST(CatalogSelect, AnEmptyFilterIsTheDefaultSuiteOrEverything) {
  auto defaults = select_benchmarks(builtin_benchmarks(), "", true);
  auto all = select_benchmarks(builtin_benchmarks(), "", false);
  ASSERT_TRUE(defaults && all);
  EXPECT_EQ(ids_of(*defaults), ids_of(default_suite()));
  EXPECT_EQ(all->size(), builtin_benchmarks().size());
  EXPECT_LT(defaults->size(), all->size());  // the api family is not in the default suite
}

TEST(CatalogSelect, AGlobThatMatchesNothingIsAUsageError) {
  auto chosen = select_benchmarks(builtin_benchmarks(), "read-*,no-such-kernel", false);
  ASSERT_FALSE(chosen);
  EXPECT_EQ(chosen.error().kind, ErrorKind::Usage);
  EXPECT_NE(chosen.error().message.find("'no-such-kernel'"), std::string::npos);
}

TEST(CatalogSelect, AFilterMustNameAGlob) {
  EXPECT_TRUE(require_globs("read-*"));
  EXPECT_FALSE(require_globs(""));
  EXPECT_FALSE(require_globs(" , ,"));
  EXPECT_EQ(split_globs(" a ,, b*"), (std::vector<std::string>{"a", "b*"}));
}

TEST(CatalogSelect, AnyListOfIdsSelectsTheSameWay) {
  const std::vector<std::string> ids = {"host-fma-f32", "host-fma-f64", "host-stream-copy"};
  auto m = match_ids(ids, "host-fma-*", [](const std::string& g) { return "nothing for " + g; });
  ASSERT_TRUE(m);
  EXPECT_EQ(*m, (std::vector<std::size_t>{0, 1}));
  auto all = match_ids(ids, "", [](const std::string& g) { return g; });
  ASSERT_TRUE(all);
  EXPECT_EQ(all->size(), 3u);
  auto bad = match_ids(ids, "gpu-*", [](const std::string& g) { return "nothing for " + g; });
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "nothing for gpu-*");
}

}  // namespace
}  // namespace wgb::catalog
