// Shader technique comparisons: 18 fixed-work benchmarks in six families plus the
// dependent chain. Within a family only the named technique changes: the same seeded logical
// inputs, the same logical outputs (checked against the CPU reference after timing), the same
// counted work. Each runs its fixed size (fixed_size()) whatever the raw probes' size options say;
// the knob is disabled, so the scheduler calibrates only how many repetitions a batch holds.
#include <utility>

#include "catalog/families.hpp"
#include "catalog/technique/workloads.hpp"

namespace wgb::catalog {

namespace {

using technique::Variant;

constexpr const char* kAluReason =
    "best (fastest kept run): a fixed on-chip computation on a small, cache-resident input; noise "
    "(scheduling, clocks) only ever slows it down, so the fastest run is the truest rate";
constexpr const char* kOnChipReason =
    "best (fastest kept run): the 256 KiB input stays cache-resident and the cost is on-chip "
    "(arithmetic, workgroup memory, barriers); noise only ever slows it down";
constexpr const char* kLayoutReason =
    "median with IQR: the update streams 2 MiB of particles in and writes positions into another "
    "2 MiB; memory traffic depends on the memory system's state, so the typical run is reported";
constexpr const char* kAtomicReason =
    "median with IQR: atomic contention (half of the keys hit one bin) makes timing depend on how "
    "the hardware arbitrates conflicting updates from run to run, so the typical run is reported";
constexpr const char* kChainReason =
    "median with IQR: every hop is a dependent memory round trip whose latency depends on cache and "
    "TLB state, so the typical walk is reported";

struct Spec {
  Variant variant;
  const char* label;
  const char* description;
};

Metric metric_for(std::string_view family) {
  if (family == "workgroup") return {"elements", "element", "Elements processed (16 arithmetic steps each)"};
  if (family == "layout") return {"particles", "particle", "Particles updated (position += velocity * dt)"};
  if (family == "tile") return {"outputs", "output", "3x3 stencil outputs (tile loading and barriers included)"};
  if (family == "reduction") return {"elements", "element", "Input elements summed into segment sums"};
  if (family == "branch-vec4") return {"choices", "choice", "Component choices (64 steps x 4 components per vec4)"};
  if (family == "atomic") return {"updates", "update", "Histogram input updates (keys; reset and merge included)"};
  return {"hops", "hop", "Dependent hops (1e9 / rate = amortised ns/hop incl. loop and dispatch cost)"};
}

std::pair<Statistic, const char*> statistic_for(std::string_view family) {
  if (family == "layout") return {Statistic::Median, kLayoutReason};
  if (family == "atomic") return {Statistic::Median, kAtomicReason};
  if (family == "dependent-chain") return {Statistic::Median, kChainReason};
  if (family == "tile" || family == "reduction") return {Statistic::Best, kOnChipReason};
  return {Statistic::Best, kAluReason};
}

const Spec kSpecs[] = {
    {Variant::Workgroup64, "Workgroup size 64",
     "65,536 u32 elements, one per invocation, 16 identical arithmetic steps each; workgroup size 64. "
     "Only the workgroup size differs from workgroup-128/-256. Counts elements."},
    {Variant::Workgroup128, "Workgroup size 128",
     "The workgroup-64 workload (65,536 elements x 16 steps) with workgroup size 128. Counts elements."},
    {Variant::Workgroup256, "Workgroup size 256",
     "The workgroup-64 workload (65,536 elements x 16 steps) with workgroup size 256. Counts elements."},
    {Variant::LayoutAos, "Particles, array of structs",
     "Position update p += v * dt for 65,536 particles of eight f32 fields stored as 32-byte structs; reads "
     "positions and velocities from the immutable input, writes positions in the same layout, preserves the "
     "other fields. Conversion and upload are excluded. Counts particles."},
    {Variant::LayoutSoa, "Particles, structure of arrays",
     "The layout-aos update with the eight fields in eight separate arrays. Counts particles."},
    {Variant::LayoutAosoa, "Particles, AoSoA blocks of 32",
     "The layout-aos update with blocks of 32 particles, each block holding eight 32-wide field arrays. Counts "
     "particles."},
    {Variant::TileDirect, "Tile stencil, direct reads",
     "3x3 box stencil on 256 independent 16x16 f32 tiles, wrapping within each tile; one workgroup per tile, "
     "all nine taps read from storage. Counts outputs."},
    {Variant::TileShared, "Tile stencil, workgroup memory",
     "The tile-direct stencil with each tile first loaded into workgroup memory (row stride 16) behind a "
     "barrier; loading and the barrier are timed. Counts outputs."},
    {Variant::TileSharedPadded, "Tile stencil, padded workgroup memory",
     "The tile-shared stencil with workgroup-memory row stride 17 (one word of padding per row). Counts "
     "outputs."},
    {Variant::ReductionSerial, "Segment sums, serial",
     "256 independent sums of 256 bounded u32 values; one invocation sums each segment in order. Produces "
     "segment sums, not a global sum. Counts input elements."},
    {Variant::ReductionWorkgroup, "Segment sums, workgroup tree",
     "The reduction-serial sums with one 256-wide workgroup per segment and a shared-memory tree. Counts "
     "input elements."},
    {Variant::ReductionSubgroup, "Segment sums, subgroups",
     "The reduction-serial sums with one 256-wide workgroup per segment: subgroupAdd, then one workgroup "
     "atomic per subgroup. No assumption about subgroup width or mapping; skipped without the subgroups "
     "feature. Counts input elements."},
    {Variant::BranchVec4Select, "vec4 choices, select",
     "65,536 vec4<u32> values, 64 steps, each component choosing between two wrapping-arithmetic arms by a "
     "seeded mask bit; both arms computed as vectors and chosen with select(). Counts component choices."},
    {Variant::BranchVec4If, "vec4 choices, scalar if/else",
     "The branch-vec4-select workload written as four scalar if/else statements per step (the compiler may "
     "still predicate). Counts component choices."},
    {Variant::AtomicDirect, "Histogram, global atomics",
     "32-bin histogram of 65,536 keys, about half in bin 0; one global atomicAdd per key. Every invocation "
     "takes 16 keys (4,096 per workgroup of 256), in all three variants. A repetition is three dispatches (reset, count, merge), so every batch computes the complete histogram. Counts keys."},
    {Variant::AtomicWorkgroup, "Histogram, workgroup aggregation",
     "The atomic-direct histogram counted in workgroup-memory atomics, then added to the global bins once per "
     "workgroup of 4,096 keys; reset, count and merge per repetition. Counts keys."},
    {Variant::AtomicSharded, "Histogram, eight global shards",
     "The atomic-direct histogram spread over eight global copies (key index mod 8) and summed by the merge; "
     "reset, count and merge per repetition. Counts keys."},
    {Variant::ReadDependentChain, "Dependent read chain",
     "One invocation follows 4,096 dependent links through a seeded single-cycle permutation (Sattolo) of a "
     "4 MiB u32 buffer, from the same start every repetition. Counts hops; 1e9 / (hops/s) is the amortised "
     "ns/hop, including loop and dispatch cost (not a physical memory-cycle time)."},
};

}  // namespace

std::vector<BenchmarkDefinition> technique_benchmarks() {
  std::vector<BenchmarkDefinition> v;
  for (const auto& s : kSpecs) {
    const std::string family = technique::family_name(s.variant);
    const auto [statistic, reason] = statistic_for(family);
    std::vector<std::string> features;
    if (s.variant == Variant::ReductionSubgroup) features.emplace_back("subgroups");
    v.push_back(BenchmarkDefinition{
        .id = technique::variant_id(s.variant),
        .label = s.label,
        .description = s.description,
        .category = "technique",
        .metric = metric_for(family),
        .source = technique::variant_source(s.variant),
        .statistic = statistic,
        .statistic_reason = reason,
        .requires_features = std::move(features),
        .family = family,
        .in_default_suite = true,
        .prepare = [variant = s.variant](PrepareContext& pc) -> Expected<std::unique_ptr<Workload>> {
          auto w = technique::prepare_variant(pc, variant, technique::fixed_size(variant));
          if (!w) return std::move(w).error();
          return std::unique_ptr<Workload>(std::move(*w));
        },
        .sweep_parameters = {},  // fixed-work comparisons: the problem size is part of the definition
    });
  }
  return v;
}

}  // namespace wgb::catalog
