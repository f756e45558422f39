// Unit tests for memory/host_model: the host twins the memory validators rely on (content of the
// buffers, the read and random folds, Sattolo's single cycle and its walk).
#include "memory/host_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "gpu/hash.hpp"

namespace wgb::memory {
namespace {

TEST(MemoryHostModel, ElementOfAHashedBufferIsItsFourFilledWords) {
  const Content c{Content::Kind::Hashed, 1234};
  for (std::uint64_t i : {0ull, 1ull, 77ull, (1ull << 20) - 1}) {
    const Vec4 v = element(c, i);
    for (std::uint64_t k = 0; k < 4; ++k) EXPECT_EQ(v[k], gpu::filled_word(i * 4 + k, 1234));
  }
}

TEST(MemoryHostModel, WrittenValuesVaryPerElementAndPerSeed) {
  // The formula of kernels/memory/write.wgsl, spelled out once more.
  EXPECT_EQ(written_value(0, 7), (Vec4{7, 7, 0xFFFFFFFFu ^ 7u, 7}));
  EXPECT_EQ(written_value(3, 0), (Vec4{3, 3u * 0x9e3779b9u, ~3u, 3}));
  std::set<Vec4> seen;
  for (std::uint32_t i = 0; i < 4096; ++i) seen.insert(written_value(i, 99));
  EXPECT_EQ(seen.size(), 4096u);
  EXPECT_NE(written_value(5, 1), written_value(5, 2));
  EXPECT_EQ(element(Content{Content::Kind::Written, 42}, 9), written_value(9, 42));
}

TEST(MemoryHostModel, ReadFoldXorsTheFourGridStrideElements) {
  const Content c{Content::Kind::Hashed, 5};
  const std::uint32_t threads = 1024, t = 17;
  Vec4 want{};
  for (std::uint32_t k = 0; k < 4; ++k) {
    const Vec4 e = element(c, t + k * threads);
    for (int j = 0; j < 4; ++j) want[j] ^= e[j];
  }
  EXPECT_EQ(read_fold(c, t, threads), want);
  EXPECT_NE(read_fold(c, t, threads), read_fold(c, t + 1, threads));
}

TEST(MemoryHostModel, RandomAddressesAreXorshiftInRange) {
  const std::uint32_t mask = (1u << 20) - 1;
  const auto a = random_addresses(3, 11, mask);
  std::uint32_t s = gpu::hash32(3u ^ 11u) | 1u;
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  EXPECT_EQ(a[0], s & mask);
  for (auto x : a) EXPECT_LE(x, mask);
  EXPECT_NE(random_addresses(3, 12, mask), a);  // the two bind groups' seeds differ
  EXPECT_NE(random_addresses(4, 11, mask), a);
  // Even gathers from A, odd from B: swapping the contents changes the fold.
  const Content ca{Content::Kind::Hashed, 1}, cb{Content::Kind::Hashed, 2};
  EXPECT_NE(random_fold(ca, cb, 3, 11, mask), random_fold(cb, ca, 3, 11, mask));
  Vec4 want{};
  for (std::size_t g = 0; g < 16; ++g) {
    const Vec4 e = element(g % 2 == 0 ? ca : cb, a[g]);
    for (int j = 0; j < 4; ++j) want[j] ^= e[j];
  }
  EXPECT_EQ(random_fold(ca, cb, 3, 11, mask), want);
}

TEST(MemoryHostModel, SattoloAlwaysBuildsOneCycleThroughEverySlot) {
  for (std::uint32_t n : {2u, 3u, 5u, 64u, 1000u, 65536u}) {
    for (std::uint64_t seed : {1ull, 2ull, 0xdeadbeefull}) {
      const auto next = sattolo_cycle(n, seed);
      ASSERT_EQ(next.size(), n);
      EXPECT_TRUE(is_single_cycle(next)) << n << " " << seed;
      for (std::uint32_t s = 0; s < n; ++s) EXPECT_NE(next[s], s);  // no fixed point
    }
  }
  EXPECT_EQ(sattolo_cycle(1000, 7), sattolo_cycle(1000, 7));  // reproducible
  EXPECT_NE(sattolo_cycle(1000, 7), sattolo_cycle(1000, 8));
}

TEST(MemoryHostModel, SattoloIsUniformOverTheCycles) {
  // n = 4 has (n-1)! = 6 cyclic permutations; each should come up about 1/6 of the time.
  std::map<std::vector<std::uint32_t>, int> counts;
  constexpr int kRuns = 6000;
  for (int i = 0; i < kRuns; ++i) counts[sattolo_cycle(4, 1000 + i)]++;
  EXPECT_EQ(counts.size(), 6u);
  for (const auto& [perm, c] : counts) {
    EXPECT_TRUE(is_single_cycle(perm));
    EXPECT_NEAR(c, kRuns / 6, 150);  // about 5 standard deviations
  }
}

TEST(MemoryHostModel, SingleCycleCheckRejectsSplitsAndOutOfRange) {
  EXPECT_FALSE(is_single_cycle(std::vector<std::uint32_t>{0, 1, 2}));     // identity: fixed points
  EXPECT_FALSE(is_single_cycle(std::vector<std::uint32_t>{1, 0, 3, 2}));  // two 2-cycles
  EXPECT_FALSE(is_single_cycle(std::vector<std::uint32_t>{1, 2, 9}));     // out of range
  EXPECT_FALSE(is_single_cycle(std::vector<std::uint32_t>{2, 0, 1, 3}));  // 0->2->1->0, 3 alone
  EXPECT_TRUE(is_single_cycle(std::vector<std::uint32_t>{1, 2, 3, 0}));
}

TEST(MemoryHostModel, WalkFollowsTheCycleAndWrapsAtItsLength) {
  const auto next = sattolo_cycle(1000, 3);
  std::uint32_t s = 0;
  for (int h = 0; h < 2500; ++h) s = next[s];
  EXPECT_EQ(walk(next, 0, 2500), s);
  EXPECT_EQ(walk(next, 0, 1000), 0u);
  EXPECT_EQ(walk(next, 0, 0), 0u);
  EXPECT_EQ(walk(next, 0, 1000ull * 1000000 + 7), walk(next, 0, 7));
}

}  // namespace
}  // namespace wgb::memory
