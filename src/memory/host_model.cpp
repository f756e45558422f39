// Host twins of the memory kernels (host_model.hpp).
#include "memory/host_model.hpp"

#include <numeric>

#include "gpu/hash.hpp"

namespace wgb::memory {

Vec4 written_value(std::uint32_t i, std::uint32_t seed) {
  return {i ^ seed, (i * 0x9e3779b9u) ^ seed, (~i) ^ seed, i + seed};
}

Vec4 element(const Content& c, std::uint64_t i) {
  if (c.kind == Content::Kind::Written) return written_value(static_cast<std::uint32_t>(i), c.seed);
  Vec4 v{};
  for (std::uint64_t k = 0; k < 4; ++k) v[k] = gpu::filled_word(i * 4 + k, c.seed);
  return v;
}

namespace {
void fold_into(Vec4& acc, const Vec4& v) {
  for (int k = 0; k < 4; ++k) acc[k] ^= v[k];
}
}  // namespace

Vec4 read_fold(const Content& c, std::uint32_t t, std::uint32_t threads) {
  Vec4 acc{};
  for (std::uint64_t k = 0; k < 4; ++k) fold_into(acc, element(c, t + k * threads));
  return acc;
}

std::array<std::uint32_t, 16> random_addresses(std::uint32_t t, std::uint32_t seed, std::uint32_t mask) {
  std::array<std::uint32_t, 16> out{};
  std::uint32_t s = gpu::hash32(t ^ seed) | 1u;
  for (auto& a : out) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    a = s & mask;
  }
  return out;
}

Vec4 random_fold(const Content& a, const Content& b, std::uint32_t t, std::uint32_t seed, std::uint32_t mask) {
  Vec4 acc{};
  const auto addresses = random_addresses(t, seed, mask);
  for (std::size_t g = 0; g < addresses.size(); ++g) fold_into(acc, element(g % 2 == 0 ? a : b, addresses[g]));
  return acc;
}

std::vector<std::uint32_t> sattolo_cycle(std::uint32_t n, std::uint64_t rng_seed) {
  // a[] starts as the identity; swapping a[i] with a strictly earlier a[j] (j < i, never j == i)
  // is Sattolo's variant of Fisher-Yates: it produces only single cycles, each equally likely.
  std::vector<std::uint32_t> a(n);
  std::iota(a.begin(), a.end(), 0u);
  std::uint64_t x = rng_seed;
  auto next64 = [&x] {  // splitmix64: fast, well mixed, reproducible across platforms
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  for (std::uint32_t i = n - 1; i >= 1; --i) {
    // Uniform j in [0, i) by multiply-shift (Lemire); the bias is below 2^-32 at these sizes.
    const auto j = static_cast<std::uint32_t>(((next64() >> 32) * i) >> 32);  // < 2^64: no overflow
    std::swap(a[i], a[j]);
  }
  // a is the cycle in "one-line" form read as successor: slot s -> a[s].
  return a;
}

bool is_single_cycle(std::span<const std::uint32_t> next) {
  const std::uint64_t n = next.size();
  if (n < 2) return false;
  std::uint32_t s = 0;
  for (std::uint64_t step = 1; step <= n; ++step) {
    if (next[s] >= n) return false;
    s = next[s];
    if (s == 0) return step == n;  // back at the start: only after visiting all n slots
  }
  return false;
}

std::uint32_t walk(std::span<const std::uint32_t> next, std::uint32_t start, std::uint64_t hops) {
  std::uint32_t s = start;
  for (std::uint64_t h = hops % next.size(); h > 0; --h) s = next[s];
  return s;
}

}  // namespace wgb::memory
