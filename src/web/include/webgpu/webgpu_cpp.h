// The browser engine's stand-in for Dawn's webgpu/webgpu_cpp.h: only the types and methods the
// catalog, the memory suite and the suite use, with the same names and WebGPU's numeric values.
// A handle is an id the engine chose and the page's device host maps to a GPU object; commands of a
// compute pass are recorded here and executed by the host (docs/browser.md "Engine ABI").
// On the WebAssembly build's include path only: the native build uses Dawn's header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace wgpu {

inline constexpr std::uint64_t kWholeSize = ~std::uint64_t{0};

enum class BufferUsage : std::uint64_t {
  None = 0,
  MapRead = 0x1,
  MapWrite = 0x2,
  CopySrc = 0x4,
  CopyDst = 0x8,
  Index = 0x10,
  Vertex = 0x20,
  Uniform = 0x40,
  Storage = 0x80,
  Indirect = 0x100,
  QueryResolve = 0x200,
};
constexpr BufferUsage operator|(BufferUsage a, BufferUsage b) {
  return static_cast<BufferUsage>(static_cast<std::uint64_t>(a) | static_cast<std::uint64_t>(b));
}
constexpr BufferUsage operator&(BufferUsage a, BufferUsage b) {
  return static_cast<BufferUsage>(static_cast<std::uint64_t>(a) & static_cast<std::uint64_t>(b));
}
constexpr BufferUsage& operator|=(BufferUsage& a, BufferUsage b) { return a = a | b; }

// The features the engine asks about by enum (the rest go by their WebGPU names).
enum class FeatureName : std::uint32_t {
  TimestampQuery,
  ShaderF16,
  Subgroups,
};

// The WebGPU limits the engine reads, with WebGPU's defaults; the host's `init` reply overrides them.
struct Limits {
  std::uint32_t maxComputeWorkgroupStorageSize = 16384;
  std::uint32_t maxComputeInvocationsPerWorkgroup = 256;
  std::uint32_t maxComputeWorkgroupSizeX = 256, maxComputeWorkgroupSizeY = 256, maxComputeWorkgroupSizeZ = 64;
  std::uint32_t maxComputeWorkgroupsPerDimension = 65535;
  std::uint64_t maxStorageBufferBindingSize = 134217728;
  std::uint64_t maxUniformBufferBindingSize = 65536;
  std::uint64_t maxBufferSize = 268435456;
  std::uint32_t maxStorageBuffersPerShaderStage = 8;
  std::uint32_t maxBindGroups = 4;
  std::uint32_t minStorageBufferOffsetAlignment = 256, minUniformBufferOffsetAlignment = 256;
};

namespace detail {

// One object of the device host, released there when the last handle goes.
struct Object {
  explicit Object(std::uint32_t id_) : id(id_) {}
  ~Object();
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;
  void release();  // now (Buffer::Destroy); the destructor then does nothing
  std::uint32_t id = 0;
};

// Handles share their object like Dawn's reference-counted ones.
class Handle {
 public:
  Handle() = default;
  Handle(std::nullptr_t) {}  // NOLINT: `buffer = nullptr` as with Dawn's handles
  explicit Handle(std::uint32_t id) : object_(std::make_shared<Object>(id)) {}
  explicit operator bool() const { return object_ != nullptr; }
  std::uint32_t id() const { return object_ ? object_->id : 0; }

 protected:
  std::shared_ptr<Object> object_;
};

}  // namespace detail

class Buffer : public detail::Handle {
 public:
  Buffer() = default;
  Buffer(std::nullptr_t) {}  // NOLINT
  Buffer(std::uint32_t id, std::uint64_t size) : Handle(id), size_(size) {}
  std::uint64_t GetSize() const { return size_; }
  void Destroy() {
    if (object_) object_->release();
  }

 private:
  std::uint64_t size_ = 0;
};

// Textures and samplers: the browser host does not create them yet (gpu::Context returns
// ErrorKind::Skipped naming why), so these are empty handles that only make the catalog compile.
enum class TextureFormat : std::uint32_t { Undefined = 0, RGBA32Float = 0x23 };
class Texture : public detail::Handle {
 public:
  using Handle::Handle;
};
class Sampler : public detail::Handle {
 public:
  using Handle::Handle;
};

struct BindGroupLayout {
  std::uint32_t pipeline = 0;
  std::uint32_t group = 0;
};

class ComputePipeline : public detail::Handle {
 public:
  using Handle::Handle;
  BindGroupLayout GetBindGroupLayout(std::uint32_t group) const { return {id(), group}; }
};

class BindGroup : public detail::Handle {
 public:
  using Handle::Handle;
};

struct BindGroupEntry {
  std::uint32_t binding = 0;
  Buffer buffer;
  std::uint64_t offset = 0;
  std::uint64_t size = kWholeSize;
};

struct BindGroupDescriptor {
  const char* label = nullptr;
  BindGroupLayout layout;
  std::size_t entryCount = 0;
  const BindGroupEntry* entries = nullptr;
};

// One recorded command of a compute pass, sent to the host as ["pipeline", id],
// ["bind_group", index, id] or ["dispatch", x, y, z].
struct PassCommand {
  enum class Kind { Pipeline, BindGroup, Dispatch } kind = Kind::Dispatch;
  std::uint32_t a = 0, b = 0, c = 0;
};

class ComputePassEncoder {
 public:
  void SetPipeline(const ComputePipeline& p) { commands_.push_back({PassCommand::Kind::Pipeline, p.id(), 0, 0}); }
  void SetBindGroup(std::uint32_t index, const BindGroup& g, std::size_t = 0, const std::uint32_t* = nullptr) {
    commands_.push_back({PassCommand::Kind::BindGroup, index, g.id(), 0});
  }
  void DispatchWorkgroups(std::uint32_t x, std::uint32_t y = 1, std::uint32_t z = 1) {
    commands_.push_back({PassCommand::Kind::Dispatch, x, y, z});
  }
  const std::vector<PassCommand>& commands() const { return commands_; }

 private:
  std::vector<PassCommand> commands_;
};

class Device {
 public:
  // Asks the host for a bind group (implemented by the engine's context, src/web/context.cpp);
  // an empty handle when the host refused it (the error reaches the context's error sink).
  BindGroup CreateBindGroup(const BindGroupDescriptor* descriptor) const;
};

// Members of gpu::Context the browser engine does not use.
class Instance {};
class Adapter {};
class Queue {};
class QuerySet {};
class ShaderModule {};
struct Future {};

}  // namespace wgpu
