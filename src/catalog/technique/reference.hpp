// CPU side of the shader technique comparisons: the seeded logical inputs of every
// family, the per-layout packing and decoding of particles, and the C++ reference results every
// variant is checked against. Both the validators (after timing) and the tests use this file, so a
// variant is "correct" by one definition only. No Dawn here: plain vectors in, plain vectors out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wgb::catalog::technique {

// ---- Shared definitions of the arithmetic (the WGSL kernels spell the same formulas) ----------

// workgroup-*: one of the 16 identical steps applied to each element (u32, wraps mod 2^32, so
// results compare exactly).
constexpr std::uint32_t workgroup_step(std::uint32_t x) { return (x ^ (x >> 15U)) * 0x2c1b3c6dU + 0x297a2d39U; }
inline constexpr std::uint32_t kWorkgroupSteps = 16;

// branch-vec4-*: the two arms of each component choice at step s.
constexpr std::uint32_t branch_arm_taken(std::uint32_t x, std::uint32_t s) { return x * 0x01000193U + s; }
constexpr std::uint32_t branch_arm_other(std::uint32_t x) { return (x ^ (x >> 7U)) + 0x9e3779b9U; }
// Whether component c chooses the taken arm at step s: bit (s + 8c) mod 32 of the element's mask.
constexpr bool branch_condition(std::uint32_t mask, std::uint32_t s, std::uint32_t c) {
  return ((mask >> ((s + 8U * c) & 31U)) & 1U) != 0U;
}
inline constexpr std::uint32_t kBranchSteps = 64;

// layout-*: eight scalar fields per particle, in this common (logical) order.
inline constexpr std::uint32_t kParticleFields = 8;  // px py pz vx vy vz mass charge
inline constexpr std::uint32_t kAosoaBlock = 32;     // particles per AoSoA block
inline constexpr float kLayoutDt = 1.0F / 64.0F;     // a power of two: v * dt is exact

// tile-*: 16x16 tiles, 3x3 box filter (sum in fixed row-major order, times 1/9).
inline constexpr std::uint32_t kTileSide = 16;
inline constexpr std::uint32_t kTileCells = kTileSide * kTileSide;

// atomic-*: 32 bins.
inline constexpr std::uint32_t kHistogramBins = 32;

// ---- Seeded inputs (deterministic; the same logical inputs for every variant of a family) ----

std::vector<std::uint32_t> workgroup_input(std::uint32_t elements);
std::vector<float> particles_input(std::uint32_t particles);            // common order, 8 per particle
std::vector<float> tile_input(std::uint32_t tiles);                     // tile-major, row-major inside
std::vector<std::uint32_t> reduction_input(std::uint32_t segments, std::uint32_t length);  // < 2^16 each
std::vector<std::uint32_t> branch_values(std::uint32_t elements);       // 4 per element (vec4)
std::vector<std::uint32_t> branch_masks(std::uint32_t elements);        // 1 per element
std::vector<std::uint32_t> histogram_keys(std::uint32_t keys);          // in [0, 32), ~half are 0
// A seeded single-cycle permutation (Sattolo's algorithm): next[i] is the successor of i.
std::vector<std::uint32_t> sattolo_chain(std::uint32_t words, std::uint64_t seed);

// ---- References --------------------------------------------------------------------------------

std::vector<std::uint32_t> workgroup_reference(const std::vector<std::uint32_t>& input, std::uint32_t steps);
// Particles in common order after one position update p += v * dt; other fields unchanged.
std::vector<float> layout_reference(const std::vector<float>& particles, float dt);
std::vector<float> tile_reference(const std::vector<float>& input, std::uint32_t tiles);
std::vector<std::uint32_t> reduction_reference(const std::vector<std::uint32_t>& input, std::uint32_t segments,
                                               std::uint32_t length);
std::vector<std::uint32_t> branch_reference(const std::vector<std::uint32_t>& values,
                                            const std::vector<std::uint32_t>& masks, std::uint32_t steps);
std::vector<std::uint32_t> histogram_reference(const std::vector<std::uint32_t>& keys);
// Index reached after `hops` links from `start`.
std::uint32_t chain_walk(const std::vector<std::uint32_t>& next, std::uint32_t start, std::uint32_t hops);
// True when `next` is a permutation forming exactly one cycle through every index.
bool is_single_cycle(const std::vector<std::uint32_t>& next);

// ---- Particle layouts -------------------------------------------------------------------------

enum class ParticleLayout { Aos, Soa, Aosoa };
// Floats the packed buffer holds (AoSoA pads the last block to 32 particles).
std::size_t packed_floats(ParticleLayout layout, std::uint32_t particles);
// Index of field f of particle i in the packed buffer.
std::size_t packed_index(ParticleLayout layout, std::uint32_t particles, std::uint32_t i, std::uint32_t f);
std::vector<float> pack_particles(const std::vector<float>& common, ParticleLayout layout, std::uint32_t particles);
std::vector<float> unpack_particles(const std::vector<float>& packed, ParticleLayout layout, std::uint32_t particles);

// ---- Comparison ---------------------------------------------------------------------------------

// What a variant produced, decoded to the family's common logical form: u32 words (sums,
// histograms, hashes: compared exactly) or floats (compared within kFloatTolerance relative).
struct LogicalOutput {
  std::vector<std::uint32_t> words;
  std::vector<float> floats;
};
inline constexpr double kFloatTolerance = 1e-6;

// nullopt when equal under the rules above, else a one-line description of the first mismatch
// (and how many there were).
std::optional<std::string> compare_outputs(const LogicalOutput& got, const LogicalOutput& want);

}  // namespace wgb::catalog::technique
