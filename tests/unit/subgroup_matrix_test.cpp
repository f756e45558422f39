// The subgroup-matrix family without a GPU: configuration lists (fabricated, as a new adapter would
// report them) become definitions with the right ids, metrics, work model and WGSL; the host
// reference, the f16 and packed-i8 encodings and the exact comparison are checked on their own.
#include "catalog/subgroup_matrix/subgroup_matrix.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>

#include "webgpu_bench/suite.hpp"

namespace wgb::catalog::subgroup_matrix {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

std::vector<std::string> ids(const std::vector<BenchmarkDefinition>& defs) {
  std::vector<std::string> out;
  for (const auto& d : defs) out.push_back(d.id);
  return out;
}

TEST(SubgroupMatrixDefinitions, IdsFollowTheConfigurationsInOrder) {
  const std::vector<gpu::SubgroupMatrixShape> shapes{{"f16", "f32", 16, 16, 16},
                                                     {"i8", "i32", 16, 8, 32},
                                                     {"f32", "f32", 8, 8, 8},
                                                     {"u8", "u32", 8, 8, 32}};
  const auto defs = definitions_for(shapes);
  EXPECT_EQ(ids(defs), (std::vector<std::string>{
                           "subgroup-matrix-f16-f32-16x16x16", "subgroup-matrix-i8-i32-16x8x32",
                           "subgroup-matrix-f32-f32-8x8x8", "subgroup-matrix-u8-u32-8x8x32"}));
}

TEST(SubgroupMatrixDefinitions, DuplicatesAndUnusableConfigurationsAreLeftOut) {
  const std::vector<gpu::SubgroupMatrixShape> shapes{
      {"f16", "f32", 16, 16, 16},  {"f16", "f32", 16, 16, 16},  // reported twice
      {"bf16", "f32", 16, 16, 16},                              // unknown type
      {"i8", "i8", 16, 16, 32},                                 // packed result
      {"i8", "i32", 16, 16, 30},                                // rows not whole words
      {"f16", "f16", 0, 16, 16},                                // zero dimension
      {"f16", "f16", 16, 8, 8}};
  EXPECT_EQ(ids(definitions_for(shapes)),
            (std::vector<std::string>{"subgroup-matrix-f16-f32-16x16x16",
                                      "subgroup-matrix-f16-f16-16x8x8"}));
  std::string why;
  EXPECT_FALSE(to_shape({"i8", "i32", 16, 16, 30}, &why));
  EXPECT_NE(why.find("multiples of 4"), std::string::npos) << why;
  EXPECT_FALSE(to_shape({"bf16", "f32", 16, 16, 16}, &why));
  EXPECT_NE(why.find("bf16"), std::string::npos) << why;
}

TEST(SubgroupMatrixDefinitions, MetricCategoryStatisticAndFeatures) {
  const auto defs = definitions_for({{"f16", "f16", 16, 8, 16}, {"u8", "u32", 16, 16, 32}});
  ASSERT_EQ(defs.size(), 2u);
  for (const auto& d : defs) {
    EXPECT_EQ(d.category, "matrix");
    EXPECT_TRUE(d.in_default_suite);
    EXPECT_EQ(d.statistic, Statistic::Best);
    EXPECT_FALSE(d.statistic_reason.empty());
    EXPECT_TRUE(d.prepare);
    EXPECT_NE(d.description.find("--experimental"), std::string::npos);
    EXPECT_NE(std::find(d.requires_features.begin(), d.requires_features.end(), kFeature),
              d.requires_features.end());
  }
  EXPECT_EQ(defs[0].metric.unit, "FLOP");
  EXPECT_EQ(defs[0].metric.key, "flops");
  EXPECT_NE(
      std::find(defs[0].requires_features.begin(), defs[0].requires_features.end(), "shader-f16"),
      defs[0].requires_features.end());
  EXPECT_EQ(defs[1].metric.unit, "OP");
  EXPECT_EQ(defs[1].metric.key, "ops");
  EXPECT_EQ(
      std::find(defs[1].requires_features.begin(), defs[1].requires_features.end(), "shader-f16"),
      defs[1].requires_features.end());
}

TEST(SubgroupMatrixDefinitions, TheBuiltinCatalogHoldsTheTenKnownShapes) {
  std::vector<std::string> in_catalog;
  for (const auto& d : builtin_benchmarks()) {
    if (d.id.rfind(kIdPrefix, 0) == 0) in_catalog.push_back(d.id);
  }
  EXPECT_EQ(in_catalog, (std::vector<std::string>{
                            "subgroup-matrix-f16-f32-16x16x16", "subgroup-matrix-f16-f32-16x8x16",
                            "subgroup-matrix-f16-f32-16x8x8", "subgroup-matrix-f16-f16-16x16x16",
                            "subgroup-matrix-f16-f16-16x8x16", "subgroup-matrix-f16-f16-16x8x8",
                            "subgroup-matrix-i8-i32-16x16x32", "subgroup-matrix-i8-i32-16x8x32",
                            "subgroup-matrix-u8-u32-16x16x32", "subgroup-matrix-u8-u32-16x8x32"}));
  std::size_t in_default = 0;
  for (const auto& d : default_suite()) in_default += d.id.rfind(kIdPrefix, 0) == 0 ? 1 : 0;
  EXPECT_EQ(in_default, 10u);
}

TEST(SubgroupMatrixDefinitions, AdapterShapesAreAddedOnceAfterTheFamily) {
  std::vector<BenchmarkDefinition> catalog = definitions_for({{"f16", "f32", 16, 16, 16}});
  BenchmarkDefinition other;
  other.id = "after-the-family";
  catalog.push_back(other);
  gpu::AdapterDescription adapter;
  adapter.subgroup_matrix_configs = {{"f16", "f32", 16, 16, 16},  // already in the catalog
                                     {"f32", "f32", 8, 8, 8},     // a new GPU's shape
                                     {"bf16", "f32", 8, 8, 8}};   // not expressible: left out
  EXPECT_EQ(ids(adapter_only_definitions(catalog, adapter)),
            (std::vector<std::string>{"subgroup-matrix-f32-f32-8x8x8"}));
  EXPECT_EQ(ids(with_adapter_shapes(catalog, adapter)),
            (std::vector<std::string>{"subgroup-matrix-f16-f32-16x16x16",
                                      "subgroup-matrix-f32-f32-8x8x8", "after-the-family"}));
  gpu::AdapterDescription none;
  EXPECT_EQ(with_adapter_shapes(catalog, none).size(), catalog.size());
}

TEST(SubgroupMatrixWorkModel, CountsTwoMNKPerMultiplyAccumulate) {
  const Shape s{Scalar::I8, Scalar::I32, 16, 8, 32};
  KernelConfig cfg;  // 8 accumulators x 4 per iteration, plus one final step each
  EXPECT_DOUBLE_EQ(s.ops_per_mma(), 2.0 * 16 * 8 * 32);
  EXPECT_DOUBLE_EQ(mma_per_workgroup(cfg, 100), 8.0 * (100 * 4 + 1));
  EXPECT_EQ(cfg.workgroups(), 65536u);
  const WorkModel w = work_model(s, cfg, 100);
  EXPECT_DOUBLE_EQ(w.operations, 65536.0 * 8 * (100 * 4 + 1) * 2 * 16 * 8 * 32);
  EXPECT_DOUBLE_EQ(w.bytes_read + w.bytes_written, 0.0);
  KernelConfig small;
  small.workgroups_x = 10;
  small.workgroups_y = 3;
  EXPECT_DOUBLE_EQ(work_model(s, small, 1).operations, 30.0 * 8 * 5 * 2 * 16 * 8 * 32);
}

TEST(SubgroupMatrixWorkModel, ProbesAreDistinctWorkgroupsSpanningTheGrid) {
  for (auto [x, y] : {std::pair{16384u, 4u}, std::pair{8u, 1u}, std::pair{16u, 2u}}) {
    KernelConfig cfg;
    cfg.workgroups_x = x;
    cfg.workgroups_y = y;
    const auto p = probe_workgroups(cfg);
    EXPECT_EQ(p[0], 0u);
    EXPECT_EQ(p[3], cfg.workgroups() - 1);
    for (std::size_t i = 1; i < p.size(); ++i) EXPECT_LT(p[i - 1], p[i]) << x << "x" << y;
  }
}

TEST(SubgroupMatrixKernel, WgslUsesDawnsArgumentOrderAndStrides) {
  const std::string f16 = kernel_wgsl({Scalar::F16, Scalar::F32, 16, 8, 16});
  EXPECT_NE(f16.find("enable f16;"), std::string::npos);
  EXPECT_NE(f16.find("enable chromium_experimental_subgroup_matrix;"), std::string::npos);
  EXPECT_NE(f16.find("subgroup_matrix_left<f16, 16, 16>"), std::string::npos);   // <T, K, M>
  EXPECT_NE(f16.find("subgroup_matrix_right<f16, 8, 16>"), std::string::npos);   // <T, N, K>
  EXPECT_NE(f16.find("subgroup_matrix_result<f32, 8, 16>"), std::string::npos);  // <T, N, M>
  EXPECT_NE(f16.find("subgroupMatrixLoad<Left, row_major>(&a, 0u, 16u)"), std::string::npos);
  EXPECT_NE(f16.find("subgroupMatrixLoad<Right, row_major>(&b0, 0u, 8u)"), std::string::npos);
  EXPECT_NE(f16.find("var<storage, read> a : array<f16>"), std::string::npos);
  EXPECT_NE(f16.find("var<storage, read_write> results : array<f32>"), std::string::npos);
  EXPECT_NE(f16.find("@workgroup_size(32)"), std::string::npos);
  EXPECT_EQ(count(f16, "subgroupMatrixMultiplyAccumulate("), 8u * 4 + 8);
  EXPECT_EQ(count(f16, "subgroupMatrixStore<row_major>"), 8u);

  // Packed i8: array<i32>, strides in 32-bit words (K=32 -> 8, N=16 -> 4); no f16 enable.
  const std::string i8 = kernel_wgsl({Scalar::I8, Scalar::I32, 16, 16, 32}, KernelConfig{64, 4, 2});
  EXPECT_EQ(i8.find("enable f16;"), std::string::npos);
  EXPECT_NE(i8.find("var<storage, read> a : array<i32>"), std::string::npos);
  EXPECT_NE(i8.find("subgroupMatrixLoad<Left, row_major>(&a, 0u, 8u)"), std::string::npos);
  EXPECT_NE(i8.find("subgroupMatrixLoad<Right, row_major>(&b1, 0u, 4u)"), std::string::npos);
  EXPECT_NE(i8.find("@workgroup_size(64)"), std::string::npos);
  EXPECT_EQ(count(i8, "subgroupMatrixMultiplyAccumulate("), 4u * 2 + 4);
  // The last accumulator's store lands after all earlier ones of its probe slot.
  EXPECT_NE(i8.find("(slot * 4u + 3u) * 256u, acc3, 16u"), std::string::npos);

  // u8 results go to array<u32>; f16 results to array<f16>.
  EXPECT_NE(kernel_wgsl({Scalar::U8, Scalar::U32, 16, 8, 32}).find("results : array<u32>"),
            std::string::npos);
  EXPECT_NE(kernel_wgsl({Scalar::F16, Scalar::F16, 16, 8, 8}).find("results : array<f16>"),
            std::string::npos);
}

TEST(SubgroupMatrixKernel, DefinitionSourceIsTheGeneratedKernel) {
  const auto defs = definitions_for({{"i8", "i32", 16, 16, 32}}, 64);
  ASSERT_EQ(defs.size(), 1u);
  EXPECT_EQ(defs[0].source, kernel_wgsl({Scalar::I8, Scalar::I32, 16, 16, 32}, KernelConfig{64}));
}

TEST(SubgroupMatrixReference, MatrixProductAgainstAHandComputedExample) {
  // 2x2x3: A = [[1,2,0],[-1,1,2]], B = [[1,0],[2,1],[0,-2]], A*B = [[5,2],[1,-3]].
  const Shape s{Scalar::F32, Scalar::F32, 2, 2, 3};
  const KernelConfig cfg{32, 1, 2};
  Operands ops;
  ops.a = {1, 2, 0, -1, 1, 2};
  ops.b0 = {1, 0, 2, 1, 0, -2};
  ops.b1 = ops.b0;
  ops.c = {10, 20, 30, 40};
  // After 3 iterations: C + (3*2 + 1) * A*B.
  EXPECT_EQ(expected_results(s, cfg, ops, 3),
            (std::vector<std::int64_t>{10 + 35, 20 + 14, 30 + 7, 40 - 21}));
  EXPECT_EQ(simulate_results(s, cfg, ops, 3), expected_results(s, cfg, ops, 3));
  ops.b1 = {-1, 0, -2, -1, 0, 2};  // cancel: only the final A*B0 step remains
  EXPECT_EQ(expected_results(s, cfg, ops, 5), (std::vector<std::int64_t>{15, 22, 31, 37}));
}

TEST(SubgroupMatrixReference, ClosedFormEqualsSteppingTheLoopForEveryKnownShape) {
  for (const auto& c : known_shapes()) {
    const auto s = to_shape(c);
    ASSERT_TRUE(s);
    const KernelConfig cfg;
    const auto plan = make_plan(*s, cfg, 1234);
    ASSERT_TRUE(plan) << describe(*s);
    for (std::uint64_t it : {0u, 1u, 3u}) {
      EXPECT_EQ(expected_results(*s, cfg, plan->operands, it),
                simulate_results(*s, cfg, plan->operands, it))
          << describe(*s) << " at " << it << " iterations";
    }
  }
}

TEST(SubgroupMatrixReference, PlansKeepEveryValueExact) {
  const KernelConfig cfg;
  const auto f16_f32 = make_plan({Scalar::F16, Scalar::F32, 16, 16, 16}, cfg, 7);
  const auto f16_f16 = make_plan({Scalar::F16, Scalar::F16, 16, 16, 16}, cfg, 7);
  const auto i8 = make_plan({Scalar::I8, Scalar::I32, 16, 16, 32}, cfg, 7);
  const auto u8 = make_plan({Scalar::U8, Scalar::U32, 16, 16, 32}, cfg, 7);
  ASSERT_TRUE(f16_f32 && f16_f16 && i8 && u8);
  // f16 results cannot grow with the iteration count: the cancel mode keeps them near C.
  EXPECT_EQ(f16_f16->mode, Mode::Cancel);
  EXPECT_EQ(f16_f32->mode, Mode::Accumulate);
  EXPECT_EQ(i8->mode, Mode::Accumulate);
  EXPECT_EQ(u8->mode, Mode::Accumulate);
  EXPECT_GE(f16_f32->max_iterations, 1u << 14);
  for (const auto& v : u8->operands.a) EXPECT_GE(v, 0);
  // Operands are dense small integers, and the accumulators start distinct.
  const auto zeros = std::count(i8->operands.a.begin(), i8->operands.a.end(), 0);
  EXPECT_LT(zeros, static_cast<long>(i8->operands.a.size() / 2));
  const std::size_t mn = 16 * 16;
  for (std::uint32_t j = 1; j < cfg.accumulators; ++j)
    EXPECT_NE(i8->operands.c[j * mn], i8->operands.c[0]);
  // At the knob's maximum every final value is still within the result type's exact range.
  const std::vector<std::pair<Shape, const Plan*>> cases{
      {{Scalar::F16, Scalar::F32, 16, 16, 16}, &*f16_f32},
      {{Scalar::F16, Scalar::F16, 16, 16, 16}, &*f16_f16},
      {{Scalar::I8, Scalar::I32, 16, 16, 32}, &*i8},
      {{Scalar::U8, Scalar::U32, 16, 16, 32}, &*u8}};
  for (const auto& [s, plan] : cases) {
    for (auto v : expected_results(s, cfg, plan->operands, plan->max_iterations)) {
      ASSERT_LE(std::abs(static_cast<double>(v)), exact_limit(s.result)) << describe(s);
    }
  }
}

TEST(SubgroupMatrixEncoding, F16FromIntegersRoundTripsAndHasKnownBits) {
  EXPECT_EQ(f16_from_int(0), 0x0000);
  EXPECT_EQ(f16_from_int(1), 0x3C00);
  EXPECT_EQ(f16_from_int(-2), 0xC000);
  EXPECT_EQ(f16_from_int(3), 0x4200);
  EXPECT_EQ(f16_from_int(2048), 0x6800);
  for (std::int64_t v = -2048; v <= 2048; ++v)
    EXPECT_EQ(f16_to_double(f16_from_int(v)), static_cast<double>(v));
  EXPECT_EQ(f16_to_double(0x3800), 0.5);
  EXPECT_EQ(f16_to_double(0x0001), std::ldexp(1.0, -24));
  EXPECT_TRUE(std::isnan(f16_to_double(0xFFFF)));
}

TEST(SubgroupMatrixEncoding, PackedI8IsFourPerWordLowestByteFirst) {
  const auto bytes = encode(Scalar::I8, {-1, 2, 3, -128, 5});
  ASSERT_EQ(bytes.size(), 8u);  // padded to whole words
  std::uint32_t w0 = 0, w1 = 0;
  std::memcpy(&w0, bytes.data(), 4);
  std::memcpy(&w1, bytes.data() + 4, 4);
  EXPECT_EQ(w0, 0x800302FFu);
  EXPECT_EQ(w1, 0x00000005u);
  const auto f16 = encode(Scalar::F16, {1, -2, 3});
  ASSERT_EQ(f16.size(), 8u);
  EXPECT_EQ(decode(Scalar::F16, f16, 3), (std::vector<double>{1, -2, 3}));
  EXPECT_EQ(decode(Scalar::I32, encode(Scalar::I32, {-7, 9}), 2), (std::vector<double>{-7, 9}));
  EXPECT_EQ(decode(Scalar::U32, encode(Scalar::U32, {7, 4000000000}), 2),
            (std::vector<double>{7, 4000000000.0}));
  EXPECT_EQ(decode(Scalar::F32, encode(Scalar::F32, {16777216, -3}), 2),
            (std::vector<double>{16777216, -3}));
}

TEST(SubgroupMatrixCompare, ExactMatchPassesAndAnyDifferenceIsNamed) {
  const Shape s{Scalar::F32, Scalar::F32, 2, 2, 2};
  const KernelConfig cfg{32, 2, 2};
  const std::vector<std::int64_t> want{1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<double> got;
  for (int slot = 0; slot < 3; ++slot) {
    for (auto v : want) got.push_back(static_cast<double>(v));
  }
  EXPECT_TRUE(compare_results(s, cfg, got, want, 3));
  got[4 + 8] = 5.5;  // probe 1, accumulator 1, row 0, column 0
  got[23] = std::nan("");
  const auto st = compare_results(s, cfg, got, want, 3);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("2 of 24 values differ"), std::string::npos)
      << st.error().message;
  EXPECT_NE(st.error().message.find("probe 1, accumulator 1, row 0, column 0: got 5.5, expected 5"),
            std::string::npos)
      << st.error().message;
  EXPECT_FALSE(compare_results(s, cfg, std::vector<double>(3, 0.0), want, 3));
}

}  // namespace
}  // namespace wgb::catalog::subgroup_matrix
