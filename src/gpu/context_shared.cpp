// The parts of gpu::Context that are the same over Dawn and over the browser's channel: compiled by
// the native gpu library and by the browser engine (src/web/CMakeLists.txt), so both fill buffers
// the same way and turn pending errors into the same values.
#include <algorithm>

#include "gpu/fill_wgsl.hpp"
#include "webgpu_bench/context.hpp"

namespace wgb::gpu {

Status Context::check_errors() {
  if (errors_->device_lost()) return make_error(ErrorKind::DeviceLost, errors_->lost_message());
  auto pending = errors_->take();
  if (!pending.empty()) return make_error(ErrorKind::GpuError, pending.front());
  return ok();
}

Status Context::fill_hashed(const wgpu::Buffer& buffer, std::uint64_t size, std::uint32_t seed) {
  if (!fill_pipeline_) {
    auto p = pipeline(kFillWgsl, "fill-hashed");
    if (!p) return std::move(p).error();
    fill_pipeline_ = *p;
  }
  // Chunks of 32 MiB: 32768 workgroups of 256 words, under every adapter's dispatch and binding limits.
  constexpr std::uint64_t kChunk = 32ull << 20;
  auto params = this->buffer(16, wgpu::BufferUsage::Uniform | wgpu::BufferUsage::CopyDst, "fill-params");
  if (!params) return std::move(params).error();
  for (std::uint64_t off = 0; off < size; off += kChunk) {
    const std::uint64_t bytes = std::min(kChunk, size - off);
    const std::uint32_t words = static_cast<std::uint32_t>(bytes / 4);
    const std::uint32_t p[4] = {static_cast<std::uint32_t>(off / 4), words, seed, 0};
    write(*params, 0, p, sizeof(p));
    wgpu::BindGroupEntry entries[2];
    entries[0].binding = 0;
    entries[0].buffer = buffer;
    entries[0].offset = off;
    entries[0].size = (bytes + 3) & ~std::uint64_t{3};
    entries[1].binding = 1;
    entries[1].buffer = *params;
    entries[1].size = 16;
    wgpu::BindGroupDescriptor bg;
    bg.layout = fill_pipeline_.GetBindGroupLayout(0);
    bg.entryCount = 2;
    bg.entries = entries;
    wgpu::BindGroup group = device_.CreateBindGroup(&bg);
    // A bind group the device refused is reported here, before a pass that would use it.
    if (auto st = check_errors(); !st) return st;
    const std::uint32_t groups = (words + 255) / 256;
    auto st = run_pass([&](wgpu::ComputePassEncoder& pass) {
      pass.SetPipeline(fill_pipeline_);
      pass.SetBindGroup(0, group);
      pass.DispatchWorkgroups(std::min<std::uint32_t>(groups, 32768), (groups + 32767) / 32768);
    });
    if (!st) return st;
  }
  return ok();
}

}  // namespace wgb::gpu
