// Host twins of the bandwidth kernels: address streams, permutation, stored values and the checks
// the validators apply (see bandwidth.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "catalog/bandwidth/bandwidth.hpp"
#include "gpu/hash.hpp"

namespace wgb::catalog::bandwidth {

namespace {
constexpr std::uint32_t kLcgA = 1664525u, kLcgC = 1013904223u;  // as in read_gather.wgsl
}

std::uint32_t window_elements(std::uint64_t nominal_bytes, std::uint64_t buffer_bytes) {
  const std::uint64_t elems = std::min(nominal_bytes, buffer_bytes) / 16;
  if (elems == 0) return 1;
  return static_cast<std::uint32_t>(std::bit_floor(std::min<std::uint64_t>(elems, 1ull << 31)));
}

ScatterPlan scatter_plan(std::uint64_t bandwidth_bytes, std::uint64_t nominal_window) {
  const std::uint32_t n = window_elements(nominal_window, bandwidth_bytes);
  const std::uint64_t window_bytes = static_cast<std::uint64_t>(n) * 16;
  const auto rounds = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, bandwidth_bytes / window_bytes));
  return {n, rounds, window_bytes * rounds};
}

std::uint32_t log2_exact(std::uint32_t power_of_two) {
  return static_cast<std::uint32_t>(std::countr_zero(power_of_two));
}

std::uint32_t gather_shift(std::uint32_t bits) { return bits == 0 ? 0 : 32 - bits; }

LinearPlan linear_plan(std::uint64_t buffer_bytes, std::uint32_t steps, std::uint32_t run) {
  LinearPlan p;
  p.count = static_cast<std::uint32_t>(buffer_bytes / 16);
  p.steps = std::max(1u, steps);
  p.run = std::clamp(run, 1u, 256u);
  const std::uint64_t per_block = std::uint64_t{p.steps} * 1024;
  p.blocks = static_cast<std::uint32_t>((p.count + per_block - 1) / per_block);
  return p;
}

std::uint32_t max_passes(const LinearPlan& plan, std::uint32_t workgroups) {
  const std::uint64_t room = 0xffffffffull - workgroups;
  return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(room / std::max(1u, plan.blocks), 1, 1u << 20));
}

std::array<std::uint32_t, 4> block_fold(std::uint32_t block, std::uint32_t lane, const LinearPlan& plan,
                                        std::uint32_t fill_seed) {
  std::array<std::uint32_t, 4> acc{};
  // As read_linear.wgsl: invocation `lane` owns column lane / run of the block.
  const std::uint64_t r = plan.run;
  const std::uint64_t base = std::uint64_t{block} * plan.steps * 1024 + (lane / r) * (r * 4 * plan.steps) + lane % r;
  for (std::uint64_t s = 0; s < plan.steps; ++s) {
    for (std::uint64_t j = 0; j < 4; ++j) {
      const std::uint64_t e = base + (s * 4 + j) * r;
      if (e >= plan.count) continue;
      for (int c = 0; c < 4; ++c) acc[c] ^= gpu::filled_word(e * 4 + c, fill_seed);
    }
  }
  return acc;
}

Expected<std::string> check_tickets(std::uint32_t counter, const LinearPlan& plan, std::uint32_t passes,
                                    std::uint32_t workgroups) {
  const std::uint64_t want = std::uint64_t{passes} * plan.blocks + workgroups;
  if (counter != want) {
    return make_error(ErrorKind::Failed, fmt::format("the ticket counter reads {}, expected {} ({} passes x {} blocks "
                                                     "+ one ticket past the work per workgroup, {})",
                                                     counter, want, passes, plan.blocks, workgroups));
  }
  return fmt::format("{} passes handed out {} blocks, each once, to {} workgroups", passes,
                     std::uint64_t{passes} * plan.blocks, workgroups);
}

std::array<std::uint32_t, 4> gather_fold(std::uint32_t t, const GatherStream& g) {
  std::array<std::uint32_t, 4> s{};
  for (std::uint32_t k = 0; k < 4; ++k) s[k] = gpu::hash32((t * 4 + k) ^ g.seed);
  std::array<std::uint32_t, 4> acc{};
  auto load = [&](std::uint32_t state) {
    const std::uint64_t e = (state >> g.shift) & g.mask;
    for (int c = 0; c < 4; ++c) acc[c] ^= gpu::filled_word(e * 4 + c, g.fill_seed);
  };
  const std::uint64_t T = g.threads;
  // Same two loops as the kernel, every pass: four streams per step, then stream 0 for the tail.
  for (std::uint32_t pass = 0; pass < g.passes; ++pass) {
    std::uint64_t i = t;
    for (; i + 3 * T < g.count; i += 4 * T) {
      for (auto& state : s) {
        state = state * kLcgA + kLcgC;
        load(state);
      }
    }
    for (; i < g.count; i += T) {
      s[0] = s[0] * kLcgA + kLcgC;
      load(s[0]);
    }
  }
  return acc;
}

std::array<std::uint32_t, 4> linear_value(std::uint32_t i, std::uint32_t seed) {
  return {i, i ^ seed, ~i, i + seed};
}

Expected<std::string> check_write_linear(std::span<const std::uint32_t> words, std::uint32_t seed) {
  const std::size_t count = words.size() / 4;
  for (std::size_t i = 0; i < count; ++i) {
    const auto want = linear_value(static_cast<std::uint32_t>(i), seed);
    for (int c = 0; c < 4; ++c) {
      if (words[i * 4 + c] != want[c]) {
        return make_error(ErrorKind::Failed, fmt::format("element {} word {} holds {:08x}, expected {:08x}", i, c,
                                                         words[i * 4 + c], want[c]));
      }
    }
  }
  return fmt::format("all {} elements hold the value of their index", count);
}

std::string buffer_shape(std::uint64_t bytes) {
  const std::uint64_t words = bytes / 4;
  auto side = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(words)));
  while (side * side > words) --side;
  while ((side + 1) * (side + 1) <= words) ++side;
  std::string size;
  if (bytes % (1ull << 30) == 0) {
    size = fmt::format("{} GiB", bytes >> 30);
  } else if (bytes % (1ull << 20) == 0) {
    size = fmt::format("{} MiB", bytes >> 20);
  } else if (bytes % 1024 == 0) {
    size = fmt::format("{} KiB", bytes >> 10);
  } else {
    size = fmt::format("{} bytes", bytes);
  }
  const std::string words_text =
      side * side == words ? fmt::format("{}x{} 4-byte words", side, side) : fmt::format("{} 4-byte words", words);
  return fmt::format("{} ({}{})", words_text, size, bytes == (64ull << 20) ? ", the default size" : "");
}

ScatterShape scatter_shape(std::uint32_t n, std::uint32_t seed) {
  const std::uint32_t bits = log2_exact(n);
  // Shifts of about half and a third of the width mix high bits into low ones at every width;
  // at least 1 so each step stays a (nontrivial) bijection.
  return ScatterShape{n, seed, std::max(1u, (bits + 1) / 2), std::max(1u, bits / 3)};
}

std::uint32_t scatter_perm(std::uint32_t i, std::uint32_t r, const ScatterShape& s) {
  const std::uint32_t mask = s.n - 1;
  std::uint32_t x = (i ^ (s.seed + r * 0x9e3779b9u)) & mask;
  x = (x * 0x7feb352du) & mask;
  x ^= x >> s.s1;
  x = (x * 0x846ca68bu) & mask;
  x ^= x >> s.s2;
  return x;
}

std::array<std::uint32_t, 4> scatter_value(std::uint32_t i, std::uint32_t r, std::uint32_t g,
                                           std::uint32_t seed) {
  return {i, r, i ^ seed, g};
}

Expected<std::string> check_scatter(std::span<const std::uint32_t> words, const ScatterShape& s,
                                    std::uint32_t fill_seed) {
  if (words.size() < (static_cast<std::size_t>(s.n) + kSentinelElements) * 4) {
    return make_error(ErrorKind::Failed, "scatter read-back is shorter than window + sentinel");
  }
  std::vector<std::uint8_t> seen(s.n, 0);
  for (std::uint32_t i = 0; i < s.n; ++i) {
    const std::uint32_t d = scatter_perm(i, 0, s);
    if (d >= s.n || seen[d] != 0) {
      return make_error(ErrorKind::Failed, fmt::format("permutation maps two elements to destination {}", d));
    }
    seen[d] = 1;
    const auto want = scatter_value(i, 0, i, s.seed);
    for (int c = 0; c < 4; ++c) {
      if (words[static_cast<std::size_t>(d) * 4 + c] != want[c]) {
        return make_error(ErrorKind::Failed,
                          fmt::format("destination {} (of element {}) word {} holds {:08x}, expected {:08x}", d, i, c,
                                      words[static_cast<std::size_t>(d) * 4 + c], want[c]));
      }
    }
  }
  for (std::uint32_t e = s.n; e < s.n + kSentinelElements; ++e) {
    for (std::uint32_t c = 0; c < 4; ++c) {
      const std::uint64_t w = static_cast<std::uint64_t>(e) * 4 + c;
      if (words[w] != gpu::filled_word(w, fill_seed)) {
        return make_error(ErrorKind::Failed, fmt::format("sentinel element {} past the window was overwritten", e));
      }
    }
  }
  return fmt::format("each of the {} window elements was written exactly once by its unique source; the {} "
                     "sentinel elements past the window are untouched",
                     s.n, kSentinelElements);
}

}  // namespace wgb::catalog::bandwidth
