// The memory suite end to end on a real adapter (lavapipe in CI), at a small working set with tiny
// budgets: every phase measured and validated, the document written after every phase, and each
// failure the suite handles — out of memory (adapter cap and allocation failure), device lost
// (during a phase and during a timestamp read-back), an uncaptured GPU error, cancel — ending as a
// value with the completed phases kept.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>

#include "gpu_fixture.hpp"
#include "memory_fixture.hpp"
#include "memory/document.hpp"
#include "memory/memory.hpp"
#include "report/document.hpp"
#include "report/files.hpp"

namespace wgb::memory {
namespace {

std::filesystem::path temp_json(const std::string& name) {
  return std::filesystem::temp_directory_path() / fmt::format("wgb-memory-{}-{}.json", name, getpid());
}

// Writes the document after every row, as the CLI does, and checks each write landed.
struct DocWriter {
  MemoryDocument doc;
  std::filesystem::path path;
  std::vector<std::size_t> rows_on_disk;
  DocWriter(gpu::Context& gpu, MemoryOptions& o, const std::string& name)
      : doc({"webgpu-bench", "memory", "(test)"}, gpu, o), path(temp_json(name)) {
    o.on_working_set = [this](const WorkingSet& ws) { doc.set_working_set(ws); };
    o.on_row = [this](const BenchmarkResult& r) {
      doc.add_row(r);
      ASSERT_TRUE(report::write_json_atomic(path, doc.json()));
      auto loaded = report::load_result_document(path);
      ASSERT_TRUE(loaded) << loaded.error().message;
      rows_on_disk.push_back((*loaded)["rows"].size());
    };
  }
  nlohmann::json finish(const MemoryRun& run) {
    doc.finish(run);
    EXPECT_TRUE(report::write_json_atomic(path, doc.json()));
    auto loaded = report::load_result_document(path);
    EXPECT_TRUE(loaded);
    std::filesystem::remove(path);
    return loaded ? *loaded : nlohmann::json();
  }
};

std::unique_ptr<gpu::Context> fresh_context() {
  auto c = gpu::Context::create({});
  return c ? std::move(*c) : nullptr;
}

TEST(MemorySuite, EveryPhaseIsMeasuredAndValidated) {
  WGB_GPU_OR_SKIP(ctx);
  MemoryOptions o = test::tiny_memory_options();
  DocWriter w(*ctx, o, "full");
  std::vector<std::string> stages;
  o.on_progress = [&](const ProgressEvent& e) { stages.push_back(e.stage); };
  const MemoryRun run = run_memory(*ctx, o);
  ASSERT_FALSE(run.fatal) << run.fatal->message;
  ASSERT_TRUE(run.working_set);
  EXPECT_EQ(run.working_set->bytes, 16 * kMiB);
  EXPECT_FALSE(run.working_set->ranked);  // 16 MiB is below the ranking size
  ASSERT_EQ(run.rows.size(), 6u);
  const char* ids[] = {"memory-read", "memory-write", "memory-copy", "memory-random", "memory-latency",
                       "memory-sustain"};
  for (std::size_t i = 0; i < 6; ++i) {
    const auto& r = run.rows[i];
    SCOPED_TRACE(r.id);
    EXPECT_EQ(r.id, ids[i]);
    ASSERT_EQ(r.status, RowStatus::Ok) << r.message;
    EXPECT_GT(r.value, 0);
    EXPECT_FALSE(r.validation.empty());
    EXPECT_EQ(r.statistic, Statistic::Median);
    EXPECT_NE(r.timing_method, TimingMethod::None);
    EXPECT_EQ(r.parameters["clock"], to_string(r.timing_method));
    const std::size_t samples = r.parameters["samples"].get<std::size_t>();
    // At least eight, unless the hard stop (2.5x the budget) came first: lavapipe's random phase
    // takes about a second per dispatch against a 30 ms budget.
    EXPECT_GE(samples, 1u);
    if (r.stop_reason != StopReason::HardStop) {
      EXPECT_GE(samples, 8u);
    }
    EXPECT_EQ(r.parameters["kept_samples"].get<std::size_t>() + r.parameters["rejected_samples"].get<std::size_t>(),
              samples);
    EXPECT_EQ(r.stats.count, r.parameters["kept_samples"].get<std::size_t>());
    EXPECT_GE(r.parameters["cv"].get<double>(), 0);
    EXPECT_EQ(r.parameters["unranked"], true);
    EXPECT_NEAR(r.value, r.work.count(r.metric) / (r.time_ms / 1000.0), r.value * 1e-6);
  }
  const auto& read = run.rows[0];
  EXPECT_DOUBLE_EQ(read.work.bytes_read, 16.0 * kMiB);
  EXPECT_EQ(read.parameters["workgroups"], 1024);
  EXPECT_DOUBLE_EQ(run.rows[2].work.bytes_read + run.rows[2].work.bytes_written, 32.0 * kMiB);  // copy
  EXPECT_GT(run.rows[3].parameters["g_accesses_per_s"].get<double>(), 0);                        // random
  const auto& lat = run.rows[4];
  EXPECT_GT(lat.parameters["ns_per_load"].get<double>(), 0);
  EXPECT_NEAR(lat.parameters["ns_per_load"].get<double>(), 1e9 / lat.value, 1e-6 * 1e9 / lat.value);
  EXPECT_EQ(lat.parameters["slots"], 16 * kMiB / 64);
  const auto& sus = run.rows[5];
  EXPECT_GT(sus.parameters["retention"].get<double>(), 0);
  EXPECT_EQ(sus.parameters["timeline"].size(), sus.parameters["samples"].get<std::size_t>());
  // Sustain's kept and rejected samples are its windows' decisions, the same in counts and timeline.
  std::size_t flagged = 0;
  for (const auto& e : sus.parameters["timeline"]) flagged += e["rejected"].get<bool>() ? 1 : 0;
  EXPECT_EQ(flagged, sus.parameters["rejected_samples"].get<std::size_t>());
  EXPECT_NEAR(sus.value / 1e9, sus.parameters["last60_median_gbps"].get<double>(), 1e-9);
  // Progress went through every stage of the engine.
  for (const char* s : {"calibrate", "warm-up", "sample 1", "validate", "transition"}) {
    EXPECT_NE(std::find(stages.begin(), stages.end(), s), stages.end()) << s;
  }
  // Written after every phase; the final document holds the scope statement and the working set.
  EXPECT_EQ(w.rows_on_disk, (std::vector<std::size_t>{1, 2, 3, 4, 5, 6}));
  const auto doc = w.finish(run);
  EXPECT_EQ(doc["suite"], "memory");
  EXPECT_EQ(doc["state"], "complete");
  EXPECT_EQ(doc["scope"].size(), 3u);
  EXPECT_EQ(doc["working_set"]["bytes"], 16 * kMiB);
  EXPECT_EQ(doc["rows"][5]["id"], "memory-sustain");
}

TEST(MemorySuite, WorkingSetAboveTheAdapterCapHalvesAndCompletes) {
  WGB_GPU_OR_SKIP(ctx);
  const std::uint64_t cap = std::min(ctx->limits().maxStorageBufferBindingSize, ctx->limits().maxBufferSize);
  if (cap >= 512 * kMiB) GTEST_SKIP() << "this adapter does not cap a binding below 512 MiB";
  MemoryOptions o = test::tiny_memory_options({Phase::Read});
  o.working_set_mib = 512;  // lavapipe caps a storage binding at 128 MiB
  o.min_working_set_mib = 32;
  const MemoryRun run = run_memory(*ctx, o);
  ASSERT_FALSE(run.fatal) << run.fatal->message;
  ASSERT_TRUE(run.working_set);
  std::uint64_t want = 512 * kMiB;
  while (want > cap) want /= 2;
  EXPECT_EQ(run.working_set->bytes, want);
  EXPECT_EQ(run.working_set->requested_bytes, 512 * kMiB);
  EXPECT_FALSE(run.working_set->ranked);
  ASSERT_FALSE(run.working_set->reductions.empty());
  EXPECT_NE(run.working_set->unranked_reason.find("caps"), std::string::npos) << run.working_set->unranked_reason;
  ASSERT_EQ(run.rows.size(), 1u);
  EXPECT_EQ(run.rows[0].status, RowStatus::Ok) << run.rows[0].message;
  EXPECT_EQ(run.rows[0].parameters["working_set_bytes"], want);
  EXPECT_EQ(run.rows[0].parameters["unranked"], true);
}

// Out of memory at allocation: an allocator that fails above a size, inside the same error-scope
// contract as Context::buffer (ErrorKind::OutOfMemory).
Allocator failing_above(std::uint64_t limit) {
  return [limit](gpu::Context& g, std::uint64_t size, wgpu::BufferUsage usage,
                 std::string_view label) -> Expected<wgpu::Buffer> {
    if (size > limit) return make_error(ErrorKind::OutOfMemory, fmt::format("{}: out of memory (simulated)", label));
    return g.buffer(size, usage, label);
  };
}

TEST(MemorySuite, OutOfMemoryHalvesUntilItFits) {
  WGB_GPU_OR_SKIP(ctx);
  MemoryOptions o = test::tiny_memory_options({Phase::Read, Phase::Latency});
  o.working_set_mib = 64;
  o.min_working_set_mib = 16;
  o.allocate = failing_above(16 * kMiB);
  const MemoryRun run = run_memory(*ctx, o);
  ASSERT_FALSE(run.fatal) << run.fatal->message;
  ASSERT_TRUE(run.working_set);
  EXPECT_EQ(run.working_set->bytes, 16 * kMiB);
  ASSERT_EQ(run.working_set->reductions.size(), 2u);  // 64 -> 32 -> 16
  EXPECT_NE(run.working_set->reductions[0].find("out of memory at 64 MiB"), std::string::npos);
  EXPECT_FALSE(run.working_set->ranked);
  ASSERT_EQ(run.rows.size(), 2u);
  for (const auto& r : run.rows) EXPECT_EQ(r.status, RowStatus::Ok) << r.id << ": " << r.message;
}

TEST(MemorySuite, OutOfMemoryBelowTheFloorStopsWithAClearMessage) {
  WGB_GPU_OR_SKIP(ctx);
  MemoryOptions o = test::tiny_memory_options({Phase::Read, Phase::Write});
  o.working_set_mib = 32;
  o.min_working_set_mib = 16;
  o.allocate = failing_above(8 * kMiB);
  const MemoryRun run = run_memory(*ctx, o);
  ASSERT_TRUE(run.fatal);
  EXPECT_EQ(run.fatal->kind, ErrorKind::OutOfMemory);
  EXPECT_NE(run.fatal->message.find("16 MiB"), std::string::npos) << run.fatal->message;
  EXPECT_NE(run.fatal->message.find("--min-working-set"), std::string::npos) << run.fatal->message;
  EXPECT_FALSE(run.working_set);
  ASSERT_EQ(run.rows.size(), 2u);
  for (const auto& r : run.rows) {
    EXPECT_EQ(r.status, RowStatus::Cancelled);
    EXPECT_NE(r.message.find("not run"), std::string::npos);
  }
  EXPECT_EQ(run.end_state(), "out-of-memory");
}

TEST(MemorySuite, DeviceLostDuringAPhaseKeepsTheCompletedPhases) {
  WGB_GPU_OR_SKIP(shared);
  auto ctx = fresh_context();  // this device dies; the shared one must not
  ASSERT_TRUE(ctx);
  MemoryOptions o = test::tiny_memory_options({Phase::Read, Phase::Write, Phase::Copy});
  DocWriter w(*ctx, o, "lost");
  std::uint64_t passes_after_loss = 0;
  bool lost = false;
  o.before_pass = [&](Phase p, std::uint64_t pass) {
    if (lost) ++passes_after_loss;
    if (p == Phase::Write && pass == 2) {
      ctx->device().ForceLoss(wgpu::DeviceLostReason::Unknown, "forced by memory_test");
      lost = true;
    }
  };
  const MemoryRun run = run_memory(*ctx, o);
  ASSERT_TRUE(run.fatal);
  EXPECT_EQ(run.fatal->kind, ErrorKind::DeviceLost) << run.fatal->message;
  EXPECT_EQ(passes_after_loss, 0u);
  ASSERT_EQ(run.rows.size(), 3u);
  EXPECT_EQ(run.rows[0].status, RowStatus::Ok) << run.rows[0].message;
  EXPECT_GT(run.rows[0].value, 0);
  EXPECT_EQ(run.rows[1].status, RowStatus::Error);
  EXPECT_NE(run.rows[1].message.find("lost"), std::string::npos) << run.rows[1].message;
  EXPECT_EQ(run.rows[2].status, RowStatus::Cancelled);
  const auto doc = w.finish(run);
  EXPECT_EQ(doc["state"], "device-lost");
  EXPECT_EQ(doc["rows"][0]["status"], "ok");
}

TEST(MemorySuite, DeviceLostDuringATimestampReadbackIsReportedAsDeviceLost) {
  WGB_GPU_OR_SKIP(shared);
  auto ctx = fresh_context();
  ASSERT_TRUE(ctx);
  if (!ctx->has_timestamps()) GTEST_SKIP() << "no timestamp-query: there is no timestamp read-back";
  MemoryOptions o = test::tiny_memory_options({Phase::Read, Phase::Write});
  Phase current = Phase::Read;
  std::uint64_t current_pass = 0;
  int readbacks_in_write = 0;
  o.before_pass = [&](Phase p, std::uint64_t pass) {
    current = p;
    current_pass = pass;
  };
  ctx->set_before_timestamp_readback([&] {
    // The pass has completed; its timestamps are about to be mapped.
    if (current == Phase::Write && current_pass == 3 && readbacks_in_write++ == 0) {
      ctx->device().ForceLoss(wgpu::DeviceLostReason::Unknown, "forced during a timestamp read-back");
    }
  });
  const MemoryRun run = run_memory(*ctx, o);
  ctx->set_before_timestamp_readback(nullptr);
  ASSERT_TRUE(run.fatal);
  EXPECT_EQ(run.fatal->kind, ErrorKind::DeviceLost) << run.fatal->message;
  EXPECT_EQ(readbacks_in_write, 1);
  EXPECT_EQ(current_pass, 3u);  // nothing was submitted after the loss
  ASSERT_EQ(run.rows.size(), 2u);
  EXPECT_EQ(run.rows[0].status, RowStatus::Ok) << run.rows[0].message;
  EXPECT_EQ(run.rows[1].status, RowStatus::Error);
  EXPECT_NE(run.rows[1].message.find("read-back"), std::string::npos) << run.rows[1].message;
}

TEST(MemorySuite, UncapturedGpuErrorAbortsTheRun) {
  WGB_GPU_OR_SKIP(ctx);
  MemoryOptions o = test::tiny_memory_options({Phase::Read, Phase::Write, Phase::Copy});
  std::uint64_t passes_after_error = 0;
  bool injected = false;
  o.before_pass = [&](Phase p, std::uint64_t pass) {
    if (injected) ++passes_after_error;
    if (p == Phase::Write && pass == 1) {
      // Outside any error scope: MapRead cannot be combined with Storage.
      wgpu::BufferDescriptor d;
      d.size = 256;
      d.usage = wgpu::BufferUsage::MapRead | wgpu::BufferUsage::Storage;
      (void)ctx->device().CreateBuffer(&d);
      injected = true;
    }
  };
  const MemoryRun run = run_memory(*ctx, o);
  ASSERT_TRUE(run.fatal);
  EXPECT_EQ(run.fatal->kind, ErrorKind::GpuError) << run.fatal->message;
  EXPECT_EQ(passes_after_error, 0u);
  ASSERT_EQ(run.rows.size(), 3u);
  EXPECT_EQ(run.rows[0].status, RowStatus::Ok) << run.rows[0].message;
  EXPECT_EQ(run.rows[1].status, RowStatus::Error);
  EXPECT_NE(run.rows[1].message.find("uncaptured"), std::string::npos) << run.rows[1].message;
  EXPECT_EQ(run.rows[2].status, RowStatus::Cancelled);
  EXPECT_EQ(run.end_state(), "gpu-error");
  EXPECT_TRUE(ctx->check_errors());  // the shared device is usable again
}

TEST(MemorySuite, CancelStopsAtTheNextCheckAndKeepsCompletedPhases) {
  WGB_GPU_OR_SKIP(ctx);
  MemoryOptions o = test::tiny_memory_options({Phase::Read, Phase::Write, Phase::Copy, Phase::Latency});
  DocWriter w(*ctx, o, "cancel");
  std::atomic<bool> flag{false};
  o.cancel.flag = &flag;
  std::uint64_t passes_after_cancel = 0;
  o.before_pass = [&](Phase p, std::uint64_t pass) {
    if (flag) ++passes_after_cancel;
    if (p == Phase::Write && pass == 4) flag = true;  // this pass still runs; the next check stops
  };
  const MemoryRun run = run_memory(*ctx, o);
  ASSERT_TRUE(run.fatal);
  EXPECT_EQ(run.fatal->kind, ErrorKind::Cancelled);
  EXPECT_EQ(passes_after_cancel, 0u);
  ASSERT_EQ(run.rows.size(), 4u);
  EXPECT_EQ(run.rows[0].status, RowStatus::Ok) << run.rows[0].message;
  EXPECT_EQ(run.rows[1].status, RowStatus::Cancelled);
  EXPECT_TRUE(run.rows[1].validation.empty());
  EXPECT_EQ(run.rows[1].value, 0);
  EXPECT_EQ(run.rows[2].status, RowStatus::Cancelled);
  EXPECT_EQ(run.rows[3].status, RowStatus::Cancelled);
  EXPECT_EQ(w.rows_on_disk, (std::vector<std::size_t>{1, 2, 3, 4}));
  const auto doc = w.finish(run);
  EXPECT_EQ(doc["state"], "cancelled");
  EXPECT_EQ(doc["rows"][0]["status"], "ok");
  EXPECT_GT(doc["rows"][0]["value"].get<double>(), 0);
}

}  // namespace
}  // namespace wgb::memory
