// Dependent-load latency: Sattolo's single random cycle over cache-line-spaced nodes, the pointer
// chase that walks it, and the dependent add chain that measures the core clock.
#include <cstring>

#include "host/kernels.hpp"

namespace wgb::host {

namespace {

std::uint64_t splitmix64(std::uint64_t& s) noexcept {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

__extension__ typedef unsigned __int128 U128;

// Uniform in [0, bound) (Lemire's multiply-shift; the bias is below 2^-40 for any bound used here).
std::uint64_t below(std::uint64_t& s, std::uint64_t bound) noexcept {
  return static_cast<std::uint64_t>((static_cast<U128>(splitmix64(s)) * bound) >> 64);
}

}  // namespace

void build_cycle(void* base, std::size_t nodes, std::size_t stride, std::uint64_t seed) {
  auto* bytes = static_cast<unsigned char*>(base);
  auto slot = [&](std::size_t i) { return reinterpret_cast<std::uintptr_t*>(bytes + i * stride); };
  // Linear first touch (by the calling, pinned, thread), holding indices for the shuffle.
  for (std::size_t i = 0; i < nodes; ++i) *slot(i) = i;
  // Sattolo: like Fisher-Yates but j < i strictly, which yields a uniformly random cyclic
  // permutation: the walk i -> next[i] visits all nodes before returning (one cycle, no short
  // cycles a prefetcher or a small working set could hide in).
  std::uint64_t s = seed;
  for (std::size_t i = nodes; i-- > 1;) {
    const std::size_t j = below(s, i);
    std::swap(*slot(i), *slot(j));
  }
  // Indices to addresses.
  for (std::size_t i = 0; i < nodes; ++i) *slot(i) = reinterpret_cast<std::uintptr_t>(bytes + *slot(i) * stride);
}

}  // namespace wgb::host

extern "C" const void* wgb_host_chase(const void* p, std::uint64_t hops) {
  // Each load's address is the previous load's value: no overlap, no prefetch can guess it.
  for (; hops >= 8; hops -= 8) {
    p = *static_cast<const void* const*>(p);
    p = *static_cast<const void* const*>(p);
    p = *static_cast<const void* const*>(p);
    p = *static_cast<const void* const*>(p);
    p = *static_cast<const void* const*>(p);
    p = *static_cast<const void* const*>(p);
    p = *static_cast<const void* const*>(p);
    p = *static_cast<const void* const*>(p);
  }
  for (; hops > 0; --hops) p = *static_cast<const void* const*>(p);
  return p;
}

static_assert(wgb::host::kAddsPerIteration == 100, "the .rept count below");

extern "C" std::uint64_t wgb_host_add_chain(std::uint64_t iterations) {
  std::uint64_t acc = 0;
  std::uint64_t one = 1;
  asm volatile("" : "+r"(one));  // the compiler must not know it is 1
  for (std::uint64_t i = 0; i < iterations; ++i) {
#if defined(__x86_64__)
    // 100 register-register adds, each depending on the previous: the loop runs at one add per
    // cycle (register operand, not an immediate, which some cores can fold at rename).
    asm volatile(".rept 100\n\taddq %1, %0\n\t.endr" : "+r"(acc) : "r"(one));
#else
    for (int k = 0; k < wgb::host::kAddsPerIteration; ++k) {
      acc += one;
      asm volatile("" : "+r"(acc));
    }
#endif
  }
  return acc;
}

namespace wgb::host {

const void* chase(const void* p, std::uint64_t hops) { return wgb_host_chase(p, hops); }

std::size_t cycle_length(const void* start, std::size_t limit) {
  const void* p = start;
  for (std::size_t n = 1; n <= limit; ++n) {
    p = *static_cast<const void* const*>(p);
    if (p == start) return n;
  }
  return limit + 1;
}

std::uint64_t add_chain(std::uint64_t iterations) { return wgb_host_add_chain(iterations); }

}  // namespace wgb::host
