// The subgroup-matrix family on a real adapter. On the CPU driver (no subgroup matrices) every row
// is skipped with a reason that names --experimental; with --experimental the reason says the
// adapter lacks the feature. Where an adapter offers subgroup matrices (a GPU machine running
// ctest), every reported shape's WGSL must compile and one row must run and validate.
// Everywhere, the workload's plumbing (operand encodings, packed i8 words, probes, sentinel,
// read-back, closed form) is checked end to end with a kernel that emulates the
// multiply-accumulates in plain WGSL, since the CPU driver cannot run the real one.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "catalog/subgroup_matrix/subgroup_matrix.hpp"
#include "gpu_fixture.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb {
namespace {

namespace sm = catalog::subgroup_matrix;

// One device with --experimental (allow_unsafe_apis, subgroup matrices requested when offered),
// shared by the tests below.
gpu::Context* experimental_context(std::string* why) {
  static std::string reason;
  static std::unique_ptr<gpu::Context> ctx = [] {
    gpu::ContextOptions o;
    o.experimental = true;
    return test::create_or_reason(o, reason);
  }();
  *why = reason;
  return ctx.get();
}

std::vector<BenchmarkDefinition> family() {
  std::vector<BenchmarkDefinition> v;
  for (const auto& d : builtin_benchmarks()) {
    if (d.id.rfind(sm::kIdPrefix, 0) == 0) v.push_back(d);
  }
  return v;
}

std::vector<BenchmarkResult> run(gpu::Context* ctx, std::vector<BenchmarkDefinition> defs) {
  SuiteOptions o;
  o.context = ctx;
  o.benchmarks = std::move(defs);
  o.sampling = test::quick_sampling();
  std::vector<BenchmarkResult> rows;
  auto st = run_suite(o, [&](const BenchmarkResult& r) { rows.push_back(r); });
  EXPECT_TRUE(st) << st.error().message;
  return rows;
}

// A kernel with the generated kernel's bindings and loop structure whose multiply-accumulates are
// written out in scalar WGSL (invocation 0 of each probed workgroup does its subgroup's work).
// `unroll` may differ from the reference's, to show that the validator catches a wrong count.
std::string emulated_wgsl(const sm::Shape& s, const sm::KernelConfig& cfg, std::uint32_t unroll) {
  const std::string comp = sm::storage_type(s.component);
  const std::string res = sm::storage_type(s.result);
  auto load = [&](const std::string& buffer, const std::string& fn) {
    std::string body;
    if (s.component == sm::Scalar::I8) {
      // Element i is byte i of the buffer; sign-extend it.
      body = "let w = " + buffer + "[i / 4u]; let sh = (i % 4u) * 8u; return " + res +
             "((w << (24u - sh)) >> 24u);";
    } else if (s.component == sm::Scalar::U8) {
      body = "let w = " + buffer + "[i / 4u]; let sh = (i % 4u) * 8u; return " + res +
             "((w >> sh) & 0xFFu);";
    } else {
      body = "return " + res + "(" + buffer + "[i]);";
    }
    return "fn " + fn + "(i : u32) -> " + res + " { " + body + " }\n";
  };
  std::string w;
  if (s.uses_f16()) w += "enable f16;\n";
  w += "struct Params { iterations : u32, pad0 : u32, pad1 : u32, pad2 : u32, probes : vec4<u32>, "
       "}\n";
  w += "@group(0) @binding(0) var<storage, read> a : array<" + comp + ">;\n";
  w += "@group(0) @binding(1) var<storage, read> b0 : array<" + comp + ">;\n";
  w += "@group(0) @binding(2) var<storage, read> b1 : array<" + comp + ">;\n";
  w += "@group(0) @binding(3) var<storage, read> c : array<" + res + ">;\n";
  w += "@group(0) @binding(4) var<storage, read_write> results : array<" + res + ">;\n";
  w += "@group(0) @binding(5) var<uniform> params : Params;\n";
  w += load("a", "load_a") + load("b0", "load_b0") + load("b1", "load_b1");
  const std::string M = std::to_string(s.m) + "u", N = std::to_string(s.n) + "u",
                    K = std::to_string(s.k) + "u";
  const std::string ACC = std::to_string(cfg.accumulators) + "u", U = std::to_string(unroll) + "u";
  w += "fn step(r : u32, col : u32, second : bool) -> " + res + " {\n";
  w += "  var sum = " + res + "(0);\n";
  w += "  for (var k = 0u; k < " + K + "; k++) {\n";
  w += "    if (second) { sum += load_a(r * " + K + " + k) * load_b1(k * " + N + " + col); }\n";
  w += "    else { sum += load_a(r * " + K + " + k) * load_b0(k * " + N + " + col); }\n";
  w += "  }\n  return sum;\n}\n";
  w += "@compute @workgroup_size(" + std::to_string(cfg.subgroup_size) + ")\n";
  w += "fn main(@builtin(local_invocation_index) lid : u32, @builtin(workgroup_id) wid : "
       "vec3<u32>,\n";
  w += "        @builtin(num_workgroups) nwg : vec3<u32>) {\n";
  w += "  let wg = wid.x + wid.y * nwg.x;\n  var slot = 4u;\n";
  w += "  if (wg == params.probes.x) { slot = 0u; }\n  if (wg == params.probes.y) { slot = 1u; }\n";
  w += "  if (wg == params.probes.z) { slot = 2u; }\n  if (wg == params.probes.w) { slot = 3u; }\n";
  w += "  if (lid != 0u || slot >= 4u) { return; }\n";
  w += "  for (var j = 0u; j < " + ACC + "; j++) {\n";
  w += "    for (var e = 0u; e < " + M + " * " + N + "; e++) {\n";
  w += "      let r = e / " + N + "; let col = e % " + N + ";\n";
  w += "      var acc = c[j * " + M + " * " + N + " + e];\n";
  w += "      for (var i = 0u; i < params.iterations; i++) {\n";
  w += "        for (var u = 0u; u < " + U + "; u++) { acc += step(r, col, u % 2u == 1u); }\n";
  w += "      }\n";
  w += "      acc += step(r, col, false);\n";
  w += "      results[(slot * " + ACC + " + j) * " + M + " * " + N + " + e] = acc;\n";
  w += "    }\n  }\n}\n";
  return w;
}

// Runs the workload's own validator (fresh dispatch, sentinel, exact closed form) at `iterations`.
Expected<std::string> validate_emulated(gpu::Context* ctx, const sm::Shape& s,
                                        std::uint32_t kernel_unroll, std::uint64_t iterations) {
  sm::KernelConfig cfg;
  cfg.subgroup_size = ctx->adapter().subgroup_max_size;
  cfg.workgroups_x = 16;  // a small grid: the CPU driver runs every workgroup
  cfg.workgroups_y = 2;
  auto w =
      sm::build_workload(*ctx, s, cfg, sm::benchmark_id(s), emulated_wgsl(s, cfg, kernel_unroll));
  if (!w) return std::move(w).error();
  (*w)->set_knob(iterations);
  return (*w)->validate(*ctx);
}

TEST(SubgroupMatrixGpu, WorkloadPlumbingValidatesWithAnEmulatedKernel) {
  WGB_GPU_OR_SKIP(ctx);
  for (const auto& c : sm::known_shapes()) {
    const auto s = sm::to_shape(c);
    ASSERT_TRUE(s);
    if (s->uses_f16() && !ctx->has_feature("shader-f16")) continue;
    auto v = validate_emulated(ctx, *s, sm::KernelConfig{}.unroll, 2);
    EXPECT_TRUE(v) << sm::describe(*s) << ": " << v.error().message;
    if (v) {
      EXPECT_NE(v->find("exactly"), std::string::npos) << *v;
    }
  }
}

TEST(SubgroupMatrixGpu, AKernelThatDoesTheWrongAmountOfWorkFailsValidation) {
  WGB_GPU_OR_SKIP(ctx);
  // i32 results grow with every step (accumulate mode): two steps per iteration instead of four
  // must show in every probed value.
  const sm::Shape s{sm::Scalar::I8, sm::Scalar::I32, 16, 8, 32};
  auto v = validate_emulated(ctx, s, 2, 3);
  ASSERT_FALSE(v);
  EXPECT_NE(v.error().message.find("values differ"), std::string::npos) << v.error().message;
}

TEST(SubgroupMatrixGpu, WithoutExperimentalEveryRowIsSkippedNamingTheFlag) {
  WGB_GPU_OR_SKIP(ctx);
  ASSERT_FALSE(ctx->options().experimental);
  const auto defs = family();
  ASSERT_EQ(defs.size(), 10u);
  const auto rows = run(ctx, defs);
  ASSERT_EQ(rows.size(), defs.size());
  for (const auto& r : rows) {
    EXPECT_EQ(r.status, RowStatus::Skipped) << r.id << ": " << r.message;
    EXPECT_NE(r.message.find("--experimental"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find(sm::kFeature), std::string::npos) << r.message;
    EXPECT_EQ(r.category, "matrix");
  }
}

TEST(SubgroupMatrixGpu, WithExperimentalTheRowRunsOrSaysWhatTheAdapterLacks) {
  WGB_CONTEXT_OR_SKIP(ctx, experimental_context);
  const auto defs = sm::definitions_for({{"f16", "f32", 16, 16, 16}});
  ASSERT_EQ(defs.size(), 1u);
  const auto rows = run(ctx, defs);
  ASSERT_EQ(rows.size(), 1u);
  const auto& r = rows[0];
  if (!ctx->has_feature(sm::kFeature)) {
    EXPECT_EQ(r.status, RowStatus::Skipped) << r.message;
    EXPECT_NE(r.message.find("does not offer"), std::string::npos) << r.message;
    return;
  }
  const auto& configs = ctx->adapter().subgroup_matrix_configs;
  const bool offered = std::any_of(configs.begin(), configs.end(), [](const auto& c) {
    return c.component == "f16" && c.result == "f32" && c.m == 16 && c.n == 16 && c.k == 16;
  });
  if (!offered || !ctx->has_feature("shader-f16")) {
    EXPECT_EQ(r.status, RowStatus::Skipped) << r.message;
    return;
  }
  EXPECT_EQ(r.status, RowStatus::Ok) << r.message;
  EXPECT_GT(r.value, 0);
  EXPECT_NE(r.validation.find("exactly"), std::string::npos) << r.validation;
  EXPECT_EQ(r.parameters.value("experimental", ""),
            std::string(sm::kFeature) + " via allow_unsafe_apis");
  EXPECT_DOUBLE_EQ(r.work.operations, sm::work_model({sm::Scalar::F16, sm::Scalar::F32, 16, 16, 16},
                                                     sm::KernelConfig{}, r.knob)
                                          .operations);
}

TEST(SubgroupMatrixGpu, EveryShapeTheAdapterReportsCompiles) {
  WGB_CONTEXT_OR_SKIP(ctx, experimental_context);
  const auto& configs = ctx->adapter().subgroup_matrix_configs;
  if (!ctx->has_feature(sm::kFeature) || configs.empty()) {
    GTEST_SKIP() << "the adapter (" << ctx->adapter().description << ") offers no " << sm::kFeature
                 << " configurations, so no subgroup-matrix kernel can be compiled here";
  }
  sm::KernelConfig cfg;
  cfg.subgroup_size = ctx->adapter().subgroup_max_size;
  for (const auto& c : configs) {
    std::string reason;
    const auto s = sm::to_shape(c, &reason);
    if (!s) {
      ADD_FAILURE() << "a reported configuration cannot be expressed: " << reason;
      continue;
    }
    if (s->uses_f16() && !ctx->has_feature("shader-f16")) continue;
    auto p = ctx->pipeline(sm::kernel_wgsl(*s, cfg), sm::benchmark_id(*s));
    EXPECT_TRUE(p) << sm::describe(*s) << ": " << p.error().message;
  }
}

TEST(SubgroupMatrixGpu, EveryReportedShapeValidates) {
  std::string why;
  gpu::Context* ctx = experimental_context(&why);
  if (ctx == nullptr || !ctx->has_feature(sm::kFeature) ||
      ctx->adapter().subgroup_matrix_configs.empty()) {
    GTEST_SKIP() << "needs an adapter offering " << sm::kFeature << " (lavapipe has none)";
  }
  const auto defs = sm::with_adapter_shapes(family(), ctx->adapter());
  for (const auto& r : run(ctx, defs)) {
    EXPECT_TRUE(r.status == RowStatus::Ok || r.status == RowStatus::Skipped)
        << r.id << ": " << r.message;
    if (r.status == RowStatus::Ok) {
      EXPECT_FALSE(r.validation.empty()) << r.id;
    }
  }
}

}  // namespace
}  // namespace wgb
