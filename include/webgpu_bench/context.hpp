// The GPU context a benchmark's prepare() receives: one Dawn device on one adapter, created with the
// adapter's own maximum limits, every optional feature the catalog can use, and timestamp
// quantization disabled. Also the helpers every kernel needs (compile inside error scopes, buffers
// filled with hashed data, read-back) and the one timed region (time_pass).
#pragma once

#include <webgpu/webgpu_cpp.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "webgpu_bench/adapter.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::gpu {

struct ContextOptions {
  // "" or "best": the best adapter (discrete GPU > integrated > CPU); a number: that index of
  // `webgpu-bench devices`; otherwise a case-insensitive substring of the adapter's name.
  std::string adapter;
  std::string backend;       // "" (any), "vulkan", "metal", "d3d12", "opengl", ...
  bool robustness = true;    // false: Dawn's disable_robustness (no bounds checks)
  bool experimental = false; // allow_unsafe_apis (+ vulkan_enable_f16_on_nvidia on NVIDIA)
  // true (--clock wall): ignore timestamp queries even where the adapter has them, so every timed
  // pass is measured on the wall clock minus the empty-submit cost (docs/method.md#clocks).
  bool wall_clock = false;
};

// Errors raised outside any error scope (uncaptured errors, device loss) land here. The scheduler
// checks it after every timed batch, so a silently failing pass cannot poison the timings.
class ErrorSink {
 public:
  ErrorSink();
  ~ErrorSink();
  ErrorSink(const ErrorSink&) = delete;
  ErrorSink& operator=(const ErrorSink&) = delete;
  void report_uncaptured(std::string message);
  void report_lost(std::string message);
  bool device_lost() const noexcept { return lost_.load(); }
  bool has_error() const noexcept { return errors_.load() > 0 || lost_.load(); }
  // Returns and clears the pending uncaptured errors; device loss stays set.
  std::vector<std::string> take();
  std::string lost_message() const;

 private:
  struct State;  // the pending messages (behind a lock where callbacks come from other threads)
  std::unique_ptr<State> state_;
  std::atomic<int> errors_{0};
  std::atomic<bool> lost_{false};
};

// One timed batch as the GPU layer saw it: both clocks, always (the wall clock cross-checks the
// timestamps, docs/method.md#clocks).
struct RawTiming {
  std::optional<double> gpu_ms;  // end - begin timestamp of the compute pass
  double wall_ms = 0;            // host clock from just before Submit to the completion callback
};

using PassEncoder = std::function<void(wgpu::ComputePassEncoder&)>;

class Context {
 public:
  // Enumerates the adapters Dawn finds (the Null backend is left out).
  static Expected<std::vector<AdapterDescription>> enumerate(const ContextOptions& options = {});
  // Creates a device on the chosen adapter. ErrorKind::NoAdapter when none matches/exists,
  // ErrorKind::Usage when the selector is malformed.
  static Expected<std::unique_ptr<Context>> create(const ContextOptions& options);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const wgpu::Device& device() const { return device_; }
  const wgpu::Queue& queue() const { return queue_; }
  const wgpu::Instance& instance() const { return instance_; }
  const AdapterDescription& adapter() const { return adapter_; }
  const wgpu::Limits& limits() const { return limits_; }
  const ContextOptions& options() const { return options_; }
  bool has_feature(wgpu::FeatureName f) const;
  bool has_feature(std::string_view webgpu_name) const;
  bool has_wgsl_feature(std::string_view name) const;
  // Whether timed passes carry GPU timestamps: the feature exists and --clock wall did not turn it off.
  bool has_timestamps() const { return !options_.wall_clock && has_feature(wgpu::FeatureName::TimestampQuery); }
  // Device toggles in force (what Dawn reports it used), for every result document.
  std::vector<std::string> toggles() const;
  ErrorSink& errors() { return *errors_; }

  // Compiles WGSL inside validation + OOM error scopes. The error message carries the compiler's
  // messages with line:column, prefixed with `label`.
  Expected<wgpu::ShaderModule> compile(std::string_view wgsl, std::string_view label);
  // `constants` set WGSL `override` declarations (pipeline-overridable constants) by name.
  struct Constant {
    std::string_view key;
    double value;
  };
  Expected<wgpu::ComputePipeline> pipeline(std::string_view wgsl, std::string_view label,
                                           std::string_view entry_point = "main",
                                           std::span<const Constant> constants = {});
  // Allocates inside an out-of-memory scope (ErrorKind::OutOfMemory when it does not fit).
  Expected<wgpu::Buffer> buffer(std::uint64_t size, wgpu::BufferUsage usage, std::string_view label);
  // A buffer initialised with `bytes` (size rounded up to 4).
  Expected<wgpu::Buffer> buffer_with_data(std::span<const std::byte> bytes, wgpu::BufferUsage usage,
                                          std::string_view label);
  template <class T>
  Expected<wgpu::Buffer> buffer_with(std::span<const T> values, wgpu::BufferUsage usage,
                                     std::string_view label) {
    return buffer_with_data(std::as_bytes(values), usage, label);
  }
  // Fills a storage buffer with hashed data on the GPU (never time on zeros): word i becomes
  // hash(i ^ seed). Used for buffers too large to upload cheaply.
  Status fill_hashed(const wgpu::Buffer& buffer, std::uint64_t size, std::uint32_t seed);
  // Copies [offset, offset+size) of a buffer (needs CopySrc) back to the host.
  Expected<std::vector<std::byte>> read(const wgpu::Buffer& buffer, std::uint64_t offset,
                                        std::uint64_t size);
  template <class T>
  Expected<std::vector<T>> read_as(const wgpu::Buffer& buffer, std::uint64_t offset, std::size_t count) {
    auto bytes = read(buffer, offset, count * sizeof(T));
    if (!bytes) return std::move(bytes).error();
    std::vector<T> out(count);
    std::memcpy(out.data(), bytes->data(), count * sizeof(T));
    return out;
  }
  void write(const wgpu::Buffer& buffer, std::uint64_t offset, const void* data, std::size_t size);

  // The one timed region: encodes one compute pass (timestamps at its start and end when the
  // feature exists), submits it, and waits for completion. Reports both clocks.
  Expected<RawTiming> time_pass(const PassEncoder& encode);
  // Test seam: when set, called inside time_pass after the pass completed and before its
  // timestamps are read back, so a test can force a device loss exactly there. Unset normally.
  void set_before_timestamp_readback(std::function<void()> hook) { before_timestamp_readback_ = std::move(hook); }
  // Runs a pass without timing it (setup work), and waits for it.
  Status run_pass(const PassEncoder& encode);
  // Median host cost of an empty submit + completion wait, measured once at start-up; the
  // wall-clock fallback subtracts it (docs/method.md#clocks).
  double empty_submit_ms() const { return empty_submit_ms_; }
  // Waits for all submitted work; fails on device loss or an uncaptured error.
  Status finish(std::uint64_t timeout_ms = 120000);
  // Turns pending sink errors into an Error (or ok()).
  Status check_errors();

 private:
  Context() = default;
  Status wait(wgpu::Future future, std::uint64_t timeout_ms, std::string_view what);
  Status prepare_timing();

  struct Impl;
  std::unique_ptr<Impl> impl_;
  wgpu::Instance instance_;
  wgpu::Adapter adapter_handle_;
  wgpu::Device device_;
  wgpu::Queue queue_;
  wgpu::Limits limits_{};
  AdapterDescription adapter_;
  ContextOptions options_;
  std::unique_ptr<ErrorSink> errors_ = std::make_unique<ErrorSink>();
  double empty_submit_ms_ = 0;
  wgpu::QuerySet timestamps_;
  wgpu::Buffer resolve_buffer_, readback_buffer_;
  wgpu::ComputePipeline fill_pipeline_;
  std::function<void()> before_timestamp_readback_;
};

// What a result document records about this device (adapter, both feature lists, the
// implementation's settings): the value report::ResultDocument::set_device takes.
DeviceRecord device_record(const Context& gpu);

// FNV-1a 64 of a kernel's WGSL, as hex: results name the exact source they measured.
std::string source_hash(std::string_view wgsl);

}  // namespace wgb::gpu
