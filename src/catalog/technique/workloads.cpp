// Prepare, encode and validate for the 18 technique comparisons. Inputs are generated and packed
// on the CPU and uploaded here, in prepare (outside every timed region); one repetition is the
// dispatch sequence of `stages` (one dispatch, or reset -> count -> merge for the histograms);
// validation reads the output back after timing and compares it with the CPU reference.
#include "catalog/technique/workloads.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <span>
#include <utility>

#include "catalog/common.hpp"
#include "report/facts.hpp"

namespace wgb::catalog::technique {

namespace {

constexpr wgpu::BufferUsage kInput = wgpu::BufferUsage::Storage | wgpu::BufferUsage::CopySrc |
                                     wgpu::BufferUsage::CopyDst;
constexpr std::uint32_t kPoison = 0xdeadbeefU;  // outputs start as this: a missing write cannot pass
constexpr float kPoisonPosition = -1.0F;         // layout outputs: positions before the update

struct VariantInfo {
  Variant variant;
  const char* id;
  const char* family;
};

constexpr VariantInfo kInfo[] = {
    {Variant::Workgroup64, "workgroup-64", "workgroup"},
    {Variant::Workgroup128, "workgroup-128", "workgroup"},
    {Variant::Workgroup256, "workgroup-256", "workgroup"},
    {Variant::LayoutAos, "layout-aos", "layout"},
    {Variant::LayoutSoa, "layout-soa", "layout"},
    {Variant::LayoutAosoa, "layout-aosoa", "layout"},
    {Variant::TileDirect, "tile-direct", "tile"},
    {Variant::TileShared, "tile-shared", "tile"},
    {Variant::TileSharedPadded, "tile-shared-padded", "tile"},
    {Variant::ReductionSerial, "reduction-serial", "reduction"},
    {Variant::ReductionWorkgroup, "reduction-workgroup", "reduction"},
    {Variant::ReductionSubgroup, "reduction-subgroup", "reduction"},
    {Variant::BranchVec4Select, "branch-vec4-select", "branch-vec4"},
    {Variant::BranchVec4If, "branch-vec4-if", "branch-vec4"},
    {Variant::AtomicDirect, "atomic-direct", "atomic"},
    {Variant::AtomicWorkgroup, "atomic-workgroup", "atomic"},
    {Variant::AtomicSharded, "atomic-sharded", "atomic"},
    {Variant::ReadDependentChain, "read-dependent-chain", "dependent-chain"},
};

const VariantInfo& info(Variant v) {
  for (const auto& i : kInfo) {
    if (i.variant == v) return i;
  }
  return kInfo[0];  // unreachable: every enumerator is listed
}

// Replaces the one specialisation line of a shared kernel (workgroup size, tile row stride). The
// line must exist exactly once, so a kernel edit cannot silently stop the specialisation.
std::string specialise(std::string source, std::string_view line, std::string_view replacement) {
  const auto at = source.find(line);
  if (at == std::string::npos || source.find(line, at + 1) != std::string::npos) {
    return "// specialisation line not found exactly once: " + std::string(line) +
           "\n@compute @workgroup_size(1) fn main() { missing(); }";
  }
  source.replace(at, line.size(), replacement);
  return source;
}

struct Stage {
  wgpu::ComputePipeline pipeline;
  wgpu::BindGroup group;
  std::uint32_t workgroups = 1;
};

std::uint32_t groups_for(std::uint64_t items, std::uint32_t per_group) {
  return static_cast<std::uint32_t>((items + per_group - 1) / per_group);
}

class StagedWorkload final : public TechniqueWorkload {
 public:
  std::string id;
  std::vector<Stage> stages;
  WorkModel model;
  nlohmann::json params = nlohmann::json::object();
  LogicalOutput want;
  wgpu::Buffer input;
  std::function<Expected<LogicalOutput>(gpu::Context&)> reader;
  std::string checked;  // what a passing validation proves

  void encode(wgpu::ComputePassEncoder& pass, std::uint32_t repetitions) override {
    if (stages.size() == 1) {
      pass.SetPipeline(stages[0].pipeline);
      pass.SetBindGroup(0, stages[0].group);
      for (std::uint32_t r = 0; r < repetitions; ++r) pass.DispatchWorkgroups(stages[0].workgroups);
      return;
    }
    // Several dispatches per repetition (reset -> count -> merge): each is its own usage scope, so
    // WebGPU orders their storage accesses; every repetition recomputes the complete result.
    for (std::uint32_t r = 0; r < repetitions; ++r) {
      for (const auto& s : stages) {
        pass.SetPipeline(s.pipeline);
        pass.SetBindGroup(0, s.group);
        pass.DispatchWorkgroups(s.workgroups);
      }
    }
  }
  WorkModel work() const override { return model; }
  Expected<std::string> validate(gpu::Context& gpu) override {
    auto got = reader(gpu);
    if (!got) return std::move(got).error();
    if (auto diff = compare_outputs(*got, want)) {
      return make_error(ErrorKind::Failed, fmt::format("{} differs from the CPU reference: {}", id, *diff));
    }
    return checked;
  }
  // A repetition dispatches every stage once: the row's dispatches per repetition follow from them.
  nlohmann::json parameters() const override {
    return report::with_facts(params, {.dispatches_per_repetition = stages.size()});
  }
  Expected<LogicalOutput> read_output(gpu::Context& gpu) override { return reader(gpu); }
  const LogicalOutput& expected() const override { return want; }
  const wgpu::Buffer& input_buffer() const override { return input; }
};

// Everything a family's prepare needs, with the error plumbing in one place.
struct Builder {
  gpu::Context& gpu;
  Variant variant;
  std::unique_ptr<StagedWorkload> w = std::make_unique<StagedWorkload>();
  std::optional<Error> error;

  Builder(gpu::Context& g, Variant v) : gpu(g), variant(v) { w->id = variant_id(v); }

  template <class T>
  wgpu::Buffer upload(const std::vector<T>& values, wgpu::BufferUsage usage, const char* what) {
    if (error) return {};
    auto b = gpu.buffer_with(std::span<const T>(values), usage, fmt::format("{} {}", w->id, what));
    if (!b) {
      error = std::move(b).error();
      return {};
    }
    return *b;
  }
  wgpu::Buffer uniform(std::uint32_t a, std::uint32_t b = 0) {
    const std::vector<std::uint32_t> words{a, b, 0, 0};  // 16 bytes: any uniform struct fits
    return upload(words, kUniform, "params");
  }
  wgpu::ComputePipeline pipeline(const std::string& source, const char* entry = "main") {
    if (error) return {};
    auto p = gpu.pipeline(source, fmt::format("{} {}", w->id, entry), entry);
    if (!p) {
      error = std::move(p).error();
      return {};
    }
    return *p;
  }
  // The shape most families share: one pass of `pipe` over `groups` workgroups with the workload's
  // input at binding 0, its output at 1 and its parameters at 2.
  void one_pass(const wgpu::ComputePipeline& pipe, const wgpu::Buffer& input, const wgpu::Buffer& output,
                const wgpu::Buffer& params, std::uint32_t groups) {
    w->input = input;
    w->stages = {Stage{pipe, bind_at(gpu, pipe, {{0, input}, {1, output}, {2, params}}), groups}};
  }
  // The simplest family: one pass of the variant's kernel over `groups` workgroups, with `input`
  // at binding 0, `outputs` poisoned words at 1 (the workload's output) and the parameters (a, b)
  // at 2. On an error nothing is bound; the caller returns finish().
  void words_through_one_pass(const std::vector<std::uint32_t>& input, const char* input_name, std::size_t outputs,
                              const char* output_name, std::uint32_t a, std::uint32_t b, std::uint32_t groups) {
    auto src = upload(input, kInput, input_name);
    auto dst = upload(std::vector<std::uint32_t>(outputs, kPoison), kInput, output_name);
    auto params = uniform(a, b);
    auto pipe = pipeline(variant_source(variant));
    if (error) return;
    one_pass(pipe, src, dst, params, groups);
    output_words(dst, outputs);
  }
  // The output is the first `words` u32 of `buffer`.
  void output_words(const wgpu::Buffer& buffer, std::size_t words) {
    w->reader = [buffer, words](gpu::Context& g) -> Expected<LogicalOutput> {
      auto got = g.read_as<std::uint32_t>(buffer, 0, words);
      if (!got) return std::move(got).error();
      return LogicalOutput{std::move(*got), {}};
    };
  }
  Expected<std::unique_ptr<TechniqueWorkload>> finish() {
    if (error) return std::move(*error);
    return std::unique_ptr<TechniqueWorkload>(std::move(w));
  }
};

ParticleLayout layout_of(Variant v) {
  return v == Variant::LayoutAos ? ParticleLayout::Aos : v == Variant::LayoutSoa ? ParticleLayout::Soa
                                                                                  : ParticleLayout::Aosoa;
}

std::uint32_t workgroup_size_of(Variant v) {
  return v == Variant::Workgroup64 ? 64U : v == Variant::Workgroup128 ? 128U : 256U;
}

Status check_size(gpu::Context& gpu, Variant v, Size size, std::uint64_t workgroups) {
  if (size.items == 0) return make_error(ErrorKind::Usage, fmt::format("{}: size 0", variant_id(v)));
  if (workgroups > gpu.limits().maxComputeWorkgroupsPerDimension) {
    return make_error(ErrorKind::Usage, fmt::format("{}: {} workgroups exceed the adapter's limit {}", variant_id(v),
                                                    workgroups, gpu.limits().maxComputeWorkgroupsPerDimension));
  }
  return ok();
}

// ---- Families ---------------------------------------------------------------------------------

Expected<std::unique_ptr<TechniqueWorkload>> prepare_workgroup(gpu::Context& gpu, Variant v, Size size) {
  const std::uint32_t n = size.items, wg = workgroup_size_of(v);
  const std::uint32_t groups = groups_for(n, wg);
  if (auto st = check_size(gpu, v, size, groups); !st) return std::move(st).error();
  Builder b(gpu, v);
  const auto input = workgroup_input(n);
  b.w->want.words = workgroup_reference(input, kWorkgroupSteps);
  b.words_through_one_pass(input, "input", n, "output", n, kWorkgroupSteps, groups);
  if (b.error) return b.finish();
  b.w->model = WorkModel{.bytes_read = 4.0 * n, .bytes_written = 4.0 * n, .operations = static_cast<double>(n)};
  b.w->params = {{"elements", n}, {"steps_per_element", kWorkgroupSteps}, {"workgroup_size", wg},
                 {"workgroups", groups}, {"element", "u32"}};
  b.w->checked = fmt::format("all {} elements equal the CPU reference (16 u32 steps each) exactly", n);
  return b.finish();
}

Expected<std::unique_ptr<TechniqueWorkload>> prepare_layout(gpu::Context& gpu, Variant v, Size size) {
  const std::uint32_t n = size.items;
  const std::uint32_t groups = groups_for(n, 64);
  if (auto st = check_size(gpu, v, size, groups); !st) return std::move(st).error();
  const ParticleLayout layout = layout_of(v);
  Builder b(gpu, v);
  const auto common = particles_input(n);
  b.w->want.floats = layout_reference(common, kLayoutDt);
  // The output starts as the input with poisoned positions: the kernel must write every position
  // and must leave the other five fields as they are.
  auto start = common;
  for (std::size_t i = 0; i < start.size(); i += kParticleFields) {
    for (std::size_t f = 0; f < 3; ++f) start[i + f] = kPoisonPosition;
  }
  auto src = b.upload(pack_particles(common, layout, n), kInput, "input");
  auto dst = b.upload(pack_particles(start, layout, n), kInput, "output");
  std::uint32_t dt_bits = 0;
  static_assert(sizeof(dt_bits) == sizeof(kLayoutDt));
  std::memcpy(&dt_bits, &kLayoutDt, sizeof(dt_bits));
  auto params = b.uniform(n, dt_bits);
  auto pipe = b.pipeline(variant_source(v));
  if (b.error) return b.finish();
  b.one_pass(pipe, src, dst, params, groups);
  b.w->model = WorkModel{.bytes_read = 24.0 * n, .bytes_written = 12.0 * n, .operations = static_cast<double>(n)};
  const char* shape = layout == ParticleLayout::Aos   ? "array of 32-byte structs"
                      : layout == ParticleLayout::Soa ? "eight arrays of f32 (field f at f*count+i)"
                                                      : "blocks of 32 particles x 8 fields";
  b.w->params = {{"particles", n}, {"fields", kParticleFields}, {"layout", shape}, {"dt", kLayoutDt},
                 {"workgroup_size", 64}, {"workgroups", groups}, {"packed_floats", packed_floats(layout, n)}};
  const std::size_t floats = packed_floats(layout, n);
  b.w->reader = [dst, n, layout, floats](gpu::Context& g) -> Expected<LogicalOutput> {
    auto packed = g.read_as<float>(dst, 0, floats);
    if (!packed) return std::move(packed).error();
    return LogicalOutput{{}, unpack_particles(*packed, layout, n)};
  };
  b.w->checked = fmt::format(
      "all {} particles, decoded to the common field order, match the CPU reference: positions within {:g} "
      "relative, the other five fields preserved",
      n, kFloatTolerance);
  return b.finish();
}

Expected<std::unique_ptr<TechniqueWorkload>> prepare_tile(gpu::Context& gpu, Variant v, Size size) {
  const std::uint32_t tiles = size.items;
  if (auto st = check_size(gpu, v, size, tiles); !st) return std::move(st).error();
  Builder b(gpu, v);
  const auto input = tile_input(tiles);
  const std::size_t cells = static_cast<std::size_t>(tiles) * kTileCells;
  b.w->want.floats = tile_reference(input, tiles);
  auto src = b.upload(input, kInput, "input");
  std::vector<float> poison(cells, -1.0F);
  auto dst = b.upload(poison, kInput, "output");
  auto pipe = b.pipeline(variant_source(v));  // one workgroup per tile: no size uniform needed
  if (b.error) return b.finish();
  b.w->input = src;
  b.w->stages = {Stage{pipe, bind_at(gpu, pipe, {{0, src}, {1, dst}}), tiles}};
  b.w->model = WorkModel{.bytes_read = 4.0 * static_cast<double>(cells),
                         .bytes_written = 4.0 * static_cast<double>(cells),
                         .operations = static_cast<double>(cells)};
  const char* how = v == Variant::TileDirect ? "nine storage reads per output"
                    : v == Variant::TileShared ? "workgroup-memory tile, row stride 16"
                                               : "workgroup-memory tile, row stride 17 (padded)";
  b.w->params = {{"tiles", tiles}, {"tile", "16x16 f32"}, {"stencil", "3x3 box, wrapping within the tile"},
                 {"technique", how}, {"workgroup_size", "16x16"}, {"workgroups", tiles},
                 {"outputs", cells}};
  b.w->reader = [dst, cells](gpu::Context& g) -> Expected<LogicalOutput> {
    auto out = g.read_as<float>(dst, 0, cells);
    if (!out) return std::move(out).error();
    return LogicalOutput{{}, std::move(*out)};
  };
  b.w->checked = fmt::format("all {} outputs of {} tiles match the CPU reference within {:g} relative", cells,
                             tiles, kFloatTolerance);
  return b.finish();
}

Expected<std::unique_ptr<TechniqueWorkload>> prepare_reduction(gpu::Context& gpu, Variant v, Size size,
                                                               const FeatureProbe& has_feature) {
  const std::uint32_t segments = size.items, length = size.inner;
  if (v == Variant::ReductionSubgroup && !has_feature("subgroups")) {
    return make_error(ErrorKind::Skipped, "the adapter lacks the 'subgroups' feature");
  }
  if (length == 0 || length > 65536) {
    return make_error(ErrorKind::Usage, fmt::format("{}: {} values per segment (1..65536)", variant_id(v), length));
  }
  const std::uint32_t groups = v == Variant::ReductionSerial ? groups_for(segments, 64) : segments;
  if (auto st = check_size(gpu, v, size, groups); !st) return std::move(st).error();
  Builder b(gpu, v);
  const auto input = reduction_input(segments, length);
  b.w->want.words = reduction_reference(input, segments, length);
  b.words_through_one_pass(input, "input", segments, "sums", segments, length, groups);
  if (b.error) return b.finish();
  const double values = static_cast<double>(segments) * length;
  b.w->model = WorkModel{.bytes_read = 4.0 * values, .bytes_written = 4.0 * segments, .operations = values};
  const char* how = v == Variant::ReductionSerial      ? "one invocation sums a segment in order"
                    : v == Variant::ReductionWorkgroup ? "one workgroup per segment, shared-memory tree"
                                                       : "one workgroup per segment, subgroupAdd + workgroup atomic";
  b.w->params = {{"segments", segments}, {"values_per_segment", length}, {"value_bound", "< 2^16 (u32)"},
                 {"technique", how}, {"workgroup_size", v == Variant::ReductionSerial ? 64 : 256},
                 {"workgroups", groups}, {"output", "one sum per segment (not a global sum)"}};
  b.w->checked = fmt::format("all {} segment sums ({} values each) equal the CPU reference exactly", segments,
                             length);
  return b.finish();
}

Expected<std::unique_ptr<TechniqueWorkload>> prepare_branch(gpu::Context& gpu, Variant v, Size size) {
  const std::uint32_t n = size.items;
  const std::uint32_t groups = groups_for(n, 64);
  if (auto st = check_size(gpu, v, size, groups); !st) return std::move(st).error();
  Builder b(gpu, v);
  const auto values = branch_values(n);
  const auto masks = branch_masks(n);
  b.w->want.words = branch_reference(values, masks, kBranchSteps);
  auto vbuf = b.upload(values, kInput, "values");
  auto mbuf = b.upload(masks, kInput, "masks");
  auto dst = b.upload(std::vector<std::uint32_t>(static_cast<std::size_t>(n) * 4, kPoison), kInput, "output");
  auto params = b.uniform(n, kBranchSteps);
  auto pipe = b.pipeline(variant_source(v));
  if (b.error) return b.finish();
  b.w->input = vbuf;
  b.w->stages = {Stage{pipe, bind_at(gpu, pipe, {{0, vbuf}, {1, mbuf}, {2, dst}, {3, params}}), groups}};
  const double choices = static_cast<double>(n) * kBranchSteps * 4;
  b.w->model = WorkModel{.bytes_read = 20.0 * n, .bytes_written = 16.0 * n, .operations = choices};
  b.w->params = {{"elements", n}, {"element", "vec4<u32>"}, {"steps", kBranchSteps},
                 {"choices_per_element", kBranchSteps * 4},
                 {"technique", v == Variant::BranchVec4Select ? "both arms, vector select()" : "four scalar if/else"},
                 {"workgroup_size", 64}, {"workgroups", groups}};
  b.output_words(dst, static_cast<std::size_t>(n) * 4);
  b.w->checked = fmt::format("all {} vec4 results ({} component choices each) equal the CPU reference exactly", n,
                             kBranchSteps * 4);
  return b.finish();
}

Expected<std::unique_ptr<TechniqueWorkload>> prepare_atomic(gpu::Context& gpu, Variant v, Size size) {
  const std::uint32_t n = size.items;
  // 16 keys per invocation, 4,096 per workgroup (the kernels' kKeysPerInvocation).
  constexpr std::uint32_t kKeysPerWorkgroup = 256 * 16;
  const std::uint32_t groups = groups_for(n, kKeysPerWorkgroup);
  if (auto st = check_size(gpu, v, size, groups); !st) return std::move(st).error();
  const std::uint32_t shards = v == Variant::AtomicSharded ? 8 : 1;
  Builder b(gpu, v);
  const auto keys = histogram_keys(n);
  b.w->want.words = histogram_reference(keys);
  auto kbuf = b.upload(keys, kInput, "keys");
  // Counters start poisoned too: only the in-pass reset can make the first repetition right.
  auto bins = b.upload(std::vector<std::uint32_t>(shards * kHistogramBins, kPoison), kInput, "counters");
  auto hist = b.upload(std::vector<std::uint32_t>(kHistogramBins, kPoison), kInput, "histogram");
  auto params = b.uniform(n);
  const std::string src = variant_source(v);
  auto reset = b.pipeline(src, "reset");
  auto count = b.pipeline(src, "count");
  auto merge = b.pipeline(src, "merge");
  if (b.error) return b.finish();
  b.w->input = kbuf;
  b.w->stages = {Stage{reset, bind_at(gpu, reset, {{1, bins}}), 1},
                 Stage{count, bind_at(gpu, count, {{0, kbuf}, {1, bins}, {3, params}}), groups},
                 Stage{merge, bind_at(gpu, merge, {{1, bins}, {2, hist}}), 1}};
  b.w->model = WorkModel{.bytes_read = 4.0 * n, .bytes_written = 4.0 * kHistogramBins,
                         .operations = static_cast<double>(n)};
  std::uint32_t in_zero = 0;
  for (auto k : keys) in_zero += k == 0 ? 1 : 0;
  const char* how = v == Variant::AtomicDirect      ? "one global atomicAdd per key"
                    : v == Variant::AtomicWorkgroup ? "workgroup-memory atomics, then <= 32 global ones per workgroup of 4,096 keys"
                                                    : "one global atomicAdd per key on shard (key index mod 8)";
  b.w->params = {{"keys", n}, {"bins", kHistogramBins}, {"keys_in_bin_0", in_zero}, {"technique", how},
                 {"shards", shards}, {"workgroup_size", 256}, {"keys_per_invocation", 16}, {"workgroups", groups},
                 {"repetition", "reset -> count -> merge"}};
  b.output_words(hist, kHistogramBins);
  b.w->checked = fmt::format("the 32-bin histogram of {} keys ({} in bin 0) equals the CPU reference exactly after "
                             "the last repetition's reset, count and merge", n, in_zero);
  return b.finish();
}

Expected<std::unique_ptr<TechniqueWorkload>> prepare_chain(gpu::Context& gpu, Variant v, Size size) {
  const std::uint32_t words = size.items, hops = size.inner;
  if (auto st = check_size(gpu, v, size, 1); !st) return std::move(st).error();
  if (hops == 0) return make_error(ErrorKind::Usage, "read-dependent-chain: 0 hops");
  Builder b(gpu, v);
  const auto next = sattolo_chain(words, kChainSeed);
  constexpr std::uint32_t kStart = 0;
  b.w->want.words = {chain_walk(next, kStart, hops)};
  b.words_through_one_pass(next, "permutation", 1, "result", kStart, hops, 1);
  if (b.error) return b.finish();
  b.w->model = WorkModel{.bytes_read = 4.0 * hops, .bytes_written = 4.0, .operations = static_cast<double>(hops)};
  b.w->params = {{"buffer_bytes", static_cast<std::uint64_t>(words) * 4}, {"words", words}, {"hops", hops},
                 {"start", kStart}, {"invocations", 1}, {"permutation", "seeded single cycle (Sattolo)"},
                 {"ns_per_hop_note",
                  "ns_per_hop = 1e9 / (hops/s): amortised nanoseconds per hop, including loop and dispatch cost; "
                  "not a physical memory-cycle time"}};
  b.w->checked = fmt::format("the index after {} dependent hops from {} equals the CPU walk of the same "
                             "single-cycle permutation", hops, kStart);
  return b.finish();
}

}  // namespace

const char* variant_id(Variant v) { return info(v).id; }
const char* family_name(Variant v) { return info(v).family; }

std::vector<Variant> family_variants(std::string_view family) {
  std::vector<Variant> out;
  for (const auto& i : kInfo) {
    if (family == i.family) out.push_back(i.variant);
  }
  return out;
}

Size fixed_size(Variant v) {
  switch (v) {
    case Variant::TileDirect:
    case Variant::TileShared:
    case Variant::TileSharedPadded: return {256, 0};  // 256 tiles of 16x16 = 65,536 outputs
    case Variant::ReductionSerial:
    case Variant::ReductionWorkgroup:
    case Variant::ReductionSubgroup: return {256, 256};  // 256 segments of 256 values
    case Variant::ReadDependentChain: return {(4U << 20) / 4, 4096};  // 4 MiB of u32, 4,096 hops
    default: return {65536, 0};  // elements, particles, vec4 inputs or keys
  }
}

std::string variant_source(Variant v) {
  switch (v) {
    case Variant::Workgroup64: return kernel_source("technique/workgroup");
    case Variant::Workgroup128:
      return specialise(kernel_source("technique/workgroup"), "const kWorkgroupSize: u32 = 64u;",
                        "const kWorkgroupSize: u32 = 128u;");
    case Variant::Workgroup256:
      return specialise(kernel_source("technique/workgroup"), "const kWorkgroupSize: u32 = 64u;",
                        "const kWorkgroupSize: u32 = 256u;");
    case Variant::LayoutAos: return kernel_source("technique/layout_aos");
    case Variant::LayoutSoa: return kernel_source("technique/layout_soa");
    case Variant::LayoutAosoa: return kernel_source("technique/layout_aosoa");
    case Variant::TileDirect: return kernel_source("technique/tile_direct");
    case Variant::TileShared: return kernel_source("technique/tile_shared");
    case Variant::TileSharedPadded:
      return specialise(kernel_source("technique/tile_shared"), "const kStride: u32 = 16u;",
                        "const kStride: u32 = 17u;");
    case Variant::ReductionSerial: return kernel_source("technique/reduction_serial");
    case Variant::ReductionWorkgroup: return kernel_source("technique/reduction_workgroup");
    case Variant::ReductionSubgroup: return kernel_source("technique/reduction_subgroup");
    case Variant::BranchVec4Select: return kernel_source("technique/branch_vec4_select");
    case Variant::BranchVec4If: return kernel_source("technique/branch_vec4_if");
    case Variant::AtomicDirect: return kernel_source("technique/histogram_direct");
    case Variant::AtomicWorkgroup: return kernel_source("technique/histogram_workgroup");
    case Variant::AtomicSharded: return kernel_source("technique/histogram_sharded");
    case Variant::ReadDependentChain: return kernel_source("technique/dependent_chain");
  }
  return {};
}

Expected<std::unique_ptr<TechniqueWorkload>> prepare_variant(PrepareContext& pc, Variant v, Size size,
                                                             const FeatureProbe& has_feature) {
  FeatureProbe probe = has_feature;
  if (!probe) probe = [&gpu = pc.gpu](std::string_view name) { return gpu.has_feature(name); };
  switch (v) {
    case Variant::Workgroup64:
    case Variant::Workgroup128:
    case Variant::Workgroup256: return prepare_workgroup(pc.gpu, v, size);
    case Variant::LayoutAos:
    case Variant::LayoutSoa:
    case Variant::LayoutAosoa: return prepare_layout(pc.gpu, v, size);
    case Variant::TileDirect:
    case Variant::TileShared:
    case Variant::TileSharedPadded: return prepare_tile(pc.gpu, v, size);
    case Variant::ReductionSerial:
    case Variant::ReductionWorkgroup:
    case Variant::ReductionSubgroup: return prepare_reduction(pc.gpu, v, size, probe);
    case Variant::BranchVec4Select:
    case Variant::BranchVec4If: return prepare_branch(pc.gpu, v, size);
    case Variant::AtomicDirect:
    case Variant::AtomicWorkgroup:
    case Variant::AtomicSharded: return prepare_atomic(pc.gpu, v, size);
    case Variant::ReadDependentChain: return prepare_chain(pc.gpu, v, size);
  }
  return make_error(ErrorKind::Failed, "unknown technique variant");
}

}  // namespace wgb::catalog::technique
