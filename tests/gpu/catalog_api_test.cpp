// The `api` family on a real adapter: every row validates what it moved, a corrupted destination
// (or source, or counter) fails validation, the work model counts what one repetition moves, and the
// scheduler's timed loop lets an API operation time itself on the clock it names.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <vector>

#include "catalog/api/api.hpp"
#include "gpu/hash.hpp"
#include "gpu_fixture.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb {
namespace {

constexpr std::uint64_t kBytes = 256 << 10;  // small: CI runs this on a 2-core CPU driver

SuiteOptions small_options(gpu::Context* ctx) {
  SuiteOptions o;
  o.context = ctx;
  o.sampling = test::quick_sampling();
  o.bandwidth_bytes = kBytes;
  return o;
}

const BenchmarkDefinition& find(const std::string& id) {
  for (const auto& d : builtin_benchmarks()) {
    if (d.id == id) return d;
  }
  throw std::runtime_error("no " + id);
}

std::unique_ptr<Workload> prepare(gpu::Context* ctx, const std::string& id, const SuiteOptions& o) {
  PrepareContext pc{*ctx, o};
  auto w = find(id).prepare(pc);
  EXPECT_TRUE(w) << id << ": " << w.error().message;
  return w ? std::move(*w) : nullptr;
}

const char* const kIds[] = {"upload-writebuffer", "upload-mapped",   "readback-mapasync", "copy-buffer-to-buffer",
                            "dispatch-overhead",  "submit-latency", "pipeline-create"};

TEST(CatalogApi, EveryRowIsInTheCatalogAsMedianApiRows) {
  for (const char* id : kIds) {
    const auto& d = find(id);
    EXPECT_EQ(d.category, "api") << id;
    EXPECT_EQ(d.statistic, Statistic::Median) << id;
    EXPECT_NE(d.statistic_reason.find("scheduler"), std::string::npos) << id;
  }
}

TEST(CatalogApi, EveryRowValidatesWhatItMoved) {
  WGB_GPU_OR_SKIP(ctx);
  const SuiteOptions o = small_options(ctx);
  for (const char* id : kIds) {
    auto w = prepare(ctx, id, o);
    ASSERT_TRUE(w);
    auto t = w->time(*ctx, 3);
    ASSERT_TRUE(t) << id << ": " << t.error().message;
    EXPECT_GT(t->wall_ms, 0) << id;
    auto v = w->validate(*ctx);
    EXPECT_TRUE(v) << id << ": " << v.error().message;
  }
}

// Where a transfer's time goes: each transfer row splits every batch's wall clock into its named
// stages (docs/api-cost.md, "Where the time goes"), and its parameters give each stage per
// operation; the stages add up to the operation.
TEST(CatalogApi, TransfersSplitTheirTimeIntoStages) {
  WGB_GPU_OR_SKIP(ctx);
  const SuiteOptions o = small_options(ctx);
  const std::map<std::string, std::vector<std::string>> stages{
      {"upload-writebuffer", {"writeBuffer (staging + host copy)", "submit to completion (the copy)"}},
      {"upload-mapped", {"mapAsync", "host copy", "unmap + encode + submit", "copy to completion"}},
      {"readback-mapasync", {"encode + submit", "copy + mapAsync", "host copy", "unmap"}}};
  for (const auto& [id, names] : stages) {
    auto w = prepare(ctx, id, o);
    ASSERT_TRUE(w);
    EXPECT_FALSE(w->parameters().contains("time_split_ms")) << id << ": nothing timed yet";
    auto t = w->time(*ctx, 4);
    ASSERT_TRUE(t) << id << ": " << t.error().message;
    const nlohmann::json split = w->parameters()["time_split_ms"];
    ASSERT_TRUE(split.is_object()) << id;
    double sum = 0;
    std::vector<std::string> seen;
    for (const auto& [name, ms] : split.items()) {
      seen.push_back(name);
      EXPECT_GE(ms.get<double>(), 0) << id << " " << name;
      sum += ms.get<double>();
    }
    std::sort(seen.begin(), seen.end());
    std::vector<std::string> want = names;
    std::sort(want.begin(), want.end());
    EXPECT_EQ(seen, want) << id;
    // One batch: the stages of one operation add up to the batch's wall clock over its operations,
    // less what falls outside every stage (the clock read before the first call and the final
    // error check), which is small.
    EXPECT_LE(sum, t->wall_ms / 4 * 1.001) << id;
    EXPECT_GE(sum, t->wall_ms / 4 * 0.9) << id;
  }
  // Rows that are not transfers split nothing.
  auto copy = prepare(ctx, "copy-buffer-to-buffer", o);
  ASSERT_TRUE(copy);
  ASSERT_TRUE(copy->time(*ctx, 2));
  EXPECT_FALSE(copy->parameters().contains("time_split_ms"));
}

TEST(CatalogApi, WorkModelCountsOneRepetition) {
  WGB_GPU_OR_SKIP(ctx);
  const SuiteOptions o = small_options(ctx);
  EXPECT_DOUBLE_EQ(prepare(ctx, "upload-writebuffer", o)->work().count(find("upload-writebuffer").metric), kBytes);
  EXPECT_DOUBLE_EQ(prepare(ctx, "upload-mapped", o)->work().bytes_written, kBytes);
  EXPECT_DOUBLE_EQ(prepare(ctx, "readback-mapasync", o)->work().bytes_read, kBytes);
  const WorkModel copy = prepare(ctx, "copy-buffer-to-buffer", o)->work();
  EXPECT_DOUBLE_EQ(copy.count(find("copy-buffer-to-buffer").metric), 2.0 * kBytes);  // read + write
  for (const char* id : {"dispatch-overhead", "submit-latency", "pipeline-create"}) {
    EXPECT_DOUBLE_EQ(prepare(ctx, id, o)->work().count(find(id).metric), 1.0) << id;
  }
  // The transfer size follows `size` and the adapter's limit.
  SuiteOptions big = o;
  big.bandwidth_bytes = ctx->limits().maxBufferSize + 1024;
  EXPECT_EQ(catalog::api::transfer_bytes(big, *ctx) % 4, 0u);
  EXPECT_LE(catalog::api::transfer_bytes(big, *ctx), ctx->limits().maxBufferSize);
}

// A destination word overwritten after the transfer (or a source word before a read-back, or a
// counter off by one) must fail validation, naming where.
TEST(CatalogApi, CorruptedDataFailsValidation) {
  WGB_GPU_OR_SKIP(ctx);
  const SuiteOptions o = small_options(ctx);
  const std::uint32_t garbage = 0xdeadbeef;
  for (const char* id : {"upload-writebuffer", "upload-mapped", "copy-buffer-to-buffer", "readback-mapasync"}) {
    auto w = prepare(ctx, id, o);
    ASSERT_TRUE(w);
    ASSERT_TRUE(w->time(*ctx, 1)) << id;
    auto* checked = dynamic_cast<catalog::api::CheckedWorkload*>(w.get());
    ASSERT_NE(checked, nullptr) << id;
    ctx->write(checked->checked_buffer(), 4 * 1000, &garbage, 4);
    ASSERT_TRUE(ctx->finish());
    if (std::string(id) == "readback-mapasync") {
      ASSERT_TRUE(w->time(*ctx, 1));  // read the corrupted source
    }
    auto v = w->validate(*ctx);
    ASSERT_FALSE(v) << id << " passed validation with a corrupted word";
    EXPECT_NE(v.error().message.find("word 1000"), std::string::npos) << id << ": " << v.error().message;
  }
  auto d = prepare(ctx, "dispatch-overhead", o);
  ASSERT_TRUE(ctx->time_pass([&](wgpu::ComputePassEncoder& pass) { d->encode(pass, 5); }));
  ASSERT_TRUE(d->validate(*ctx));
  auto* counter = dynamic_cast<catalog::api::CheckedWorkload*>(d.get());
  ASSERT_NE(counter, nullptr);
  const std::uint32_t six = 6;
  ctx->write(counter->checked_buffer(), 0, &six, 4);
  ASSERT_TRUE(ctx->finish());
  EXPECT_FALSE(d->validate(*ctx));
}

TEST(CatalogApi, HostChecksFailOnWrongData) {
  std::vector<std::uint32_t> words(64);
  for (std::size_t i = 0; i < words.size(); ++i) words[i] = gpu::filled_word(i, catalog::api::kDataSeed);
  EXPECT_TRUE(catalog::api::check_hashed(words, catalog::api::kDataSeed, "x"));
  EXPECT_FALSE(catalog::api::check_hashed(words, catalog::api::kStaleSeed, "x"));
  words[17] ^= 1;
  EXPECT_FALSE(catalog::api::check_hashed(words, catalog::api::kDataSeed, "x"));
  EXPECT_TRUE(catalog::api::check_dispatch_count(5, 5));
  EXPECT_TRUE(catalog::api::check_dispatch_count(3, (1ull << 32) + 3));  // the counter wraps like a u32
  EXPECT_FALSE(catalog::api::check_dispatch_count(4, 5));
  // The passing message names the check, not the count, which differs with each run's repetitions:
  // the browser matrix compares two runs' checks as text.
  EXPECT_EQ(*catalog::api::check_dispatch_count(5, 5), *catalog::api::check_dispatch_count(7, 7));
  std::vector<std::uint32_t> out(8);
  for (std::uint32_t i = 0; i < out.size(); ++i) out[i] = catalog::api::pipeline_value(i, 7, 11, 16);
  EXPECT_TRUE(catalog::api::check_pipeline_output(out, 7, 11, 16));
  EXPECT_FALSE(catalog::api::check_pipeline_output(out, 8, 11, 16));  // another pipeline's salt
  // Every pipeline's WGSL is new text: no shader-module cache can hit.
  EXPECT_NE(catalog::api::pipeline_wgsl(1), catalog::api::pipeline_wgsl(2));
}

// The hook: an operation that times itself runs through the same timed loop, sampler and row; its
// row records the whole-operation clock and the per-repetition time of what time() reported.
class ScriptedOperation final : public OperationWorkload {
 public:
  explicit ScriptedOperation(int* calls) : calls_(calls) {}
  Expected<gpu::RawTiming> time(gpu::Context& /*gpu*/, std::uint32_t repetitions) override {
    ++*calls_;
    gpu::RawTiming t;
    t.wall_ms = 0.5 * repetitions;
    t.gpu_ms = 0.001;  // ignored: the whole operation is timed on the wall clock
    return t;
  }
  BatchClock clock() const override { return BatchClock::WholeOperation; }
  WorkModel work() const override { return {0, 0, 1}; }
  Expected<std::string> validate(gpu::Context&) override { return std::string("scripted"); }

 private:
  int* calls_;
};

TEST(CatalogApi, TheRunnerLetsAnOperationTimeItself) {
  WGB_GPU_OR_SKIP(ctx);
  int calls = 0;
  BenchmarkDefinition d{.id = "scripted-operation", .label = "x", .description = "x", .category = "custom",
                        .metric = {"ops", "OP", "ops"}, .source = "", .statistic = Statistic::Median,
                        .prepare = [&calls](PrepareContext&) -> Expected<std::unique_ptr<Workload>> {
                          return std::unique_ptr<Workload>(std::make_unique<ScriptedOperation>(&calls));
                        }};
  SuiteOptions o = small_options(ctx);
  o.benchmarks = {d};
  std::vector<BenchmarkResult> rows;
  ASSERT_TRUE(run_suite(o, [&](const BenchmarkResult& r) { rows.push_back(r); }));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].status, RowStatus::Ok) << rows[0].message;
  EXPECT_GT(calls, 2);
  EXPECT_EQ(rows[0].timing_method, TimingMethod::OperationWallClock);
  EXPECT_NEAR(rows[0].time_ms, 0.5, 1e-9);  // nothing subtracted, no timestamp preferred
  EXPECT_NEAR(rows[0].value, 2000.0, 1e-6);
}

TEST(CatalogApi, RowsRecordTheClockTheyWereTimedOn) {
  WGB_GPU_OR_SKIP(ctx);
  SuiteOptions o = small_options(ctx);
  o.benchmarks = {find("submit-latency"), find("copy-buffer-to-buffer")};
  std::vector<BenchmarkResult> rows;
  ASSERT_TRUE(run_suite(o, [&](const BenchmarkResult& r) { rows.push_back(r); }));
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& r : rows) {
    EXPECT_EQ(r.status, RowStatus::Ok) << r.id << ": " << r.message;
    EXPECT_FALSE(r.validation.empty()) << r.id;
    EXPECT_GT(r.value, 0) << r.id;
  }
  EXPECT_EQ(rows[0].timing_method, TimingMethod::OperationWallClock);
  // The copy is timed like a pass: GPU timestamps, or the wall clock minus the empty-submit cost
  // where there are none or they were demoted (on a loaded CPU driver that happens).
  EXPECT_TRUE(rows[1].timing_method == TimingMethod::GpuTimestamp || rows[1].timing_method == TimingMethod::WallClock)
      << to_string(rows[1].timing_method);
  if (!ctx->has_timestamps()) {
    EXPECT_EQ(rows[1].timing_method, TimingMethod::WallClock);
  }
}

}  // namespace
}  // namespace wgb
