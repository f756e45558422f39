// The driver's contraction check (alu::check_contraction, kernels/compute/contraction.wgsl): whether
// a multiply-add written as x * m + c, and fma(), are evaluated fused, and what the f32 FMA rows
// record of it (docs/method.md#validation).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "catalog/common.hpp"
#include "catalog/compute/alu.hpp"
#include "gpu/kernel_override.hpp"
#include "gpu_fixture.hpp"
#include "webgpu_bench/options.hpp"

namespace wgb {
namespace {

namespace alu = catalog::alu;

// The check tells the two evaluations of a multiply-add apart on the adapter at hand: each form is
// either fused or separate, never something else.
TEST(AluContraction, TheCheckGivesAVerdictForBothForms) {
  WGB_GPU_OR_SKIP(ctx);
  auto c = alu::check_contraction(*ctx);
  ASSERT_TRUE(c) << c.error().message;
  for (const std::string* v : {&c->mul_add, &c->fma_builtin}) {
    EXPECT_TRUE(*v == "fused" || *v == "separate") << *v;
  }
  EXPECT_EQ(&c->of("fma()"), &c->fma_builtin);
  EXPECT_EQ(&c->of("x * m + c"), &c->mul_add);
}

// A check kernel that stores something else (here: the operand itself) is reported as what it is,
// never as fused or separate.
TEST(AluContraction, AnUnexpectedResultIsNamed) {
  WGB_GPU_OR_SKIP(ctx);
  const auto dir = std::filesystem::temp_directory_path() / ("wgb-contraction-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir / "compute");
  std::ofstream(dir / "compute" / "contraction.wgsl")
      << "@compute @workgroup_size(wg_size)\nfn main(@builtin(global_invocation_id) gid: vec3<u32>) {\n"
         "  if (gid.x < p.threads) { out[gid.x] = bitcast<u32>(p.f.x); }\n}\n";
  ASSERT_TRUE(gpu::set_kernel_dir(dir.string(), [](std::string_view n) { return !kernels::find(n).empty(); }));
  auto c = alu::check_contraction(*ctx);
  (void)gpu::set_kernel_dir("", {});
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_NE(c->mul_add.find("neither fused nor separate"), std::string::npos) << c->mul_add;
  EXPECT_NE(c->fma_builtin.find("0x3f80"), std::string::npos) << c->fma_builtin;
}

// The rows of the f32 FMA probes record the check for the form their kernel writes, and carry a note
// exactly where that form is not fused.
TEST(AluContraction, TheF32FmaRowsRecordItAndSaySoWhereItIsNotFused) {
  WGB_GPU_OR_SKIP(ctx);
  auto c = alu::check_contraction(*ctx);
  ASSERT_TRUE(c) << c.error().message;
  SuiteOptions options;
  options.compute_threads = 256;
  PrepareContext pc{*ctx, options};
  std::size_t recorded = 0;
  for (const auto& probe : alu::probes()) {
    // Compiling every probe on a CPU driver is slow: the recording ones and one that must not record.
    if (probe.fused_form.empty() && probe.id != "i32-mad-scalar") continue;
    auto w = alu::prepare(pc, probe);
    if (!w) continue;  // skipped for a missing feature
    const auto params = (*w)->parameters();
    if (probe.fused_form.empty()) {
      EXPECT_FALSE(params.contains("fma_contraction")) << probe.id;
      continue;
    }
    ++recorded;
    ASSERT_TRUE(params.contains("fma_contraction")) << probe.id;
    EXPECT_EQ(params["fma_contraction"]["x * m + c"], c->mul_add) << probe.id;
    EXPECT_EQ(params["fma_contraction"]["fma()"], c->fma_builtin) << probe.id;
    const bool fused = c->of(probe.fused_form) == "fused";
    EXPECT_EQ(params.contains("note"), !fused) << probe.id;
  }
  // Every f32 row that counts FMAs records it: the FMA probes and the branch probes.
  std::size_t f32_fma_rows = 0;
  for (const auto& probe : alu::probes()) {
    if (probe.metric.key != "flops" || probe.f16) continue;
    ++f32_fma_rows;
    EXPECT_FALSE(probe.fused_form.empty()) << probe.id;
  }
  EXPECT_EQ(recorded, f32_fma_rows);
  ASSERT_NE(alu::find_probe("f32-fma-scalar"), nullptr);
  EXPECT_EQ(alu::find_probe("f32-fma-scalar")->fused_form, "x * m + c");
}

}  // namespace
}  // namespace wgb
