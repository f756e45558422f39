// read-linear and write-linear: the streaming rate of the device's memory (docs/method.md#streaming).
// A dispatch makes `passes` whole-buffer passes (the work knob, calibrated like an ALU probe's loop
// count) alternating between two buffers of hashed data, its work handed out in blocks, in order, by
// a ticket counter, so the device sweeps A, B, A, B in address order however its workgroups are
// scheduled. Each is validated after timing by a dispatch whose output the host recomputes, and
// whose ticket counter must show every block handed out once.
#include <fmt/format.h>

#include <algorithm>
#include <cstddef>

#include "catalog/bandwidth/bandwidth.hpp"
#include "catalog/bandwidth/prepare.hpp"
#include "catalog/common.hpp"
#include "report/facts.hpp"
#include "webgpu_bench/options.hpp"

namespace wgb::catalog::bandwidth {

namespace {

struct ReadParams {
  std::uint32_t count, blocks, magic0, magic1, passes, steps, run, pad1;
};
struct WriteParams {
  std::uint32_t count, blocks, seed, passes, steps, run, pad1, pad2;
};
// The pass 1 seed of write_linear.wgsl (pass q stores with seed ^ q * 0x9e3779b9).
constexpr std::uint32_t kPassOneSeed = kStreamSeed ^ 0x9e3779b9u;

// What read-linear and write-linear share: the plan, the grid, the buffers, the two ticket counters
// (consecutive dispatches swap them; each zeroes the other's), and the pipeline of its kernel.
struct Linear {
  std::uint64_t bytes = 0;
  LinearPlan plan;
  Grid grid{};
  BufferPair pair;
  wgpu::Buffer tickets[2];
  wgpu::ComputePipeline pipeline;
};

Expected<Linear> make_linear(PrepareContext& pc, const std::string& id, const char* kernel) {
  Linear l;
  l.bytes = pc.options.bandwidth_bytes;
  if (auto st = check_size(pc.gpu, l.bytes, l.bytes); !st) return std::move(st).error();
  l.plan = linear_plan(l.bytes, linear_block_steps(pc.gpu), block_run(pc.gpu));
  l.grid = block_grid(pc, l.plan.blocks);
  auto pair = filled_pair(pc.gpu, l.bytes, id);
  if (!pair) return std::move(pair).error();
  l.pair = *pair;
  // Control state, not measured data: a counter starts at zero.
  const std::uint32_t zero[64] = {};
  for (int i = 0; i < 2; ++i) {
    auto t = pc.gpu.buffer_with(std::span<const std::uint32_t>(zero), kStorage, fmt::format("{} tickets {}", id, i));
    if (!t) return std::move(t).error();
    l.tickets[i] = *t;
  }
  auto pipeline = pc.gpu.pipeline(kernel_source(kernel), id);
  if (!pipeline) return std::move(pipeline).error();
  l.pipeline = *pipeline;
  return l;
}

// Bind groups 0 and 1: (A, B, rest..., tickets 0, tickets 1) and (B, A, rest..., tickets 1, tickets 0).
KernelSpec linear_spec(gpu::Context& gpu, const Linear& l, std::initializer_list<wgpu::Buffer> rest) {
  KernelSpec spec;
  spec.pipeline = l.pipeline;
  for (int g = 0; g < 2; ++g) {
    std::vector<std::pair<std::uint32_t, wgpu::Buffer>> b{{0, g == 0 ? l.pair.a : l.pair.b},
                                                          {1, g == 0 ? l.pair.b : l.pair.a}};
    for (const auto& r : rest) b.emplace_back(static_cast<std::uint32_t>(b.size()), r);
    b.emplace_back(static_cast<std::uint32_t>(b.size()), l.tickets[g]);
    b.emplace_back(static_cast<std::uint32_t>(b.size()), l.tickets[1 - g]);
    spec.bind_groups.push_back(bind_at(gpu, l.pipeline, b));
  }
  spec.workgroups = {l.grid.groups, 1, 1};
  spec.parameters = report::with_facts(
      nlohmann::json({{"buffer_bytes", l.bytes},
                      {"element", "vec4<u32>"},
                      {"workgroup_size", kWorkgroup},
                      {"invocations", l.grid.threads},
                      {"shape", buffer_shape(l.bytes)},  // plausibility compares linear streams only
                      {"block_bytes", l.plan.block_bytes()},
                      {"column_invocations", l.plan.run},
                      {"blocks_per_buffer", l.plan.blocks},
                      {"order", "blocks handed out in order by a ticket counter; passes alternate A, B, A, ..."}}),
      {.access = "linear", .buffers = 2});
  add_footprint(spec.parameters, 2 * l.bytes);
  return spec;
}

// Runs one validation dispatch of bind group 0 (A then B with two passes) from a zeroed counter,
// and checks the counter it leaves; zeroes it again so timed dispatches find both counters at zero.
Expected<std::string> validation_dispatch(gpu::Context& g, const wgpu::BindGroup& group, const Linear& l) {
  const std::uint32_t zero[64] = {};
  g.write(l.tickets[0], 0, zero, sizeof(zero));
  if (auto st = dispatch_once(g, l.pipeline, group, l.grid.groups); !st) return std::move(st).error();
  auto counter = g.read_as<std::uint32_t>(l.tickets[0], 0, 1);
  if (!counter) return std::move(counter).error();
  g.write(l.tickets[0], 0, zero, sizeof(zero));
  return check_tickets((*counter)[0], l.plan, 2, l.grid.groups);
}

Expected<std::unique_ptr<Workload>> prepare_read_linear(PrepareContext& pc) {
  auto& gpu = pc.gpu;
  const std::string id = "read-linear";
  auto l = make_linear(pc, id, "bandwidth/read_linear");
  if (!l) return std::move(l).error();
  auto sink = gpu.buffer(256 * 16, kStorage, id + " sink");
  if (!sink) return std::move(sink).error();
  const ReadParams params{l->plan.count, l->plan.blocks, kMagic0, kMagic1, 1, l->plan.steps, l->plan.run, 0};
  auto uniform = gpu.buffer_with(std::span<const ReadParams>(&params, 1), kUniform, id + " params");
  if (!uniform) return std::move(uniform).error();

  KernelSpec spec = linear_spec(gpu, *l, {*sink, *uniform});
  set_passes_knob(spec, *uniform, offsetof(ReadParams, passes), max_passes(l->plan, l->grid.groups));
  const std::uint64_t bytes = l->bytes;
  spec.work = [bytes](std::uint64_t passes) { return WorkModel{.bytes_read = static_cast<double>(bytes * passes)}; };
  report::write_facts(spec.parameters, {.loads_per_pass = l->plan.count});
  // Validation: for one invocation of the middle block and one of the last (a partial block when the
  // size is not a whole number of blocks), point the sentinels at the host's fold of that block of
  // buffer A; the kernel must write exactly that fold, and hand out every block once.
  spec.validate = [l = *l, sink = *sink, uniform = *uniform, group = spec.bind_groups[0], params](
                      gpu::Context& g, std::uint64_t knob) -> Expected<std::string> {
    std::vector<std::uint32_t> blocks{l.plan.blocks / 2};
    if (l.plan.blocks - 1 != blocks.front()) blocks.push_back(l.plan.blocks - 1);
    std::string checked, handed_out;
    for (const std::uint32_t block : blocks) {
      const std::uint32_t lane = block == l.plan.blocks - 1 ? 0 : 77;  // lane 0 loads in any block
      const auto want = block_fold(block, lane, l.plan, kSeedA);
      ReadParams check = params;
      check.magic0 = want[0];
      check.magic1 = want[1];
      check.passes = 2;
      g.write(uniform, 0, &check, sizeof(check));
      clear_sink(g, sink);
      auto tickets = validation_dispatch(g, group, l);
      ReadParams restore = params;
      restore.passes = static_cast<std::uint32_t>(knob);
      g.write(uniform, 0, &restore, sizeof(restore));
      if (!tickets) return std::move(tickets).error();
      const std::string who = fmt::format("invocation {} of block {}", lane, block);
      if (auto match = check_sink(g, sink, lane, want, who); !match) return std::move(match).error();
      checked += (checked.empty() ? "" : " and ") + who;
      handed_out = *tickets;
    }
    return fmt::format("the XOR folds of {} matched the host; {}", checked, handed_out);
  };
  if (auto st = add_launch_cost(gpu, spec); !st) return std::move(st).error();
  return make_kernel_workload(gpu, std::move(spec));
}

Expected<std::unique_ptr<Workload>> prepare_write_linear(PrepareContext& pc) {
  auto& gpu = pc.gpu;
  const std::string id = "write-linear";
  auto l = make_linear(pc, id, "bandwidth/write_linear");
  if (!l) return std::move(l).error();
  const WriteParams params{l->plan.count, l->plan.blocks, kStreamSeed, 1, l->plan.steps, l->plan.run, 0, 0};
  auto uniform = gpu.buffer_with(std::span<const WriteParams>(&params, 1), kUniform, id + " params");
  if (!uniform) return std::move(uniform).error();

  KernelSpec spec = linear_spec(gpu, *l, {*uniform});
  set_passes_knob(spec, *uniform, offsetof(WriteParams, passes), max_passes(l->plan, l->grid.groups));
  const std::uint64_t bytes = l->bytes;
  spec.work = [bytes](std::uint64_t passes) {
    return WorkModel{.bytes_written = static_cast<double>(bytes * passes)};
  };
  // Validation: re-fill both buffers with hashed data, run one dispatch of two passes, and check
  // every element of both: an element the kernel skipped still holds the hash, not its index value,
  // and each pass stores its own values.
  spec.validate = [l = *l, uniform = *uniform, group = spec.bind_groups[0], params](
                      gpu::Context& g, std::uint64_t knob) -> Expected<std::string> {
    if (auto st = g.fill_hashed(l.pair.a, l.bytes, kSeedA); !st) return std::move(st).error();
    if (auto st = g.fill_hashed(l.pair.b, l.bytes, kSeedB); !st) return std::move(st).error();
    WriteParams check = params;
    check.passes = 2;
    g.write(uniform, 0, &check, sizeof(check));
    auto tickets = validation_dispatch(g, group, l);
    WriteParams restore = params;
    restore.passes = static_cast<std::uint32_t>(knob);
    g.write(uniform, 0, &restore, sizeof(restore));
    if (!tickets) return std::move(tickets).error();
    std::string checked;
    for (const auto& [buffer, seed, name] : {std::tuple{l.pair.a, kStreamSeed, "A (pass 0)"},
                                             std::tuple{l.pair.b, kPassOneSeed, "B (pass 1)"}}) {
      auto words = g.read_as<std::uint32_t>(buffer, 0, l.bytes / 4);
      if (!words) return std::move(words).error();
      auto ok = check_write_linear(*words, seed);
      if (!ok) return make_error(ErrorKind::Failed, fmt::format("buffer {}: {}", name, ok.error().message));
      checked += fmt::format("{}buffer {}: {}", checked.empty() ? "" : "; ", name, *ok);
    }
    return fmt::format("{}; {}", checked, *tickets);
  };
  if (auto st = add_launch_cost(gpu, spec); !st) return std::move(st).error();
  return make_kernel_workload(gpu, std::move(spec));
}

}  // namespace

std::vector<BenchmarkDefinition> linear_benchmarks() {
  std::vector<BenchmarkDefinition> v;
  v.push_back(bandwidth_definition(
      "read-linear", "Linear read",
      "Streaming vec4<u32> reads of two buffers filled with hashed data (64 MiB each, 4096x4096 4-byte words, "
      "by default; --bandwidth-mib sets it and the row's shape and buffer_bytes say what was used). A dispatch "
      "makes `passes` whole-buffer passes (calibrated so launch and drain are negligible) alternating between the "
      "two buffers, its blocks handed out in order by a ticket counter; four independent 16-byte loads per step, "
      "XOR-folded and kept by a sentinel compare. Counts bytes read.",
      {"bytes", "B", "Bytes read"}, "bandwidth/read_linear", prepare_read_linear));
  v.push_back(bandwidth_definition(
      "write-linear", "Linear write",
      "Streaming vec4<u32> stores covering two buffers (64 MiB each, 4096x4096 4-byte words, by default; "
      "--bandwidth-mib sets it and the row's shape and buffer_bytes say what was used). A dispatch makes "
      "`passes` whole-buffer passes alternating between the two buffers, its blocks handed out in order by a "
      "ticket counter; four independent 16-byte stores per step of a value computed from the index and the "
      "pass. Counts bytes written.",
      {"bytes", "B", "Bytes written"}, "bandwidth/write_linear", prepare_write_linear));
  return v;
}

}  // namespace wgb::catalog::bandwidth
