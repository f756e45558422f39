// How a transfer row turns its batches' stage splits into `time_split_ms` (docs/api-cost.md,
// "Where the time goes"): per operation, the median over the batches at the final batch size, so
// calibration's cold first batches (one or two operations each, several of them) do not decide it.
#include <gtest/gtest.h>

#include "gpu/operation_stages.hpp"

namespace wgb::gpu {
namespace {

BatchStages batch(std::uint32_t operations, double copy_ms, double map_ms) {
  BatchStages b;
  b.operations = operations;
  b.stages.add("host copy", copy_ms);
  b.stages.add("mapAsync", map_ms);
  return b;
}

TEST(OperationStages, AddSumsAStageAndKeepsTheOrderTheStagesRan) {
  OperationStages s;
  s.add("writeBuffer", 1.0);
  s.add("submit", 2.0);
  s.add("writeBuffer", 0.5);
  ASSERT_EQ(s.ms.size(), 2u);
  EXPECT_EQ(s.ms[0], (std::pair<std::string, double>{"writeBuffer", 1.5}));
  EXPECT_EQ(s.ms[1], (std::pair<std::string, double>{"submit", 2.0}));
}

TEST(OperationStages, SplitIsPerOperationOverTheFinalBatchSizeOnly) {
  // Calibration: three cold batches of one and two operations at 10 ms per operation; then the
  // warm-up and samples at eight operations, 1 ms (host copy) and 0.25 ms (map) per operation.
  std::vector<BatchStages> batches{batch(1, 10, 10), batch(1, 10, 10), batch(2, 20, 20)};
  for (double per_op : {1.0, 1.2, 0.9, 1.0, 3.0}) batches.push_back(batch(8, 8 * per_op, 8 * 0.25));
  const auto split = split_per_operation(batches);
  ASSERT_EQ(split.size(), 2u);
  EXPECT_EQ(split[0].first, "host copy");
  EXPECT_DOUBLE_EQ(split[0].second, 1.0);  // the median of 0.9, 1.0, 1.0, 1.2, 3.0
  EXPECT_EQ(split[1].first, "mapAsync");
  EXPECT_DOUBLE_EQ(split[1].second, 0.25);

  // An even count takes the mean of the middle two.
  std::vector<BatchStages> two{batch(4, 4, 4), batch(4, 8, 4)};
  EXPECT_DOUBLE_EQ(split_per_operation(two)[0].second, 1.5);

  EXPECT_TRUE(split_per_operation({}).empty());
}

}  // namespace
}  // namespace wgb::gpu
