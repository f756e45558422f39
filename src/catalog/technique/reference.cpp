// CPU references and seeded inputs of the technique comparisons (see reference.hpp).
#include "catalog/technique/reference.hpp"

#include <fmt/format.h>

#include <cmath>
#include <utility>

#include "gpu/hash.hpp"

namespace wgb::catalog::technique {

namespace {

// One seed per family, so families never share inputs by accident.
constexpr std::uint32_t kSeedWorkgroup = 0x5eed0001U;
constexpr std::uint32_t kSeedParticles = 0x5eed0002U;
constexpr std::uint32_t kSeedTile = 0x5eed0003U;
constexpr std::uint32_t kSeedReduction = 0x5eed0004U;
constexpr std::uint32_t kSeedBranchValues = 0x5eed0005U;
constexpr std::uint32_t kSeedBranchMasks = 0x5eed0006U;
constexpr std::uint32_t kSeedHistogram = 0x5eed0007U;

std::uint32_t word(std::uint64_t i, std::uint32_t seed) { return gpu::filled_word(i, seed); }

// A 24-bit fraction in [0, 1): exactly representable as f32, so inputs are identical everywhere.
float unit(std::uint32_t h) { return static_cast<float>(h >> 8U) * (1.0F / 16777216.0F); }

// splitmix64: the generator of Sattolo's shuffle (fully specified here, so the chain is the same
// on every platform and standard library).
std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31U);
}

}  // namespace

std::vector<std::uint32_t> workgroup_input(std::uint32_t elements) {
  std::vector<std::uint32_t> v(elements);
  for (std::uint32_t i = 0; i < elements; ++i) v[i] = word(i, kSeedWorkgroup);
  return v;
}

std::vector<float> particles_input(std::uint32_t particles) {
  std::vector<float> v(static_cast<std::size_t>(particles) * kParticleFields);
  for (std::uint32_t i = 0; i < particles; ++i) {
    float* p = &v[static_cast<std::size_t>(i) * kParticleFields];
    const std::uint64_t base = static_cast<std::uint64_t>(i) * kParticleFields;
    // Positions in [1, 2), velocities in [-1, 1): p + v*dt stays in [0.98, 2.02), far from zero, so
    // a relative tolerance is meaningful. Mass and charge are payload the update must preserve.
    for (std::uint32_t f = 0; f < 3; ++f) p[f] = 1.0F + unit(word(base + f, kSeedParticles));
    for (std::uint32_t f = 3; f < 6; ++f) p[f] = 2.0F * unit(word(base + f, kSeedParticles)) - 1.0F;
    p[6] = 0.5F + unit(word(base + 6, kSeedParticles));
    p[7] = unit(word(base + 7, kSeedParticles)) - 0.5F;
  }
  return v;
}

std::vector<float> tile_input(std::uint32_t tiles) {
  // Multiples of 1/256 below 1: any sum of nine is exact in f32, whatever the order.
  std::vector<float> v(static_cast<std::size_t>(tiles) * kTileCells);
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i] = static_cast<float>(word(i, kSeedTile) & 255U) * (1.0F / 256.0F);
  }
  return v;
}

std::vector<std::uint32_t> reduction_input(std::uint32_t segments, std::uint32_t length) {
  // Bounded below 2^16 so a segment sum of up to 2^16 values cannot wrap.
  std::vector<std::uint32_t> v(static_cast<std::size_t>(segments) * length);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = word(i, kSeedReduction) & 0xffffU;
  return v;
}

std::vector<std::uint32_t> branch_values(std::uint32_t elements) {
  std::vector<std::uint32_t> v(static_cast<std::size_t>(elements) * 4);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = word(i, kSeedBranchValues);
  return v;
}

std::vector<std::uint32_t> branch_masks(std::uint32_t elements) {
  std::vector<std::uint32_t> v(elements);
  for (std::uint32_t i = 0; i < elements; ++i) v[i] = word(i, kSeedBranchMasks);
  return v;
}

std::vector<std::uint32_t> histogram_keys(std::uint32_t keys) {
  // One fixed contention distribution: half of the keys go to bin 0, the rest spread evenly over
  // bins 1..31.
  std::vector<std::uint32_t> v(keys);
  for (std::uint32_t i = 0; i < keys; ++i) {
    const std::uint32_t h = word(i, kSeedHistogram);
    v[i] = (h & 1U) != 0U ? 0U : 1U + (h >> 1U) % (kHistogramBins - 1);
  }
  return v;
}

std::vector<std::uint32_t> sattolo_chain(std::uint32_t words, std::uint64_t seed) {
  // Sattolo's variant of Fisher-Yates (j strictly below i) yields a uniformly random cyclic
  // permutation: a[i] is the successor of i and every index lies on one cycle, so a walk never
  // revisits an index before it has seen all of them.
  std::vector<std::uint32_t> a(words);
  for (std::uint32_t i = 0; i < words; ++i) a[i] = i;
  std::uint64_t state = seed;
  for (std::uint32_t i = words; i-- > 1;) {
    const auto j = static_cast<std::uint32_t>(splitmix64(state) % i);
    std::swap(a[i], a[j]);
  }
  return a;
}

std::vector<std::uint32_t> workgroup_reference(const std::vector<std::uint32_t>& input, std::uint32_t steps) {
  std::vector<std::uint32_t> out(input.size());
  for (std::size_t i = 0; i < input.size(); ++i) {
    std::uint32_t x = input[i];
    for (std::uint32_t s = 0; s < steps; ++s) x = workgroup_step(x);
    out[i] = x;
  }
  return out;
}

std::vector<float> layout_reference(const std::vector<float>& particles, float dt) {
  std::vector<float> out = particles;
  for (std::size_t i = 0; i + kParticleFields <= out.size(); i += kParticleFields) {
    for (std::size_t f = 0; f < 3; ++f) out[i + f] = particles[i + f] + particles[i + 3 + f] * dt;
  }
  return out;
}

std::vector<float> tile_reference(const std::vector<float>& input, std::uint32_t tiles) {
  std::vector<float> out(static_cast<std::size_t>(tiles) * kTileCells);
  constexpr std::uint32_t kMask = kTileSide - 1;
  for (std::uint32_t t = 0; t < tiles; ++t) {
    const float* tile = &input[static_cast<std::size_t>(t) * kTileCells];
    for (std::uint32_t y = 0; y < kTileSide; ++y) {
      for (std::uint32_t x = 0; x < kTileSide; ++x) {
        float s = 0.0F;
        // Rows y-1, y, y+1 and columns x-1, x, x+1, wrapping inside the tile, in this order.
        for (std::uint32_t dy = 0; dy < 3; ++dy) {
          for (std::uint32_t dx = 0; dx < 3; ++dx) {
            s += tile[((y + kMask + dy) & kMask) * kTileSide + ((x + kMask + dx) & kMask)];
          }
        }
        out[static_cast<std::size_t>(t) * kTileCells + y * kTileSide + x] = s * (1.0F / 9.0F);
      }
    }
  }
  return out;
}

std::vector<std::uint32_t> reduction_reference(const std::vector<std::uint32_t>& input, std::uint32_t segments,
                                               std::uint32_t length) {
  std::vector<std::uint32_t> out(segments, 0);
  for (std::uint32_t s = 0; s < segments; ++s) {
    for (std::uint32_t k = 0; k < length; ++k) out[s] += input[static_cast<std::size_t>(s) * length + k];
  }
  return out;
}

std::vector<std::uint32_t> branch_reference(const std::vector<std::uint32_t>& values,
                                            const std::vector<std::uint32_t>& masks, std::uint32_t steps) {
  std::vector<std::uint32_t> out = values;
  for (std::size_t i = 0; i < masks.size(); ++i) {
    for (std::uint32_t s = 0; s < steps; ++s) {
      for (std::uint32_t c = 0; c < 4; ++c) {
        std::uint32_t& x = out[i * 4 + c];
        x = branch_condition(masks[i], s, c) ? branch_arm_taken(x, s) : branch_arm_other(x);
      }
    }
  }
  return out;
}

std::vector<std::uint32_t> histogram_reference(const std::vector<std::uint32_t>& keys) {
  std::vector<std::uint32_t> bins(kHistogramBins, 0);
  for (auto k : keys) ++bins[k % kHistogramBins];
  return bins;
}

std::uint32_t chain_walk(const std::vector<std::uint32_t>& next, std::uint32_t start, std::uint32_t hops) {
  std::uint32_t i = start;
  for (std::uint32_t h = 0; h < hops; ++h) i = next[i];
  return i;
}

bool is_single_cycle(const std::vector<std::uint32_t>& next) {
  if (next.empty()) return false;
  std::vector<bool> seen(next.size(), false);
  std::uint32_t i = 0;
  for (std::size_t step = 0; step < next.size(); ++step) {
    if (i >= next.size() || seen[i]) return false;
    seen[i] = true;
    i = next[i];
  }
  return i == 0;  // back at the start after exactly n links, having visited all n indices
}

std::size_t packed_floats(ParticleLayout layout, std::uint32_t particles) {
  if (layout == ParticleLayout::Aosoa) {
    const std::size_t blocks = (static_cast<std::size_t>(particles) + kAosoaBlock - 1) / kAosoaBlock;
    return blocks * kAosoaBlock * kParticleFields;
  }
  return static_cast<std::size_t>(particles) * kParticleFields;
}

std::size_t packed_index(ParticleLayout layout, std::uint32_t particles, std::uint32_t i, std::uint32_t f) {
  switch (layout) {
    case ParticleLayout::Aos: return static_cast<std::size_t>(i) * kParticleFields + f;
    case ParticleLayout::Soa: return static_cast<std::size_t>(f) * particles + i;
    case ParticleLayout::Aosoa:
      return (static_cast<std::size_t>(i / kAosoaBlock) * kParticleFields + f) * kAosoaBlock + i % kAosoaBlock;
  }
  return 0;
}

std::vector<float> pack_particles(const std::vector<float>& common, ParticleLayout layout, std::uint32_t particles) {
  std::vector<float> packed(packed_floats(layout, particles), 0.0F);
  for (std::uint32_t i = 0; i < particles; ++i) {
    for (std::uint32_t f = 0; f < kParticleFields; ++f) {
      packed[packed_index(layout, particles, i, f)] = common[static_cast<std::size_t>(i) * kParticleFields + f];
    }
  }
  return packed;
}

std::vector<float> unpack_particles(const std::vector<float>& packed, ParticleLayout layout, std::uint32_t particles) {
  std::vector<float> common(static_cast<std::size_t>(particles) * kParticleFields);
  for (std::uint32_t i = 0; i < particles; ++i) {
    for (std::uint32_t f = 0; f < kParticleFields; ++f) {
      common[static_cast<std::size_t>(i) * kParticleFields + f] = packed[packed_index(layout, particles, i, f)];
    }
  }
  return common;
}

std::optional<std::string> compare_outputs(const LogicalOutput& got, const LogicalOutput& want) {
  if (got.words.size() != want.words.size() || got.floats.size() != want.floats.size()) {
    return fmt::format("output has {} words and {} floats, expected {} and {}", got.words.size(),
                       got.floats.size(), want.words.size(), want.floats.size());
  }
  std::size_t bad = 0;
  std::string first;
  for (std::size_t i = 0; i < want.words.size(); ++i) {
    if (got.words[i] == want.words[i]) continue;
    if (bad++ == 0) first = fmt::format("word {} is {} (0x{:08x}), expected {} (0x{:08x})", i, got.words[i],
                                        got.words[i], want.words[i], want.words[i]);
  }
  for (std::size_t i = 0; i < want.floats.size(); ++i) {
    const double g = got.floats[i], w = want.floats[i];
    const double scale = std::max(std::fabs(g), std::fabs(w));
    // NaN fails both comparisons; equal values (zeros included) pass.
    if (g == w || std::fabs(g - w) <= kFloatTolerance * scale) continue;
    if (bad++ == 0) first = fmt::format("float {} is {:.9g}, expected {:.9g} (relative tolerance {:g})", i, g, w,
                                        kFloatTolerance);
  }
  if (bad == 0) return std::nullopt;
  return bad == 1 ? first : fmt::format("{} (and {} more mismatches)", first, bad - 1);
}

}  // namespace wgb::catalog::technique
