// Hashes shared by the GPU fill kernel and the host validators: buffers are filled with hashed
// data (never zeros), and validators recompute any input word on the CPU.
#pragma once

#include <cstdint>
#include <string_view>

namespace wgb::gpu {

// Chris Wellons' lowbias32: a cheap, well-mixed 32-bit hash; identical to hash32 in WGSL.
constexpr std::uint32_t hash32(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// Word i of a buffer filled by Context::fill_hashed(buffer, size, seed).
constexpr std::uint32_t filled_word(std::uint64_t i, std::uint32_t seed) {
  return hash32(static_cast<std::uint32_t>(i) ^ seed);
}

constexpr std::uint64_t fnv1a64(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

}  // namespace wgb::gpu
