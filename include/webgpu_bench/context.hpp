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
#include <variant>
#include <vector>

#include "webgpu_bench/adapter.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::gpu {

// A named configuration of the native implementation (Dawn): the device toggles a run turns on and
// off beyond what Dawn chooses for the adapter itself. Plain data, so anything that lists or
// compares implementations (the browser matrix's native columns) reads the same table. Every result
// records the configuration's name and the toggles in force (machine.dawn); docs/implementations.md
// says what each one is and what it costs.
struct NativeConfiguration {
  std::string name;         // "shipped", "no-robustness"
  std::string description;  // one line for help texts and tables
  std::vector<std::string> enabled_toggles;
  std::vector<std::string> disabled_toggles;
  bool robustness = true;   // false: WebGPU's bounds checks are off (disable_robustness)
};

// Every native configuration, the default ("shipped") first.
const std::vector<NativeConfiguration>& native_configurations();
// The configuration named `name` ("" names the default), or nullptr.
const NativeConfiguration* find_native_configuration(std::string_view name);

struct ContextOptions {
  // "" or "best": the best adapter (discrete GPU > integrated > CPU); a number: that index of
  // `webgpu-bench devices`; otherwise a case-insensitive substring of the adapter's name.
  std::string adapter;
  std::string backend;       // "" (any), "vulkan", "metal", "d3d12", "opengl", ...
  // A native_configurations() name ("" is the default, "shipped"). ErrorKind::Usage when unknown.
  std::string configuration;
  bool robustness = true;    // false: Dawn's disable_robustness (no bounds checks), whatever the configuration
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
  double submit_ms = 0;          // of wall_ms, the time spent inside Submit (recording the driver's commands)
};

using PassEncoder = std::function<void(wgpu::ComputePassEncoder&)>;

// A 2D texture as data, for kernels that sample: its format, size and texels row after row (rows
// tightly packed, `bytes_per_texel` each). Plain data, so any WebGPU host creates the same texture.
struct TextureData {
  wgpu::TextureFormat format = wgpu::TextureFormat::RGBA32Float;
  std::uint32_t width = 1, height = 1;
  std::uint32_t bytes_per_texel = 16;
  std::span<const std::byte> texels;
};

// A sampler: linear (bilinear) or nearest filtering, repeat or clamp-to-edge addressing, one mip level.
struct SamplerSpec {
  bool linear = true;
  bool repeat = true;
};

// One resource of a bind group: a whole buffer, a texture (bound through its default view) or a
// sampler.
using BindingResource = std::variant<wgpu::Buffer, wgpu::Texture, wgpu::Sampler>;

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

  // A sampled texture (TextureBinding | CopyDst) holding `data`, created and written inside the
  // validation and out-of-memory scopes: a format or size the device refuses is an error value
  // (ErrorKind::Failed), never an uncaptured error.
  Expected<wgpu::Texture> texture_with_data(const TextureData& data, std::string_view label);
  Expected<wgpu::Sampler> sampler(const SamplerSpec& spec, std::string_view label);
  // Group 0 of `pipeline` (its automatic layout) with `resources` at bindings 0..n-1. A resource
  // that does not fit the layout (e.g. an unfilterable texture with a filtering sampler) is an error
  // value (ErrorKind::Failed) naming the binding problem Dawn reports.
  Expected<wgpu::BindGroup> bind_group(const wgpu::ComputePipeline& pipeline,
                                       std::span<const BindingResource> resources, std::string_view label);

  // The one timed region: encodes one compute pass (timestamps at its start and end when the
  // feature exists), submits it, and waits for completion. Reports both clocks.
  Expected<RawTiming> time_pass(const PassEncoder& encode);
  // Test seam: when set, called inside time_pass after the pass completed and before its
  // timestamps are read back, so a test can force a device loss exactly there. Unset normally.
  void set_before_timestamp_readback(std::function<void()> hook) { before_timestamp_readback_ = std::move(hook); }
  // ---- Timed API operations (the `api` family; docs/method.md#clocks) ---------------------------
  // Each performs `repetitions` operations as one timed batch and reports the host wall clock from
  // the first call to the last completion; time_copy also brackets its copies with GPU timestamps.
  // A host that cannot perform one returns ErrorKind::Skipped naming why (the row is skipped).
  enum class UploadPath {
    WriteBuffer,    // queue.writeBuffer(dst, data), then a submit that carries it, to its completion
    MappedStaging,  // mapAsync(Write) a staging buffer, copy `data` into it, unmap, copyBufferToBuffer
                    // into dst, submit, to its completion
  };
  // Uploads `data` to the start of `dst` (CopyDst) `repetitions` times, each to its completion.
  // MappedStaging needs `staging` (MapWrite | CopySrc, at least data.size() bytes, unmapped).
  Expected<RawTiming> time_upload(const wgpu::Buffer& dst, std::span<const std::byte> data, UploadPath path,
                                  const wgpu::Buffer& staging, std::uint32_t repetitions);
  // Reads `out.size()` bytes from the start of `src` (CopySrc) `repetitions` times: a copy into
  // `staging` (MapRead | CopyDst), a submit, mapAsync(Read), a copy of the mapped range into `out`, unmap.
  Expected<RawTiming> time_readback(const wgpu::Buffer& src, const wgpu::Buffer& staging, std::span<std::byte> out,
                                    std::uint32_t repetitions);
  // `repetitions` copyBufferToBuffer commands of `bytes` from src to dst in one submit. With
  // timestamps, an empty compute pass before and one after the copies carry them, so gpu_ms spans
  // the copies (the clock arbiter cross-checks it against the wall clock as for any pass).
  Expected<RawTiming> time_copy(const wgpu::Buffer& src, const wgpu::Buffer& dst, std::uint64_t bytes,
                                std::uint32_t repetitions);
  // `repetitions` submits of an empty command buffer, each waited for to its completion. `completed`
  // (optional) counts the completion callbacks that reported success.
  Expected<RawTiming> time_submit(std::uint32_t repetitions, std::uint64_t* completed = nullptr);
  // One compute pipeline per source, each from its WGSL (a new shader module) through
  // createComputePipelineAsync to its callback, one after the other. `last` receives the last one.
  struct PipelineSource {
    std::string wgsl;
    std::string entry_point = "main";
    std::vector<std::pair<std::string, double>> constants;  // WGSL override values by name
  };
  Expected<RawTiming> time_pipelines(std::span<const PipelineSource> sources, wgpu::ComputePipeline* last = nullptr);

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
  // Reads the two timestamps that the last submitted work wrote into timestamps_ (ms between them),
  // or nothing when the read-back could not map.
  Expected<std::optional<double>> read_pass_timestamps();

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
