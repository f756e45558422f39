// The Context's timed API operations (context.hpp, "Timed API operations"): uploads, read-backs,
// buffer copies, empty submits and pipeline creation, each performed `repetitions` times as one
// timed batch for the `api` family. Only the calls a WebGPU user makes are inside the timed region;
// what they need (staging buffers, command buffers, WGSL text) is made before it.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>

#include "gpu/operation_stages.hpp"
#include "webgpu_bench/context.hpp"

namespace wgb::gpu {

namespace {

using Clock = std::chrono::steady_clock;

std::string text(wgpu::StringView sv) { return std::string(std::string_view(sv)); }

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// A batch that began at t0 and has just completed, on the wall clock; an error the device reported
// meanwhile fails it.
Expected<RawTiming> wall_timing(Context& gpu, Clock::time_point t0) {
  RawTiming timing;
  timing.wall_ms = ms_since(t0);
  if (auto st = gpu.check_errors(); !st) return std::move(st).error();
  return timing;
}

constexpr std::uint64_t kWaitMs = 600000;  // a batch that has not completed in 10 minutes is stuck

// The completion of everything submitted to `queue` so far, for Context::wait.
wgpu::Future queue_done(const wgpu::Queue& queue) {
  return queue.OnSubmittedWorkDone(wgpu::CallbackMode::WaitAnyOnly, [](wgpu::QueueWorkDoneStatus, wgpu::StringView) {});
}

// mapAsync of the first `bytes` of `buffer`, for Context::wait; `result` says whether it mapped and,
// when not, why.
struct MapResult {
  bool mapped = false;
  std::string why;
};
wgpu::Future map_async(const wgpu::Buffer& buffer, wgpu::MapMode mode, std::uint64_t bytes, MapResult& result) {
  return buffer.MapAsync(mode, 0, bytes, wgpu::CallbackMode::WaitAnyOnly,
                         [&result](wgpu::MapAsyncStatus status, wgpu::StringView message) {
                           result.mapped = status == wgpu::MapAsyncStatus::Success;
                           if (!result.mapped) result.why = text(message);
                         });
}

// Splits a batch's wall clock into its stages (operation_stages.hpp), read off the same clock as
// the whole: each lap() ends the stage it names.
class StageClock {
 public:
  explicit StageClock(Clock::time_point t0) : last_(t0) { last_operation_stages() = {}; }
  void operator()(const char* stage) {
    const auto now = Clock::now();
    last_operation_stages().add(stage, std::chrono::duration<double, std::milli>(now - last_).count());
    last_ = now;
  }

 private:
  Clock::time_point last_;
};

}  // namespace

Expected<std::optional<double>> Context::read_pass_timestamps() {
  bool mapped = false;
  wgpu::Future f = readback_buffer_.MapAsync(wgpu::MapMode::Read, 0, 16, wgpu::CallbackMode::WaitAnyOnly,
                                             [&mapped](wgpu::MapAsyncStatus status, wgpu::StringView) {
                                               mapped = status == wgpu::MapAsyncStatus::Success;
                                             });
  if (auto st = wait(f, 60000, "timestamp read-back"); !st) return std::move(st).error();
  if (!mapped) return std::optional<double>{};
  std::uint64_t stamps[2];
  std::memcpy(stamps, readback_buffer_.GetConstMappedRange(0, 16), sizeof(stamps));
  readback_buffer_.Unmap();
  // Signed difference: a negative reading is possible on some drivers and must be seen.
  return std::optional<double>(static_cast<double>(static_cast<std::int64_t>(stamps[1] - stamps[0])) / 1e6);
}

Expected<RawTiming> Context::time_upload(const wgpu::Buffer& dst, std::span<const std::byte> data, UploadPath path,
                                         const wgpu::Buffer& staging, std::uint32_t repetitions) {
  const std::uint64_t bytes = data.size();
  if (bytes == 0 || bytes % 4 != 0) {
    return make_error(ErrorKind::Usage, fmt::format("an upload of {} bytes: the size must be a positive multiple of 4", bytes));
  }
  if (path == UploadPath::MappedStaging && (!staging || staging.GetSize() < bytes)) {
    return make_error(ErrorKind::Usage, "a mapped upload needs a staging buffer of at least the upload's size");
  }
  const auto t0 = Clock::now();
  StageClock lap(t0);
  for (std::uint32_t r = 0; r < repetitions; ++r) {
    if (path == UploadPath::WriteBuffer) {
      // Dawn copies the data into staging memory inside this call (and makes a staging buffer for
      // each write larger than its 4 MiB upload ring).
      queue_.WriteBuffer(dst, 0, data.data(), bytes);
      lap("writeBuffer (staging + host copy)");
      // An empty submit carries the write to the GPU (Dawn queues it until the next submit).
      queue_.Submit(0, nullptr);
    } else {
      MapResult map;
      if (auto st = wait(map_async(staging, wgpu::MapMode::Write, bytes, map), kWaitMs,
                         "mapping the upload's staging buffer");
          !st) {
        return std::move(st).error();
      }
      if (!map.mapped) {
        return make_error(ErrorKind::Failed, fmt::format("mapping the upload's staging buffer failed: {}", map.why));
      }
      lap("mapAsync");
      void* dst_range = staging.GetMappedRange(0, bytes);
      if (dst_range == nullptr) return make_error(ErrorKind::Failed, "the upload's staging buffer has no mapped range");
      std::memcpy(dst_range, data.data(), bytes);
      lap("host copy");
      staging.Unmap();
      wgpu::CommandEncoder encoder = device_.CreateCommandEncoder();
      encoder.CopyBufferToBuffer(staging, 0, dst, 0, bytes);
      wgpu::CommandBuffer commands = encoder.Finish();
      queue_.Submit(1, &commands);
      lap("unmap + encode + submit");
    }
    // Each upload to its completion: what a program that uploads and then uses the data waits for.
    if (auto st = wait(queue_done(queue_), kWaitMs, "an upload"); !st) return std::move(st).error();
    lap(path == UploadPath::WriteBuffer ? "submit to completion (the copy)" : "copy to completion");
  }
  return wall_timing(*this, t0);
}

Expected<RawTiming> Context::time_readback(const wgpu::Buffer& src, const wgpu::Buffer& staging,
                                           std::span<std::byte> out, std::uint32_t repetitions) {
  const std::uint64_t bytes = out.size();
  if (bytes == 0 || bytes % 4 != 0 || !staging || staging.GetSize() < bytes) {
    return make_error(ErrorKind::Usage,
                      fmt::format("a read-back of {} bytes needs a positive multiple of 4 and a staging buffer that large",
                                  bytes));
  }
  const auto t0 = Clock::now();
  StageClock lap(t0);
  for (std::uint32_t r = 0; r < repetitions; ++r) {
    wgpu::CommandEncoder encoder = device_.CreateCommandEncoder();
    encoder.CopyBufferToBuffer(src, 0, staging, 0, bytes);
    wgpu::CommandBuffer commands = encoder.Finish();
    queue_.Submit(1, &commands);
    lap("encode + submit");
    MapResult map;
    if (auto st = wait(map_async(staging, wgpu::MapMode::Read, bytes, map), kWaitMs, "a read-back"); !st) {
      return std::move(st).error();
    }
    if (!map.mapped) return make_error(ErrorKind::Failed, fmt::format("mapping the read-back buffer failed: {}", map.why));
    // The map completes when the copy has: this stage holds the device-to-host copy.
    lap("copy + mapAsync");
    const void* range = staging.GetConstMappedRange(0, bytes);
    if (range == nullptr) return make_error(ErrorKind::Failed, "the read-back buffer has no mapped range");
    std::memcpy(out.data(), range, bytes);
    lap("host copy");
    staging.Unmap();
    lap("unmap");
  }
  return wall_timing(*this, t0);
}

Expected<RawTiming> Context::time_copy(const wgpu::Buffer& src, const wgpu::Buffer& dst, std::uint64_t bytes,
                                       std::uint32_t repetitions) {
  if (bytes == 0 || bytes % 4 != 0) {
    return make_error(ErrorKind::Usage, fmt::format("a copy of {} bytes: the size must be a positive multiple of 4", bytes));
  }
  const bool ts = has_timestamps();
  wgpu::CommandEncoder encoder = device_.CreateCommandEncoder();
  // WebGPU writes timestamps only at pass boundaries: the end of an empty pass before the copies and
  // the end of one after them bracket the copies (the end-of-pass write follows the work before it).
  auto stamp = [&](std::uint32_t index) {
    wgpu::PassTimestampWrites writes;
    writes.querySet = timestamps_;
    writes.endOfPassWriteIndex = index;
    wgpu::ComputePassDescriptor desc;
    desc.timestampWrites = &writes;
    wgpu::ComputePassEncoder pass = encoder.BeginComputePass(&desc);
    pass.End();
  };
  if (ts) stamp(0);
  for (std::uint32_t r = 0; r < repetitions; ++r) encoder.CopyBufferToBuffer(src, 0, dst, 0, bytes);
  if (ts) {
    stamp(1);
    encoder.ResolveQuerySet(timestamps_, 0, 2, resolve_buffer_, 0);
    encoder.CopyBufferToBuffer(resolve_buffer_, 0, readback_buffer_, 0, 16);
  }
  wgpu::CommandBuffer commands = encoder.Finish();
  const auto t0 = Clock::now();
  queue_.Submit(1, &commands);
  if (auto st = wait(queue_done(queue_), kWaitMs, "a batch of buffer copies"); !st) return std::move(st).error();
  auto timing = wall_timing(*this, t0);
  if (!timing || !ts) return timing;
  auto gpu_ms = read_pass_timestamps();
  if (!gpu_ms) return std::move(gpu_ms).error();
  timing->gpu_ms = *gpu_ms;
  return timing;
}

Expected<RawTiming> Context::time_submit(std::uint32_t repetitions, std::uint64_t* completed) {
  // The command buffers are made before the clock starts: the row measures the submit and its
  // completion, not encoding.
  std::vector<wgpu::CommandBuffer> commands(repetitions);
  for (auto& c : commands) c = device_.CreateCommandEncoder().Finish();
  std::uint64_t succeeded = 0;
  const auto t0 = Clock::now();
  for (auto& c : commands) {
    queue_.Submit(1, &c);
    wgpu::Future done =
        queue_.OnSubmittedWorkDone(wgpu::CallbackMode::WaitAnyOnly, [&succeeded](wgpu::QueueWorkDoneStatus status, wgpu::StringView) {
          if (status == wgpu::QueueWorkDoneStatus::Success) ++succeeded;
        });
    if (auto st = wait(done, kWaitMs, "an empty submit"); !st) return std::move(st).error();
  }
  RawTiming timing;
  timing.wall_ms = ms_since(t0);
  if (completed != nullptr) *completed += succeeded;
  if (auto st = check_errors(); !st) return std::move(st).error();
  return timing;
}

Expected<RawTiming> Context::time_pipelines(std::span<const PipelineSource> sources, wgpu::ComputePipeline* last) {
  // Descriptors and constant entries are laid out before the clock starts.
  std::vector<std::vector<wgpu::ConstantEntry>> constants(sources.size());
  for (std::size_t i = 0; i < sources.size(); ++i) {
    for (const auto& [key, value] : sources[i].constants) {
      wgpu::ConstantEntry e;
      e.key = wgpu::StringView(key);
      e.value = value;
      constants[i].push_back(e);
    }
  }
  const auto t0 = Clock::now();
  for (std::size_t i = 0; i < sources.size(); ++i) {
    wgpu::ShaderSourceWGSL wgsl;
    wgsl.code = wgpu::StringView(sources[i].wgsl);
    wgpu::ShaderModuleDescriptor module_desc;
    module_desc.nextInChain = &wgsl;
    wgpu::ShaderModule module = device_.CreateShaderModule(&module_desc);
    wgpu::ComputePipelineDescriptor desc;
    desc.compute.module = module;
    desc.compute.entryPoint = wgpu::StringView(sources[i].entry_point);
    desc.compute.constantCount = constants[i].size();
    desc.compute.constants = constants[i].empty() ? nullptr : constants[i].data();
    bool created = false;
    std::string why;
    wgpu::ComputePipeline pipeline;
    wgpu::Future f = device_.CreateComputePipelineAsync(
        &desc, wgpu::CallbackMode::WaitAnyOnly,
        [&](wgpu::CreatePipelineAsyncStatus status, wgpu::ComputePipeline p, wgpu::StringView message) {
          created = status == wgpu::CreatePipelineAsyncStatus::Success;
          if (created) {
            pipeline = std::move(p);
          } else {
            why = text(message);
          }
        });
    if (auto st = wait(f, kWaitMs, "a pipeline creation"); !st) return std::move(st).error();
    if (!created) {
      errors_->take();  // the same failure, reported again outside any scope
      return make_error(ErrorKind::Compile, fmt::format("creating a compute pipeline failed: {}", why));
    }
    if (last != nullptr && i + 1 == sources.size()) *last = std::move(pipeline);
  }
  return wall_timing(*this, t0);
}

}  // namespace wgb::gpu
