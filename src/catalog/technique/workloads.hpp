// The technique comparisons' workloads: one prepare
// function for every variant, with an internal size so the tests can run the same code on tails
// and tiny problems, while the public definitions always call it with the fixed workload.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/common.hpp"
#include "catalog/technique/reference.hpp"
#include "webgpu_bench/definition.hpp"

namespace wgb::catalog::technique {

enum class Variant {
  Workgroup64, Workgroup128, Workgroup256,
  LayoutAos, LayoutSoa, LayoutAosoa,
  TileDirect, TileShared, TileSharedPadded,
  ReductionSerial, ReductionWorkgroup, ReductionSubgroup,
  BranchVec4Select, BranchVec4If,
  AtomicDirect, AtomicWorkgroup, AtomicSharded,
  ReadDependentChain,
};

inline constexpr Variant kAllVariants[] = {
    Variant::Workgroup64,      Variant::Workgroup128,       Variant::Workgroup256,
    Variant::LayoutAos,        Variant::LayoutSoa,          Variant::LayoutAosoa,
    Variant::TileDirect,       Variant::TileShared,         Variant::TileSharedPadded,
    Variant::ReductionSerial,  Variant::ReductionWorkgroup, Variant::ReductionSubgroup,
    Variant::BranchVec4Select, Variant::BranchVec4If,
    Variant::AtomicDirect,     Variant::AtomicWorkgroup,    Variant::AtomicSharded,
    Variant::ReadDependentChain,
};

const char* variant_id(Variant v);      // the public benchmark id, e.g. "tile-shared-padded"
const char* family_name(Variant v);     // "workgroup", "layout", "tile", "reduction", ...
std::vector<Variant> family_variants(std::string_view family);

// The size of one repetition. `items` is the family's unit: elements (workgroup, branch-vec4),
// particles (layout), 16x16 tiles (tile), segments (reduction), keys (atomic) or chain words
// (dependent chain). `inner` is the values per segment (reduction) or the hops (dependent chain),
// unused elsewhere.
struct Size {
  std::uint32_t items = 0;
  std::uint32_t inner = 0;
};
// The fixed workload of the benchmark (never resized by the raw probes' size options).
Size fixed_size(Variant v);

// The timed WGSL of a variant (for atomics, one file with the reset/count/merge entry points).
std::string variant_source(Variant v);

// A technique workload: stages dispatched in order once per repetition, plus a read-back of the
// output decoded to the family's common logical form (for validators and sibling comparisons).
class TechniqueWorkload : public Workload {
 public:
  virtual Expected<LogicalOutput> read_output(gpu::Context& gpu) = 0;
  // The CPU reference for this workload's inputs and size.
  virtual const LogicalOutput& expected() const = 0;
  // The main input buffer as uploaded (for read-dependent-chain: the permutation).
  virtual const wgpu::Buffer& input_buffer() const = 0;
};

// Feature lookup (catalog/common.hpp's FeatureProbe) used by prepare; the tests substitute one that
// lacks a feature to prove the skip path. Empty: the device's own features.

Expected<std::unique_ptr<TechniqueWorkload>> prepare_variant(PrepareContext& pc, Variant v, Size size,
                                                             const FeatureProbe& has_feature = {});

// For read-dependent-chain: the permutation as uploaded (tests check it is one cycle).
inline constexpr std::uint64_t kChainSeed = 0xC4A1'5EED'0000'0001ULL;

}  // namespace wgb::catalog::technique
