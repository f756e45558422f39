// The bandwidth probes on a real adapter (lavapipe in CI), at small sizes: every definition gives
// a validated row through run_suite with the hand-counted bytes per pass; each prepared workload
// validates directly at power-of-two and other sizes (write-scatter's validation writes every
// destination of its window exactly once and leaves the sentinel past the window untouched); the
// sentinel-compare mechanism of the read validators rejects a wrong expectation; the streaming
// kernels hand out every block once and alternate their buffers; and the launch-bound rule flags a
// dispatch made of little more than its launch, not one calibrated to milliseconds.
#include <gtest/gtest.h>

#include "catalog/bandwidth/bandwidth.hpp"
#include "catalog/common.hpp"
#include "gpu/hash.hpp"
#include "gpu_fixture.hpp"
#include "suite/plausibility.hpp"
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
    // Throttled is the scheduler's verdict on a noisy shared CPU; launch-bound, the launch rule's on
    // the short dispatches of test sampling; the row is still validated.
    const bool launch_bound = r.status == RowStatus::Suspect && r.message.starts_with("launch-bound");
    EXPECT_TRUE(r.status == RowStatus::Ok || r.status == RowStatus::Throttled || launch_bound)
        << r.id << ": " << r.message;
    EXPECT_FALSE(r.validation.empty()) << r.id;
    EXPECT_GT(r.value, 0) << r.id;
    EXPECT_EQ(r.statistic, Statistic::Median) << r.id;
    // The knob is whole passes; the work of a dispatch is that many passes' bytes.
    EXPECT_EQ(r.knob_name, "passes") << r.id;
    EXPECT_GE(r.knob, 1u) << r.id;
    EXPECT_GT(r.parameters.value("launch_ms", 0.0), 0) << r.id;
    EXPECT_GT(r.parameters.value("dispatch_ms", 0.0), 0) << r.id;
    const double want = hand_bytes(r.id, 1 * kMiB) * static_cast<double>(r.knob);
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
  // Unset: the gather and scatter kernels one step of four elements per invocation on a GPU, 64 on a
  // CPU adapter; the streaming kernels one workgroup per block (32 KiB on a GPU, 1 MiB on a CPU).
  SuiteOptions o;
  o.bandwidth_bytes = 4 * kMiB;
  PrepareContext pc{*ctx, o};
  const bool cpu = ctx->adapter().adapter_type == "cpu";
  const std::uint32_t steps = cpu ? bw::kCpuBlockSteps : bw::kGpuBlockSteps;
  auto g = find("read-gather-16kb").prepare(pc);
  ASSERT_TRUE(g) << g.error().message;
  EXPECT_EQ((*g)->parameters().value("invocations", 0u), 4u * kMiB / 16 / (4 * steps));
  auto w = find("write-linear").prepare(pc);
  ASSERT_TRUE(w) << w.error().message;
  const auto plan = bw::linear_plan(4 * kMiB, cpu ? bw::kCpuBlockSteps : bw::kGpuLinearBlockSteps,
                                   cpu ? bw::kCpuRun : bw::kGpuRun);
  EXPECT_EQ((*w)->parameters().value("invocations", 0u), plan.blocks * 256u);
  EXPECT_EQ((*w)->parameters().value("block_bytes", 0u), plan.block_bytes());
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
    const std::uint32_t params[8] = {kCount, kThreads, want[0], want[1], g.seed, g.mask, g.shift, 1};
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

// The streaming kernels, driven by hand: fewer workgroups than blocks (each takes several tickets),
// a size with a partial last block, several passes (A, B, ...). Every block is handed out once (the
// counter reads passes x blocks + workgroups), the next dispatch's counter is zeroed, the sentinel
// fires for the true fold of one lane of one block and never for a wrong one, and every element of
// both buffers gets its pass's values.
struct LinearRig {
  gpu::Context* ctx;
  bw::LinearPlan plan = bw::linear_plan(4 * 16384 + 48, 1);  // 4 whole blocks and 3 elements
  std::uint32_t passes = 3;
  static constexpr std::uint32_t kGroups = 3;
  wgpu::Buffer a, b, tickets, next;
  void make() {
    const std::uint64_t bytes = std::uint64_t{plan.count} * 16;
    a = *ctx->buffer(bytes, catalog::kStorage, "a");
    b = *ctx->buffer(bytes, catalog::kStorage, "b");
    ASSERT_TRUE(ctx->fill_hashed(a, bytes, 1));
    ASSERT_TRUE(ctx->fill_hashed(b, bytes, 2));
    const std::uint32_t zero[64] = {}, stale[64] = {12345};
    tickets = *ctx->buffer_with(std::span<const std::uint32_t>(zero), catalog::kStorage, "tickets");
    next = *ctx->buffer_with(std::span<const std::uint32_t>(stale), catalog::kStorage, "next");
  }
  void dispatch(const wgpu::ComputePipeline& pipeline, const wgpu::BindGroup& group) {
    ASSERT_TRUE(ctx->run_pass([&](wgpu::ComputePassEncoder& pass) {
      pass.SetPipeline(pipeline);
      pass.SetBindGroup(0, group);
      pass.DispatchWorkgroups(kGroups);
    }));
  }
  void expect_tickets() {
    auto t = ctx->read_as<std::uint32_t>(tickets, 0, 1);
    auto n = ctx->read_as<std::uint32_t>(next, 0, 1);
    ASSERT_TRUE(t && n);
    EXPECT_TRUE(bw::check_tickets((*t)[0], plan, passes, kGroups)) << (*t)[0];
    EXPECT_EQ((*n)[0], 0u) << "the next dispatch's counter must be zeroed";
  }
};

TEST(CatalogBandwidth, ReadLinearKernelFoldsEveryBlockOnce) {
  WGB_GPU_OR_SKIP(ctx);
  auto pipeline = ctx->pipeline(catalog::kernel_source("bandwidth/read_linear"), "read-linear-test");
  ASSERT_TRUE(pipeline) << pipeline.error().message;
  auto sink = ctx->buffer(256 * 16, catalog::kStorage, "sink");
  ASSERT_TRUE(sink);
  // The GPU's columns (256 invocations wide, one step per block) and a CPU driver's (8 wide, two
  // steps per block).
  for (const auto& plan : {bw::linear_plan(4 * 16384 + 48, 1), bw::linear_plan(2 * 32768 + 48, 2, bw::kCpuRun)})
  for (bool right : {true, false}) {
    LinearRig rig{ctx};
    rig.plan = plan;
    rig.make();
    // Lane 2 of the partial last block of buffer A (it loads the last element): its pass 0 and
    // pass 2 folds are equal, so the sink gets the same value twice; that block of B is other data.
    const auto want = bw::block_fold(rig.plan.blocks - 1, 2, rig.plan, right ? 1 : 3);
    const std::uint32_t params[8] = {rig.plan.count, rig.plan.blocks, want[0], want[1], rig.passes, rig.plan.steps,
                                     rig.plan.run, 0};
    auto uniform = ctx->buffer_with(std::span<const std::uint32_t>(params), catalog::kUniform, "params");
    ASSERT_TRUE(uniform);
    const std::uint32_t zero[1024] = {};
    ctx->write(*sink, 0, zero, sizeof(zero));
    auto group = bind_buffers(*ctx, *pipeline, {rig.a, rig.b, *sink, *uniform, rig.tickets, rig.next});
    rig.dispatch(*pipeline, group);
    auto got = ctx->read_as<std::uint32_t>(*sink, 2 * 16, 4);
    ASSERT_TRUE(got);
    const std::array<std::uint32_t, 4> have{(*got)[0], (*got)[1], (*got)[2], (*got)[3]};
    EXPECT_EQ(have == want, right) << (right ? "the true fold must be written" : "a wrong fold must not match");
    rig.expect_tickets();
  }
}

TEST(CatalogBandwidth, WriteLinearKernelWritesEveryElementOfBothBuffers) {
  WGB_GPU_OR_SKIP(ctx);
  auto pipeline = ctx->pipeline(catalog::kernel_source("bandwidth/write_linear"), "write-linear-test");
  ASSERT_TRUE(pipeline) << pipeline.error().message;
  // Two passes: each buffer is written once (a third pass would race with the first over A).
  LinearRig rig{ctx};
  rig.passes = 2;
  rig.make();
  constexpr std::uint32_t kSeed = 77;
  const std::uint32_t params[8] = {rig.plan.count, rig.plan.blocks, kSeed, rig.passes, rig.plan.steps, rig.plan.run, 0, 0};
  auto uniform = ctx->buffer_with(std::span<const std::uint32_t>(params), catalog::kUniform, "params");
  ASSERT_TRUE(uniform);
  auto group = bind_buffers(*ctx, *pipeline, {rig.a, rig.b, *uniform, rig.tickets, rig.next});
  rig.dispatch(*pipeline, group);
  // A got pass 0, B pass 1: every element, each pass its own values.
  auto a = ctx->read_as<std::uint32_t>(rig.a, 0, rig.plan.count * 4);
  auto b = ctx->read_as<std::uint32_t>(rig.b, 0, rig.plan.count * 4);
  ASSERT_TRUE(a && b);
  EXPECT_TRUE(bw::check_write_linear(*a, kSeed));
  EXPECT_TRUE(bw::check_write_linear(*b, kSeed ^ 0x9e3779b9u));
  EXPECT_FALSE(bw::check_write_linear(*b, kSeed));
  rig.expect_tickets();
}

// The launch-bound rule on the real adapter: a 256-byte read-linear held at one pass per dispatch
// is nothing but its launch and is flagged (even when other processes slow its dispatches several
// times over the fastest empty one); 4 MiB calibrated to 20 ms dispatches is not.
TEST(CatalogBandwidth, LaunchBoundRuleFlagsATinyDispatchAndNotABigOne) {
  WGB_GPU_OR_SKIP(ctx);
  auto run = [&](std::uint64_t bytes, double target_ms) {
    SuiteOptions o;
    o.context = ctx;
    o.benchmarks = {find("read-linear")};
    o.sampling = test::quick_sampling();
    o.sampling.target_dispatch_ms = target_ms;
    o.sampling.measurement_ms = 2 * target_ms;
    o.bandwidth_bytes = bytes;
    std::vector<BenchmarkResult> rows;
    auto st = run_suite(o, [&](const BenchmarkResult& r) { rows.push_back(r); });
    EXPECT_TRUE(st) << st.error().message;
    return rows.empty() ? BenchmarkResult{} : rows.front();
  };
  const auto tiny = run(256, 0.001);
  EXPECT_EQ(tiny.knob, 1u);
  EXPECT_EQ(tiny.status, RowStatus::Suspect) << tiny.message << " " << tiny.parameters.dump();
  EXPECT_TRUE(tiny.message.starts_with("launch-bound")) << tiny.message;
  const auto big = run(4 * kMiB, 20);
  EXPECT_TRUE(big.status == RowStatus::Ok || big.status == RowStatus::Throttled) << big.message;
  EXPECT_LT(big.parameters.value("launch_share", 1.0), kLaunchBoundShare) << big.parameters.dump();
}

}  // namespace
}  // namespace wgb
