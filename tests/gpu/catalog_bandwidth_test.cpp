// The bandwidth probes on a real adapter (lavapipe in CI), at small sizes: every definition gives
// a validated row through run_suite with the hand-counted bytes; each prepared workload validates
// directly at power-of-two and other sizes (write-scatter's validation writes every destination of
// its window exactly once and leaves the sentinel past the window untouched); and the
// sentinel-compare mechanism of the read validators rejects a wrong expectation.
#include <gtest/gtest.h>

#include "catalog/bandwidth/bandwidth.hpp"
#include "catalog/common.hpp"
#include "gpu/hash.hpp"
#include "gpu_fixture.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb {
namespace {

namespace bw = catalog::bandwidth;
constexpr std::uint64_t kMiB = 1 << 20;

const BenchmarkDefinition& find(const std::string& id) {
  for (const auto& d : builtin_benchmarks()) {
    if (d.id == id) return d;
  }
  throw std::runtime_error("no " + id);
}

const char* const kIds[] = {"read-linear",        "write-linear",      "read-gather-16kb",  "read-gather-4mb",
                            "read-gather-64mb",   "write-scatter-16kb", "write-scatter-4mb", "write-scatter-64mb"};

// Hand counts at a bandwidth size of `bytes`: reads and linear writes move the whole size; a
// scatter writes whole windows (rounds x window).
double hand_bytes(const std::string& id, std::uint64_t bytes) {
  if (id.starts_with("write-scatter-")) {
    const std::uint64_t nominal = id.ends_with("16kb") ? 16 * 1024 : id.ends_with("4mb") ? 4 * kMiB : 64 * kMiB;
    std::uint64_t window = 16;
    while (window * 2 <= std::min(nominal, bytes)) window *= 2;
    return static_cast<double>(std::max<std::uint64_t>(1, bytes / window) * window);
  }
  return static_cast<double>(bytes);
}

TEST(CatalogBandwidth, EveryDefinitionGivesAValidatedRowThroughTheScheduler) {
  WGB_GPU_OR_SKIP(ctx);
  SuiteOptions o;
  o.context = ctx;
  for (const char* id : kIds) o.benchmarks.push_back(find(id));
  o.sampling = test::quick_sampling();
  o.bandwidth_bytes = 1 * kMiB;
  std::vector<BenchmarkResult> rows;
  auto st = run_suite(o, [&](const BenchmarkResult& r) { rows.push_back(r); });
  ASSERT_TRUE(st) << st.error().message;
  ASSERT_EQ(rows.size(), std::size(kIds));
  for (const auto& r : rows) {
    // Throttled is the scheduler's verdict on a noisy shared CPU; the row is still validated.
    EXPECT_TRUE(r.status == RowStatus::Ok || r.status == RowStatus::Throttled) << r.id << ": " << r.message;
    EXPECT_FALSE(r.validation.empty()) << r.id;
    EXPECT_GT(r.value, 0) << r.id;
    EXPECT_EQ(r.statistic, Statistic::Median) << r.id;
    const double want = hand_bytes(r.id, 1 * kMiB);
    if (r.id.starts_with("read-")) {
      EXPECT_DOUBLE_EQ(r.work.bytes_read, want) << r.id;
      EXPECT_DOUBLE_EQ(r.work.bytes_written, 0) << r.id;
    } else {
      EXPECT_DOUBLE_EQ(r.work.bytes_written, want) << r.id;
      EXPECT_DOUBLE_EQ(r.work.bytes_read, 0) << r.id;
    }
    EXPECT_EQ(r.parameters.value("buffers", 0), 2) << r.id;  // alternation
    EXPECT_EQ(r.parameters.value("peak_class", std::string()), "memory") << r.id;
  }
}

TEST(CatalogBandwidth, WorkloadsValidateAtOtherSizes) {
  WGB_GPU_OR_SKIP(ctx);
  // 48 KiB + 3 MiB: not a power of two (windows clamp to 2 MiB, scatter rounds round down) and
  // not a multiple of 4 x the grid (the kernels' tail loops run).
  for (std::uint64_t bytes : {std::uint64_t{64 * 1024}, 3 * kMiB + 48 * 1024}) {
    SuiteOptions o;
    o.bandwidth_bytes = bytes;
    for (const char* id : kIds) {
      PrepareContext pc{*ctx, o};
      auto w = find(id).prepare(pc);
      ASSERT_TRUE(w) << id << ": " << w.error().message;
      EXPECT_DOUBLE_EQ((*w)->work().bytes_read + (*w)->work().bytes_written, hand_bytes(id, bytes)) << id;
      auto ok = (*w)->validate(*ctx);
      ASSERT_TRUE(ok) << id << " at " << bytes << ": " << ok.error().message;
      if (std::string(id).starts_with("write-scatter")) {
        EXPECT_NE(ok->find("exactly once"), std::string::npos);
      }
    }
  }
}

// compute_threads sets the streaming kernels' invocations (rounded up to whole workgroups of 256;
// each invocation then walks its grid-stride share): 1000 -> 1024, and 300 -> 512, which leaves a
// tail of elements that no whole step of four covers. Every probe must still validate.
TEST(CatalogBandwidth, StreamingProbesValidateAtAnyInvocationCount) {
  WGB_GPU_OR_SKIP(ctx);
  for (std::uint32_t threads : {1000u, 300u}) {
    SuiteOptions o;
    o.bandwidth_bytes = 1 * kMiB + 48 * 1024;
    o.compute_threads = threads;
    const std::uint32_t want = (threads + 255) / 256 * 256;
    for (const char* id : kIds) {
      PrepareContext pc{*ctx, o};
      auto w = find(id).prepare(pc);
      ASSERT_TRUE(w) << id << ": " << w.error().message;
      EXPECT_EQ((*w)->parameters().value("invocations", 0u), want) << id;
      auto ok = (*w)->validate(*ctx);
      EXPECT_TRUE(ok) << id << " with " << threads << " invocations: " << (ok ? "" : ok.error().message);
    }
  }
  // Unset: one step of four elements per invocation.
  SuiteOptions o;
  o.bandwidth_bytes = 1 * kMiB;
  PrepareContext pc{*ctx, o};
  auto w = find("write-linear").prepare(pc);
  ASSERT_TRUE(w) << w.error().message;
  EXPECT_EQ((*w)->parameters().value("invocations", 0u), 1u * kMiB / 16 / 4);
}

// The sweep parameters a definition declares are the ones its prepare reads.
TEST(CatalogBandwidth, DefinitionsDeclareTheSweepParametersTheyUse) {
  for (const char* id : kIds) EXPECT_EQ(find(id).sweep_parameters, (std::vector<std::string>{"size", "threads"})) << id;
  EXPECT_EQ(find("read-latency").sweep_parameters, std::vector<std::string>{"size"});
  EXPECT_EQ(find("f32-fma-vec4").sweep_parameters, (std::vector<std::string>{"threads", "workgroup"}));
  EXPECT_TRUE(find("workgroup-256").sweep_parameters.empty());
}

TEST(CatalogBandwidth, BadSizesAreRejectedWithAReason) {
  WGB_GPU_OR_SKIP(ctx);
  SuiteOptions o;
  o.bandwidth_bytes = 100;  // not a multiple of 16
  PrepareContext pc{*ctx, o};
  auto w = find("read-linear").prepare(pc);
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().kind, ErrorKind::Usage);
  o.bandwidth_bytes = 2 * static_cast<std::uint64_t>(ctx->limits().maxStorageBufferBindingSize);
  PrepareContext big{*ctx, o};
  auto s = find("read-gather-64mb").prepare(big);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, ErrorKind::Skipped);
  EXPECT_NE(s.error().message.find("limit"), std::string::npos) << s.error().message;
}

// The read validators point the kernel's sentinels at the host's fold of one invocation; the
// kernel writes its fold into the sink only on a match. A wrong expectation (the fold of data the
// buffer does not hold) must leave the sink empty, which the validator reports as a failure.
TEST(CatalogBandwidth, GatherSentinelOnlyMatchesTheTrueFold) {
  WGB_GPU_OR_SKIP(ctx);
  constexpr std::uint32_t kCount = 4096, kThreads = 256, kFill = 0x1234u;
  auto pipeline = ctx->pipeline(catalog::kernel_source("bandwidth/read_gather"), "gather-test");
  ASSERT_TRUE(pipeline) << pipeline.error().message;
  auto src = ctx->buffer(kCount * 16, catalog::kStorage, "src");
  auto sink = ctx->buffer(256 * 16, catalog::kStorage, "sink");
  ASSERT_TRUE(src && sink);
  ASSERT_TRUE(ctx->fill_hashed(*src, kCount * 16, kFill));
  const std::uint32_t window = 256, bits = bw::log2_exact(window);
  const bw::GatherStream g{kCount, kThreads, 77u, window - 1, bw::gather_shift(bits), kFill};
  const std::uint32_t t = 123;
  for (bool right : {true, false}) {
    auto want = bw::gather_fold(t, g);
    if (!right) want = bw::gather_fold(t, bw::GatherStream{kCount, kThreads, g.seed, g.mask, g.shift, kFill + 1});
    const std::uint32_t params[8] = {kCount, kThreads, want[0], want[1], g.seed, g.mask, g.shift, 0};
    auto uniform = ctx->buffer_with(std::span<const std::uint32_t>(params), catalog::kUniform, "params");
    ASSERT_TRUE(uniform);
    const std::uint32_t zero[1024] = {};
    ctx->write(*sink, 0, zero, sizeof(zero));
    auto group = bind_buffers(*ctx, *pipeline, {*src, *sink, *uniform});
    ASSERT_TRUE(ctx->run_pass([&](wgpu::ComputePassEncoder& pass) {
      pass.SetPipeline(*pipeline);
      pass.SetBindGroup(0, group);
      pass.DispatchWorkgroups(kThreads / 256);
    }));
    auto got = ctx->read_as<std::uint32_t>(*sink, t * 16, 4);
    ASSERT_TRUE(got);
    const bool matched = (*got)[0] == want[0] && (*got)[1] == want[1] && (*got)[2] == want[2] && (*got)[3] == want[3];
    EXPECT_EQ(matched, right) << (right ? "the true fold must be written" : "a wrong fold must not match");
  }
}

}  // namespace
}  // namespace wgb
