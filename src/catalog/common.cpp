// The generic kernel workload (make_kernel_workload, shared by the single-kernel benchmarks) and small catalog helpers.
#include "catalog/common.hpp"

#include <fmt/format.h>

#include <utility>

#include "gpu/kernel_override.hpp"
#include "report/facts.hpp"

namespace wgb {

namespace {

class KernelWorkload final : public Workload {
 public:
  KernelWorkload(gpu::Context& gpu, KernelSpec spec) : gpu_(gpu), spec_(std::move(spec)) {
    knob_ = spec_.knob.initial;
    write_knob();
  }
  KnobSpec knob() const override { return spec_.knob; }
  void set_knob(std::uint64_t value) override {
    if (value == knob_) return;
    knob_ = value;
    write_knob();
  }
  void encode(wgpu::ComputePassEncoder& pass, std::uint32_t repetitions) override {
    pass.SetPipeline(spec_.pipeline);
    for (std::uint32_t r = 0; r < repetitions; ++r) {
      // Alternation: consecutive dispatches use consecutive bind groups (buffer A, then B, ...).
      pass.SetBindGroup(0, spec_.bind_groups[next_group_]);
      next_group_ = (next_group_ + 1) % spec_.bind_groups.size();
      pass.DispatchWorkgroups(spec_.workgroups[0], spec_.workgroups[1], spec_.workgroups[2]);
    }
  }
  WorkModel work() const override { return spec_.work ? spec_.work(knob_) : WorkModel{}; }
  Expected<std::string> validate(gpu::Context& gpu) override {
    if (!spec_.validate) return std::string("no validator");
    return spec_.validate(gpu, knob_);
  }
  nlohmann::json parameters() const override {
    nlohmann::json p = spec_.parameters;
    report::write_facts(
        p, {.workgroups = std::array<std::uint32_t, 3>{spec_.workgroups[0], spec_.workgroups[1], spec_.workgroups[2]}});
    if (spec_.knob.enabled())
      report::write_facts(p, {.knob = std::pair<std::string, std::uint64_t>{spec_.knob.name, knob_}});
    return p;
  }
  std::string source() const override { return spec_.source; }

 private:
  void write_knob() {
    if (!spec_.knob_uniform) return;
    const auto v = static_cast<std::uint32_t>(knob_);
    gpu_.write(spec_.knob_uniform, spec_.knob_offset, &v, sizeof(v));
  }

  gpu::Context& gpu_;
  KernelSpec spec_;
  std::uint64_t knob_ = 1;
  std::size_t next_group_ = 0;
};

}  // namespace

std::unique_ptr<Workload> make_kernel_workload(gpu::Context& gpu, KernelSpec spec) {
  return std::make_unique<KernelWorkload>(gpu, std::move(spec));
}

wgpu::BindGroup bind_buffers(gpu::Context& gpu, const wgpu::ComputePipeline& pipeline,
                             std::initializer_list<wgpu::Buffer> buffers) {
  std::vector<std::pair<std::uint32_t, wgpu::Buffer>> numbered;
  for (const auto& b : buffers) numbered.emplace_back(static_cast<std::uint32_t>(numbered.size()), b);
  return catalog::bind_at(gpu, pipeline, numbered);
}

namespace catalog {

wgpu::BindGroup bind_at(gpu::Context& gpu, const wgpu::ComputePipeline& pipeline,
                        const std::vector<std::pair<std::uint32_t, wgpu::Buffer>>& buffers) {
  std::vector<wgpu::BindGroupEntry> entries;
  for (const auto& [binding, buffer] : buffers) {
    wgpu::BindGroupEntry e;
    e.binding = binding;
    e.buffer = buffer;
    e.size = buffer.GetSize();
    entries.push_back(e);
  }
  wgpu::BindGroupDescriptor desc;
  desc.layout = pipeline.GetBindGroupLayout(0);
  desc.entryCount = entries.size();
  desc.entries = entries.data();
  return gpu.device().CreateBindGroup(&desc);
}

std::string kernel_source(std::string_view name) { return gpu::kernel_text(name, kernels::find(name)); }

Status require_feature(gpu::Context& gpu, std::string_view webgpu_feature, const FeatureProbe& has) {
  if (has ? has(webgpu_feature) : gpu.has_feature(webgpu_feature)) return ok();
  std::string hint;
  // Dawn hides shader-f16 on NVIDIA's Vulkan driver unless the adapter toggle
  // vulkan_enable_f16_on_nvidia is given, which --experimental does.
  if (webgpu_feature == "shader-f16" && !gpu.options().experimental && gpu.adapter().vendor_id == 0x10de) {
    hint = " (Dawn hides it on NVIDIA's Vulkan driver; --experimental enables it)";
  }
  return make_error(ErrorKind::Skipped, fmt::format("the adapter lacks the '{}' feature{}", webgpu_feature, hint));
}

Status require_wgsl_feature(gpu::Context& gpu, std::string_view wgsl_feature, const FeatureProbe& has) {
  if (has ? has(wgsl_feature) : gpu.has_wgsl_feature(wgsl_feature)) return ok();
  return make_error(ErrorKind::Skipped, fmt::format("the WGSL language feature '{}' is not available", wgsl_feature));
}

}  // namespace catalog
}  // namespace wgb
