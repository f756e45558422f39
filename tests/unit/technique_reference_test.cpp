// The CPU references of the technique comparisons (src/catalog/technique/reference.cpp), checked
// against independent formulations: the GPU variants are judged by these, so they are tested on
// their own first.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "catalog/technique/reference.hpp"

namespace wgb::catalog::technique {
namespace {

// ---- Dependent chain ---------------------------------------------------------------------------

TEST(TechniqueReference, SattoloChainIsOneCycleThroughEveryWord) {
  for (std::uint32_t n : {1U, 2U, 3U, 777U, 4096U, 1U << 20}) {
    const auto next = sattolo_chain(n, 0x1234);
    ASSERT_EQ(next.size(), n);
    std::vector<std::uint32_t> sorted = next;
    std::sort(sorted.begin(), sorted.end());
    for (std::uint32_t i = 0; i < n; ++i) ASSERT_EQ(sorted[i], i) << "not a permutation at n=" << n;
    EXPECT_TRUE(is_single_cycle(next)) << n;
    if (n > 1) {
      for (std::uint32_t i = 0; i < n; ++i) ASSERT_NE(next[i], i) << "fixed point at n=" << n;
    }
    // Walking n links from any start returns to it, and no shorter walk from 0 does.
    EXPECT_EQ(chain_walk(next, 0, n), 0U);
    if (n > 1) {
      EXPECT_EQ(chain_walk(next, n / 2, n), n / 2);
    }
  }
}

TEST(TechniqueReference, SattoloChainIsSeededAndDeterministic) {
  EXPECT_EQ(sattolo_chain(777, 1), sattolo_chain(777, 1));
  EXPECT_NE(sattolo_chain(777, 1), sattolo_chain(777, 2));
}

TEST(TechniqueReference, SingleCycleCheckRejectsOtherPermutations) {
  EXPECT_FALSE(is_single_cycle({}));
  EXPECT_FALSE(is_single_cycle({0, 1}));        // two fixed points
  EXPECT_FALSE(is_single_cycle({1, 0, 3, 2}));  // two 2-cycles
  EXPECT_FALSE(is_single_cycle({1, 1, 0}));     // not a permutation
  EXPECT_FALSE(is_single_cycle({1, 2, 7}));     // out of range
  EXPECT_TRUE(is_single_cycle({1, 2, 0}));
  EXPECT_TRUE(is_single_cycle({0}));
}

TEST(TechniqueReference, ChainWalkFollowsLinks) {
  const std::vector<std::uint32_t> next{2, 0, 3, 1};  // 0 -> 2 -> 3 -> 1 -> 0
  EXPECT_EQ(chain_walk(next, 0, 0), 0U);
  EXPECT_EQ(chain_walk(next, 0, 1), 2U);
  EXPECT_EQ(chain_walk(next, 0, 3), 1U);
  EXPECT_EQ(chain_walk(next, 0, 4), 0U);
  EXPECT_EQ(chain_walk(next, 3, 6), 0U);
}

// ---- workgroup-* -------------------------------------------------------------------------------

TEST(TechniqueReference, WorkgroupAppliesSixteenStepsPerElement) {
  const auto in = workgroup_input(777);
  const auto out = workgroup_reference(in, kWorkgroupSteps);
  ASSERT_EQ(out.size(), 777U);
  EXPECT_EQ(workgroup_reference(in, 0), in);
  for (std::size_t i : {0U, 1U, 776U}) {
    std::uint32_t x = in[i];
    for (int s = 0; s < 16; ++s) x = (x ^ (x >> 15U)) * 0x2c1b3c6dU + 0x297a2d39U;  // the WGSL formula
    EXPECT_EQ(out[i], x);
  }
  // Inputs are seeded: the same for any size prefix, not all equal.
  EXPECT_EQ(workgroup_input(5), std::vector<std::uint32_t>(in.begin(), in.begin() + 5));
  EXPECT_NE(in[0], in[1]);
}

// ---- layout-* ----------------------------------------------------------------------------------

TEST(TechniqueReference, ParticleLayoutsRoundTripAndAreBijections) {
  for (auto layout : {ParticleLayout::Aos, ParticleLayout::Soa, ParticleLayout::Aosoa}) {
    for (std::uint32_t n : {1U, 31U, 32U, 33U, 777U}) {
      const auto common = particles_input(n);
      const auto packed = pack_particles(common, layout, n);
      ASSERT_EQ(packed.size(), packed_floats(layout, n));
      EXPECT_EQ(unpack_particles(packed, layout, n), common);
      std::set<std::size_t> seen;
      for (std::uint32_t i = 0; i < n; ++i) {
        for (std::uint32_t f = 0; f < kParticleFields; ++f) {
          const auto at = packed_index(layout, n, i, f);
          ASSERT_LT(at, packed.size());
          ASSERT_TRUE(seen.insert(at).second) << "two fields share slot " << at;
        }
      }
    }
  }
  EXPECT_EQ(packed_floats(ParticleLayout::Aosoa, 33), 64U * 8);  // padded to two blocks
  EXPECT_EQ(packed_index(ParticleLayout::Aosoa, 64, 33, 2), (8U + 2) * 32 + 1);
  EXPECT_EQ(packed_index(ParticleLayout::Soa, 10, 3, 4), 43U);
  EXPECT_EQ(packed_index(ParticleLayout::Aos, 10, 3, 4), 28U);
}

TEST(TechniqueReference, LayoutUpdatesPositionsAndPreservesTheRest) {
  const std::uint32_t n = 777;
  const auto in = particles_input(n);
  const auto out = layout_reference(in, kLayoutDt);
  ASSERT_EQ(out.size(), in.size());
  for (std::uint32_t i = 0; i < n; ++i) {
    const float* a = &in[i * kParticleFields];
    const float* b = &out[i * kParticleFields];
    for (int f = 0; f < 3; ++f) {
      EXPECT_GE(a[f], 1.0F);
      EXPECT_LT(a[f], 2.0F);
      EXPECT_GE(a[3 + f], -1.0F);
      EXPECT_LT(a[3 + f], 1.0F);
      EXPECT_EQ(b[f], a[f] + a[3 + f] / 64.0F);
    }
    for (int f = 3; f < 8; ++f) EXPECT_EQ(b[f], a[f]);
  }
}

// ---- tile-* ------------------------------------------------------------------------------------

TEST(TechniqueReference, TileStencilWrapsWithinEachTile) {
  // An impulse at (x=0, y=0) of tile 1 reaches exactly the nine wrapped neighbours in tile 1.
  std::vector<float> in(3 * kTileCells, 0.0F);
  in[kTileCells + 0] = 9.0F;
  const auto out = tile_reference(in, 3);
  std::set<std::uint32_t> hit;
  for (std::uint32_t y : {15U, 0U, 1U}) {
    for (std::uint32_t x : {15U, 0U, 1U}) hit.insert(y * 16 + x);
  }
  for (std::uint32_t t = 0; t < 3; ++t) {
    for (std::uint32_t c = 0; c < kTileCells; ++c) {
      const float want = (t == 1 && hit.count(c) != 0) ? 9.0F * (1.0F / 9.0F) : 0.0F;
      ASSERT_EQ(out[t * kTileCells + c], want) << "tile " << t << " cell " << c;
    }
  }
  // A constant tile stays constant; real inputs are multiples of 1/256 in [0, 1).
  std::vector<float> flat(kTileCells, 0.5F);
  for (float v : tile_reference(flat, 1)) EXPECT_NEAR(v, 0.5F, 1e-7);
  for (float v : tile_input(4)) {
    EXPECT_GE(v, 0.0F);
    EXPECT_LT(v, 1.0F);
    EXPECT_EQ(v * 256.0F, std::floor(v * 256.0F));
  }
}

TEST(TechniqueReference, TileStencilMatchesADirectNineTapSum) {
  const auto in = tile_input(2);
  const auto out = tile_reference(in, 2);
  auto at = [&](int t, int x, int y) { return in[t * 256 + ((y + 16) % 16) * 16 + (x + 16) % 16]; };
  for (int t = 0; t < 2; ++t) {
    for (int y : {0, 7, 15}) {
      for (int x : {0, 8, 15}) {
        double s = 0;
        for (int dy = -1; dy <= 1; ++dy) {
          for (int dx = -1; dx <= 1; ++dx) s += at(t, x + dx, y + dy);
        }
        EXPECT_NEAR(out[t * 256 + y * 16 + x], s / 9.0, 1e-6 * s / 9.0 + 1e-12);
      }
    }
  }
}

// ---- reduction-* -------------------------------------------------------------------------------

TEST(TechniqueReference, ReductionSumsEachSegment) {
  for (auto [segments, length] : {std::pair{1U, 1U}, std::pair{3U, 777U}, std::pair{256U, 256U}}) {
    const auto in = reduction_input(segments, length);
    ASSERT_EQ(in.size(), static_cast<std::size_t>(segments) * length);
    for (auto v : in) ASSERT_LT(v, 1U << 16);
    const auto sums = reduction_reference(in, segments, length);
    ASSERT_EQ(sums.size(), segments);
    for (std::uint32_t s = 0; s < segments; ++s) {
      const auto first = in.begin() + static_cast<std::ptrdiff_t>(s) * length;
      EXPECT_EQ(sums[s], std::accumulate(first, first + length, 0ULL));
    }
  }
}

// ---- branch-vec4-* -----------------------------------------------------------------------------

TEST(TechniqueReference, BranchConditionReadsTheSeededMaskBits) {
  EXPECT_TRUE(branch_condition(1U, 0, 0));
  EXPECT_FALSE(branch_condition(1U, 0, 1));
  EXPECT_TRUE(branch_condition(1U << 8, 0, 1));
  EXPECT_TRUE(branch_condition(1U << 24, 0, 3));
  EXPECT_TRUE(branch_condition(1U << 1, 33, 0));  // (33 + 0) mod 32 = 1
  EXPECT_TRUE(branch_condition(1U << 7, 31, 1));  // (31 + 8) mod 32 = 7
  // About half of the seeded choices take each arm.
  const auto masks = branch_masks(4096);
  std::size_t taken = 0;
  for (auto m : masks) {
    for (std::uint32_t c = 0; c < 4; ++c) taken += branch_condition(m, 5, c) ? 1 : 0;
  }
  EXPECT_NEAR(static_cast<double>(taken) / (4096.0 * 4), 0.5, 0.03);
}

TEST(TechniqueReference, BranchReferenceEqualsAVectorSelectFormulation) {
  const std::uint32_t n = 777;
  const auto values = branch_values(n);
  const auto masks = branch_masks(n);
  const auto want = branch_reference(values, masks, kBranchSteps);
  for (std::uint32_t i = 0; i < n; ++i) {
    std::uint32_t x[4] = {values[i * 4], values[i * 4 + 1], values[i * 4 + 2], values[i * 4 + 3]};
    for (std::uint32_t s = 0; s < 64; ++s) {
      std::uint32_t taken[4], other[4];
      for (int c = 0; c < 4; ++c) {  // both arms for the whole vector, then a per-component select
        taken[c] = x[c] * 0x01000193U + s;
        other[c] = (x[c] ^ (x[c] >> 7U)) + 0x9e3779b9U;
      }
      for (std::uint32_t c = 0; c < 4; ++c) x[c] = ((masks[i] >> ((s + 8 * c) % 32)) & 1U) != 0U ? taken[c] : other[c];
    }
    for (int c = 0; c < 4; ++c) ASSERT_EQ(want[i * 4 + c], x[c]) << i << "." << c;
  }
  // All-ones masks take the first arm only.
  const std::vector<std::uint32_t> ones{0xffffffffU};
  const std::vector<std::uint32_t> v{1, 2, 3, 4};
  const auto r = branch_reference(v, ones, 2);
  EXPECT_EQ(r[2], branch_arm_taken(branch_arm_taken(3, 0), 1));
}

// ---- atomic-* ----------------------------------------------------------------------------------

TEST(TechniqueReference, HistogramKeysPutAboutHalfInBinZero) {
  for (std::uint32_t n : {1U, 257U, 36865U, 65536U}) {
    const auto keys = histogram_keys(n);
    const auto bins = histogram_reference(keys);
    ASSERT_EQ(bins.size(), kHistogramBins);
    EXPECT_EQ(std::accumulate(bins.begin(), bins.end(), 0ULL), n);
    std::vector<std::uint32_t> manual(32, 0);
    for (auto k : keys) {
      ASSERT_LT(k, 32U);
      ++manual[k];
    }
    EXPECT_EQ(manual, bins);
    if (n >= 36865) {
      EXPECT_NEAR(static_cast<double>(bins[0]) / n, 0.5, 0.02);
      for (std::uint32_t b = 1; b < 32; ++b) EXPECT_GT(bins[b], 0U);
    }
  }
}

// ---- comparison --------------------------------------------------------------------------------

TEST(TechniqueReference, CompareIsExactForWordsAndRelativeForFloats) {
  LogicalOutput a{{1, 2, 3}, {}};
  EXPECT_FALSE(compare_outputs(a, a));
  LogicalOutput b = a;
  b.words[1] = 5;
  auto diff = compare_outputs(b, a);
  ASSERT_TRUE(diff);
  EXPECT_NE(diff->find("word 1"), std::string::npos) << *diff;
  EXPECT_TRUE(compare_outputs(LogicalOutput{{1, 2}, {}}, a));  // size mismatch

  LogicalOutput f{{}, {1.0F, 0.0F, -2.0F}};
  LogicalOutput close = f;
  close.floats[0] = 1.0F + 5e-7F;
  EXPECT_FALSE(compare_outputs(close, f));
  LogicalOutput far = f;
  far.floats[2] = -2.0F * (1.0F + 3e-6F);
  EXPECT_TRUE(compare_outputs(far, f));
  LogicalOutput nan = f;
  nan.floats[1] = std::nanf("");
  EXPECT_TRUE(compare_outputs(nan, f));
  LogicalOutput two = f;
  two.floats[0] = 7.0F;
  two.floats[2] = 7.0F;
  auto d2 = compare_outputs(two, f);
  ASSERT_TRUE(d2);
  EXPECT_NE(d2->find("1 more"), std::string::npos) << *d2;
}

}  // namespace
}  // namespace wgb::catalog::technique
