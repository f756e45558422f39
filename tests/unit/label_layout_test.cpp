// Chart label placement (report/label_layout.hpp): labels never overlap each other, never leave the
// plot area, and a label with no room is refused rather than drawn over another. Pins the roofline
// whose edge labels piled up on one another (many kernels at arithmetic intensity 0).
#include "report/label_layout.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace wgb::report::labels {
namespace {

const Box kArea{84, 34, 656, 374};

TEST(LabelLayout, CrowdedPointsGetStackedLabelsThatNeverOverlap) {
  std::vector<Box> placed;
  int refused = 0;
  // Twelve kernels drawn at the left edge, almost at the same height.
  for (int i = 0; i < 12; ++i) {
    const auto b = place(kArea.x, 200 + 0.5 * i, text_width("read-linear-" + std::to_string(i)), kArea, placed);
    if (!b) {
      ++refused;
      continue;
    }
    placed.push_back(*b);
  }
  EXPECT_EQ(refused, 0) << "room above and below the point for every label";
  for (std::size_t i = 0; i < placed.size(); ++i) {
    EXPECT_TRUE(placed[i].inside(kArea)) << i;
    for (std::size_t j = i + 1; j < placed.size(); ++j) EXPECT_FALSE(placed[i].overlaps(placed[j])) << i << " " << j;
  }
}

TEST(LabelLayout, LabelsStayInsideThePlotAtEveryEdge) {
  std::vector<Box> placed;
  for (double x : {kArea.x, kArea.x + kArea.w}) {
    for (double y : {kArea.y, kArea.y + kArea.h}) {
      const auto b = place(x, y, text_width("f32-fma-vec4"), kArea, placed);
      ASSERT_TRUE(b) << x << "," << y;
      EXPECT_TRUE(b->inside(kArea)) << x << "," << y;
      placed.push_back(*b);
    }
  }
  // Right edge: the label goes left of the point.
  EXPECT_LT(placed[2].x + placed[2].w, kArea.x + kArea.w + 0.01);
}

TEST(LabelLayout, NoRoomMeansNoLabel) {
  const Box small{0, 0, 120, 40};
  std::vector<Box> placed;
  int drawn = 0;
  for (int i = 0; i < 10; ++i) {
    if (const auto b = place(10, 20, text_width("memory-read"), small, placed, 2)) {
      placed.push_back(*b);
      ++drawn;
    }
  }
  EXPECT_GE(drawn, 1);
  EXPECT_LT(drawn, 10);  // three lines fit in 40 px; the rest are refused, not stacked on top
  for (std::size_t i = 0; i < placed.size(); ++i) {
    for (std::size_t j = i + 1; j < placed.size(); ++j) EXPECT_FALSE(placed[i].overlaps(placed[j]));
  }
}

}  // namespace
}  // namespace wgb::report::labels
