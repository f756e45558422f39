// gpu::Context for the browser engine: every operation is a request to the page's device host over
// the channel (channel.hpp, docs/browser.md "Engine ABI"). What the host cannot do comes back
// "unsupported" and becomes ErrorKind::Skipped, so the row is `skipped` with the host's reason.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "gpu/hash.hpp"
#include "web/browser.hpp"
#include "web/channel.hpp"
#include "webgpu_bench/context.hpp"

namespace wgpu {

namespace {
std::uint32_t g_next_id = 1;
wgb::gpu::ErrorSink* g_sink = nullptr;  // the one context's sink: errors of handle operations land there
}  // namespace

namespace detail {

Object::~Object() { release(); }

void Object::release() {
  if (id == 0) return;
  const std::uint32_t gone = id;
  id = 0;
  // A failed release leaves nothing to clean up on this side; the host reports a lost device.
  (void)wgb::web::request("release", {{"ids", {gone}}});
}

}  // namespace detail

BindGroup Device::CreateBindGroup(const BindGroupDescriptor* d) const {
  nlohmann::json entries = nlohmann::json::array();
  for (std::size_t i = 0; i < d->entryCount; ++i) {
    const auto& e = d->entries[i];
    const std::uint64_t size = e.size == kWholeSize ? e.buffer.GetSize() - e.offset : e.size;
    entries.push_back({{"binding", e.binding}, {"buffer", e.buffer.id()}, {"offset", e.offset}, {"size", size}});
  }
  const std::uint32_t id = g_next_id++;
  auto r = wgb::web::request(
      "bind_group",
      {{"id", id}, {"pipeline", d->layout.pipeline}, {"group", d->layout.group}, {"entries", std::move(entries)}});
  if (!r) {
    if (g_sink != nullptr) g_sink->report_uncaptured(fmt::format("bind group: {}", r.error().message));
    return BindGroup();
  }
  return BindGroup(id);
}

}  // namespace wgpu

namespace wgb::gpu {

namespace {

// What the host's `init` reply said, and the timestamp steps seen since (web/browser.hpp).
report::PageInit g_init;
std::uint64_t g_quantum_ns = 0;

// The WebGPU limits by name, as the host reports them (its adapter's maximum limits).
void apply_limits(const std::vector<std::pair<std::string, std::uint64_t>>& limits, wgpu::Limits& l,
                  std::vector<std::pair<std::string, std::uint64_t>>& list) {
  for (const auto& [name, v] : limits) {
    list.emplace_back(name, v);
    auto u32 = [v] { return static_cast<std::uint32_t>(std::min<std::uint64_t>(v, 0xffffffffu)); };
    if (name == "maxComputeWorkgroupStorageSize") l.maxComputeWorkgroupStorageSize = u32();
    if (name == "maxComputeInvocationsPerWorkgroup") l.maxComputeInvocationsPerWorkgroup = u32();
    if (name == "maxComputeWorkgroupSizeX") l.maxComputeWorkgroupSizeX = u32();
    if (name == "maxComputeWorkgroupSizeY") l.maxComputeWorkgroupSizeY = u32();
    if (name == "maxComputeWorkgroupSizeZ") l.maxComputeWorkgroupSizeZ = u32();
    if (name == "maxComputeWorkgroupsPerDimension") l.maxComputeWorkgroupsPerDimension = u32();
    if (name == "maxStorageBufferBindingSize") l.maxStorageBufferBindingSize = v;
    if (name == "maxUniformBufferBindingSize") l.maxUniformBufferBindingSize = v;
    if (name == "maxBufferSize") l.maxBufferSize = v;
    if (name == "maxStorageBuffersPerShaderStage") l.maxStorageBuffersPerShaderStage = u32();
    if (name == "maxBindGroups") l.maxBindGroups = u32();
    if (name == "minStorageBufferOffsetAlignment") l.minStorageBufferOffsetAlignment = u32();
    if (name == "minUniformBufferOffsetAlignment") l.minUniformBufferOffsetAlignment = u32();
  }
}

const char* feature_name(wgpu::FeatureName f) {
  switch (f) {
    case wgpu::FeatureName::TimestampQuery: return "timestamp-query";
    case wgpu::FeatureName::ShaderF16: return "shader-f16";
    case wgpu::FeatureName::Subgroups: return "subgroups";
  }
  return "";
}

nlohmann::json pass_commands(const wgpu::ComputePassEncoder& pass) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : pass.commands()) {
    switch (c.kind) {
      case wgpu::PassCommand::Kind::Pipeline: out.push_back({"pipeline", c.a}); break;
      case wgpu::PassCommand::Kind::BindGroup: out.push_back({"bind_group", c.a, c.b}); break;
      case wgpu::PassCommand::Kind::Dispatch: out.push_back({"dispatch", c.a, c.b, c.c}); break;
    }
  }
  return out;
}

}  // namespace

// ---- ErrorSink: one thread only in the engine, so no lock ----------------------------------------

struct ErrorSink::State {
  std::vector<std::string> pending;
  std::string lost_message;
};

ErrorSink::ErrorSink() : state_(std::make_unique<State>()) {}
ErrorSink::~ErrorSink() = default;

void ErrorSink::report_uncaptured(std::string message) {
  state_->pending.push_back(std::move(message));
  errors_.fetch_add(1);
}

void ErrorSink::report_lost(std::string message) {
  if (!lost_.load()) state_->lost_message = std::move(message);
  lost_.store(true);
}

std::vector<std::string> ErrorSink::take() {
  errors_.store(0);
  return std::exchange(state_->pending, {});
}

std::string ErrorSink::lost_message() const { return state_->lost_message; }

// ---- the context --------------------------------------------------------------------------------

struct Context::Impl {
  std::vector<std::string> features;  // what the device enabled (the host enables every adapter feature)
  std::vector<std::string> wgsl_features;
};

Expected<std::vector<AdapterDescription>> Context::enumerate(const ContextOptions& options) {
  auto c = create(options);
  if (!c) return std::move(c).error();
  return std::vector<AdapterDescription>{(*c)->adapter()};
}

Expected<std::unique_ptr<Context>> Context::create(const ContextOptions& options) {
  auto reply = web::request("init");
  if (!reply) {
    Error e = std::move(reply).error();
    // No adapter is the host's "unsupported" answer to init: exit code 3, as natively.
    if (e.kind == ErrorKind::Skipped) e.kind = ErrorKind::NoAdapter;
    return e;
  }
  const report::PageInit init = report::read_page_init(reply->json);
  std::unique_ptr<Context> c(new Context());
  c->impl_ = std::make_unique<Impl>();
  c->options_ = options;
  const report::AdapterIdentity& a = init.identity;
  auto& d = c->adapter_;
  d.vendor = a.vendor;
  d.architecture = a.architecture;
  d.device = a.device;
  d.description = a.description;
  d.backend = a.backend.empty() ? "webgpu" : a.backend;
  d.adapter_type = a.adapter_type.empty() ? (a.is_fallback_adapter ? "cpu" : "unknown") : a.adapter_type;
  d.driver = a.driver;  // browsers rarely say; the user agent is in machine.browser
  d.vendor_id = a.vendor_id;
  d.device_id = a.device_id;
  d.subgroup_min_size = init.subgroup_min_size;
  d.subgroup_max_size = init.subgroup_max_size;
  c->impl_->features = init.features;
  std::sort(c->impl_->features.begin(), c->impl_->features.end());
  d.features = c->impl_->features;
  c->impl_->wgsl_features = init.wgsl_features;
  d.wgsl_features = c->impl_->wgsl_features;
  apply_limits(init.limits, c->limits_, d.limits);
  g_init = init;
  g_quantum_ns = 0;
  wgpu::g_sink = c->errors_.get();
  // The timestamps flag of the reply decides (the feature may exist and still be unusable).
  if (init.timestamps == false) {
    c->impl_->features.erase(std::remove(c->impl_->features.begin(), c->impl_->features.end(), "timestamp-query"),
                             c->impl_->features.end());
  }
  if (auto st = c->prepare_timing(); !st) return std::move(st).error();
  return c;
}

Context::~Context() {
  if (wgpu::g_sink == errors_.get()) wgpu::g_sink = nullptr;
}

// The cost of an empty submit through the host, to its completion callback (docs/method.md#clocks):
// the median of a few empty passes, measured once after one unrecorded pass (the first submit of a
// device pays one-off costs). It is this host's round-trip floor: about 0.5 ms in Chromium, about
// 100 ms in Firefox and 11-12 ms in Deno, whose completion callbacks come from polling. The wall
// clock subtracts it, the timestamp cross-check compares against the round trip less it, and
// batches are sized to ten times it.
Status Context::prepare_timing() {
  constexpr int kUnrecorded = 1;
  constexpr int kRecorded = 7;
  std::vector<double> walls;
  for (int i = 0; i < kUnrecorded + kRecorded; ++i) {
    auto r = web::request("pass", {{"timestamps", false}, {"commands", nlohmann::json::array()}});
    if (!r) return std::move(r).error();
    if (const report::PassReply pass = report::read_pass_reply(r->json); i >= kUnrecorded && pass.wall_ms) {
      walls.push_back(*pass.wall_ms);
    }
  }
  if (!walls.empty()) {
    std::sort(walls.begin(), walls.end());
    empty_submit_ms_ = walls[walls.size() / 2];
  }
  return ok();
}

bool Context::has_feature(wgpu::FeatureName f) const { return has_feature(std::string_view(feature_name(f))); }

bool Context::has_feature(std::string_view name) const {
  const auto& f = impl_->features;
  return std::find(f.begin(), f.end(), name) != f.end();
}

bool Context::has_wgsl_feature(std::string_view name) const {
  const auto& f = impl_->wgsl_features;
  return std::find(f.begin(), f.end(), name) != f.end();
}

std::vector<std::string> Context::toggles() const { return {}; }

Expected<wgpu::ShaderModule> Context::compile(std::string_view, std::string_view label) {
  return make_error(ErrorKind::Skipped,
                    fmt::format("'{}': the browser engine compiles WGSL only as part of a pipeline", label));
}

Expected<wgpu::ComputePipeline> Context::pipeline(std::string_view wgsl, std::string_view label,
                                                  std::string_view entry_point, std::span<const Constant> constants) {
  nlohmann::json values = nlohmann::json::object();
  for (const auto& c : constants) values[std::string(c.key)] = c.value;
  const std::uint32_t id = wgpu::g_next_id++;
  auto r = web::request("pipeline", {{"id", id},
                                     {"wgsl", std::string(wgsl)},
                                     {"entry", std::string(entry_point)},
                                     {"constants", std::move(values)},
                                     {"label", std::string(label)}});
  if (!r) {
    Error e = std::move(r).error();
    // The native message shape: "WGSL of 'label' failed to compile: line:col: message; ...".
    if (e.kind == ErrorKind::Compile) e.message = fmt::format("WGSL of '{}' failed to compile: {}", label, e.message);
    if (e.kind == ErrorKind::GpuError) {
      e.kind = ErrorKind::Compile;
      e.message = fmt::format("pipeline '{}': {}", label, e.message);
    }
    return e;
  }
  return wgpu::ComputePipeline(id);
}

namespace {

Expected<wgpu::Buffer> make_buffer(std::uint64_t size, wgpu::BufferUsage usage, std::string_view label,
                                   std::span<const std::byte> contents, std::uint64_t shown_size) {
  const std::uint32_t id = wgpu::g_next_id++;
  auto r = web::request(
      "buffer",
      {{"id", id}, {"size", size}, {"usage", static_cast<std::uint64_t>(usage)}, {"label", std::string(label)}},
      contents);
  if (!r) {
    Error e = std::move(r).error();
    const std::string what = fmt::format("buffer '{}' ({} bytes)", label, shown_size);
    if (e.kind == ErrorKind::OutOfMemory) {
      e.message = fmt::format("{}: out of memory: {}", what, e.message);
    } else if (e.kind == ErrorKind::GpuError) {
      e.kind = ErrorKind::Compile;  // a validation error in the scope, as natively
      e.message = fmt::format("{}: {}", what, e.message);
    }
    return e;
  }
  return wgpu::Buffer(id, size);
}

}  // namespace

Expected<wgpu::Buffer> Context::buffer(std::uint64_t size, wgpu::BufferUsage usage, std::string_view label) {
  return make_buffer((size + 3) & ~std::uint64_t{3}, usage, label, {}, size);
}

Expected<wgpu::Buffer> Context::buffer_with_data(std::span<const std::byte> bytes, wgpu::BufferUsage usage,
                                                 std::string_view label) {
  const std::uint64_t size = std::max<std::uint64_t>(4, (bytes.size() + 3) & ~std::size_t{3});
  std::vector<std::byte> padded(size, std::byte{0});
  if (!bytes.empty()) std::memcpy(padded.data(), bytes.data(), bytes.size());
  return make_buffer(size, usage, label, padded, bytes.size());
}

void Context::write(const wgpu::Buffer& buffer, std::uint64_t offset, const void* data, std::size_t size) {
  // The channel carries at most 64 MiB a frame: larger writes go in pieces.
  constexpr std::size_t kChunk = 32u << 20;
  const auto* bytes = static_cast<const std::byte*>(data);
  for (std::size_t done = 0; done < size || (size == 0 && done == 0); done += kChunk) {
    const std::size_t n = std::min(kChunk, size - done);
    auto r = web::request("write", {{"buffer", buffer.id()}, {"offset", offset + done}},
                          std::span<const std::byte>(bytes + done, n));
    if (!r) {
      if (r.error().kind == ErrorKind::DeviceLost) {
        errors_->report_lost(r.error().message);
      } else {
        errors_->report_uncaptured(fmt::format("write to a buffer: {}", r.error().message));
      }
      return;
    }
    if (size == 0) break;
  }
}

Expected<std::vector<std::byte>> Context::read(const wgpu::Buffer& buffer, std::uint64_t offset, std::uint64_t size) {
  std::vector<std::byte> out;
  out.reserve(size);
  constexpr std::uint64_t kChunk = 32ull << 20;  // under the channel's 64 MiB frame
  for (std::uint64_t done = 0; done < size; done += kChunk) {
    const std::uint64_t n = std::min(kChunk, size - done);
    auto r = web::request("read", {{"buffer", buffer.id()}, {"offset", offset + done}, {"size", n}});
    if (!r) {
      Error e = std::move(r).error();
      if (e.kind != ErrorKind::DeviceLost && e.kind != ErrorKind::Skipped) {
        e.message = fmt::format("read-back failed: {}", e.message);
      }
      return e;
    }
    if (r->payload.size() < n) {
      return make_error(ErrorKind::Failed, fmt::format("read-back failed: the host returned {} of {} bytes",
                                                       r->payload.size(), n));
    }
    out.insert(out.end(), r->payload.begin(), r->payload.begin() + static_cast<std::ptrdiff_t>(n));
  }
  if (auto st = check_errors(); !st) return std::move(st).error();
  return out;
}

namespace {

// One pass through the host; its uncaptured errors go to the sink.
Expected<RawTiming> host_pass(const PassEncoder& encode, bool timestamps, ErrorSink& sink) {
  wgpu::ComputePassEncoder pass;
  encode(pass);
  auto r = web::request("pass", {{"timestamps", timestamps}, {"commands", pass_commands(pass)}});
  if (!r) {
    if (r.error().kind == ErrorKind::DeviceLost) sink.report_lost(r.error().message);
    return std::move(r).error();
  }
  const report::PassReply reply = report::read_pass_reply(r->json);
  for (const auto& e : reply.errors) sink.report_uncaptured(e);
  RawTiming t;
  t.wall_ms = reply.wall_ms.value_or(0.0);
  if (timestamps) t.gpu_ms = reply.gpu_ms;
  return t;
}

}  // namespace

Expected<RawTiming> Context::time_pass(const PassEncoder& encode) {
  auto t = host_pass(encode, has_timestamps(), *errors_);
  if (!t) return t;
  if (auto st = check_errors(); !st) return std::move(st).error();
  if (t->gpu_ms) {
    // The timestamp quantization the browser applies: the greatest common step of the observed
    // differences (1 ns when it does not quantize; 65,536 ns is common without developer flags).
    const double ns = std::round(*t->gpu_ms * 1e6);
    if (ns >= 1 && ns < 9e15) g_quantum_ns = std::gcd(g_quantum_ns, static_cast<std::uint64_t>(ns));
  }
  return t;
}

Status Context::run_pass(const PassEncoder& encode) {
  auto t = host_pass(encode, false, *errors_);
  if (!t) return std::move(t).error();
  return check_errors();
}

Status Context::finish(std::uint64_t) { return check_errors(); }

// ---- What the browser host does not do yet: the row is skipped, naming why -------------------

namespace {
Error not_in_browser(std::string_view what) {
  return make_error(ErrorKind::Skipped,
                    fmt::format("the browser runner does not {} yet (run it natively: webgpu-bench run)", what));
}
}  // namespace

Expected<wgpu::Texture> Context::texture_with_data(const TextureData&, std::string_view) {
  return not_in_browser("create textures");
}
Expected<wgpu::Sampler> Context::sampler(const SamplerSpec&, std::string_view) {
  return not_in_browser("create samplers");
}
Expected<wgpu::BindGroup> Context::bind_group(const wgpu::ComputePipeline& pipeline,
                                              std::span<const BindingResource> resources, std::string_view label) {
  std::vector<wgpu::BindGroupEntry> entries;
  for (std::size_t i = 0; i < resources.size(); ++i) {
    const auto* b = std::get_if<wgpu::Buffer>(&resources[i]);
    if (b == nullptr) return not_in_browser("bind textures or samplers");
    entries.push_back(wgpu::BindGroupEntry{.binding = static_cast<std::uint32_t>(i), .buffer = *b});
  }
  const std::string name(label);
  wgpu::BindGroupDescriptor desc{.label = name.c_str(), .layout = pipeline.GetBindGroupLayout(0),
                                 .entryCount = entries.size(), .entries = entries.data()};
  wgpu::BindGroup group = device().CreateBindGroup(&desc);
  if (!group) {
    if (auto st = check_errors(); !st) return std::move(st).error();
    return make_error(ErrorKind::Failed, fmt::format("the browser host refused bind group '{}'", name));
  }
  return group;
}
Expected<RawTiming> Context::time_upload(const wgpu::Buffer&, std::span<const std::byte>, UploadPath,
                                         const wgpu::Buffer&, std::uint32_t) {
  return not_in_browser("time uploads");
}
Expected<RawTiming> Context::time_readback(const wgpu::Buffer&, const wgpu::Buffer&, std::span<std::byte>,
                                           std::uint32_t) {
  return not_in_browser("time read-backs");
}
Expected<RawTiming> Context::time_copy(const wgpu::Buffer&, const wgpu::Buffer&, std::uint64_t, std::uint32_t) {
  return not_in_browser("time buffer copies");
}
Expected<RawTiming> Context::time_submit(std::uint32_t, std::uint64_t*) { return not_in_browser("time submits"); }
Expected<RawTiming> Context::time_pipelines(std::span<const PipelineSource>, wgpu::ComputePipeline*) {
  return not_in_browser("time pipeline creation");
}

DeviceRecord device_record(const Context& gpu) {
  DeviceRecord r;
  r.adapter = gpu.adapter();
  r.adapter_features = gpu.adapter().features;
  r.implementation = {{"version", nullptr},
                      {"device_toggles", nlohmann::json::array()},
                      {"timestamp_quantization", web::timestamp_quantum_ns().value_or(0) > 1},
                      {"robustness", true},
                      {"experimental", false},
                      {"timestamps", gpu.has_timestamps()},
                      {"empty_submit_ms", gpu.empty_submit_ms()}};
  return r;
}

std::string source_hash(std::string_view wgsl) { return fmt::format("{:016x}", fnv1a64(wgsl)); }

}  // namespace wgb::gpu

namespace wgb::web {

const report::PageInit& init_reply() { return gpu::g_init; }

std::optional<std::uint64_t> timestamp_quantum_ns() {
  if (gpu::g_quantum_ns != 0) return gpu::g_quantum_ns;
  // No timed pass yet: the step the host probed at init, when it did.
  const auto& q = gpu::g_init.timestamp_quantization_ns;
  if (q && *q >= 1) return static_cast<std::uint64_t>(*q);
  return std::nullopt;
}

}  // namespace wgb::web
