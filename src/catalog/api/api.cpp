// The `api` family (api.hpp): the cost of WebGPU's own API. Each definition has a work model (bytes
// moved, dispatches, submits, pipelines), the median (scheduler and I/O bound), and a check of what
// was moved after timing. The transfers, submits and pipeline creation are not compute passes: their
// workloads time themselves through the Context's timed API operations (Workload::time), on the
// clock each one names (docs/method.md#clocks); dispatch-overhead is a pass of many dispatches.
#include "catalog/api/api.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "catalog/common.hpp"
#include "catalog/families.hpp"
#include "gpu/hash.hpp"
#include "gpu/operation_stages.hpp"
#include "measure/units.hpp"
#include "report/facts.hpp"

namespace wgb::catalog {

namespace api {

std::uint64_t transfer_bytes(const SuiteOptions& options, const gpu::Context& gpu) {
  const std::uint64_t cap = gpu.limits().maxBufferSize;
  const std::uint64_t want = std::min<std::uint64_t>(options.bandwidth_bytes, cap);
  return std::max<std::uint64_t>(4, want & ~std::uint64_t{3});
}

Expected<std::string> check_hashed(std::span<const std::uint32_t> words, std::uint32_t seed, std::string_view what) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::uint32_t want = gpu::filled_word(i, seed);
    if (words[i] != want) {
      return make_error(ErrorKind::Failed, fmt::format("{}: word {} of {} is {:#010x}, expected {:#010x}", what, i,
                                                       words.size(), words[i], want));
    }
  }
  return fmt::format("{}: all {} words hold the hashed data", what, words.size());
}

Expected<std::string> check_dispatch_count(std::uint32_t counter, std::uint64_t dispatched) {
  const auto want = static_cast<std::uint32_t>(dispatched);
  if (counter != want) {
    return make_error(ErrorKind::Failed, fmt::format("the dispatch counter reads {}, but {} dispatches were submitted "
                                                     "(modulo 2^32: {})",
                                                     counter, dispatched, want));
  }
  // No count in the message: it depends on the repetitions each run calibrated, and the browser
  // matrix compares two runs' checks as text.
  return std::string("the counter equals the dispatches submitted: every dispatch ran");
}

std::string pipeline_wgsl(std::uint32_t instance) {
  return fmt::format("// pipeline-create instance {}\n{}", instance, kernel_source("api/pipeline_typical"));
}

std::uint32_t pipeline_value(std::uint32_t i, std::uint32_t salt, std::uint32_t seed, std::uint32_t iterations) {
  std::uint32_t x0 = gpu::hash32(i ^ seed ^ salt);
  std::uint32_t x1 = x0 ^ 0x9e3779b9u, x2 = x0 ^ 0x7f4a7c15u, x3 = x0 ^ 0x85ebca6bu;
  const std::uint32_t a = gpu::hash32(salt) | 1u;
  const std::uint32_t b = salt * 2654435761u + 1u;
  for (std::uint32_t k = 0; k < iterations; ++k) {
    x0 = x0 * a + b;
    x1 = x1 * a + b;
    x2 = x2 * a + b;
    x3 = x3 * a + b;
  }
  return x0 ^ x1 ^ x2 ^ x3;
}

Expected<std::string> check_pipeline_output(std::span<const std::uint32_t> words, std::uint32_t salt,
                                            std::uint32_t seed, std::uint32_t iterations) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::uint32_t want = pipeline_value(static_cast<std::uint32_t>(i), salt, seed, iterations);
    if (words[i] != want) {
      return make_error(ErrorKind::Failed, fmt::format("the last pipeline created (salt {}) stored {:#010x} at {}, "
                                                       "expected {:#010x}",
                                                       salt, words[i], i, want));
    }
  }
  return fmt::format("the last pipeline created (salt {}) ran and its {} results match the CPU reference", salt,
                     words.size());
}

}  // namespace api

namespace {

using api::CheckedWorkload;

constexpr const char* kMedianReason =
    "the median with its IQR: API calls are bound by the scheduler, the driver and I/O, whose delays vary from "
    "call to call; the typical cost is what a program pays, the fastest call is luck";

std::vector<std::uint32_t> hashed_words(std::uint64_t bytes, std::uint32_t seed) {
  std::vector<std::uint32_t> words(bytes / 4);
  for (std::size_t i = 0; i < words.size(); ++i) words[i] = gpu::filled_word(i, seed);
  return words;
}

Expected<std::string> check_device_words(gpu::Context& gpu, const wgpu::Buffer& buffer, std::uint64_t bytes,
                                         std::string_view what) {
  auto words = gpu.read_as<std::uint32_t>(buffer, 0, bytes / 4);
  if (!words) return std::move(words).error();
  return api::check_hashed(*words, api::kDataSeed, what);
}

nlohmann::json transfer_parameters(std::uint64_t bytes, std::string_view path) {
  return {{"bytes_per_operation", bytes}, {"size", measure::format_bytes(bytes)}, {"path", path}};
}

// Where a transfer row's time goes (docs/api-cost.md, "Where the time goes"): after every batch the
// Context's split of its wall clock by stage (gpu/operation_stages.hpp); the row reports each
// stage's time per operation as `time_split_ms`, from the batches its statistic comes from.
class StageLog {
 public:
  void add(std::uint32_t operations) { batches_.push_back({operations, gpu::last_operation_stages()}); }
  void put(nlohmann::json& p) const {
    const auto split = gpu::split_per_operation(batches_);
    if (split.empty()) return;
    report::write_facts(p, {.time_split_ms = std::vector<std::pair<std::string, double>>(split.begin(), split.end()),
                            .time_split = "per operation, each stage's median on the host clock over the batches at "
                                          "the row's final batch size (its warm-up and samples); the stages add up to "
                                          "about the operation"});
  }

 private:
  std::vector<gpu::BatchStages> batches_;
};

// upload-writebuffer and upload-mapped: host data into a device buffer, each upload to its completion.
class UploadWorkload final : public OperationWorkload, public CheckedWorkload {
 public:
  UploadWorkload(std::vector<std::uint32_t> data, wgpu::Buffer dst, wgpu::Buffer staging, gpu::Context::UploadPath path)
      : data_(std::move(data)), dst_(std::move(dst)), staging_(std::move(staging)), path_(path) {}
  Expected<gpu::RawTiming> time(gpu::Context& gpu, std::uint32_t repetitions) override {
    auto t = gpu.time_upload(dst_, std::as_bytes(std::span(data_)), path_, staging_, repetitions);
    if (t) stages_.add(repetitions);
    return t;
  }
  BatchClock clock() const override { return BatchClock::WholeOperation; }
  WorkModel work() const override { return {0, static_cast<double>(bytes()), 0}; }
  Expected<std::string> validate(gpu::Context& gpu) override {
    return check_device_words(gpu, dst_, bytes(), "the destination after the last upload");
  }
  nlohmann::json parameters() const override {
    nlohmann::json p = transfer_parameters(bytes(), path_ == gpu::Context::UploadPath::WriteBuffer
                                                        ? "queue.writeBuffer + submit, to completion"
                                                        : "mapAsync(Write) staging + memcpy + unmap + "
                                                          "copyBufferToBuffer + submit, to completion");
    stages_.put(p);
    return p;
  }
  wgpu::Buffer checked_buffer() const override { return dst_; }

 private:
  std::uint64_t bytes() const { return data_.size() * 4; }
  std::vector<std::uint32_t> data_;
  wgpu::Buffer dst_, staging_;
  gpu::Context::UploadPath path_;
  StageLog stages_;
};

// readback-mapasync: a device buffer into host memory through a MAP_READ buffer.
class ReadbackWorkload final : public OperationWorkload, public CheckedWorkload {
 public:
  ReadbackWorkload(wgpu::Buffer src, wgpu::Buffer staging, std::uint64_t bytes)
      : src_(std::move(src)), staging_(std::move(staging)), out_(bytes / 4, 0) {}
  Expected<gpu::RawTiming> time(gpu::Context& gpu, std::uint32_t repetitions) override {
    ++batches_;
    auto t = gpu.time_readback(src_, staging_, std::as_writable_bytes(std::span(out_)), repetitions);
    if (t) stages_.add(repetitions);
    return t;
  }
  BatchClock clock() const override { return BatchClock::WholeOperation; }
  WorkModel work() const override { return {static_cast<double>(out_.size() * 4), 0, 0}; }
  Expected<std::string> validate(gpu::Context& /*gpu*/) override {
    if (batches_ == 0) return make_error(ErrorKind::Failed, "nothing was read back");
    return api::check_hashed(out_, api::kDataSeed, "the host copy after the last read-back");
  }
  nlohmann::json parameters() const override {
    nlohmann::json p = transfer_parameters(out_.size() * 4, "copyBufferToBuffer into a MAP_READ buffer + submit + "
                                                            "mapAsync(Read) + memcpy out + unmap");
    stages_.put(p);
    return p;
  }
  wgpu::Buffer checked_buffer() const override { return src_; }

 private:
  wgpu::Buffer src_, staging_;
  std::vector<std::uint32_t> out_;
  std::uint64_t batches_ = 0;
  StageLog stages_;
};

// copy-buffer-to-buffer: the copy command, device to device, bracketed by timestamps.
class CopyWorkload final : public OperationWorkload, public CheckedWorkload {
 public:
  CopyWorkload(wgpu::Buffer src, wgpu::Buffer dst, std::uint64_t bytes)
      : src_(std::move(src)), dst_(std::move(dst)), bytes_(bytes) {}
  Expected<gpu::RawTiming> time(gpu::Context& gpu, std::uint32_t repetitions) override {
    return gpu.time_copy(src_, dst_, bytes_, repetitions);
  }
  WorkModel work() const override { return {static_cast<double>(bytes_), static_cast<double>(bytes_), 0}; }
  Expected<std::string> validate(gpu::Context& gpu) override {
    return check_device_words(gpu, dst_, bytes_, "the copy's destination");
  }
  nlohmann::json parameters() const override {
    return report::with_facts(transfer_parameters(bytes_, "copyBufferToBuffer, back to back in one submit"),
                              {.peak_class = "memory", .access = "linear", .footprint_bytes = 2 * bytes_});
  }
  wgpu::Buffer checked_buffer() const override { return dst_; }

 private:
  wgpu::Buffer src_, dst_;
  std::uint64_t bytes_;
};

// dispatch-overhead: a pass of one-invocation dispatches; every dispatch adds 1 to a counter.
class DispatchWorkload final : public Workload, public CheckedWorkload {
 public:
  DispatchWorkload(wgpu::ComputePipeline pipeline, wgpu::BindGroup group, wgpu::Buffer counter)
      : pipeline_(std::move(pipeline)), group_(std::move(group)), counter_(std::move(counter)) {}
  void encode(wgpu::ComputePassEncoder& pass, std::uint32_t repetitions) override {
    pass.SetPipeline(pipeline_);
    pass.SetBindGroup(0, group_);
    for (std::uint32_t r = 0; r < repetitions; ++r) pass.DispatchWorkgroups(1);
    dispatched_ += repetitions;
  }
  WorkModel work() const override { return {0, 0, 1}; }
  Expected<std::string> validate(gpu::Context& gpu) override {
    auto counter = gpu.read_as<std::uint32_t>(counter_, 0, 1);
    if (!counter) return std::move(counter).error();
    return api::check_dispatch_count((*counter)[0], dispatched_);
  }
  nlohmann::json parameters() const override {
    return report::with_facts(
        nlohmann::json({{"dispatch", "1 workgroup of 1 invocation, atomicAdd on a read_write storage counter"}}),
        {.dispatches_per_repetition = 1});
  }
  wgpu::Buffer checked_buffer() const override { return counter_; }

 private:
  wgpu::ComputePipeline pipeline_;
  wgpu::BindGroup group_;
  wgpu::Buffer counter_;
  std::uint64_t dispatched_ = 0;
};

// submit-latency: an empty command buffer submitted and waited for, one at a time.
class SubmitWorkload final : public OperationWorkload {
 public:
  Expected<gpu::RawTiming> time(gpu::Context& gpu, std::uint32_t repetitions) override {
    submitted_ += repetitions;
    return gpu.time_submit(repetitions, &completed_);
  }
  BatchClock clock() const override { return BatchClock::WholeOperation; }
  WorkModel work() const override { return {0, 0, 1}; }
  Expected<std::string> validate(gpu::Context& /*gpu*/) override {
    if (submitted_ == 0 || completed_ != submitted_) {
      return make_error(ErrorKind::Failed, fmt::format("{} of {} empty submits reported a successful completion",
                                                       completed_, submitted_));
    }
    return std::string("every empty submit reported a successful completion");  // no count, as above
  }
  nlohmann::json parameters() const override {
    return {{"operation", "queue.submit of an empty command buffer + onSubmittedWorkDone, one at a time"}};
  }

 private:
  std::uint64_t submitted_ = 0, completed_ = 0;
};

// pipeline-create: a new shader module and compute pipeline per repetition, to its callback.
class PipelineWorkload final : public OperationWorkload {
 public:
  static constexpr std::uint32_t kSeed = 0x243f6a88u, kIterations = 16, kInvocations = 256;
  PipelineWorkload(wgpu::Buffer out, wgpu::Buffer params) : out_(std::move(out)), params_(std::move(params)) {}
  Expected<gpu::RawTiming> time(gpu::Context& gpu, std::uint32_t repetitions) override {
    // Sources are made before the clock starts; every one is new (docs/method.md#sampling).
    std::vector<gpu::Context::PipelineSource> sources(repetitions);
    for (auto& s : sources) {
      ++instance_;
      s.wgsl = api::pipeline_wgsl(instance_);
      s.constants = {{"salt", static_cast<double>(instance_)}};
    }
    auto t = gpu.time_pipelines(sources, &last_);
    if (t) last_salt_ = instance_;
    return t;
  }
  BatchClock clock() const override { return BatchClock::WholeOperation; }
  WorkModel work() const override { return {0, 0, 1}; }
  Expected<std::string> validate(gpu::Context& gpu) override {
    if (!last_) return make_error(ErrorKind::Failed, "no pipeline was created");
    const std::uint32_t p[4] = {kIterations, kSeed, 0, 0};
    gpu.write(params_, 0, p, sizeof(p));
    wgpu::BindGroup group = bind_buffers(gpu, last_, {out_, params_});
    if (auto st = gpu.run_pass([&](wgpu::ComputePassEncoder& pass) {
          pass.SetPipeline(last_);
          pass.SetBindGroup(0, group);
          pass.DispatchWorkgroups(kInvocations / 64);
        });
        !st) {
      return std::move(st).error();
    }
    auto words = gpu.read_as<std::uint32_t>(out_, 0, kInvocations);
    if (!words) return std::move(words).error();
    return api::check_pipeline_output(*words, last_salt_, kSeed, kIterations);
  }
  nlohmann::json parameters() const override {
    return {{"kernel", "api/pipeline_typical.wgsl (uniform, storage buffer, 4 multiply-add chains in a loop)"},
            {"uncached", "a new WGSL text (a leading comment with the pipeline's number) and a new value of the "
                         "override `salt`, which enters the arithmetic: no shader-module, pipeline or driver "
                         "cache can hit"},
            {"pipelines_created", instance_}};
  }

 private:
  wgpu::Buffer out_, params_;
  wgpu::ComputePipeline last_;
  std::uint32_t instance_ = 0, last_salt_ = 0;
};

Expected<wgpu::Buffer> filled(gpu::Context& gpu, std::uint64_t bytes, std::uint32_t seed, std::string_view label) {
  auto b = gpu.buffer(bytes, kStorage, label);
  if (!b) return b;
  if (auto st = gpu.fill_hashed(*b, bytes, seed); !st) return std::move(st).error();
  return b;
}

Expected<std::unique_ptr<Workload>> prepare_upload(PrepareContext& pc, gpu::Context::UploadPath path) {
  const std::uint64_t bytes = api::transfer_bytes(pc.options, pc.gpu);
  auto dst = filled(pc.gpu, bytes, api::kStaleSeed, "upload-destination");
  if (!dst) return std::move(dst).error();
  wgpu::Buffer staging;
  if (path == gpu::Context::UploadPath::MappedStaging) {
    auto s = pc.gpu.buffer(bytes, wgpu::BufferUsage::MapWrite | wgpu::BufferUsage::CopySrc, "upload-staging");
    if (!s) return std::move(s).error();
    staging = *s;
  }
  return std::unique_ptr<Workload>(
      std::make_unique<UploadWorkload>(hashed_words(bytes, api::kDataSeed), *dst, staging, path));
}

Expected<std::unique_ptr<Workload>> prepare_readback(PrepareContext& pc) {
  const std::uint64_t bytes = api::transfer_bytes(pc.options, pc.gpu);
  auto src = filled(pc.gpu, bytes, api::kDataSeed, "readback-source");
  if (!src) return std::move(src).error();
  auto staging = pc.gpu.buffer(bytes, wgpu::BufferUsage::MapRead | wgpu::BufferUsage::CopyDst, "readback-staging");
  if (!staging) return std::move(staging).error();
  return std::unique_ptr<Workload>(std::make_unique<ReadbackWorkload>(*src, *staging, bytes));
}

Expected<std::unique_ptr<Workload>> prepare_copy(PrepareContext& pc) {
  const std::uint64_t bytes = api::transfer_bytes(pc.options, pc.gpu);
  auto src = filled(pc.gpu, bytes, api::kDataSeed, "copy-source");
  if (!src) return std::move(src).error();
  auto dst = filled(pc.gpu, bytes, api::kStaleSeed, "copy-destination");
  if (!dst) return std::move(dst).error();
  return std::unique_ptr<Workload>(std::make_unique<CopyWorkload>(*src, *dst, bytes));
}

Expected<std::unique_ptr<Workload>> prepare_dispatch(PrepareContext& pc) {
  auto pipeline = pc.gpu.pipeline(kernel_source("api/dispatch_minimal"), "dispatch-overhead");
  if (!pipeline) return std::move(pipeline).error();
  const std::uint32_t zero[4] = {0, 0, 0, 0};
  auto counter = pc.gpu.buffer_with<std::uint32_t>(zero, kStorage, "dispatch-counter");
  if (!counter) return std::move(counter).error();
  wgpu::BindGroup group = bind_buffers(pc.gpu, *pipeline, {*counter});
  return std::unique_ptr<Workload>(std::make_unique<DispatchWorkload>(*pipeline, group, *counter));
}

Expected<std::unique_ptr<Workload>> prepare_pipeline(PrepareContext& pc) {
  auto out = pc.gpu.buffer(PipelineWorkload::kInvocations * 4, kStorage, "pipeline-create-out");
  if (!out) return std::move(out).error();
  auto params = pc.gpu.buffer(16, kUniform, "pipeline-create-params");
  if (!params) return std::move(params).error();
  return std::unique_ptr<Workload>(std::make_unique<PipelineWorkload>(*out, *params));
}

using Prepare = decltype(BenchmarkDefinition::prepare);

// What distinguishes the family's rows goes in; what they share (category, the median, out of the
// default suite) is set here. Sweep::Size: the prepare step reads the transfer size, so
// `sweep --param size` varies it; no other parameter is swept.
enum class Sweep { None, Size };
BenchmarkDefinition api_row(std::string id, std::string label, std::string description, Metric metric,
                            Prepare prepare, Sweep sweep, std::string source = {}) {
  BenchmarkDefinition d;
  d.id = std::move(id);
  d.label = std::move(label);
  d.description = std::move(description);
  d.category = "api";
  d.metric = std::move(metric);
  d.source = std::move(source);
  d.prepare = std::move(prepare);
  d.statistic = Statistic::Median;
  d.statistic_reason = kMedianReason;
  d.sweep_parameters = {};
  if (sweep == Sweep::Size) d.sweep_parameters = {"size"};
  // Out of the default suite: on the 2-core CPU driver the family lengthened it by about a sixth
  // (results/api-cost-lavapipe-2026-12-01.md); `run --filter` selects it.
  d.in_default_suite = false;
  return d;
}

}  // namespace

std::vector<BenchmarkDefinition> api_benchmarks() {
  std::vector<BenchmarkDefinition> v;
  const Metric uploaded{"bytes", "B", "Bytes uploaded, host to device"};
  v.push_back(api_row(
      "upload-writebuffer", "Upload, queue.writeBuffer",
      "Host to device: queue.writeBuffer of the transfer size (64 MiB by default; sweep --param size) "
      "into a device buffer, then a submit that carries it, waited for to its completion; each "
      "repetition one upload. Counts the bytes uploaded. Timed on the wall clock around the whole "
      "operation. The destination starts out holding other data and is compared word by word with "
      "the hashed upload after timing.",
      uploaded, [](PrepareContext& pc) { return prepare_upload(pc, gpu::Context::UploadPath::WriteBuffer); },
      Sweep::Size));
  v.push_back(api_row(
      "upload-mapped", "Upload, mapped staging buffer + copy",
      "Host to device through a staging buffer: mapAsync(Write) of a MAP_WRITE buffer, a memcpy of "
      "the transfer size (64 MiB by default; sweep --param size) into it, unmap, copyBufferToBuffer "
      "into a device buffer, submit, waited for to its completion; each repetition one upload. "
      "Counts the bytes uploaded. Timed on the wall clock around the whole operation; the "
      "destination is compared word by word with the hashed data after timing.",
      uploaded, [](PrepareContext& pc) { return prepare_upload(pc, gpu::Context::UploadPath::MappedStaging); },
      Sweep::Size));
  v.push_back(api_row("readback-mapasync", "Read-back, copy + mapAsync",
                      "Device to host: copyBufferToBuffer of the transfer size (64 MiB by default; sweep --param "
                      "size) into a MAP_READ buffer, submit, mapAsync(Read), a memcpy of the mapped range into host "
                      "memory, unmap; each repetition one read-back. Counts the bytes read back. Timed on the wall "
                      "clock around the whole operation; the host copy is compared word by word with the hashed "
                      "source after timing.",
                      {"bytes", "B", "Bytes read back, device to host"}, prepare_readback, Sweep::Size));
  v.push_back(api_row("copy-buffer-to-buffer", "Copy command, device to device",
                      "The copyBufferToBuffer command between two device buffers of the transfer size (64 MiB by "
                      "default; sweep --param size), repetitions back to back in one submit. Counts bytes read + "
                      "written (2x the size per copy), like memory-copy. GPU timestamps from an empty compute pass "
                      "before the copies to one after them (WebGPU writes timestamps only at passes), cross-checked "
                      "against the wall clock. Compare with memory-copy: the same bytes moved by a compute kernel. "
                      "The destination is compared word by word with the hashed source after timing.",
                      {"bytes", "B", "Bytes read + written"}, prepare_copy, Sweep::Size));
  v.push_back(api_row("dispatch-overhead", "Dispatches per second in one pass",
                      "The cost of one dispatch of a minimal kernel within one compute pass: repetitions are "
                      "dispatches of one workgroup of one invocation, back to back in one pass, each adding 1 to a "
                      "read_write storage counter (so they are ordered like dependent dispatches). Counts "
                      "dispatches. GPU timestamps around the pass. The counter must equal the dispatches submitted.",
                      {"dispatches", "dispatch", "Dispatches"}, prepare_dispatch, Sweep::None,
                      kernel_source("api/dispatch_minimal")));
  v.push_back(api_row(
      "submit-latency", "Empty submit to completion",
      "The round trip of queue.submit of an empty command buffer to its onSubmittedWorkDone "
      "callback, one submit at a time (the command buffers are encoded before timing). Counts "
      "submits; the time per repetition is the latency. Timed on the wall clock, nothing "
      "subtracted. Every completion must report success.",
      {"submits", "submit", "Empty submits completed"},
      [](PrepareContext&) -> Expected<std::unique_ptr<Workload>> {
        return std::unique_ptr<Workload>(std::make_unique<SubmitWorkload>());
      },
      Sweep::None));
  v.push_back(api_row("pipeline-create", "Compute pipeline creation, uncached",
                      "A compute pipeline from a typical probe's WGSL (kernels/api/pipeline_typical.wgsl) to ready: "
                      "createShaderModule, then createComputePipelineAsync to its callback, one after the other. "
                      "Uncached: every pipeline has a new WGSL text (a leading comment with its number) and a new "
                      "value of the override `salt`, which enters the arithmetic, so neither Dawn's shader-module "
                      "and pipeline caches nor a driver's shader cache can hit. Counts pipelines; the time per "
                      "repetition is the creation time. Timed on the wall clock. The last pipeline is dispatched "
                      "after timing and its output compared with a CPU reference.",
                      {"pipelines", "pipeline", "Compute pipelines created"}, prepare_pipeline, Sweep::None,
                      kernel_source("api/pipeline_typical")));
  return v;
}

}  // namespace wgb::catalog
