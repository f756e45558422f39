// The memory suite's engine (seeds 001 and 002): allocates the working set (halving on adapter caps
// and out-of-memory), fills it, builds the latency cycle, then runs each phase through the phase
// engine: calibrate, warm up, sample, reject, report, validate. measure() is the only loop that
// times anything: the PhaseSampler decides, Context::time_pass times, the TimingArbiter picks the
// clock. Failures end as values: a device loss or an uncaptured GPU error aborts the run, a cancel
// stops before the next submission, and the rows completed so far stay valid.
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

#include "gpu/hash.hpp"
#include "gpu/kernel_override.hpp"
#include "measure/phase_sampler.hpp"
#include "measure/progress.hpp"
#include "measure/stats.hpp"
#include "measure/timing.hpp"
#include "memory/host_model.hpp"
#include "memory/memory.hpp"
#include "memory/sustain.hpp"

namespace wgb::memory {

namespace {

using Clock = std::chrono::steady_clock;
using ProgressKind = measure::ProgressEvent::Kind;

constexpr wgpu::BufferUsage kStorage =
    wgpu::BufferUsage::Storage | wgpu::BufferUsage::CopySrc | wgpu::BufferUsage::CopyDst;
constexpr wgpu::BufferUsage kUniform = wgpu::BufferUsage::Uniform | wgpu::BufferUsage::CopyDst;

// Seeds of the hashed fills and of the written data: any distinct values do; validators recompute
// every element from them (host_model.hpp).
constexpr std::uint32_t kFillSeedA = 0xA11CE5EDu, kFillSeedB = 0xB0B5EED5u;
constexpr std::uint32_t kWriteSeedA = 0x3C6EF372u, kWriteSeedB = 0xA54FF53Au;
constexpr std::uint32_t kRandomSeeds[2] = {0x510E527Fu, 0x9B05688Cu};
constexpr std::uint32_t kRefillSeed = 0x1F83D9ABu;
// Sentinels the folds are compared with: never zero, practically never equal to a fold, and
// unprovable for the compiler, so no load is removed.
constexpr std::uint32_t kMagic0 = 0x9e3779b9u, kMagic1 = 0x7f4a7c15u;
constexpr std::uint64_t kSpotWindow = 256;  // elements per spot-check window (4 KiB)
constexpr int kSpotWindows = 8;

constexpr const char* kStatisticReason =
    "median of the samples kept after modified z-score rejection (seed 001): memory traffic depends on the "
    "memory system's state and scheduling, and the median ignores what rejection missed";

struct Params4 {
  std::uint32_t a = 0, b = 0, c = 0, d = 0;
};

std::string kernel_source(std::string_view name) { return gpu::kernel_text(name, kernels::find(name)); }

const char* kernel_name(Phase p) {
  switch (p) {
    case Phase::Read: return "memory/read";
    case Phase::Write: return "memory/write";
    case Phase::Copy:
    case Phase::Sustain: return "memory/copy";
    case Phase::Random: return "memory/random";
    case Phase::Latency: return "memory/chase";
  }
  return "";
}

std::string hex(const Vec4& v) { return fmt::format("{:08x}{:08x}{:08x}{:08x}", v[0], v[1], v[2], v[3]); }

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// What one phase's sampling produced, before it becomes a row.
struct PhaseTiming {
  measure::PhaseSampler::Report report;
  std::vector<double> sample_end_s;  // completion time of each recorded sample, from the first one's submit
  std::vector<std::pair<std::uint64_t, double>> calibration;  // (units per pass, pass ms)
  measure::ClockKind clock = measure::ClockKind::WallClock;
  double target_ms = 0, budget_ms = 0;
  int restarts = 0;
  int timestamp_strikes = 0;
  std::vector<std::string> notes;
};

class Engine {
 public:
  Engine(gpu::Context& gpu, const MemoryOptions& o) : gpu_(gpu), o_(o) {}
  MemoryRun run();

 private:
  bool cancelled() const { return o_.cancel.cancelled(); }
  bool selected(Phase p) const {
    for (Phase q : o_.phases) {
      if (q == p) return true;
    }
    return false;
  }
  void emit(ProgressKind kind, std::size_t index, std::string stage = {}, double expected_s = 0);
  bool idle(double ms);
  void deliver(BenchmarkResult row);

  Expected<wgpu::Buffer> alloc(std::uint64_t size, wgpu::BufferUsage usage, std::string_view label);
  wgpu::BindGroup bind(const wgpu::ComputePipeline& p, std::initializer_list<wgpu::Buffer> buffers);
  Status compile();
  Status allocate(std::uint64_t bytes);
  void release();
  Status setup();
  Status build_chain();

  BenchmarkResult base_row(std::size_t index, Phase p) const;
  BenchmarkResult run_phase(std::size_t index, Phase p);
  Expected<PhaseTiming> measure(std::size_t index, Phase p);
  void encode(Phase p, wgpu::ComputePassEncoder& pass, std::uint32_t units);
  void set_chase_iters(std::uint64_t hops);
  void fill_row(BenchmarkResult& row, Phase p, const PhaseTiming& t) const;

  Expected<std::string> validate(Phase p);
  Expected<std::string> probe_sink(const wgpu::ComputePipeline& pipeline, const wgpu::BindGroup& group,
                                   std::uint32_t workgroups, const wgpu::Buffer& params, const Params4& probe,
                                   const Params4& restore, std::uint32_t t, const Vec4& want, std::string_view what);
  Expected<std::uint64_t> spot_check(const wgpu::Buffer& buffer, const Content& c, std::string_view name);

  gpu::Context& gpu_;
  const MemoryOptions& o_;
  MemoryRun run_;
  Clock::time_point t0_ = Clock::now();
  WorkingSet ws_;
  Geometry g_;
  std::optional<Error> fatal_;

  struct {
    wgpu::ComputePipeline read, write, copy, random, chase, scatter;
  } pipe_;
  wgpu::Buffer a_, b_, chain_, state_, sink_;
  wgpu::Buffer read_params_, write_params_[2], copy_params_, random_params_[2], chase_params_;
  wgpu::BindGroup read_groups_[2], write_groups_[2], copy_groups_[2], random_groups_[2], chase_group_;

  Content content_a_, content_b_;      // what A and B hold now (host twin for validation)
  std::uint32_t refills_ = 0;
  std::vector<std::uint32_t> next_;    // the latency cycle: next_[slot] = successor slot
  std::uint64_t total_hops_ = 0;       // every hop the chase kernel was asked for, timed or not
  std::uint32_t chase_iters_ = 0;      // what the chase uniform holds
  std::uint64_t alternation_ = 0;      // dispatches of the current phase (selects A/B)
};

// ---- plumbing ------------------------------------------------------------------------------------

void Engine::emit(ProgressKind kind, std::size_t index, std::string stage, double expected_s) {
  if (!o_.on_progress) return;
  measure::ProgressEvent e;
  e.kind = kind;
  e.now_s = seconds(Clock::now() - t0_);
  e.index = index;
  if (index < o_.phases.size()) e.id = phase_id(o_.phases[index]);
  e.expected_s = expected_s;
  e.stage = std::move(stage);
  o_.on_progress(e);
}

// Idles in short slices so a cancel is seen promptly. False when cancelled.
bool Engine::idle(double ms) {
  const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double, std::milli>(ms));
  while (Clock::now() < until) {
    if (cancelled()) return false;
    const Clock::duration left = until - Clock::now();
    std::this_thread::sleep_for(std::min<Clock::duration>(left, std::chrono::milliseconds(10)));
  }
  return !cancelled();
}

void Engine::deliver(BenchmarkResult row) {
  run_.rows.push_back(row);
  if (o_.on_row) o_.on_row(run_.rows.back());
}

Expected<wgpu::Buffer> Engine::alloc(std::uint64_t size, wgpu::BufferUsage usage, std::string_view label) {
  if (o_.allocate) return o_.allocate(gpu_, size, usage, label);
  return gpu_.buffer(size, usage, label);
}

wgpu::BindGroup Engine::bind(const wgpu::ComputePipeline& p, std::initializer_list<wgpu::Buffer> buffers) {
  return bind_buffers(gpu_, p, buffers);  // the catalog's helper (definition.hpp)
}

// ---- set-up ----------------------------------------------------------------------------------------

Status Engine::compile() {
  auto make = [&](wgpu::ComputePipeline& out, const char* name) -> Status {
    auto p = gpu_.pipeline(kernel_source(name), name);
    if (!p) return std::move(p).error();
    out = *p;
    return ok();
  };
  if (selected(Phase::Read)) {
    if (auto st = make(pipe_.read, "memory/read"); !st) return st;
  }
  if (selected(Phase::Write)) {
    if (auto st = make(pipe_.write, "memory/write"); !st) return st;
  }
  if (selected(Phase::Copy) || selected(Phase::Sustain)) {
    if (auto st = make(pipe_.copy, "memory/copy"); !st) return st;
  }
  if (selected(Phase::Random)) {
    if (auto st = make(pipe_.random, "memory/random"); !st) return st;
  }
  if (selected(Phase::Latency)) {
    if (auto st = make(pipe_.chase, "memory/chase"); !st) return st;
    if (auto st = make(pipe_.scatter, "memory/scatter"); !st) return st;
  }
  return ok();
}

// Every buffer of one working-set size, inside error scopes (Context::buffer): an OutOfMemory
// error here makes the caller halve the working set.
Status Engine::allocate(std::uint64_t bytes) {
  const Geometry g = Geometry::of(bytes);
  auto take = [&](wgpu::Buffer& out, std::uint64_t size, wgpu::BufferUsage usage, std::string_view label) -> Status {
    auto b = alloc(size, usage, label);
    if (!b) return std::move(b).error();
    out = *b;
    return ok();
  };
  if (auto st = take(a_, bytes, kStorage, "memory A"); !st) return st;
  if (auto st = take(b_, bytes, kStorage, "memory B"); !st) return st;
  if (selected(Phase::Latency)) {
    if (auto st = take(chain_, bytes, kStorage, "memory latency chain"); !st) return st;
    if (auto st = take(state_, 16, kStorage, "memory latency state"); !st) return st;
    if (auto st = take(chase_params_, 16, kUniform, "memory chase params"); !st) return st;
  }
  if (auto st = take(sink_, 256 * kElementBytes, kStorage, "memory sink"); !st) return st;
  if (auto st = take(read_params_, 16, kUniform, "memory read params"); !st) return st;
  if (auto st = take(copy_params_, 16, kUniform, "memory copy params"); !st) return st;
  for (int i = 0; i < 2; ++i) {
    if (auto st = take(write_params_[i], 16, kUniform, "memory write params"); !st) return st;
    if (auto st = take(random_params_[i], 16, kUniform, "memory random params"); !st) return st;
  }
  const Params4 read{g.invocations, kMagic0, kMagic1, 0};
  gpu_.write(read_params_, 0, &read, sizeof(read));
  const Params4 copy{g.invocations, 0, 0, 0};
  gpu_.write(copy_params_, 0, &copy, sizeof(copy));
  // Alternation (seed 002): READ reads A then B, WRITE writes B then A, COPY copies A to B then B
  // to A; bind group k serves dispatch k (mod 2) of a phase.
  const Params4 write_b{g.invocations, kWriteSeedB, 0, 0}, write_a{g.invocations, kWriteSeedA, 0, 0};
  gpu_.write(write_params_[0], 0, &write_b, sizeof(write_b));
  gpu_.write(write_params_[1], 0, &write_a, sizeof(write_a));
  const auto mask = static_cast<std::uint32_t>(g.elements - 1);
  for (int i = 0; i < 2; ++i) {
    const Params4 random{mask, kRandomSeeds[i], kMagic0, kMagic1};
    gpu_.write(random_params_[i], 0, &random, sizeof(random));
  }
  if (pipe_.read) {
    read_groups_[0] = bind(pipe_.read, {a_, sink_, read_params_});
    read_groups_[1] = bind(pipe_.read, {b_, sink_, read_params_});
  }
  if (pipe_.write) {
    write_groups_[0] = bind(pipe_.write, {b_, write_params_[0]});
    write_groups_[1] = bind(pipe_.write, {a_, write_params_[1]});
  }
  if (pipe_.copy) {
    copy_groups_[0] = bind(pipe_.copy, {a_, b_, copy_params_});
    copy_groups_[1] = bind(pipe_.copy, {b_, a_, copy_params_});
  }
  if (pipe_.random) {
    // Both buffers in every dispatch; the two groups differ in the xorshift seed, so consecutive
    // dispatches gather from different addresses.
    random_groups_[0] = bind(pipe_.random, {a_, b_, sink_, random_params_[0]});
    random_groups_[1] = bind(pipe_.random, {a_, b_, sink_, random_params_[1]});
  }
  if (pipe_.chase) chase_group_ = bind(pipe_.chase, {chain_, state_, chase_params_});
  return gpu_.check_errors();
}

void Engine::release() {
  // Destroy the large buffers now rather than when the last reference goes: the next, halved
  // attempt should not compete with them for memory.
  for (wgpu::Buffer* b : {&a_, &b_, &chain_}) {
    if (*b) b->Destroy();
    *b = nullptr;
  }
  state_ = sink_ = read_params_ = copy_params_ = chase_params_ = nullptr;
  for (int i = 0; i < 2; ++i) {
    write_params_[i] = random_params_[i] = nullptr;
    read_groups_[i] = write_groups_[i] = copy_groups_[i] = random_groups_[i] = nullptr;
  }
  chase_group_ = nullptr;
}

Status Engine::setup() {
  const wgpu::Limits& l = gpu_.limits();
  auto plan = plan_working_set(o_.working_set_mib, o_.min_working_set_mib,
                               AdapterCaps{l.maxBufferSize, l.maxStorageBufferBindingSize,
                                           l.maxComputeWorkgroupsPerDimension});
  if (!plan) return std::move(plan).error();
  ws_.requested_bytes = plan->requested_bytes;
  ws_.floor_bytes = std::min(o_.min_working_set_mib * kMiB, plan->requested_bytes);
  if (plan->capped) ws_.reductions.push_back(plan->reason);
  emit(ProgressKind::Stage, 0, "set-up: compile");
  if (auto st = compile(); !st) return st;

  std::uint64_t bytes = plan->bytes;
  for (;;) {
    if (cancelled()) return make_error(ErrorKind::Cancelled, "cancelled before the first phase");
    emit(ProgressKind::Stage, 0, fmt::format("set-up: allocate 2 x {}", format_mib(bytes)));
    auto st = allocate(bytes);
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

  // Hashed data in both buffers before the first phase: no page is untouched or zero (seed 002).
  emit(ProgressKind::Stage, 0, "set-up: fill");
  if (auto st = gpu_.fill_hashed(a_, bytes, kFillSeedA); !st) return st;
  if (auto st = gpu_.fill_hashed(b_, bytes, kFillSeedB); !st) return st;
  content_a_ = {Content::Kind::Hashed, kFillSeedA};
  content_b_ = {Content::Kind::Hashed, kFillSeedB};
  if (selected(Phase::Latency)) {
    if (auto st = build_chain(); !st) return st;
  }
  return gpu_.check_errors();
}

// The latency cycle: Sattolo's algorithm on the CPU (one cycle through every slot), checked, then
// scattered into the 64-byte slots of the chain buffer on the GPU.
Status Engine::build_chain() {
  emit(ProgressKind::Stage, 0, "set-up: latency cycle");
  if (g_.slots < 2 || g_.slots > std::numeric_limits<std::uint32_t>::max() / kSlotWords) {
    return make_error(ErrorKind::Failed, fmt::format("{} latency slots do not fit the chase's u32 indices", g_.slots));
  }
  next_ = sattolo_cycle(static_cast<std::uint32_t>(g_.slots), o_.cycle_seed);
  if (!is_single_cycle(next_)) {
    return make_error(ErrorKind::Failed, "the latency chain is not a single cycle (Sattolo's algorithm broken?)");
  }
  auto compact = gpu_.buffer_with(std::span<const std::uint32_t>(next_), wgpu::BufferUsage::Storage, "memory cycle");
  if (!compact) return std::move(compact).error();
  auto params = gpu_.buffer(16, kUniform, "memory scatter params");
  if (!params) return std::move(params).error();
  const Params4 p{static_cast<std::uint32_t>(g_.slots), kSlotWords, 0, 0};
  gpu_.write(*params, 0, &p, sizeof(p));
  const wgpu::BindGroup group = bind(pipe_.scatter, {*compact, chain_, *params});
  const auto groups = static_cast<std::uint32_t>((g_.slots + kWorkgroupSize - 1) / kWorkgroupSize);
  const std::uint32_t x = std::min<std::uint32_t>(groups, 32768);
  auto st = gpu_.run_pass([&](wgpu::ComputePassEncoder& pass) {
    pass.SetPipeline(pipe_.scatter);
    pass.SetBindGroup(0, group);
    pass.DispatchWorkgroups(x, (groups + x - 1) / x);
  });
  if (!st) return st;
  compact->Destroy();
  const Params4 start{0, 0, 0, 0};  // the chase starts at slot 0 (word 0)
  gpu_.write(state_, 0, &start, sizeof(start));
  total_hops_ = 0;
  return ok();
}

// ---- phases ------------------------------------------------------------------------------------

BenchmarkResult Engine::base_row(std::size_t index, Phase p) const {
  BenchmarkResult r;
  r.index = index;
  r.id = phase_id(p);
  r.category = "memory";
  r.statistic = Statistic::Median;
  r.statistic_reason = kStatisticReason;
  r.wgsl_hash = gpu::source_hash(kernel_source(kernel_name(p)));
  r.metric = {"bytes", "B", "Bytes moved"};
  switch (p) {
    case Phase::Read:
      r.label = "Sequential read";
      r.description = "Four independent 16-byte loads per invocation, grid-stride, XOR-folded and kept by a sentinel "
                      "compare; consecutive dispatches read A then B. Counts the working set read per dispatch.";
      r.metric.name = "Bytes read";
      break;
    case Phase::Write:
      r.label = "Sequential write";
      r.description = "Four 16-byte stores per invocation, grid-stride, data varying per element; consecutive "
                      "dispatches write B then A. Counts the working set written per dispatch.";
      r.metric.name = "Bytes written";
      break;
    case Phase::Copy:
      r.label = "Copy";
      r.description = "Load from one buffer, store to the other; consecutive dispatches copy A to B then B to A. "
                      "Counts read + write: twice the working set per dispatch.";
      r.metric.name = "Bytes read + written";
      break;
    case Phase::Random:
      r.label = "Random gather";
      r.description = "1M invocations, 16 gathers of 16 bytes each from both buffers at xorshift addresses. Counts "
                      "256 MiB of useful bytes per dispatch; also G accesses/s.";
      r.metric.name = "Useful bytes gathered";
      break;
    case Phase::Latency:
      r.label = "Dependent-load latency";
      r.description = "One invocation follows a single random cycle (Sattolo) through slots 64 bytes apart; each "
                      "address depends on the previous load, so time per hop approximates a round trip to memory, "
                      "TLB misses included. Rate in loads/s; ns per load in the parameters.";
      r.metric = {"loads", "load", "Dependent loads"};
      break;
    case Phase::Sustain:
      r.label = "Sustained copy";
      r.description = "The copy kernel continuously; median of the last 60 % of samples, and retention: that median "
                      "divided by the median of the first 20 %.";
      r.metric.name = "Bytes read + written";
      break;
  }
  return r;
}

BenchmarkResult Engine::run_phase(std::size_t index, Phase p) {
  BenchmarkResult row = base_row(index, p);
  const auto started = Clock::now();
  auto finish = [&]() {
    row.duration_s = seconds(Clock::now() - started);
    return row;
  };
  auto stop_cancelled = [&](const char* message) {
    fatal_ = make_error(ErrorKind::Cancelled, "cancelled");
    row.status = RowStatus::Cancelled;
    row.message = message;
    return finish();
  };
  // Transitions (seed 001): the GPU idles between phases.
  if (index > 0 && o_.transition_ms > 0) {
    emit(ProgressKind::Stage, index, "transition");
    if (!idle(o_.transition_ms)) return stop_cancelled("cancelled before the phase started");
  }
  if (cancelled()) return stop_cancelled("cancelled before the phase started");
  // Copy and sustain validate that the timed copies moved data: A and B must differ beforehand.
  if ((p == Phase::Copy || p == Phase::Sustain) && content_a_ == content_b_) {
    emit(ProgressKind::Stage, index, "refill");
    const std::uint32_t seed = kRefillSeed + refills_++;
    if (auto st = gpu_.fill_hashed(b_, g_.bytes, seed); !st) {
      fatal_ = st.error();
      row.status = RowStatus::Error;
      row.message = st.error().message;
      return finish();
    }
    content_b_ = {Content::Kind::Hashed, seed};
  }
  alternation_ = 0;
  // One untimed dispatch first: some drivers compile a pipeline or fault pages in on first use, and
  // a one-off cost in the first calibration pass would stop the 4x growth far short of the target.
  emit(ProgressKind::Stage, index, "prime");
  if (p == Phase::Latency) set_chase_iters(kHopsPerUnit);
  if (auto st = gpu_.run_pass([&](wgpu::ComputePassEncoder& pass) { encode(p, pass, 1); }); !st) {
    fatal_ = st.error();
    row.status = RowStatus::Error;
    row.message = st.error().message;
    return finish();
  }
  auto timing = measure(index, p);
  if (!timing) {
    if (timing.error().kind == ErrorKind::Cancelled) {
      return stop_cancelled("cancelled while measuring; nothing further was submitted");
    }
    fatal_ = timing.error();
    row.status = RowStatus::Error;
    row.message = timing.error().message;
    return finish();
  }
  // What the timed dispatches left in the buffers (the first dispatch of a phase uses group 0).
  if (p == Phase::Write) {
    if (alternation_ >= 1) content_b_ = {Content::Kind::Written, kWriteSeedB};
    if (alternation_ >= 2) content_a_ = {Content::Kind::Written, kWriteSeedA};
  } else if ((p == Phase::Copy || p == Phase::Sustain) && alternation_ >= 1) {
    content_b_ = content_a_;
  }
  fill_row(row, p, *timing);
  if (cancelled()) {
    // Unvalidated numbers are never reported.
    row.value = row.value_low = row.value_high = 0;
    return stop_cancelled("cancelled before validation; nothing further was submitted");
  }
  emit(ProgressKind::Stage, index, "validate");
  auto v = validate(p);
  if (!v) {
    if (v.error().kind == ErrorKind::DeviceLost || v.error().kind == ErrorKind::GpuError) fatal_ = v.error();
    row.status = RowStatus::Error;
    row.message = fmt::format("validation failed: {}", v.error().message);
    row.value = row.value_low = row.value_high = 0;
    return finish();
  }
  row.validation = std::move(*v);
  return finish();
}

void Engine::set_chase_iters(std::uint64_t hops) {
  const auto v = static_cast<std::uint32_t>(hops);
  if (v == chase_iters_) return;
  // Queued before the pass's submit, outside its timestamps.
  const Params4 p{v, 0, 0, 0};
  gpu_.write(chase_params_, 0, &p, sizeof(p));
  chase_iters_ = v;
}

void Engine::encode(Phase p, wgpu::ComputePassEncoder& pass, std::uint32_t units) {
  auto alternate = [&](const wgpu::ComputePipeline& pipeline, const wgpu::BindGroup (&groups)[2],
                       std::uint32_t workgroups) {
    pass.SetPipeline(pipeline);
    for (std::uint32_t r = 0; r < units; ++r) {
      pass.SetBindGroup(0, groups[alternation_++ % 2]);
      pass.DispatchWorkgroups(workgroups);
    }
  };
  switch (p) {
    case Phase::Read: alternate(pipe_.read, read_groups_, g_.workgroups); break;
    case Phase::Write: alternate(pipe_.write, write_groups_, g_.workgroups); break;
    case Phase::Copy:
    case Phase::Sustain: alternate(pipe_.copy, copy_groups_, g_.workgroups); break;
    case Phase::Random: alternate(pipe_.random, random_groups_, g_.random_workgroups); break;
    case Phase::Latency:
      // One dispatch of units x kHopsPerUnit dependent loads; the position lives in `state`.
      pass.SetPipeline(pipe_.chase);
      pass.SetBindGroup(0, chase_group_);
      pass.DispatchWorkgroups(1);
      total_hops_ += std::uint64_t{units} * kHopsPerUnit;
      break;
  }
}

// The phase engine loop (seed 001): the one place a memory pass is timed.
Expected<PhaseTiming> Engine::measure(std::size_t index, Phase p) {
  const bool latency = p == Phase::Latency;
  std::vector<std::string> notes;
  std::uint64_t pass_index = 0;
  // One arbiter per phase (as run_suite has one per benchmark): each phase records its own clock,
  // and a timer that misbehaved in one phase is given its chance again in the next.
  measure::TimingArbiter arbiter(gpu_.has_timestamps(), gpu_.empty_submit_ms());
  for (int attempt = 0;; ++attempt) {
    const bool wall = arbiter.clock() == measure::ClockKind::WallClock;
    measure::PhaseConfig cfg;
    // ~40 ms of GPU work per sample (latency: ~45 ms of hops); twice that on the wall clock, where
    // the submit round trip is a larger share of a short sample.
    cfg.target_sample_ms = (wall ? 2.0 : 1.0) * (latency ? o_.latency_sample_ms : o_.sample_ms);
    cfg.budget_ms = latency ? o_.latency_budget_ms : p == Phase::Sustain ? o_.sustain_ms : o_.budget_ms;
    cfg.warmup_max_ms = o_.warmup_ms;
    cfg.min_samples = o_.min_samples;
    cfg.hard_stop_factor = o_.hard_stop_factor;
    if (latency) cfg.max_dispatches = 1u << 21;  // units of 1024 hops: at most 2^31 hops, a u32 uniform
    measure::PhaseSampler sampler(cfg);
    PhaseTiming t;
    t.target_ms = cfg.target_sample_ms;
    t.budget_ms = cfg.budget_ms;
    t.restarts = attempt;
    std::optional<Clock::time_point> first_submit;
    std::string last_stage;
    std::size_t recorded = 0;
    bool restart = false;
    for (;;) {
      if (cancelled()) return make_error(ErrorKind::Cancelled, "cancelled");
      const measure::Action a = sampler.next();
      if (a.kind == measure::Action::Kind::Done) break;
      std::string stage = a.stage == measure::Action::Stage::Sample ? fmt::format("sample {}", recorded + 1)
                                                                     : measure::to_string(a.stage);
      if (stage != last_stage) {
        emit(ProgressKind::Stage, index, stage);
        last_stage = std::move(stage);
      }
      if (o_.before_pass) o_.before_pass(p, pass_index);
      ++pass_index;
      if (latency) set_chase_iters(std::uint64_t{a.repetitions} * kHopsPerUnit);
      const auto submitted = Clock::now();
      auto raw = gpu_.time_pass([&](wgpu::ComputePassEncoder& pass) { encode(p, pass, a.repetitions); });
      const auto completed = Clock::now();
      if (!raw) return std::move(raw).error();
      // time_pass checks for errors before its timestamp read-back; a loss during it lands here.
      if (auto st = gpu_.check_errors(); !st) return std::move(st).error();
      const measure::TimedSample s = arbiter.resolve(measure::RawTiming{raw->gpu_ms, raw->wall_ms});
      if (!wall && s.clock == measure::ClockKind::WallClock) {
        // Seed 001: a timestamp that is negative or longer than the round trip is discarded, not
        // replaced by the wall clock, so a phase never mixes clocks. Repeated failures demote the
        // timer, and the phase starts again on the wall clock with its longer samples.
        notes.push_back(fmt::format("{} pass discarded: {}", measure::to_string(a.stage), s.note));
        if (arbiter.demoted()) {
          restart = true;
          break;
        }
        sampler.add(std::numeric_limits<double>::quiet_NaN());
        continue;
      }
      if (a.stage == measure::Action::Stage::Calibrate) t.calibration.emplace_back(a.repetitions, s.ms);
      if (a.recorded && std::isfinite(s.ms) && s.ms > 0) {
        if (!first_submit) first_submit = submitted;
        t.sample_end_s.push_back(seconds(completed - *first_submit));
        ++recorded;
      }
      sampler.add(s.ms);
    }
    if (restart) {
      notes.push_back("GPU timestamps failed the wall-clock cross-check repeatedly: phase restarted on the wall clock");
      continue;
    }
    t.report = sampler.report();
    t.clock = wall ? measure::ClockKind::WallClock : measure::ClockKind::GpuTimestamp;
    t.timestamp_strikes = arbiter.strikes();
    t.notes = std::move(notes);
    return t;
  }
}

void Engine::fill_row(BenchmarkResult& row, Phase p, const PhaseTiming& t) const {
  const auto& rep = t.report;
  const bool latency = p == Phase::Latency;
  const double w = static_cast<double>(g_.bytes);
  switch (p) {
    case Phase::Read: row.work = {.bytes_read = w}; break;
    case Phase::Write: row.work = {.bytes_written = w}; break;
    case Phase::Copy:
    case Phase::Sustain: row.work = {.bytes_read = w, .bytes_written = w}; break;
    case Phase::Random: {
      const double gathers = static_cast<double>(kRandomInvocations) * kGathersPerInvocation;
      row.work = {.bytes_read = gathers * kElementBytes, .operations = gathers};
      break;
    }
    case Phase::Latency: row.work = {.operations = 1}; break;  // one repetition = one dependent load
  }
  // A repetition is one dispatch (latency: one hop); a sample is one pass of `per_pass` of them.
  const double per_pass = static_cast<double>(rep.dispatches) * (latency ? kHopsPerUnit : 1);
  const double count = row.work.count(row.metric);
  auto per_rep = [&](const std::vector<double>& ms) {
    std::vector<double> out;
    out.reserve(ms.size());
    for (double x : ms) out.push_back(x / per_pass);
    return out;
  };
  // Sustain rejects outliers inside its windows (sustain.hpp), not over the whole run as the engine
  // does: its kept and rejected samples are the windows' decisions, so that the row's statistics, its
  // counts and its timeline say the same thing.
  std::vector<double> kept_ms = rep.kept_ms, rejected_ms = rep.rejected_ms;
  std::vector<double> rates;  // sustain: bytes/s of every pass in time order
  SustainSummary sustain;
  if (p == Phase::Sustain) {
    for (double ms : rep.samples_ms) rates.push_back(count * per_pass / (ms / 1000.0));
    sustain = summarize_sustain(rates);
    kept_ms.clear();
    rejected_ms.clear();
    for (std::size_t i = 0; i < rates.size(); ++i) {
      (sustain.rejected[i] ? rejected_ms : kept_ms).push_back(rep.samples_ms[i]);
    }
  }
  row.samples_ms = per_rep(kept_ms);
  const measure::Stats st = measure::compute_stats(row.samples_ms);
  row.stats = {st.count, st.min, st.max, st.mean, st.median, st.stddev, st.ci95, st.cv, st.q1, st.q3, st.iqr};
  row.knob_name = latency ? "hops per sample" : "dispatches per sample";
  row.knob = static_cast<std::uint64_t>(per_pass);
  row.repetitions = static_cast<std::uint32_t>(per_pass);
  for (const auto& [units, ms] : t.calibration) {
    const double n = latency ? double(units) * kHopsPerUnit : double(units);
    row.calibration.emplace_back(static_cast<std::uint64_t>(n), ms / n);
  }
  row.stop_reason = rep.hit_hard_stop ? "hard-stop" : "budget";
  row.timing_method = measure::to_string(t.clock);
  row.timestamp_strikes = t.timestamp_strikes;
  row.timing_notes = t.notes;
  row.notes = rep.notes;
  if (st.count > 0 && st.median > 0) {
    row.time_ms = st.median;
    row.value = count / (st.median / 1000.0);
    row.value_low = st.q3 > 0 ? count / (st.q3 / 1000.0) : 0;
    row.value_high = st.q1 > 0 ? count / (st.q1 / 1000.0) : 0;
  } else {
    row.status = RowStatus::Error;
    row.message = "no usable sample";
  }

  nlohmann::json& j = row.parameters;
  j["working_set_bytes"] = g_.bytes;
  j["requested_working_set_bytes"] = ws_.requested_bytes;
  j["ranked"] = ws_.ranked;
  j["unranked"] = !ws_.ranked;
  if (!ws_.ranked) j["unranked_reason"] = ws_.unranked_reason;
  j["buffers"] = 2;
  j["element"] = "vec4<u32>";
  j["clock"] = measure::to_string(t.clock);
  // Seed 001: wall-clock samples are the round trip minus this (the median empty submit at start-up).
  if (t.clock == measure::ClockKind::WallClock) j["empty_submit_ms"] = gpu_.empty_submit_ms();
  j["target_sample_ms"] = t.target_ms;
  j["budget_ms"] = t.budget_ms;
  j["warmup_ms"] = rep.warmup_ms_spent;
  j["sampled_ms"] = rep.sampled_ms;
  j["samples"] = rep.samples_ms.size();
  j["kept_samples"] = kept_ms.size();
  j["rejected_samples"] = rejected_ms.size();
  j["rejected_ms"] = rejected_ms;  // whole passes, like pass_ms
  j["invalid_samples"] = rep.invalid_ms.size();
  j["pass_ms"] = rep.samples_ms;       // every recorded pass in time order, before rejection
  j["cv"] = rep.cv;
  j["median_pass_ms"] = rep.median_ms;
  j["phase_restarts"] = t.restarts;
  if (latency) {
    j["slots"] = g_.slots;
    j["slot_bytes"] = kSlotBytes;
    j["chain_bytes"] = g_.slots * kSlotBytes;
    j["cycle"] = "single cycle by Sattolo's algorithm, scattered into place on the GPU";
    j["cycle_seed"] = o_.cycle_seed;
    j["hops_per_sample"] = per_pass;
    j["total_hops"] = total_hops_;
    j["ns_per_load"] = st.median * 1e6;
    j["workgroup_size"] = 1;
    j["invocations"] = 1;
  } else {
    j["workgroup_size"] = kWorkgroupSize;
    j["workgroups"] = p == Phase::Random ? g_.random_workgroups : g_.workgroups;
    j["invocations"] = p == Phase::Random ? kRandomInvocations : g_.invocations;
    j["dispatches_per_sample"] = rep.dispatches;
    j["bytes_per_dispatch"] = row.work.bytes_read + row.work.bytes_written;
    j["alternation"] = p == Phase::Read    ? "reads A then B"
                       : p == Phase::Write ? "writes B then A"
                       : p == Phase::Random ? "gathers from A and B; consecutive dispatches use different seeds"
                                            : "copies A to B then B to A";
    j["median_gbps"] = row.value / 1e9;
  }
  if (p == Phase::Random) {
    j["gathers_per_invocation"] = kGathersPerInvocation;
    j["bytes_per_gather"] = kElementBytes;
    j["g_accesses_per_s"] = st.median > 0 ? row.work.operations / (st.median / 1000.0) / 1e9 : 0;
  }
  if (p == Phase::Sustain) {
    // Seed 002: the median of the last 60 % of samples, and retention against the first 20 %.
    const SustainSummary& s = sustain;
    nlohmann::json timeline = nlohmann::json::array();
    for (std::size_t i = 0; i < rates.size(); ++i) {
      timeline.push_back({{"t_s", i < t.sample_end_s.size() ? t.sample_end_s[i] : 0.0},
                          {"gbps", rates[i] / 1e9},
                          {"ms", rep.samples_ms[i]},
                          {"rejected", static_cast<bool>(s.rejected[i])}});
    }
    j["sustain_ms"] = t.budget_ms;
    j["retention"] = s.retention;
    j["retention_reading"] = retention_reading(s.retention);
    j["first20_median_gbps"] = s.first_median / 1e9;
    j["last60_median_gbps"] = s.last_median / 1e9;
    j["first20_samples"] = s.first_count;
    j["last60_samples"] = s.last_count;
    j["timeline"] = std::move(timeline);
    if (s.last_median > 0) {
      row.value = s.last_median;
      row.time_ms = count / s.last_median * 1000.0;
      row.value_low = s.last_q1;
      row.value_high = s.last_q3;
      j["median_gbps"] = row.value / 1e9;
    }
  }
}

// ---- validation --------------------------------------------------------------------------------

Expected<std::string> Engine::probe_sink(const wgpu::ComputePipeline& pipeline, const wgpu::BindGroup& group,
                                         std::uint32_t workgroups, const wgpu::Buffer& params, const Params4& probe,
                                         const Params4& restore, std::uint32_t t, const Vec4& want,
                                         std::string_view what) {
  // The sentinels become invocation t's true fold: the kernel must then store exactly that value,
  // which proves every load of that invocation happened and read what the host expects.
  gpu_.write(params, 0, &probe, sizeof(probe));
  const std::vector<std::uint32_t> zero(256 * 4, 0);
  gpu_.write(sink_, 0, zero.data(), zero.size() * sizeof(std::uint32_t));
  auto st = gpu_.run_pass([&](wgpu::ComputePassEncoder& pass) {
    pass.SetPipeline(pipeline);
    pass.SetBindGroup(0, group);
    pass.DispatchWorkgroups(workgroups);
  });
  gpu_.write(params, 0, &restore, sizeof(restore));
  if (!st) return std::move(st).error();
  auto got = gpu_.read_as<std::uint32_t>(sink_, (t & 255u) * kElementBytes, 4);
  if (!got) return std::move(got).error();
  const Vec4 g{(*got)[0], (*got)[1], (*got)[2], (*got)[3]};
  if (g != want) {
    return make_error(ErrorKind::Failed,
                      fmt::format("{}: invocation {} folded {}, expected {}", what, t, hex(g), hex(want)));
  }
  return fmt::format("{}: invocation {}'s fold matched the host", what, t);
}

Expected<std::uint64_t> Engine::spot_check(const wgpu::Buffer& buffer, const Content& c, std::string_view name) {
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

Expected<std::string> Engine::validate(Phase p) {
  switch (p) {
    case Phase::Read: {
      const std::uint32_t threads = g_.invocations;
      const Params4 restore{threads, kMagic0, kMagic1, 0};
      const std::uint32_t ta = (threads / 2 + 77) % threads, tb = (threads / 3 + 5) % threads;
      const Vec4 wa = read_fold(content_a_, ta, threads), wb = read_fold(content_b_, tb, threads);
      auto a = probe_sink(pipe_.read, read_groups_[0], g_.workgroups, read_params_, {threads, wa[0], wa[1], 0},
                          restore, ta, wa, "buffer A");
      if (!a) return a;
      auto b = probe_sink(pipe_.read, read_groups_[1], g_.workgroups, read_params_, {threads, wb[0], wb[1], 0},
                          restore, tb, wb, "buffer B");
      if (!b) return b;
      return fmt::format("sentinels set to one invocation's true XOR fold of its 4 loads; {}; {}", *a, *b);
    }
    case Phase::Write:
    case Phase::Copy:
    case Phase::Sustain: {
      // Write: both buffers hold the host formula; copy: after the first copy (A to B) both
      // buffers hold what A held before the phase, which differed from B.
      auto na = spot_check(a_, content_a_, "A");
      if (!na) return std::move(na).error();
      auto nb = spot_check(b_, content_b_, "B");
      if (!nb) return std::move(nb).error();
      const char* what = p == Phase::Write ? "the write kernel's per-element values (host formula)"
                                           : "what A held before the timed copies (B differed)";
      return fmt::format("spot-checked {} elements of each buffer ({} windows of 4 KiB) against {}", *na,
                         kSpotWindows, what);
    }
    case Phase::Random: {
      const auto mask = static_cast<std::uint32_t>(g_.elements - 1);
      const std::uint32_t t = kRandomInvocations / 2 + 123;
      const Vec4 want = random_fold(content_a_, content_b_, t, kRandomSeeds[0], mask);
      auto r = probe_sink(pipe_.random, random_groups_[0], g_.random_workgroups, random_params_[0],
                          {mask, kRandomSeeds[0], want[0], want[1]}, {mask, kRandomSeeds[0], kMagic0, kMagic1}, t,
                          want, "gathers from A and B");
      if (!r) return r;
      return fmt::format("sentinels set to one invocation's true fold of its 16 xorshift gathers; {}", *r);
    }
    case Phase::Latency: {
      auto got = gpu_.read_as<std::uint32_t>(state_, 0, 1);
      if (!got) return std::move(got).error();
      const std::uint32_t want = walk(next_, 0, total_hops_);
      if ((*got)[0] != want * kSlotWords) {
        return make_error(ErrorKind::Failed,
                          fmt::format("after {} hops the chase stands at word {}, the host's walk at slot {} "
                                      "(word {})",
                                      total_hops_, (*got)[0], want, want * kSlotWords));
      }
      return fmt::format("the cycle is single ({} slots, checked on the host); after {} hops the GPU's position "
                         "matches the host's walk (slot {})",
                         g_.slots, total_hops_, want);
    }
  }
  return make_error(ErrorKind::Failed, "unknown phase");
}

// ---- the run -----------------------------------------------------------------------------------

MemoryRun Engine::run() {
  if (auto st = validate_options(o_); !st) {
    run_.fatal = st.error();
    return run_;
  }
  t0_ = Clock::now();
  if (auto st = setup(); !st) {
    fatal_ = st.error();
    release();
  } else {
    run_.working_set = ws_;
    if (o_.on_working_set) o_.on_working_set(ws_);
  }
  const std::vector<double> estimates = estimate_phase_seconds(o_, gpu_.has_timestamps());
  emit(ProgressKind::SuiteStart, 0);
  for (std::size_t i = 0; i < o_.phases.size(); ++i) {
    const Phase p = o_.phases[i];
    emit(ProgressKind::BenchmarkStart, i, "start", estimates[i]);
    BenchmarkResult row;
    if (fatal_) {
      row = base_row(i, p);
      row.status = RowStatus::Cancelled;
      row.message = fmt::format("not run: {}", fatal_->message);
    } else {
      row = run_phase(i, p);
    }
    emit(ProgressKind::BenchmarkEnd, i);
    deliver(std::move(row));
  }
  run_.fatal = fatal_;
  return run_;
}

}  // namespace

MemoryRun run_memory(gpu::Context& gpu, const MemoryOptions& options) {
  Engine engine(gpu, options);
  return engine.run();
}

}  // namespace wgb::memory
