// Host twins of the memory kernels, for validation: what every element of A and B holds (the
// suite tracks it phase by phase), the read and random folds one invocation computes, and the
// latency cycle (Sattolo's algorithm, its single-cycle check and the walk the GPU must match).
// Pure functions, no Dawn: unit-tested in tests/unit/memory_host_model_test.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace wgb::memory {

using Vec4 = std::array<std::uint32_t, 4>;

// What a buffer holds: the hashed fill of Context::fill_hashed (seed), or the write kernel's
// value() with its seed.
struct Content {
  enum class Kind { Hashed, Written } kind = Kind::Hashed;
  std::uint32_t seed = 0;
  bool operator==(const Content&) const = default;
};

// kernels/memory/write.wgsl value(i) for `seed`.
Vec4 written_value(std::uint32_t i, std::uint32_t seed);
// Element i (a vec4<u32>) of a buffer holding `c`.
Vec4 element(const Content& c, std::uint64_t i);
// kernels/memory/read.wgsl: invocation t's XOR of elements t, t+T, t+2T, t+3T.
Vec4 read_fold(const Content& c, std::uint32_t t, std::uint32_t threads);
// kernels/memory/random.wgsl: invocation t's XOR of its 16 gathers (even from a, odd from b).
Vec4 random_fold(const Content& a, const Content& b, std::uint32_t t, std::uint32_t seed, std::uint32_t mask);
// The 16 element indices invocation t gathers (for tests and messages).
std::array<std::uint32_t, 16> random_addresses(std::uint32_t t, std::uint32_t seed, std::uint32_t mask);

// Sattolo's algorithm: a uniformly random cyclic permutation, next[s] = successor of slot s, one
// cycle through all n slots. Deterministic for a given rng seed. n >= 2.
std::vector<std::uint32_t> sattolo_cycle(std::uint32_t n, std::uint64_t rng_seed);
// True when following next[] from slot 0 visits every slot exactly once before returning to 0.
bool is_single_cycle(std::span<const std::uint32_t> next);
// The slot reached from `start` after `hops` steps (hops reduced modulo the cycle length n).
std::uint32_t walk(std::span<const std::uint32_t> next, std::uint32_t start, std::uint64_t hops);

}  // namespace wgb::memory
