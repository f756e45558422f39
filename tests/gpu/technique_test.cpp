// The 18 technique comparisons on a real adapter (lavapipe in CI): every variant against its CPU
// reference AND against its siblings, at sizes that are not multiples of the workgroup and after 1
// and 3 repetitions in one pass (tails and repeated batches); the chain is one single cycle; a
// variant needing a missing feature reports skipped; the fixed workloads run end to end.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <chrono>
#include <set>

#include "catalog/technique/workloads.hpp"
#include "gpu_fixture.hpp"
#include "report/verdict.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb::catalog::technique {
namespace {

SuiteOptions quick(gpu::Context* ctx, std::vector<BenchmarkDefinition> defs = {}) {
  SuiteOptions o;
  o.context = ctx;
  o.benchmarks = std::move(defs);
  o.sampling = test::quick_sampling();
  // Tiny dispatches on a CPU driver are noisy: let the sampler pause (for 0 ms) instead of flagging
  // rows as throttled after two slow runs.
  o.sampling.max_cooldowns = 1000;
  return o;
}

std::vector<BenchmarkDefinition> technique_definitions() {
  std::vector<BenchmarkDefinition> v;
  for (const auto& d : builtin_benchmarks()) {
    if (d.category == "technique") v.push_back(d);
  }
  return v;
}

// Runs `repetitions` repetitions in one pass (untimed) and reads the decoded output back.
Expected<LogicalOutput> run(gpu::Context& gpu, TechniqueWorkload& w, std::uint32_t repetitions) {
  auto st = gpu.run_pass([&](wgpu::ComputePassEncoder& pass) { w.encode(pass, repetitions); });
  if (!st) return std::move(st).error();
  if (auto e = gpu.check_errors(); !e) return std::move(e).error();
  return w.read_output(gpu);
}

// Every variant of `family` at `size`: after 1 and then 3 more repetitions its output equals the
// CPU reference and the first variant's output; all variants have the same reference and work.
void check_family(gpu::Context& gpu, const std::string& family, Size size) {
  SuiteOptions options;
  PrepareContext pc{gpu, options};
  std::optional<LogicalOutput> sibling;
  std::string sibling_id;
  std::optional<double> work;
  for (Variant v : family_variants(family)) {
    SCOPED_TRACE(fmt::format("{} at size {}/{}", variant_id(v), size.items, size.inner));
    auto w = prepare_variant(pc, v, size);
    ASSERT_TRUE(w) << w.error().message;
    TechniqueWorkload& wl = **w;
    EXPECT_FALSE(wl.knob().enabled()) << "fixed work: only repetitions may be calibrated";
    if (!work) work = wl.work().operations;
    EXPECT_EQ(wl.work().operations, *work) << "siblings must count the same useful work";
    for (std::uint32_t reps : {1U, 3U}) {
      auto got = run(gpu, wl, reps);
      ASSERT_TRUE(got) << got.error().message;
      auto vs_ref = compare_outputs(*got, wl.expected());
      EXPECT_FALSE(vs_ref) << reps << " repetition(s) vs the CPU reference: " << *vs_ref;
      if (sibling) {
        auto vs_sib = compare_outputs(*got, *sibling);
        EXPECT_FALSE(vs_sib) << reps << " repetition(s) vs " << sibling_id << ": " << *vs_sib;
      }
      if (!sibling && reps == 1) {
        sibling = *got;
        sibling_id = variant_id(v);
      }
    }
    auto checked = wl.validate(gpu);
    EXPECT_TRUE(checked) << checked.error().message;
  }
}

TEST(Technique, CatalogHasTheEighteenPublicIds) {
  const std::vector<std::pair<std::string, std::string>> want = {
      {"workgroup-64", "workgroup"},         {"workgroup-128", "workgroup"},
      {"workgroup-256", "workgroup"},        {"layout-aos", "layout"},
      {"layout-soa", "layout"},              {"layout-aosoa", "layout"},
      {"tile-direct", "tile"},               {"tile-shared", "tile"},
      {"tile-shared-padded", "tile"},        {"reduction-serial", "reduction"},
      {"reduction-workgroup", "reduction"},  {"reduction-subgroup", "reduction"},
      {"branch-vec4-select", "branch-vec4"}, {"branch-vec4-if", "branch-vec4"},
      {"atomic-direct", "atomic"},           {"atomic-workgroup", "atomic"},
      {"atomic-sharded", "atomic"},          {"read-dependent-chain", "dependent-chain"},
  };
  const auto defs = technique_definitions();
  ASSERT_EQ(defs.size(), want.size());
  std::set<std::string> hashes;
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(defs[i].id, want[i].first);
    EXPECT_EQ(defs[i].family, want[i].second);
    EXPECT_FALSE(defs[i].statistic_reason.empty());
    EXPECT_NE(defs[i].metric.key, "bytes");
    EXPECT_EQ(defs[i].source.find("missing"), std::string::npos) << defs[i].id << " has no embedded kernel";
    hashes.insert(defs[i].source);
    const bool memory = want[i].second == "layout" || want[i].second == "atomic" ||
                        want[i].second == "dependent-chain";
    EXPECT_EQ(defs[i].statistic, memory ? Statistic::Median : Statistic::Best) << defs[i].id;
  }
  EXPECT_EQ(hashes.size(), want.size()) << "every variant times its own WGSL";
  EXPECT_EQ(defs[11].requires_features, std::vector<std::string>{"subgroups"});
}

TEST(Technique, WorkgroupVariantsAgreeOnTails) {
  WGB_GPU_OR_SKIP(ctx);
  for (std::uint32_t n : {1U, 777U}) check_family(*ctx, "workgroup", {n, 0});
}

TEST(Technique, LayoutVariantsAgreeAfterDecoding) {
  WGB_GPU_OR_SKIP(ctx);
  for (std::uint32_t n : {1U, 777U}) check_family(*ctx, "layout", {n, 0});
}

TEST(Technique, TileVariantsAgree) {
  WGB_GPU_OR_SKIP(ctx);
  // A tile is one workgroup: the sizes that matter are the tile counts.
  for (std::uint32_t tiles : {1U, 3U}) check_family(*ctx, "tile", {tiles, 0});
}

TEST(Technique, ReductionVariantsAgreeOnOddSegments) {
  WGB_GPU_OR_SKIP(ctx);
  // Segment lengths below, at and above the 256-wide workgroup, and segment counts that are not
  // multiples of the serial variant's 64.
  check_family(*ctx, "reduction", {1, 1});
  check_family(*ctx, "reduction", {3, 777});
  check_family(*ctx, "reduction", {65, 256});
}

TEST(Technique, BranchVariantsAgreeOnTails) {
  WGB_GPU_OR_SKIP(ctx);
  for (std::uint32_t n : {1U, 777U}) check_family(*ctx, "branch-vec4", {n, 0});
}

TEST(Technique, HistogramVariantsAgreeAndResetEveryRepetition) {
  WGB_GPU_OR_SKIP(ctx);
  for (std::uint32_t keys : {1U, 257U, 36865U}) check_family(*ctx, "atomic", {keys, 0});
}

TEST(Technique, DependentChainIsOneCycleAndWalksLikeTheHost) {
  WGB_GPU_OR_SKIP(ctx);
  check_family(*ctx, "dependent-chain", {1, 5});
  check_family(*ctx, "dependent-chain", {777, 1000});
  // The fixed workload: the 4 MiB permutation as uploaded is one single cycle.
  SuiteOptions options;
  PrepareContext pc{*ctx, options};
  const Size fixed = fixed_size(Variant::ReadDependentChain);
  ASSERT_EQ(fixed.items, 1U << 20);
  ASSERT_EQ(fixed.inner, 4096U);
  auto w = prepare_variant(pc, Variant::ReadDependentChain, fixed);
  ASSERT_TRUE(w) << w.error().message;
  auto uploaded = ctx->read_as<std::uint32_t>((*w)->input_buffer(), 0, fixed.items);
  ASSERT_TRUE(uploaded) << uploaded.error().message;
  EXPECT_TRUE(is_single_cycle(*uploaded));
  auto got = run(*ctx, **w, 3);
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(got->words.at(0), chain_walk(*uploaded, 0, 4096));
}

TEST(Technique, MissingSubgroupsFeatureIsSkippedByName) {
  WGB_GPU_OR_SKIP(ctx);
  const FeatureProbe without_subgroups = [](std::string_view f) { return f != "subgroups"; };
  SuiteOptions options;
  PrepareContext pc{*ctx, options};
  auto w = prepare_variant(pc, Variant::ReductionSubgroup, fixed_size(Variant::ReductionSubgroup), without_subgroups);
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().kind, ErrorKind::Skipped);
  EXPECT_NE(w.error().message.find("subgroups"), std::string::npos) << w.error().message;
  // Its siblings do not need the feature.
  EXPECT_TRUE(prepare_variant(pc, Variant::ReductionWorkgroup, {1, 1}, without_subgroups));

  // Through the scheduler, the same prepare makes a skipped row that names the feature.
  BenchmarkDefinition def;
  for (const auto& d : technique_definitions()) {
    if (d.id == "reduction-subgroup") def = d;
  }
  def.prepare = [without_subgroups](PrepareContext& p) -> Expected<std::unique_ptr<Workload>> {
    auto r = prepare_variant(p, Variant::ReductionSubgroup, fixed_size(Variant::ReductionSubgroup), without_subgroups);
    if (!r) return std::move(r).error();
    return std::unique_ptr<Workload>(std::move(*r));
  };
  std::vector<BenchmarkResult> rows;
  ASSERT_TRUE(run_suite(quick(ctx, {def}), [&](const BenchmarkResult& r) { rows.push_back(r); }));
  ASSERT_EQ(rows.size(), 1U);
  EXPECT_EQ(rows[0].status, RowStatus::Skipped);
  EXPECT_NE(rows[0].message.find("subgroups"), std::string::npos);
}

TEST(Technique, FixedWorkloadsIgnoreTheRawProbeSizeOptions) {
  WGB_GPU_OR_SKIP(ctx);
  SuiteOptions small;
  small.bandwidth_bytes = 1 << 20;
  small.compute_threads = 777;
  SuiteOptions defaults;
  for (const auto& d : technique_definitions()) {
    if (d.id != "workgroup-128" && d.id != "atomic-sharded") continue;
    PrepareContext a{*ctx, small}, b{*ctx, defaults};
    auto wa = d.prepare(a);
    auto wb = d.prepare(b);
    ASSERT_TRUE(wa && wb);
    EXPECT_EQ((*wa)->parameters(), (*wb)->parameters()) << d.id;
    EXPECT_EQ((*wa)->work().operations, 65536.0) << d.id;
  }
}

// All 18 fixed workloads through the scheduler: validated rows, rates from the counted work, and
// per-family verdicts.
TEST(Technique, AllEighteenRunValidatedEndToEnd) {
  WGB_GPU_OR_SKIP(ctx);
  std::vector<BenchmarkResult> rows;
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(run_suite(quick(ctx, technique_definitions()), [&](const BenchmarkResult& r) { rows.push_back(r); }));
  ASSERT_EQ(rows.size(), 18U);
  for (const auto& r : rows) {
    SCOPED_TRACE(r.id);
    EXPECT_EQ(r.category, "technique");
    if (r.id == "reduction-subgroup" && !ctx->has_feature("subgroups")) {
      EXPECT_EQ(r.status, RowStatus::Skipped);
      continue;
    }
    // Throttled rows are measured and validated too (a CPU driver's timing noise can flag them).
    EXPECT_TRUE(r.status == RowStatus::Ok || r.status == RowStatus::Throttled)
        << to_string(r.status) << ": " << r.message;
    EXPECT_FALSE(r.validation.empty());
    EXPECT_GT(r.value, 0);
    EXPECT_NEAR(r.value, r.work.operations / (r.time_ms / 1000.0), r.value * 1e-9);
    EXPECT_GE(r.repetitions, 1U);
  }
  const auto verdicts = report::family_verdicts(rows);
  ASSERT_EQ(verdicts.size(), 7U);
  EXPECT_EQ(verdicts.back().family, "dependent-chain");
  EXPECT_EQ(verdicts.back().outcome, report::FamilyVerdict::Outcome::Standalone);
  std::cout << "[ timing   ] 18 fixed workloads through the scheduler: "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() << " s\n";
}

}  // namespace
}  // namespace wgb::catalog::technique
