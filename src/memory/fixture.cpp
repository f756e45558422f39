// The memory suite's fixture (fixture.hpp): set-up, the halving on out of memory, the fills, the
// latency cycle and the validators' helpers.
#include "memory/fixture.hpp"

#include <fmt/format.h>

#include <limits>
#include <span>

#include "gpu/hash.hpp"
#include "gpu/kernel_override.hpp"
#include "webgpu_bench/definition.hpp"

namespace wgb::memory {

namespace {
// Seeds of the hashed fills: any distinct values do; validators recompute every element from them.
constexpr std::uint32_t kFillSeedA = 0xA11CE5EDu, kFillSeedB = 0xB0B5EED5u;
constexpr std::uint32_t kRefillSeed = 0x1F83D9ABu;
constexpr std::uint64_t kSpotWindow = 256;  // elements per spot-check window (4 KiB)
}  // namespace

std::string kernel_source(std::string_view name) { return gpu::kernel_text(name, kernels::find(name)); }

std::string hex(const Vec4& v) { return fmt::format("{:08x}{:08x}{:08x}{:08x}", v[0], v[1], v[2], v[3]); }

Expected<wgpu::Buffer> Fixture::alloc(std::uint64_t size, wgpu::BufferUsage usage, std::string_view label) {
  if (o_.allocate) return o_.allocate(gpu_, size, usage, label);
  return gpu_.buffer(size, usage, label);
}

const wgpu::ComputePipeline& Fixture::pipeline(std::string_view kernel) const {
  static const wgpu::ComputePipeline none;
  const auto it = pipelines_.find(kernel);
  return it == pipelines_.end() ? none : it->second;
}

wgpu::BindGroup Fixture::bind(std::string_view kernel, std::initializer_list<wgpu::Buffer> buffers) {
  return bind_buffers(gpu_, pipeline(kernel), buffers);  // the catalog's helper (definition.hpp)
}

Expected<wgpu::Buffer> Fixture::uniform(const Params4& p, std::string_view label) {
  auto buffer = alloc(16, kUniform, label);
  if (buffer) write(*buffer, p);
  return buffer;
}

void Fixture::write(const wgpu::Buffer& buffer, const Params4& p) { gpu_.write(buffer, 0, &p, sizeof(p)); }

// The large buffers of one working-set size, inside error scopes (Context::buffer): an OutOfMemory
// error here makes set_up() halve the working set.
Status Fixture::allocate(std::uint64_t bytes, bool with_chain) {
  auto take = [&](wgpu::Buffer& out, std::uint64_t size, std::string_view label) -> Status {
    auto buffer = alloc(size, kStorage, label);
    if (!buffer) return std::move(buffer).error();
    out = *buffer;
    return ok();
  };
  if (auto st = take(a, bytes, "memory A"); !st) return st;
  if (auto st = take(b, bytes, "memory B"); !st) return st;
  if (with_chain) {
    if (auto st = take(chain, bytes, "memory latency chain"); !st) return st;
    if (auto st = take(state, 16, "memory latency state"); !st) return st;
  }
  if (auto st = take(sink, 256 * kElementBytes, "memory sink"); !st) return st;
  return gpu_.check_errors();
}

void Fixture::release() {
  // Destroy the large buffers now rather than when the last reference goes: the next, halved
  // attempt should not compete with them for memory.
  for (wgpu::Buffer* buffer : {&a, &b, &chain}) {
    if (*buffer) buffer->Destroy();
    *buffer = nullptr;
  }
  state = sink = nullptr;
}

Status Fixture::set_up(const std::vector<std::string>& kernels, bool with_chain,
                       const std::function<void(std::string)>& stage) {
  const wgpu::Limits& l = gpu_.limits();
  auto plan = plan_working_set(o_.working_set_mib, o_.min_working_set_mib,
                               AdapterCaps{l.maxBufferSize, l.maxStorageBufferBindingSize,
                                           l.maxComputeWorkgroupsPerDimension});
  if (!plan) return std::move(plan).error();
  ws_.requested_bytes = plan->requested_bytes;
  ws_.floor_bytes = std::min(o_.min_working_set_mib * kMiB, plan->requested_bytes);
  if (plan->capped) ws_.reductions.push_back(plan->reason);
  stage("set-up: compile");
  for (const auto& name : kernels) {
    if (pipelines_.count(name) != 0) continue;
    auto p = gpu_.pipeline(kernel_source(name), name.c_str());
    if (!p) return std::move(p).error();
    pipelines_.emplace(name, *p);
  }

  std::uint64_t bytes = plan->bytes;
  for (;;) {
    if (o_.cancel.cancelled()) return make_error(ErrorKind::Cancelled, "cancelled before the first phase");
    stage(fmt::format("set-up: allocate 2 x {}", format_mib(bytes)));
    auto st = allocate(bytes, with_chain);
    if (st) break;
    release();
    if (st.error().kind != ErrorKind::OutOfMemory) return st;
    if (bytes / 2 < ws_.floor_bytes) {
      return make_error(ErrorKind::OutOfMemory,
                        fmt::format("out of memory: the working set halved down to {} and still did not fit; it may "
                                    "not go below {} (--min-working-set): {}",
                                    format_mib(bytes), format_mib(ws_.floor_bytes), st.error().message));
    }
    ws_.reductions.push_back(
        fmt::format("out of memory at {}; working set halved to {}", format_mib(bytes), format_mib(bytes / 2)));
    bytes /= 2;
  }
  ws_.bytes = bytes;
  g_ = Geometry::of(bytes);
  ws_.geometry = g_;
  std::string why;
  for (const auto& r : ws_.reductions) why += (why.empty() ? "" : "; ") + r;
  ws_.unranked_reason = unranked_reason(ws_.requested_bytes, bytes, why);
  ws_.ranked = ws_.unranked_reason.empty();

  // Hashed data in both buffers before the first phase: no page is untouched or zero
  // (docs/method.md#memory-workload).
  stage("set-up: fill");
  if (auto st = gpu_.fill_hashed(a, bytes, kFillSeedA); !st) return st;
  if (auto st = gpu_.fill_hashed(b, bytes, kFillSeedB); !st) return st;
  content_a = {Content::Kind::Hashed, kFillSeedA};
  content_b = {Content::Kind::Hashed, kFillSeedB};
  if (with_chain) {
    stage("set-up: latency cycle");
    if (auto st = build_chain(); !st) return st;
  }
  return gpu_.check_errors();
}

// The latency cycle: Sattolo's algorithm on the CPU (one cycle through every slot), checked, then
// scattered into the 64-byte slots of the chain buffer on the GPU.
Status Fixture::build_chain() {
  if (g_.slots < 2 || g_.slots > std::numeric_limits<std::uint32_t>::max() / kSlotWords) {
    return make_error(ErrorKind::Failed, fmt::format("{} latency slots do not fit the chase's u32 indices", g_.slots));
  }
  next = sattolo_cycle(static_cast<std::uint32_t>(g_.slots), o_.cycle_seed);
  if (!is_single_cycle(next)) {
    return make_error(ErrorKind::Failed, "the latency chain is not a single cycle (Sattolo's algorithm broken?)");
  }
  auto compact = gpu_.buffer_with(std::span<const std::uint32_t>(next), wgpu::BufferUsage::Storage, "memory cycle");
  if (!compact) return std::move(compact).error();
  auto params = gpu_.buffer(16, kUniform, "memory scatter params");
  if (!params) return std::move(params).error();
  write(*params, {static_cast<std::uint32_t>(g_.slots), kSlotWords, 0, 0});
  const wgpu::BindGroup group = bind("memory/scatter", {*compact, chain, *params});
  const auto groups = static_cast<std::uint32_t>((g_.slots + kWorkgroupSize - 1) / kWorkgroupSize);
  const std::uint32_t x = std::min<std::uint32_t>(groups, 32768);
  auto st = gpu_.run_pass([&](wgpu::ComputePassEncoder& pass) {
    pass.SetPipeline(pipeline("memory/scatter"));
    pass.SetBindGroup(0, group);
    pass.DispatchWorkgroups(x, (groups + x - 1) / x);
  });
  if (!st) return st;
  compact->Destroy();
  write(state, {0, 0, 0, 0});  // the chase starts at slot 0 (word 0)
  total_hops = 0;
  return ok();
}

Status Fixture::make_buffers_differ() {
  if (!(content_a == content_b)) return ok();
  const std::uint32_t seed = kRefillSeed + refills_++;
  if (auto st = gpu_.fill_hashed(b, g_.bytes, seed); !st) return st;
  content_b = {Content::Kind::Hashed, seed};
  return ok();
}

void Fixture::alternate(wgpu::ComputePassEncoder& pass, std::string_view kernel, const wgpu::BindGroup (&groups)[2],
                        std::uint32_t workgroups, std::uint32_t units) {
  pass.SetPipeline(pipeline(kernel));
  for (std::uint32_t r = 0; r < units; ++r) {
    pass.SetBindGroup(0, groups[alternation++ % 2]);
    pass.DispatchWorkgroups(workgroups);
  }
}

Expected<std::string> Fixture::probe_sink(std::string_view kernel, const wgpu::BindGroup& group,
                                          std::uint32_t workgroups, const wgpu::Buffer& params, const Params4& probe,
                                          const Params4& restore, std::uint32_t t, const Vec4& want,
                                          std::string_view what) {
  write(params, probe);
  const std::vector<std::uint32_t> zero(256 * 4, 0);
  gpu_.write(sink, 0, zero.data(), zero.size() * sizeof(std::uint32_t));
  auto st = gpu_.run_pass([&](wgpu::ComputePassEncoder& pass) {
    pass.SetPipeline(pipeline(kernel));
    pass.SetBindGroup(0, group);
    pass.DispatchWorkgroups(workgroups);
  });
  write(params, restore);
  if (!st) return std::move(st).error();
  auto got = gpu_.read_as<std::uint32_t>(sink, (t & 255u) * kElementBytes, 4);
  if (!got) return std::move(got).error();
  const Vec4 g{(*got)[0], (*got)[1], (*got)[2], (*got)[3]};
  if (g != want) {
    return make_error(ErrorKind::Failed,
                      fmt::format("{}: invocation {} folded {}, expected {}", what, t, hex(g), hex(want)));
  }
  return fmt::format("{}: invocation {}'s fold matched the host", what, t);
}

Expected<std::uint64_t> Fixture::spot_check(const wgpu::Buffer& buffer, const Content& c, std::string_view name) {
  std::vector<std::uint64_t> starts{0, g_.elements - kSpotWindow};
  for (int k = 0; starts.size() < kSpotWindows; ++k) {
    const std::uint32_t h = gpu::hash32(0x2545F491u ^ static_cast<std::uint32_t>(k) * 0x632BE5ABu);
    starts.push_back(h % (g_.elements - kSpotWindow));
  }
  std::uint64_t checked = 0;
  for (std::uint64_t s : starts) {
    auto words = gpu_.read_as<std::uint32_t>(buffer, s * kElementBytes, kSpotWindow * 4);
    if (!words) return std::move(words).error();
    for (std::uint64_t e = 0; e < kSpotWindow; ++e) {
      const Vec4 want = element(c, s + e);
      const Vec4 got{(*words)[e * 4], (*words)[e * 4 + 1], (*words)[e * 4 + 2], (*words)[e * 4 + 3]};
      if (got != want) {
        return make_error(ErrorKind::Failed,
                          fmt::format("{}[{}] holds {}, expected {}", name, s + e, hex(got), hex(want)));
      }
    }
    checked += kSpotWindow;
  }
  return checked;
}

Expected<std::string> Fixture::spot_check_both(std::string_view against) {
  auto na = spot_check(a, content_a, "A");
  if (!na) return std::move(na).error();
  auto nb = spot_check(b, content_b, "B");
  if (!nb) return std::move(nb).error();
  return fmt::format("spot-checked {} elements of each buffer ({} windows of 4 KiB) against {}", *na, kSpotWindows,
                     against);
}

}  // namespace wgb::memory
