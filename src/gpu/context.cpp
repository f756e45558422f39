// The Dawn device: adapter enumeration and choice, device creation (maximum limits, optional
// features, toggles), error scopes, buffers, read-back and the one timed region. Dawn is used
// through its C++ API only here and in the catalog's prepare steps.
#include "webgpu_bench/context.hpp"

#include <dawn/native/DawnNative.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <webgpu/webgpu_cpp_print.h>

#include "gpu/build_info.hpp"
#include "gpu/hash.hpp"
#include "gpu/names.hpp"

#ifndef WGB_LVP_ICD
#define WGB_LVP_ICD ""
#endif

namespace wgb::gpu {

namespace {

using Clock = std::chrono::steady_clock;

std::string str(wgpu::StringView sv) { return std::string(std::string_view(sv)); }

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// Before Dawn loads the Vulkan loader: make the CPU driver (Mesa lavapipe, unpacked by
// scripts/bootstrap.sh) visible *in addition to* the system's drivers, so the best adapter is the
// GPU where there is one and lavapipe where there is none. A user's own VK_DRIVER_FILES /
// VK_ICD_FILENAMES always wins. Dawn also prints an error when XDG_RUNTIME_DIR is unset.
void configure_environment() {
  static const bool done = [] {
    const char* explicit_files = std::getenv("VK_DRIVER_FILES");
    const char* legacy_files = std::getenv("VK_ICD_FILENAMES");
    const char* own_icd = std::getenv("WGB_CPU_DRIVER_ICD");
    std::string icd = own_icd != nullptr ? own_icd : WGB_LVP_ICD;
    if (explicit_files == nullptr && legacy_files == nullptr && !icd.empty() &&
        std::filesystem::exists(icd)) {
      std::string add = icd;
      if (const char* prev = std::getenv("VK_ADD_DRIVER_FILES"); prev != nullptr && *prev != 0) {
        add = std::string(prev) + ":" + icd;
      }
      setenv("VK_ADD_DRIVER_FILES", add.c_str(), 1);
    }
    if (std::getenv("XDG_RUNTIME_DIR") == nullptr) {
      std::string dir = (std::filesystem::temp_directory_path() / fmt::format("wgb-xdg-{}", getuid())).string();
      std::error_code ec;
      std::filesystem::create_directories(dir, ec);
      std::filesystem::permissions(dir, std::filesystem::perms::owner_all, ec);
      setenv("XDG_RUNTIME_DIR", dir.c_str(), 1);
    }
    return true;
  }();
  (void)done;
}

int type_rank(const std::string& type) {
  if (type == "discrete-gpu") return 0;
  if (type == "integrated-gpu") return 1;
  if (type == "unknown") return 2;
  return 3;  // cpu
}

constexpr const char* kToggleNoQuantization = "timestamp_quantization";
constexpr const char* kToggleNoRobustness = "disable_robustness";
constexpr const char* kToggleUnsafe = "allow_unsafe_apis";
constexpr const char* kToggleF16Nvidia = "vulkan_enable_f16_on_nvidia";


}  // namespace

struct Context::Impl {
  std::unique_ptr<dawn::native::Instance> native;
};

// ---- enumeration ---------------------------------------------------------------------------------

namespace {

struct Found {
  dawn::native::Adapter native;
  AdapterDescription description;
};

// Fills `properties`, an extension struct of wgpu::AdapterInfo, from the adapter; false when it
// cannot (the caller leaves that part of the description empty).
template <class Properties>
bool adapter_properties(const wgpu::Adapter& adapter, Properties& properties) {
  wgpu::AdapterInfo info;
  info.nextInChain = &properties;
  return adapter.GetInfo(&info) == wgpu::Status::Success;
}

AdapterDescription describe(const wgpu::Adapter& adapter, const wgpu::Instance& instance) {
  AdapterDescription d;
  wgpu::AdapterInfo info;
  adapter.GetInfo(&info);
  d.vendor = str(info.vendor);
  d.architecture = str(info.architecture);
  d.device = str(info.device);
  d.description = str(info.description);
  d.driver = d.description;
  d.backend = backend_name(info.backendType);
  d.adapter_type = adapter_type_name(info.adapterType);
  d.vendor_id = info.vendorID;
  d.device_id = info.deviceID;
  d.subgroup_min_size = info.subgroupMinSize;
  d.subgroup_max_size = info.subgroupMaxSize;
  wgpu::Limits limits;
  if (adapter.GetLimits(&limits) == wgpu::Status::Success) d.limits = limit_list(limits);
  wgpu::SupportedFeatures features;
  adapter.GetFeatures(&features);
  for (std::size_t i = 0; i < features.featureCount; ++i) d.features.push_back(feature_name(features.features[i]));
  std::sort(d.features.begin(), d.features.end());
  wgpu::SupportedWGSLLanguageFeatures wgsl;
  instance.GetWGSLLanguageFeatures(&wgsl);
  for (std::size_t i = 0; i < wgsl.featureCount; ++i) d.wgsl_features.push_back(wgsl_feature_name(wgsl.features[i]));
  std::sort(d.wgsl_features.begin(), d.wgsl_features.end());
  for (const char* t : dawn::native::GetTogglesUsed(adapter)) d.adapter_toggles.emplace_back(t);
  if (adapter.HasFeature(wgpu::FeatureName::ChromiumExperimentalSubgroupMatrix)) {
    wgpu::AdapterPropertiesSubgroupMatrixConfigs configs;
    if (adapter_properties(adapter, configs)) {
      for (std::size_t i = 0; i < configs.configCount; ++i) {
        const auto& c = configs.configs[i];
        d.subgroup_matrix_configs.push_back({subgroup_matrix_component_name(c.componentType),
                                             subgroup_matrix_component_name(c.resultComponentType), c.M, c.N, c.K});
      }
    }
  }
  if (adapter.HasFeature(wgpu::FeatureName::AdapterPropertiesMemoryHeaps)) {
    wgpu::AdapterPropertiesMemoryHeaps heaps;
    if (adapter_properties(adapter, heaps)) {
      for (std::size_t i = 0; i < heaps.heapCount; ++i) {
        const auto& h = heaps.heapInfo[i];
        AdapterDescription::MemoryHeap heap;
        heap.size = h.size;
        for (const auto& [bit, name] : {std::pair{wgpu::HeapProperty::DeviceLocal, "device-local"},
                                        std::pair{wgpu::HeapProperty::HostVisible, "host-visible"},
                                        std::pair{wgpu::HeapProperty::HostCoherent, "host-coherent"},
                                        std::pair{wgpu::HeapProperty::HostUncached, "host-uncached"},
                                        std::pair{wgpu::HeapProperty::HostCached, "host-cached"}}) {
          if (h.properties & bit) heap.properties.emplace_back(name);
        }
        d.memory_heaps.push_back(std::move(heap));
      }
    }
  }
  return d;
}

std::unique_ptr<dawn::native::Instance> make_instance() {
  configure_environment();
  static const wgpu::InstanceFeatureName kInstanceFeatures[] = {wgpu::InstanceFeatureName::TimedWaitAny};
  wgpu::InstanceDescriptor desc;
  desc.requiredFeatureCount = 1;
  desc.requiredFeatures = kInstanceFeatures;
  return std::make_unique<dawn::native::Instance>(&desc);
}

std::vector<Found> find_adapters(dawn::native::Instance& native, const ContextOptions& options) {
  // Adapter toggles: the experimental ones must be given when the adapter is created.
  std::vector<const char*> enabled;
  if (options.experimental) {
    enabled.push_back(kToggleUnsafe);
    enabled.push_back(kToggleF16Nvidia);
  }
  wgpu::DawnTogglesDescriptor toggles;
  toggles.enabledToggleCount = enabled.size();
  toggles.enabledToggles = enabled.data();
  wgpu::RequestAdapterOptions opts;
  opts.nextInChain = &toggles;
  wgpu::Instance instance(native.Get());
  std::vector<Found> out;
  for (auto& a : native.EnumerateAdapters(&opts)) {
    wgpu::Adapter adapter(a.Get());
    AdapterDescription d = describe(adapter, instance);
    if (d.backend == "null") continue;  // runs nothing: never a measurement target
    d.index = out.size();
    out.push_back(Found{a, std::move(d)});
  }
  return out;
}

}  // namespace

Expected<std::vector<AdapterDescription>> Context::enumerate(const ContextOptions& options) {
  auto native = make_instance();
  std::vector<AdapterDescription> out;
  for (auto& f : find_adapters(*native, options)) out.push_back(std::move(f.description));
  return out;
}

// ---- creation ------------------------------------------------------------------------------------

Expected<std::unique_ptr<Context>> Context::create(const ContextOptions& options) {
  const NativeConfiguration* found_configuration = find_native_configuration(options.configuration);
  if (found_configuration == nullptr) {
    std::string names;
    for (const auto& c : native_configurations()) names += (names.empty() ? "" : ", ") + c.name;
    return make_error(ErrorKind::Usage,
                      fmt::format("no native configuration '{}' (there are: {})", options.configuration, names));
  }
  const NativeConfiguration& configuration = *found_configuration;
  std::unique_ptr<Context> ctx(new Context());
  ctx->impl_ = std::make_unique<Impl>();
  ctx->options_ = options;
  // The options say what was measured: robustness off through the configuration or the flag.
  ctx->options_.robustness = options.robustness && configuration.robustness;
  ctx->options_.configuration = options.robustness || !configuration.robustness ? configuration.name : "no-robustness";
  ctx->impl_->native = make_instance();
  ctx->instance_ = wgpu::Instance(ctx->impl_->native->Get());

  auto found = find_adapters(*ctx->impl_->native, options);
  std::vector<Found*> candidates;
  for (auto& f : found) {
    if (!options.backend.empty() && lower(options.backend) != f.description.backend) continue;
    candidates.push_back(&f);
  }
  if (candidates.empty()) {
    return make_error(ErrorKind::NoAdapter,
                      options.backend.empty()
                          ? "no usable WebGPU adapter (Dawn found none; is a Vulkan driver installed?)"
                          : fmt::format("no adapter with backend '{}'", options.backend));
  }
  Found* chosen = nullptr;
  const std::string sel = lower(options.adapter);
  if (sel.empty() || sel == "best") {
    chosen = *std::min_element(candidates.begin(), candidates.end(), [](Found* a, Found* b) {
      return type_rank(a->description.adapter_type) < type_rank(b->description.adapter_type);
    });
  } else if (std::all_of(sel.begin(), sel.end(), [](unsigned char c) { return std::isdigit(c); })) {
    const auto index = std::stoull(sel);
    for (Found* f : candidates) {
      if (f->description.index == index) chosen = f;
    }
    if (chosen == nullptr) {
      return make_error(ErrorKind::NoAdapter, fmt::format("no adapter with index {} (there are {}; see "
                                                          "'webgpu-bench devices')",
                                                          index, found.size()));
    }
  } else {
    for (Found* f : candidates) {
      const auto& d = f->description;
      const std::string hay = lower(d.device + " " + d.description + " " + d.vendor + " " + d.architecture);
      if (hay.find(sel) != std::string::npos) {
        chosen = f;
        break;
      }
    }
    if (chosen == nullptr) {
      return make_error(ErrorKind::NoAdapter,
                        fmt::format("no adapter matches '{}' (see 'webgpu-bench devices')", options.adapter));
    }
  }
  ctx->adapter_ = chosen->description;
  ctx->adapter_handle_ = wgpu::Adapter(chosen->native.Get());

  // The adapter's own maximum limits: the defaults cap a storage binding at 128 MiB.
  wgpu::Limits limits;
  if (ctx->adapter_handle_.GetLimits(&limits) != wgpu::Status::Success) {
    return make_error(ErrorKind::NoAdapter, "the adapter did not report its limits");
  }
  std::vector<wgpu::FeatureName> features;
  for (auto f : requested_features()) {  // the optional features the catalog can use (gpu/names.hpp)
    if (ctx->adapter_handle_.HasFeature(f)) features.push_back(f);
  }
  if (options.experimental &&
      ctx->adapter_handle_.HasFeature(wgpu::FeatureName::ChromiumExperimentalSubgroupMatrix)) {
    features.push_back(wgpu::FeatureName::ChromiumExperimentalSubgroupMatrix);
  }

  // The named configuration's toggles (configurations.cpp, docs/implementations.md), and in every
  // configuration timestamp quantization off: a native benchmark wants the real timer resolution.
  std::vector<const char*> enabled;
  std::vector<const char*> disabled{kToggleNoQuantization};
  for (const auto& t : configuration.enabled_toggles) enabled.push_back(t.c_str());
  for (const auto& t : configuration.disabled_toggles) disabled.push_back(t.c_str());
  if (!options.robustness && configuration.robustness) enabled.push_back(kToggleNoRobustness);
  if (options.experimental) enabled.push_back(kToggleUnsafe);
  // For people who maintain WebGPU implementations: extra Dawn device toggles from the environment
  // (e.g. WGB_DAWN_TOGGLES=dump_shaders to see the SPIR-V Dawn generates). They are recorded with the
  // others in every result document, because they can change what is measured.
  // A leading '-' disables a toggle instead (e.g. -vulkan_use_buffer_robust_access_2).
  std::vector<std::string> extra;
  if (const char* env = std::getenv("WGB_DAWN_TOGGLES"); env != nullptr) {
    std::stringstream list(env);
    for (std::string t; std::getline(list, t, ',');) {
      if (!t.empty() && t != "-") extra.push_back(t);
    }
  }
  for (const auto& t : extra) {
    if (t[0] == '-') {
      disabled.push_back(t.c_str() + 1);
    } else {
      enabled.push_back(t.c_str());
    }
  }
  wgpu::DawnTogglesDescriptor toggles;
  toggles.enabledToggleCount = enabled.size();
  toggles.enabledToggles = enabled.data();
  toggles.disabledToggleCount = disabled.size();
  toggles.disabledToggles = disabled.data();

  wgpu::DeviceDescriptor desc;
  desc.nextInChain = &toggles;
  desc.label = "webgpu-bench";
  desc.requiredLimits = &limits;
  desc.requiredFeatureCount = features.size();
  desc.requiredFeatures = features.data();
  ErrorSink* sink = ctx->errors_.get();
  desc.SetDeviceLostCallback(
      wgpu::CallbackMode::AllowSpontaneous,
      [](const wgpu::Device&, wgpu::DeviceLostReason reason, wgpu::StringView message, ErrorSink* s) {
        if (reason == wgpu::DeviceLostReason::Destroyed || reason == wgpu::DeviceLostReason::CallbackCancelled) return;
        s->report_lost(fmt::format("device lost: {}", str(message)));
      },
      sink);
  desc.SetUncapturedErrorCallback(
      [](const wgpu::Device&, wgpu::ErrorType type, wgpu::StringView message, ErrorSink* s) {
        s->report_uncaptured(fmt::format("uncaptured GPU error ({}): {}", error_type_name(type), str(message)));
      },
      sink);

  std::string device_error;
  wgpu::Future future = ctx->adapter_handle_.RequestDevice(
      &desc, wgpu::CallbackMode::WaitAnyOnly,
      [&](wgpu::RequestDeviceStatus status, wgpu::Device device, wgpu::StringView message) {
        if (status == wgpu::RequestDeviceStatus::Success) {
          ctx->device_ = std::move(device);
        } else {
          device_error = str(message);
        }
      });
  if (ctx->instance_.WaitAny(future, UINT64_MAX) != wgpu::WaitStatus::Success || !ctx->device_) {
    return make_error(ErrorKind::NoAdapter, fmt::format("could not create a device on '{}': {}",
                                                        ctx->adapter_.device, device_error));
  }
  ctx->queue_ = ctx->device_.GetQueue();
  if (!extra.empty()) {
    // With extra toggles (dump_shaders, ...) Dawn's own log is the point: pass it to stderr.
    ctx->device_.SetLoggingCallback([](wgpu::LoggingType type, wgpu::StringView message) {
      const char* kind = type == wgpu::LoggingType::Error     ? "error"
                         : type == wgpu::LoggingType::Warning ? "warning"
                         : type == wgpu::LoggingType::Info    ? "info"
                                                              : "verbose";
      std::fprintf(stderr, "dawn %s: %s\n", kind, str(message).c_str());
    });
  }
  ctx->device_.GetLimits(&ctx->limits_);
  // Device features (what was granted) replace the adapter's list in the description.
  wgpu::SupportedFeatures granted;
  ctx->device_.GetFeatures(&granted);
  ctx->adapter_.features.clear();
  for (std::size_t i = 0; i < granted.featureCount; ++i) {
    ctx->adapter_.features.push_back(feature_name(granted.features[i]));
  }
  std::sort(ctx->adapter_.features.begin(), ctx->adapter_.features.end());
  if (auto st = ctx->prepare_timing(); !st) return std::move(st).error();
  return ctx;
}

Context::~Context() {
  if (device_) {
    // Let queued work drain so the driver is not torn down under a running kernel.
    (void)finish(10000);
    device_.Destroy();
  }
}

bool Context::has_feature(wgpu::FeatureName f) const { return device_.HasFeature(f); }

bool Context::has_feature(std::string_view webgpu_name) const {
  return std::find(adapter_.features.begin(), adapter_.features.end(), webgpu_name) != adapter_.features.end();
}

bool Context::has_wgsl_feature(std::string_view name) const {
  return std::find(adapter_.wgsl_features.begin(), adapter_.wgsl_features.end(), name) !=
         adapter_.wgsl_features.end();
}

std::vector<std::string> Context::toggles() const {
  std::vector<std::string> out;
  for (const char* t : dawn::native::GetTogglesUsed(device_.Get())) out.emplace_back(t);
  std::sort(out.begin(), out.end());
  return out;
}

// ---- waiting and errors ----------------------------------------------------------------------------

Status Context::wait(wgpu::Future future, std::uint64_t timeout_ms, std::string_view what) {
  const auto status = instance_.WaitAny(future, timeout_ms * 1000000ull);
  if (errors_->device_lost()) return make_error(ErrorKind::DeviceLost, errors_->lost_message());
  if (status == wgpu::WaitStatus::TimedOut) {
    return make_error(ErrorKind::Failed, fmt::format("{} did not complete within {} ms", what, timeout_ms));
  }
  if (status != wgpu::WaitStatus::Success) {
    return make_error(ErrorKind::Failed, fmt::format("waiting for {} failed", what));
  }
  return ok();
}

Status Context::finish(std::uint64_t timeout_ms) {
  if (!device_) return ok();
  wgpu::Future f = queue_.OnSubmittedWorkDone(wgpu::CallbackMode::WaitAnyOnly,
                                              [](wgpu::QueueWorkDoneStatus, wgpu::StringView) {});
  if (auto st = wait(f, timeout_ms, "queued GPU work"); !st) return st;
  return check_errors();
}

// ---- shaders and pipelines ---------------------------------------------------------------------------

namespace {

// Pops the two scopes pushed by push_scopes (out-of-memory on top of validation).
struct ScopeResult {
  wgpu::ErrorType type = wgpu::ErrorType::NoError;
  std::string message;
};

}  // namespace

#define WGB_PUSH_SCOPES()                                     \
  device_.PushErrorScope(wgpu::ErrorFilter::Validation);      \
  device_.PushErrorScope(wgpu::ErrorFilter::OutOfMemory)

static Status pop_scopes(const wgpu::Instance& instance, const wgpu::Device& device, std::string_view what) {
  ScopeResult results[2];
  for (auto& r : results) {
    wgpu::Future f = device.PopErrorScope(
        wgpu::CallbackMode::WaitAnyOnly,
        [&r](wgpu::PopErrorScopeStatus, wgpu::ErrorType type, wgpu::StringView message) {
          r.type = type;
          r.message = str(message);
        });
    instance.WaitAny(f, UINT64_MAX);
  }
  if (results[0].type == wgpu::ErrorType::OutOfMemory) {
    return make_error(ErrorKind::OutOfMemory, fmt::format("{}: out of memory: {}", what, results[0].message));
  }
  for (const auto& r : results) {
    if (r.type != wgpu::ErrorType::NoError) {
      return make_error(ErrorKind::Compile, fmt::format("{}: {}", what, r.message));
    }
  }
  return ok();
}

Expected<wgpu::ShaderModule> Context::compile(std::string_view wgsl, std::string_view label) {
  WGB_PUSH_SCOPES();
  wgpu::ShaderSourceWGSL source;
  source.code = wgpu::StringView(wgsl);
  wgpu::ShaderModuleDescriptor desc;
  desc.nextInChain = &source;
  desc.label = wgpu::StringView(label);
  wgpu::ShaderModule module = device_.CreateShaderModule(&desc);
  std::string messages;
  wgpu::Future f = module.GetCompilationInfo(
      wgpu::CallbackMode::WaitAnyOnly,
      [&messages](wgpu::CompilationInfoRequestStatus, const wgpu::CompilationInfo* info) {
        if (info == nullptr) return;
        for (std::size_t i = 0; i < info->messageCount; ++i) {
          const auto& m = info->messages[i];
          if (m.type != wgpu::CompilationMessageType::Error) continue;
          if (!messages.empty()) messages += "; ";
          messages += fmt::format("{}:{}: {}", m.lineNum, m.linePos, str(m.message));
        }
      });
  instance_.WaitAny(f, UINT64_MAX);
  auto st = pop_scopes(instance_, device_, fmt::format("WGSL of '{}' failed to compile", label));
  if (!st) {
    Error e = std::move(st).error();
    if (!messages.empty()) e.message = fmt::format("WGSL of '{}' failed to compile: {}", label, messages);
    return e;
  }
  return module;
}

Expected<wgpu::ComputePipeline> Context::pipeline(std::string_view wgsl, std::string_view label,
                                                  std::string_view entry_point, std::span<const Constant> constants) {
  auto module = compile(wgsl, label);
  if (!module) return std::move(module).error();
  std::vector<wgpu::ConstantEntry> entries(constants.size());
  for (std::size_t i = 0; i < constants.size(); ++i) {
    entries[i].key = wgpu::StringView(constants[i].key);
    entries[i].value = constants[i].value;
  }
  WGB_PUSH_SCOPES();
  wgpu::ComputePipelineDescriptor desc;
  desc.label = wgpu::StringView(label);
  desc.compute.module = *module;
  desc.compute.entryPoint = wgpu::StringView(entry_point);
  desc.compute.constantCount = entries.size();
  desc.compute.constants = entries.empty() ? nullptr : entries.data();
  wgpu::ComputePipeline p = device_.CreateComputePipeline(&desc);
  if (auto st = pop_scopes(instance_, device_, fmt::format("pipeline '{}'", label)); !st) {
    return std::move(st).error();
  }
  return p;
}

// ---- buffers -----------------------------------------------------------------------------------------

Expected<wgpu::Buffer> Context::buffer(std::uint64_t size, wgpu::BufferUsage usage, std::string_view label) {
  WGB_PUSH_SCOPES();
  wgpu::BufferDescriptor desc;
  desc.label = wgpu::StringView(label);
  desc.size = (size + 3) & ~std::uint64_t{3};
  desc.usage = usage;
  wgpu::Buffer b = device_.CreateBuffer(&desc);
  if (auto st = pop_scopes(instance_, device_, fmt::format("buffer '{}' ({} bytes)", label, size)); !st) {
    return std::move(st).error();
  }
  return b;
}

Expected<wgpu::Buffer> Context::buffer_with_data(std::span<const std::byte> bytes, wgpu::BufferUsage usage,
                                                 std::string_view label) {
  WGB_PUSH_SCOPES();
  wgpu::BufferDescriptor desc;
  desc.label = wgpu::StringView(label);
  desc.size = std::max<std::uint64_t>(4, (bytes.size() + 3) & ~std::size_t{3});
  desc.usage = usage;
  desc.mappedAtCreation = true;
  wgpu::Buffer b = device_.CreateBuffer(&desc);
  if (auto st = pop_scopes(instance_, device_, fmt::format("buffer '{}' ({} bytes)", label, bytes.size())); !st) {
    return std::move(st).error();
  }
  void* dst = b.GetMappedRange(0, desc.size);
  if (dst == nullptr) return make_error(ErrorKind::OutOfMemory, fmt::format("could not map buffer '{}'", label));
  std::memset(dst, 0, desc.size);
  if (!bytes.empty()) std::memcpy(dst, bytes.data(), bytes.size());
  b.Unmap();
  return b;
}

void Context::write(const wgpu::Buffer& buffer, std::uint64_t offset, const void* data, std::size_t size) {
  queue_.WriteBuffer(buffer, offset, data, size);
}

Expected<std::vector<std::byte>> Context::read(const wgpu::Buffer& buffer, std::uint64_t offset,
                                               std::uint64_t size) {
  const std::uint64_t aligned = (size + 3) & ~std::uint64_t{3};
  auto staging = this->buffer(std::max<std::uint64_t>(aligned, 4), wgpu::BufferUsage::MapRead | wgpu::BufferUsage::CopyDst,
                              "readback");
  if (!staging) return std::move(staging).error();
  wgpu::CommandEncoder encoder = device_.CreateCommandEncoder();
  encoder.CopyBufferToBuffer(buffer, offset, *staging, 0, aligned);
  wgpu::CommandBuffer commands = encoder.Finish();
  queue_.Submit(1, &commands);
  bool mapped = false;
  std::string map_error;
  wgpu::Future f = staging->MapAsync(wgpu::MapMode::Read, 0, aligned, wgpu::CallbackMode::WaitAnyOnly,
                                     [&](wgpu::MapAsyncStatus status, wgpu::StringView message) {
                                       mapped = status == wgpu::MapAsyncStatus::Success;
                                       if (!mapped) map_error = str(message);
                                     });
  if (auto st = wait(f, 120000, "read-back"); !st) return std::move(st).error();
  if (auto st = check_errors(); !st) return std::move(st).error();
  if (!mapped) return make_error(ErrorKind::Failed, fmt::format("read-back failed: {}", map_error));
  std::vector<std::byte> out(size);
  std::memcpy(out.data(), staging->GetConstMappedRange(0, aligned), size);
  staging->Unmap();
  return out;
}

// ---- textures and bind groups ------------------------------------------------------------------------

namespace {

// Validation failures of resource creation are the resource's fault, not a shader's.
Status as_failed(Status st) {
  if (!st && st.error().kind == ErrorKind::Compile) {
    Error e = std::move(st).error();
    e.kind = ErrorKind::Failed;
    return e;
  }
  return st;
}

}  // namespace

Expected<wgpu::Texture> Context::texture_with_data(const TextureData& data, std::string_view label) {
  const std::uint64_t row = static_cast<std::uint64_t>(data.width) * data.bytes_per_texel;
  if (data.width == 0 || data.height == 0 || data.texels.size() != row * data.height) {
    return make_error(ErrorKind::Failed, fmt::format("texture '{}': {} bytes of texels for {} x {} texels of {} bytes",
                                                     label, data.texels.size(), data.width, data.height,
                                                     data.bytes_per_texel));
  }
  WGB_PUSH_SCOPES();
  wgpu::TextureDescriptor desc;
  desc.label = wgpu::StringView(label);
  desc.usage = wgpu::TextureUsage::TextureBinding | wgpu::TextureUsage::CopyDst;
  desc.dimension = wgpu::TextureDimension::e2D;
  desc.size = {data.width, data.height, 1};
  desc.format = data.format;
  wgpu::Texture texture = device_.CreateTexture(&desc);
  wgpu::TexelCopyTextureInfo dst;
  dst.texture = texture;
  wgpu::TexelCopyBufferLayout layout;
  layout.bytesPerRow = static_cast<std::uint32_t>(row);
  layout.rowsPerImage = data.height;
  const wgpu::Extent3D size{data.width, data.height, 1};
  queue_.WriteTexture(&dst, data.texels.data(), data.texels.size(), &layout, &size);
  if (auto st = as_failed(pop_scopes(instance_, device_, fmt::format("texture '{}' ({} x {})", label, data.width,
                                                                      data.height)));
      !st) {
    return std::move(st).error();
  }
  return texture;
}

Expected<wgpu::Sampler> Context::sampler(const SamplerSpec& spec, std::string_view label) {
  WGB_PUSH_SCOPES();
  wgpu::SamplerDescriptor desc;
  desc.label = wgpu::StringView(label);
  const auto address = spec.repeat ? wgpu::AddressMode::Repeat : wgpu::AddressMode::ClampToEdge;
  desc.addressModeU = desc.addressModeV = desc.addressModeW = address;
  desc.magFilter = desc.minFilter = spec.linear ? wgpu::FilterMode::Linear : wgpu::FilterMode::Nearest;
  desc.mipmapFilter = wgpu::MipmapFilterMode::Nearest;
  wgpu::Sampler s = device_.CreateSampler(&desc);
  if (auto st = as_failed(pop_scopes(instance_, device_, fmt::format("sampler '{}'", label))); !st) {
    return std::move(st).error();
  }
  return s;
}

Expected<wgpu::BindGroup> Context::bind_group(const wgpu::ComputePipeline& pipeline,
                                              std::span<const BindingResource> resources, std::string_view label) {
  std::vector<wgpu::BindGroupEntry> entries(resources.size());
  for (std::size_t i = 0; i < resources.size(); ++i) {
    auto& e = entries[i];
    e.binding = static_cast<std::uint32_t>(i);
    if (const auto* b = std::get_if<wgpu::Buffer>(&resources[i])) {
      e.buffer = *b;
      e.size = b->GetSize();
    } else if (const auto* t = std::get_if<wgpu::Texture>(&resources[i])) {
      e.textureView = t->CreateView();
    } else {
      e.sampler = std::get<wgpu::Sampler>(resources[i]);
    }
  }
  WGB_PUSH_SCOPES();
  wgpu::BindGroupDescriptor desc;
  desc.label = wgpu::StringView(label);
  desc.layout = pipeline.GetBindGroupLayout(0);
  desc.entryCount = entries.size();
  desc.entries = entries.data();
  wgpu::BindGroup group = device_.CreateBindGroup(&desc);
  if (auto st = as_failed(pop_scopes(instance_, device_, fmt::format("bind group '{}'", label))); !st) {
    return std::move(st).error();
  }
  return group;
}

// ---- timing ------------------------------------------------------------------------------------------

Status Context::prepare_timing() {
  if (has_timestamps()) {
    wgpu::QuerySetDescriptor qs;
    qs.label = "pass-timestamps";
    qs.type = wgpu::QueryType::Timestamp;
    qs.count = 2;
    timestamps_ = device_.CreateQuerySet(&qs);
    auto resolve = buffer(16, wgpu::BufferUsage::QueryResolve | wgpu::BufferUsage::CopySrc, "timestamp-resolve");
    if (!resolve) return std::move(resolve).error();
    resolve_buffer_ = *resolve;
    auto readback = buffer(16, wgpu::BufferUsage::MapRead | wgpu::BufferUsage::CopyDst, "timestamp-readback");
    if (!readback) return std::move(readback).error();
    readback_buffer_ = *readback;
  }
  // The cost of an empty submit and its completion wait, measured once: the wall-clock fallback
  // subtracts the median (docs/method.md#clocks). A few unrecorded rounds first, so the queue is warm.
  std::vector<double> costs;
  for (int i = 0; i < 25; ++i) {
    wgpu::CommandEncoder encoder = device_.CreateCommandEncoder();
    wgpu::CommandBuffer commands = encoder.Finish();
    const auto t0 = Clock::now();
    queue_.Submit(1, &commands);
    wgpu::Future f = queue_.OnSubmittedWorkDone(wgpu::CallbackMode::WaitAnyOnly,
                                                [](wgpu::QueueWorkDoneStatus, wgpu::StringView) {});
    if (auto st = wait(f, 10000, "an empty submit"); !st) return st;
    const auto t1 = Clock::now();
    if (i >= 5) costs.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::sort(costs.begin(), costs.end());
  empty_submit_ms_ = costs[costs.size() / 2];
  return check_errors();
}

Status Context::run_pass(const PassEncoder& encode) {
  wgpu::CommandEncoder encoder = device_.CreateCommandEncoder();
  wgpu::ComputePassEncoder pass = encoder.BeginComputePass();
  encode(pass);
  pass.End();
  wgpu::CommandBuffer commands = encoder.Finish();
  queue_.Submit(1, &commands);
  return finish();
}

Expected<RawTiming> Context::time_pass(const PassEncoder& encode) {
  wgpu::CommandEncoder encoder = device_.CreateCommandEncoder();
  wgpu::PassTimestampWrites writes;
  wgpu::ComputePassDescriptor desc;
  const bool ts = has_timestamps();
  if (ts) {
    writes.querySet = timestamps_;
    writes.beginningOfPassWriteIndex = 0;
    writes.endOfPassWriteIndex = 1;
    desc.timestampWrites = &writes;
  }
  wgpu::ComputePassEncoder pass = encoder.BeginComputePass(&desc);
  encode(pass);
  pass.End();
  if (ts) {
    encoder.ResolveQuerySet(timestamps_, 0, 2, resolve_buffer_, 0);
    encoder.CopyBufferToBuffer(resolve_buffer_, 0, readback_buffer_, 0, 16);
  }
  wgpu::CommandBuffer commands = encoder.Finish();

  const auto t0 = Clock::now();
  queue_.Submit(1, &commands);
  const auto submitted = Clock::now();
  wgpu::Future done = queue_.OnSubmittedWorkDone(wgpu::CallbackMode::WaitAnyOnly,
                                                 [](wgpu::QueueWorkDoneStatus, wgpu::StringView) {});
  if (auto st = wait(done, 600000, "a timed pass"); !st) return std::move(st).error();
  const auto t1 = Clock::now();
  if (auto st = check_errors(); !st) return std::move(st).error();

  RawTiming timing;
  timing.wall_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  timing.submit_ms = std::chrono::duration<double, std::milli>(submitted - t0).count();
  if (ts) {
    if (before_timestamp_readback_) before_timestamp_readback_();
    auto gpu_ms = read_pass_timestamps();
    if (!gpu_ms) return std::move(gpu_ms).error();
    timing.gpu_ms = *gpu_ms;
  }
  return timing;
}

DeviceRecord device_record(const Context& gpu) {
  DeviceRecord r;
  r.adapter = gpu.adapter();
  // Both feature lists: what the adapter offers, and what the device enabled (the description's).
  r.adapter_features = feature_names(gpu.device().GetAdapter());
  r.adapter.features = feature_names(gpu.device());
  const auto toggles = gpu.toggles();
  const bool quantized =
      std::find(toggles.begin(), toggles.end(), std::string("timestamp_quantization")) != toggles.end();
  r.implementation = {{"version", build_info().dawn_version},
                      {"configuration", gpu.options().configuration},
                      {"device_toggles", toggles},
                      {"timestamp_quantization", quantized},
                      {"robustness", gpu.options().robustness},
                      {"experimental", gpu.options().experimental},
                      {"timestamps", gpu.has_timestamps()},
                      {"empty_submit_ms", gpu.empty_submit_ms()}};
  return r;
}

std::string source_hash(std::string_view wgsl) { return fmt::format("{:016x}", fnv1a64(wgsl)); }

}  // namespace wgb::gpu
