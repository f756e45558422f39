// webgpu-bench CUDA reference: the suite's kernels written natively, so a WebGPU rate can be read as a
// fraction of what CUDA gets from the same GPU (bandwidth, latency, ALU and the two tensor-core probes).
// Each probe: setup (not timed), calibration of its loop count where it has one, warm-up, then
// `--samples` launches, each timed alone with a pair of CUDA events; best and median are reported,
// and every probe's result is validated on the host afterwards (a failed check reports no number).
//
// Built by bench/cuda_reference.sh (nvcc -O3 -arch=sm_90 -std=c++17); docs/cuda-reference.md.
//
// Exit codes: 0 all probes valid, 1 a probe failed validation, 2 usage, 3 no CUDA device,
// 4 a CUDA error, 5 the JSON file could not be written.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "common.cuh"
#include "host_check.hpp"
#include "kernels.cuh"
#include "support.hpp"

namespace wgbref {
namespace {

constexpr int kExitOk = 0, kExitInvalid = 1, kExitUsage = 2, kExitNoDevice = 3, kExitCuda = 4, kExitIo = 5;

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Options {
  std::string json_path;           // empty: JSON on stdout
  int samples = 10;                // timed launches per probe
  std::uint64_t bandwidth_bytes = 1ULL << 30;
  std::uint64_t bandwidth_threads = 0;  // threads of the bandwidth kernels; 0: one step of four per thread
  std::uint64_t api_bytes = 64ULL << 20;  // bytes per transfer of the API-cost probes (the suite's default)
  double target_ms = 10.0;         // per-launch duration the ALU/MMA loop counts are calibrated to
  double latency_target_ms = 40.0; // per-launch duration of the dependent-load walks
  int device = 0;
  std::vector<std::string> only;
  std::string sass_check_path;
  bool list = false;
  bool self_test = false;
};

// One probe's outcome, as written to the JSON.
struct Result {
  std::string id, label;
  std::vector<std::string> webgpu_ids;
  std::string unit;             // GB/s, TFLOP/s, TOPS, ns/hop
  bool higher_is_better = true;
  double work_per_launch = 0.0; // in work_unit
  std::string work_unit;        // bytes, FLOP, OP, hops
  double unit_scale = 1.0;      // rate unit = work_unit per second / unit_scale
  std::vector<double> samples_ms;
  std::string status = "not-run";  // ok, invalid, error, not-run
  bool valid = false;
  std::string detail;
  std::vector<std::pair<std::string, std::string>> params;  // key, JSON literal
  int sm_clock_mhz = -1;
  long long clock_event_reasons = -1;

  double value_at(double ms) const {
    if (!(ms > 0.0)) return NAN;
    if (!higher_is_better) return ms * 1e6 / work_per_launch;  // ns per hop
    return work_per_launch / (ms * 1e-3) / unit_scale;
  }
  double best() const {
    if (samples_ms.empty()) return NAN;
    return value_at(*std::min_element(samples_ms.begin(), samples_ms.end()));
  }
  double median() const { return value_at(median_of(samples_ms)); }
  void param(const std::string& k, double v) { params.emplace_back(k, json_number(v)); }
  void param(const std::string& k, const std::string& v) { params.emplace_back(k, json_string(v)); }
};

struct Env {
  explicit Env(Options o) : opt(std::move(o)) {}
  Options opt;
  cudaDeviceProp prop{};
  int sms = 0;
  EventTimer timer;
  Nvml* nvml = nullptr;
  int launches_per_sample = 1;  // see sample()
};

// ---------------------------------------------------------------------------------------------
// Timing helpers

// About 50 us at H200 clocks: several times the host's launch call.
constexpr long long kSpinCycles = 100000;
// Launches per timing of the *-batched probes (an even count keeps the A/B alternation in step).
constexpr int kBatchedLaunches = 16;

// Times what `enqueue` launches with an event pair, behind a spin kernel (see spin_kernel).
template <class F>
double timed(Env& env, F&& enqueue) {
  spin_kernel<<<1, 1>>>(kSpinCycles);
  WGB_CK_LAUNCH("spin_kernel");
  return env.timer.time_ms(std::forward<F>(enqueue));
}

// `warmups` untimed launches, then opt.samples timings of env.launches_per_sample launches each
// (one by default: each launch timed alone; the *-batched probes time back-to-back launches, as the
// suite times back-to-back dispatches in one pass); a sample is the time per launch. launch(i) gets
// a running index, so probes that alternate buffers keep alternating across warm-up and samples.
template <class Launch>
std::vector<double> sample(Env& env, int warmups, Launch&& launch) {
  int i = 0;
  for (; i < warmups; ++i) {
    launch(i);
  }
  WGB_CK(cudaDeviceSynchronize());
  const int per_sample = std::max(1, env.launches_per_sample);
  std::vector<double> ms;
  for (int s = 0; s < env.opt.samples; ++s) {
    ms.push_back(timed(env, [&] {
                   for (int k = 0; k < per_sample; ++k, ++i) launch(i);
                 }) /
                 per_sample);
  }
  return ms;
}

// The loop count that makes one launch last about target_ms (the first launches also ramp the
// clocks up). launch(count) enqueues one launch with that count.
template <class Launch>
std::uint32_t calibrate(Env& env, double target_ms, std::uint32_t start, std::uint32_t max_count, Launch&& launch) {
  std::uint32_t count = std::min(start, max_count);
  for (int round = 0; round < 12; ++round) {
    const double ms = timed(env, [&] { launch(count); });
    if (ms >= 0.85 * target_ms && ms <= 1.2 * target_ms) break;
    const double scale = ms > 0.0 ? std::clamp(target_ms / ms, 0.05, 64.0) : 64.0;
    const auto next = static_cast<std::uint32_t>(
        std::clamp<double>(std::llround(count * scale), 1.0, static_cast<double>(max_count)));
    if (next == count) break;
    count = next;
  }
  return count;
}

template <class Kernel>
unsigned full_wave_blocks(const Env& env, Kernel kernel) {
  int per_sm = 0;
  WGB_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlock, 0));
  if (per_sm < 1) throw CudaFailure("occupancy calculation gave 0 resident blocks per SM");
  return static_cast<unsigned>(env.sms * per_sm);
}

std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* f, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof(buf), f, ap);
  va_end(ap);
  return buf;
}

// ---------------------------------------------------------------------------------------------
// Bandwidth: two buffers (A, B) of opt.bandwidth_bytes, refilled with hashed data by each probe.

struct BandwidthBuffers {
  DeviceArray<uint4> a, b, sink;
  DeviceArray<unsigned long long> verdict;  // mismatches, first mismatch
  std::uint32_t count;                      // vec4 per buffer
  unsigned blocks;
  std::uint32_t threads;
  Memory memory;                            // where A and B come from

  BandwidthBuffers(std::uint64_t bytes, std::uint64_t want_threads, Memory mem = Memory::Plain)
      : a(bytes / 16, mem),
        b(bytes / 16, mem),
        sink(256),
        verdict(2),
        count(static_cast<std::uint32_t>(bytes / 16)),
        memory(mem) {
    // One step of four vec4 per thread, as the WGSL kernels dispatch (grid-stride tail otherwise);
    // --bandwidth-threads asks for that many threads instead (whole blocks), like the suite's
    // compute_threads for its streaming probes.
    const std::uint64_t want = want_threads != 0 ? want_threads : count / 4;
    blocks = static_cast<unsigned>(std::clamp<std::uint64_t>((want + kBlock - 1) / kBlock, 1, 65535));
    threads = blocks * kBlock;
  }
  std::uint64_t words() const { return static_cast<std::uint64_t>(count) * 4; }
  void fill(DeviceArray<uint4>& buf, std::uint32_t seed) {
    fill_hashed_kernel<<<4096, kBlock>>>(reinterpret_cast<std::uint32_t*>(buf.get()), words(), seed);
    WGB_CK_LAUNCH("fill_hashed_kernel");
  }
  // Number of words of `buf` that differ from the pattern, and the first such index.
  std::pair<unsigned long long, unsigned long long> verify(const DeviceArray<uint4>& buf, std::uint32_t seed,
                                                           WriteData pattern) {
    const std::vector<unsigned long long> init{0ULL, ~0ULL};
    verdict.upload(init);
    verify_kernel<<<4096, kBlock>>>(reinterpret_cast<const std::uint32_t*>(buf.get()), words(), seed,
                                    pattern, verdict.get(), verdict.get() + 1);
    WGB_CK_LAUNCH("verify_kernel");
    const auto v = verdict.download(0, 2);
    return {v[0], v[1]};
  }
};

std::string verify_text(const char* name, std::pair<unsigned long long, unsigned long long> v) {
  if (v.first == 0) return "";
  return fmt("buffer %s: %llu words differ, first at word %llu; ", name, v.first, v.second);
}

void describe_bandwidth(Result& r, const BandwidthBuffers& bw, std::uint64_t bytes) {
  r.param("buffer_bytes", static_cast<double>(bytes));
  r.param("buffers", 2);
  r.param("element", "uint4 (vec4<u32>)");
  r.param("block_size", kBlock);
  r.param("blocks", bw.blocks);
  r.param("threads", bw.threads);
  r.param("memory", memory_name(bw.memory));
  r.work_unit = "bytes";
  r.unit = "GB/s";
  r.unit_scale = 1e9;
}

void run_read(Env& env, BandwidthBuffers& bw, Result& r) {
  const std::uint64_t bytes = static_cast<std::uint64_t>(bw.count) * 16;
  describe_bandwidth(r, bw, bytes);
  r.param("alternation", "A, B, A, ...");
  r.work_per_launch = static_cast<double>(bytes);
  bw.fill(bw.a, kSeedA);
  bw.fill(bw.b, kSeedB);
  bw.sink.zero();
  auto launch = [&](int i) {
    read_kernel<<<bw.blocks, kBlock>>>(i % 2 == 0 ? bw.a.get() : bw.b.get(), bw.sink.get(), bw.count, bw.threads,
                                       kMagic0, kMagic1);
    WGB_CK_LAUNCH("read_kernel");
  };
  r.samples_ms = sample(env, 2, launch);

  // The sentinels never matched while timing (the sink is still zero), ...
  const auto sink = bw.sink.download(0, 256);
  for (const uint4& v : sink) {
    if (v.x | v.y | v.z | v.w) {
      r.detail = "a sentinel compare matched during timing (the sink was written)";
      return;
    }
  }
  // ... and with the sentinels set to one thread's true fold over A, that thread writes it: every
  // one of its loads happened and returned the filled data.
  const std::uint32_t t = (bw.threads / 2 + 77) % bw.threads;
  const auto want = host::read_fold(t, bw.threads, bw.count, kSeedA);
  read_kernel<<<bw.blocks, kBlock>>>(bw.a.get(), bw.sink.get(), bw.count, bw.threads, want[0], want[1]);
  WGB_CK_LAUNCH("read_kernel (validation)");
  const uint4 got = bw.sink.download(t & 255U, 1)[0];
  if (got.x != want[0] || got.y != want[1] || got.z != want[2] || got.w != want[3]) {
    r.detail = fmt("thread %u folded %08x%08x%08x%08x, host expects %08x%08x%08x%08x", t, got.x, got.y, got.z, got.w,
                   want[0], want[1], want[2], want[3]);
    return;
  }
  r.valid = true;
  r.detail = fmt("no sentinel hit while timing; thread %u's XOR fold of its %u loads matched the host", t,
                 (bw.count - t + bw.threads - 1) / bw.threads);
}

// kRelaxed: the stores are st.relaxed.gpu (write_relaxed_kernel) instead of plain st.global.
// The store form of a write probe: the plain 16-byte store (the suite's), its st.relaxed.gpu form, and
// the element split into two 8-byte or four 4-byte stores (experiments).
enum class WriteForm { Vec4, Vec4RelaxedGpu, TwoV2, FourU32 };

// kData: what is written (CUDA's index pattern by default; the WGSL kernel's pattern or hashed words
// in the data experiments, 16-byte weak stores only).
template <WriteForm kForm, WriteData kData = WriteData::Index>
void run_write(Env& env, BandwidthBuffers& bw, Result& r) {
  static_assert(kData == WriteData::Index || kForm == WriteForm::Vec4);
  auto* kernel = kForm == WriteForm::Vec4RelaxedGpu ? write_relaxed_kernel
                 : kForm == WriteForm::TwoV2        ? write_split_kernel<TwoV2Store>
                 : kForm == WriteForm::FourU32      ? write_split_kernel<FourU32Store>
                 : kData != WriteData::Index        ? write_data_kernel<kData>
                                                    : write_kernel;
  const char* store = kForm == WriteForm::Vec4RelaxedGpu ? "st.relaxed.gpu.global.v4.u32"
                      : kForm == WriteForm::TwoV2        ? "2 x st.global.v2.u32 per element"
                      : kForm == WriteForm::FourU32      ? "4 x st.global.u32 per element"
                                                         : "st.global.v4.u32 (weak)";
  const std::uint64_t bytes = static_cast<std::uint64_t>(bw.count) * 16;
  describe_bandwidth(r, bw, bytes);
  r.param("alternation", "B, A, B, ...");
  r.param("store", store);
  r.param("data", kData == WriteData::Index  ? "word index XOR seed (CUDA's pattern)"
                  : kData == WriteData::Wgsl ? "element e = (e, e ^ seed, ~e, e + seed) (the WGSL kernel's pattern)"
                                             : "hashed words (lowbias32, the suite's fill)");
  r.work_per_launch = static_cast<double>(bytes);
  bw.fill(bw.a, kSeedA);
  bw.fill(bw.b, kSeedB);
  auto launch = [&](int i) {
    if (i % 2 == 0) {
      kernel<<<bw.blocks, kBlock>>>(bw.b.get(), bw.count, bw.threads, kSeedWriteB);
    } else {
      kernel<<<bw.blocks, kBlock>>>(bw.a.get(), bw.count, bw.threads, kSeedWriteA);
    }
    WGB_CK_LAUNCH("write kernel");
  };
  r.samples_ms = sample(env, 2, launch);
  const std::string bad = verify_text("A", bw.verify(bw.a, kSeedWriteA, kData)) +
                          verify_text("B", bw.verify(bw.b, kSeedWriteB, kData));
  r.valid = bad.empty();
  r.detail = r.valid ? fmt("every one of the %llu words of both buffers holds the written pattern",
                           static_cast<unsigned long long>(bw.words()))
                     : bad;
}

void run_copy(Env& env, BandwidthBuffers& bw, Result& r) {
  const std::uint64_t bytes = static_cast<std::uint64_t>(bw.count) * 16;
  describe_bandwidth(r, bw, bytes);
  r.param("alternation", "A->B, B->A, ...");
  r.param("counted", "bytes read + bytes written");
  r.work_per_launch = 2.0 * static_cast<double>(bytes);
  bw.fill(bw.a, kSeedA);
  bw.fill(bw.b, kSeedB);
  auto launch = [&](int i) {
    if (i % 2 == 0) {
      copy_kernel<<<bw.blocks, kBlock>>>(bw.a.get(), bw.b.get(), bw.count, bw.threads);
    } else {
      copy_kernel<<<bw.blocks, kBlock>>>(bw.b.get(), bw.a.get(), bw.count, bw.threads);
    }
    WGB_CK_LAUNCH("copy_kernel");
  };
  r.samples_ms = sample(env, 2, launch);
  // A's hashed words went to B and back: both must now hold A's original fill, every word.
  const std::string bad = verify_text("A", bw.verify(bw.a, kSeedA, WriteData::Hashed)) +
                          verify_text("B", bw.verify(bw.b, kSeedA, WriteData::Hashed));
  r.valid = bad.empty();
  r.detail = r.valid ? fmt("both buffers hold A's hashed fill in all %llu words after the copies",
                           static_cast<unsigned long long>(bw.words()))
                     : bad;
}

// ---------------------------------------------------------------------------------------------
// ALU probes

std::vector<std::uint32_t> validation_threads(std::uint32_t total) {
  std::vector<std::uint32_t> t{0, (total / 2 + 77) % total, total - 1};
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end()), t.end());
  return t;
}

// Shape of an ALU probe: chains per thread, unrolled steps per loop iteration, operations counted
// per instruction (2 for a multiply-add, 8 for dp4a, 4 for a half2 FMA).
struct AluShape {
  int chains, unroll;
  double ops_per_instr;
  const char* instr;
};

void describe_alu(Result& r, const AluShape& s, unsigned blocks, std::uint32_t iters) {
  r.param("block_size", kBlock);
  r.param("blocks", blocks);
  r.param("threads", static_cast<double>(blocks) * kBlock);
  r.param("chains_per_thread", s.chains);
  r.param("instructions_per_loop_iteration", s.chains * s.unroll);
  r.param("loop_iterations", iters);
  r.param("instruction", s.instr);
  r.param("ops_per_instruction", s.ops_per_instr);
}

// What every ALU probe shares: one full wave of `kernel`, its loop count calibrated to --target-ms,
// the row's shape and work, the timed samples, then the validation threads' stored values against
// want(thread, steps per chain), bit for bit. Returns the steps per chain; r.valid says whether every
// checked thread matched, and r.detail names the first that did not.
template <class Out, class Coef, class Want>
std::uint64_t run_alu(Env& env, Result& r, const AluShape& s, void (*kernel)(const Coef*, Out*, std::uint32_t),
                      const char* launch_name, const Coef* coef, bool flops, Want&& want) {
  const unsigned blocks = full_wave_blocks(env, kernel);
  const std::uint32_t total = blocks * kBlock;
  DeviceArray<Out> out(total);
  auto launch = [&](std::uint32_t iters) {
    kernel<<<blocks, kBlock>>>(coef, out.get(), iters);
    check(cudaGetLastError(), launch_name, __FILE__, __LINE__);
  };
  const std::uint32_t iters = calibrate(env, env.opt.target_ms, 16, 1U << 20, launch);
  describe_alu(r, s, blocks, iters);
  r.work_unit = flops ? "FLOP" : "OP";
  r.unit = flops ? "TFLOP/s" : "TOPS";
  r.unit_scale = 1e12;
  r.work_per_launch = static_cast<double>(total) * s.chains * s.unroll * iters * s.ops_per_instr;
  r.samples_ms = sample(env, 1, [&](int) { launch(iters); });
  const std::uint64_t steps = static_cast<std::uint64_t>(iters) * s.unroll;
  for (std::uint32_t t : validation_threads(total)) {
    const Out got = out.download(t, 1)[0];
    const Out expected = want(t, steps);
    if (std::memcmp(&got, &expected, sizeof(Out)) != 0) {
      if constexpr (std::is_floating_point_v<Out>) {
        r.detail = fmt("thread %u: %.9g, host %.9g after %llu steps per chain", t, got, expected,
                       static_cast<unsigned long long>(steps));
      } else {
        r.detail = fmt("thread %u: %08x, host %08x", t, got, expected);
      }
      return steps;
    }
  }
  r.valid = true;
  return steps;
}

template <int kChains, int kUnroll>
void run_f32(Env& env, Result& r) {
  std::vector<float> coef(2 * kCoefSlots);
  for (int i = 0; i < kCoefSlots; ++i) {
    const std::uint32_t h = hash32(kSeedCoef + i), g = hash32(~kSeedCoef + i);
    coef[2 * i] = 0.5f + static_cast<float>(h % 1024) / 2048.0f;  // a in [0.5, 1): the chains stay bounded
    const float b = 0.25f + static_cast<float>(g % 768) / 1024.0f;  // |b| >= 0.25: never subnormal
    coef[2 * i + 1] = (g & 0x10000U) ? -b : b;
  }
  DeviceArray<float> dcoef(coef.size());
  dcoef.upload(coef);
  const std::uint64_t steps = run_alu(
      env, r, AluShape{kChains, kUnroll, 2.0, "FFMA (fmaf)"}, fma_f32_kernel<kChains, kUnroll>,
      "launch of fma_f32_kernel", dcoef.get(), true, [&](std::uint32_t t, std::uint64_t n) {
        return host::f32_chains(t, kChains, n, coef[2 * (t % kCoefSlots)], coef[2 * (t % kCoefSlots) + 1]);
      });
  if (r.valid) {
    r.detail = fmt("threads first, middle, last: sums of %d chains of %llu FMAs matched the host bit for bit",
                   kChains, static_cast<unsigned long long>(steps));
  }
}

template <int kChains, int kUnroll>
void run_i32(Env& env, Result& r) {
  std::vector<std::uint32_t> coef(2 * kCoefSlots);
  for (int i = 0; i < kCoefSlots; ++i) {
    coef[2 * i] = hash32(kSeedCoef + i) | 1U;
    coef[2 * i + 1] = hash32(~kSeedCoef + i);
  }
  DeviceArray<std::uint32_t> dcoef(coef.size());
  dcoef.upload(coef);
  const std::uint64_t steps = run_alu(
      env, r, AluShape{kChains, kUnroll, 2.0, "IMAD (x * a + b, u32 wrapping)"}, mad_i32_kernel<kChains, kUnroll>,
      "launch of mad_i32_kernel", dcoef.get(), false, [&](std::uint32_t t, std::uint64_t n) {
        return host::i32_chains(t, kChains, n, coef[2 * (t % kCoefSlots)], coef[2 * (t % kCoefSlots) + 1]);
      });
  if (r.valid) {
    r.detail = fmt("threads first, middle, last: sums of %d chains of %llu multiply-adds matched the host", kChains,
                   static_cast<unsigned long long>(steps));
  }
}

template <int kChains, int kUnroll>
void run_dp4a(Env& env, Result& r) {
  std::vector<std::uint32_t> coef(kCoefSlots);
  for (int i = 0; i < kCoefSlots; ++i) coef[i] = hash32(kSeedCoef + 7 * i);
  DeviceArray<std::uint32_t> dcoef(coef.size());
  dcoef.upload(coef);
  const std::uint64_t steps =
      run_alu(env, r, AluShape{kChains, kUnroll, 8.0, "IDP.4A (__dp4a, signed bytes)"}, dp4a_kernel<kChains, kUnroll>,
              "launch of dp4a_kernel", dcoef.get(), false, [&](std::uint32_t t, std::uint64_t n) {
                return host::dp4a_chains(t, kChains, n, coef[t % kCoefSlots]);
              });
  if (r.valid) {
    r.detail = fmt("threads first, middle, last: sums of %d chains of %llu dp4a matched the host", kChains,
                   static_cast<unsigned long long>(steps));
  }
}

// i32-div: a in [100003, 100444], b in [5, 68], per lane slot (x stays in [5, a / 5 + b]).
void run_div_i32(Env& env, Result& r) {
  std::vector<std::uint32_t> coef(2 * kCoefSlots);
  for (int i = 0; i < kCoefSlots; ++i) {
    coef[2 * i] = 100003U + 7U * static_cast<std::uint32_t>(i);
    coef[2 * i + 1] = 5U + static_cast<std::uint32_t>(i);
  }
  DeviceArray<std::uint32_t> dcoef(coef.size());
  dcoef.upload(coef);
  const std::uint64_t steps = run_alu(
      env, r, AluShape{8, 32, 2.0, "i32 a / x + b (nvcc's divide sequence), 2 ops per divide-add"},
      div_i32_kernel<8, 32>, "launch of div_i32_kernel", dcoef.get(), false, [&](std::uint32_t t, std::uint64_t n) {
        const int slot = static_cast<int>(t % kCoefSlots);
        return host::div_chains(t, 8, n, static_cast<std::int32_t>(coef[2 * slot]),
                                static_cast<std::int32_t>(coef[2 * slot + 1]));
      });
  if (r.valid) {
    r.detail = fmt("threads first, middle, last: sums of 8 chains of %llu divide-adds matched the host",
                   static_cast<unsigned long long>(steps));
  }
}

// u32-packunpack: e odd (1..255), c hashed, per lane slot.
void run_packunpack(Env& env, Result& r) {
  std::vector<std::uint32_t> coef(2 * kCoefSlots);
  for (int i = 0; i < kCoefSlots; ++i) {
    coef[2 * i] = (hash32(kSeedCoef + 3U * static_cast<std::uint32_t>(i)) >> 24) | 1U;
    coef[2 * i + 1] = hash32(~kSeedCoef + 3U * static_cast<std::uint32_t>(i));
  }
  DeviceArray<std::uint32_t> dcoef(coef.size());
  dcoef.upload(coef);
  const std::uint64_t steps = run_alu(
      env, r, AluShape{8, 32, 2.0, "byte unpack, add, repack, word add (2 ops: unpack + pack)"},
      packunpack_kernel<8, 32>, "launch of packunpack_kernel", dcoef.get(), false,
      [&](std::uint32_t t, std::uint64_t n) {
        const int slot = static_cast<int>(t % kCoefSlots);
        return host::packunpack_chains(t, 8, n, coef[2 * slot], coef[2 * slot + 1]);
      });
  if (r.valid) {
    r.detail = fmt("threads first, middle, last: sums of 8 chains of %llu repacks matched the host",
                   static_cast<unsigned long long>(steps));
  }
}

// f32-select: a = 1, b in [0.375, 0.484] on a 1/64 grid: every value exact.
void run_select_f32(Env& env, Result& r) {
  std::vector<float> coef(2 * kCoefSlots);
  for (int i = 0; i < kCoefSlots; ++i) {
    coef[2 * i] = 1.0f;
    coef[2 * i + 1] = 0.375f + static_cast<float>(i % 8) / 64.0f;
  }
  DeviceArray<float> dcoef(coef.size());
  dcoef.upload(coef);
  const std::uint64_t steps = run_alu(
      env, r, AluShape{8, 32, 1.0, "f32 select (x > 1 ? x - a : x + b), 1 op per step"}, select_f32_kernel<8, 32>,
      "launch of select_f32_kernel", dcoef.get(), false, [&](std::uint32_t t, std::uint64_t n) {
        return host::select_chains(t, 8, n, coef[2 * (t % kCoefSlots)], coef[2 * (t % kCoefSlots) + 1]);
      });
  if (r.valid) {
    r.detail = fmt("threads first, middle, last: sums of 8 chains of %llu selects matched the host bit for bit",
                   static_cast<unsigned long long>(steps));
  }
}

// f32-clamp (a saturate, 1 op per step) and f32-minmax (a min then a max, 2): a = 0.75, b in [0.0625, 0.172]: contracts towards
// 4b inside (0, 1); starts in [-0.5, 0.5), so the lower bound binds in the first steps.
template <int kOpsPerStep>
void run_clamp_f32(Env& env, Result& r) {
  std::vector<float> coef(2 * kCoefSlots);
  for (int i = 0; i < kCoefSlots; ++i) {
    coef[2 * i] = 0.75f;
    coef[2 * i + 1] = 0.0625f + static_cast<float>(i % 8) / 64.0f;
  }
  DeviceArray<float> dcoef(coef.size());
  dcoef.upload(coef);
  const std::uint64_t steps = run_alu(
      env, r,
      AluShape{8, 32, static_cast<double>(kOpsPerStep),
               kOpsPerStep == 1 ? "f32 __saturatef(fma(x, a, b)), counted as 1 clamp per step"
                                : "f32 max(min(fma(x, a, b), 1), 0), counted as a min and a max per step"},
      clamp_f32_kernel<8, 32, kOpsPerStep == 2>, "launch of clamp_f32_kernel", dcoef.get(), false,
      [&](std::uint32_t t, std::uint64_t n) {
        return host::clamp_chains(t, 8, n, coef[2 * (t % kCoefSlots)], coef[2 * (t % kCoefSlots) + 1]);
      });
  if (r.valid) {
    r.detail = fmt("threads first, middle, last: sums of 8 chains of %llu clamped FMAs matched the host bit for bit",
                   static_cast<unsigned long long>(steps));
  }
}

// texture-interp-builtin (Interp::Sampler), texture-interp-manual (Interp::Fetch) and the experiment
// texture-interp-manual-global (Interp::Global): the texels of the WebGPU probes in a 4096 x 1 float4
// CUDA array behind a texture object (linear filter and normalized coordinates for the sampler
// path, point filter and texel coordinates for the fetch path; wrap addressing), or in a plain
// buffer. One full wave, loop count calibrated to --target-ms; 32 bytes (two float4 texels)
// counted per sample, as the WebGPU probes count.
enum class Interp { Sampler, Fetch, Global };

template <Interp kInterp>
void run_texture(Env& env, Result& r) {
  constexpr std::uint32_t kWidth = 4096;
  const float inv = 1.0f / static_cast<float>(4 * kWidth);
  const std::vector<float> texels = host::texture_texels(kWidth);
  DeviceArray<float4> buffer(kWidth);
  WGB_CK(cudaMemcpy(buffer.get(), texels.data(), texels.size() * sizeof(float), cudaMemcpyHostToDevice));
  struct Texture {
    cudaArray_t array = nullptr;
    cudaTextureObject_t object = 0;
    ~Texture() {
      if (object) cudaDestroyTextureObject(object);
      if (array) cudaFreeArray(array);
    }
  } tex;
  if (kInterp != Interp::Global) {
    const cudaChannelFormatDesc channel = cudaCreateChannelDesc<float4>();
    WGB_CK(cudaMallocArray(&tex.array, &channel, kWidth, 1));
    WGB_CK(cudaMemcpy2DToArray(tex.array, 0, 0, texels.data(), kWidth * sizeof(float4), kWidth * sizeof(float4), 1,
                               cudaMemcpyHostToDevice));
    cudaResourceDesc res{};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = tex.array;
    cudaTextureDesc desc{};
    desc.addressMode[0] = desc.addressMode[1] = cudaAddressModeWrap;
    desc.filterMode = kInterp == Interp::Sampler ? cudaFilterModeLinear : cudaFilterModePoint;
    desc.readMode = cudaReadModeElementType;
    desc.normalizedCoords = kInterp == Interp::Sampler ? 1 : 0;
    WGB_CK(cudaCreateTextureObject(&tex.object, &res, &desc, nullptr));
  }
  constexpr Fetch kFetch = kInterp == Interp::Global ? Fetch::Global : Fetch::Texture;
  const unsigned blocks = kInterp == Interp::Sampler ? full_wave_blocks(env, tex_interp_kernel)
                                                     : full_wave_blocks(env, manual_interp_kernel<kFetch>);
  const std::uint32_t total = blocks * kBlock;
  DeviceArray<float> out(total);
  auto launch = [&](std::uint32_t iters) {
    if (kInterp == Interp::Sampler) {
      tex_interp_kernel<<<blocks, kBlock>>>(tex.object, out.get(), iters, kWidth, inv);
    } else {
      manual_interp_kernel<kFetch><<<blocks, kBlock>>>(tex.object, buffer.get(), out.get(), iters, kWidth, inv);
    }
    check(cudaGetLastError(), "launch of a texture interpolation kernel", __FILE__, __LINE__);
  };
  // The f32 sums are exact while they stay below 2^12: at most 16 loop iterations (4096 samples per
  // thread, 1024 per accumulator, each component below 0.5 in magnitude, so |sum| < 512).
  const std::uint32_t iters = calibrate(env, env.opt.target_ms, 1, 16, launch);
  r.param("block_size", kBlock);
  r.param("blocks", blocks);
  r.param("threads", static_cast<double>(total));
  r.param("texture", "float4, 4096 x 1 texels (64 KiB)");
  r.param("samples_per_loop_iteration", kTexSamplesPerIter);
  r.param("loop_iterations", iters);
  r.param("interpolation", kInterp == Interp::Sampler ? "tex2D, linear filter, wrap"
                           : kInterp == Interp::Fetch ? "two point-sampled tex2D fetches and a blend"
                                                      : "two __ldg float4 loads and a blend");
  r.work_unit = "bytes";
  r.unit = "GB/s";
  r.unit_scale = 1e9;
  r.work_per_launch = static_cast<double>(total) * iters * kTexSamplesPerIter * 32.0;
  r.samples_ms = sample(env, 1, [&](int) { launch(iters); });
  const std::uint64_t samples = static_cast<std::uint64_t>(iters) * kTexSamplesPerIter;
  for (std::uint32_t t : validation_threads(total)) {
    const float got = out.download(t, 1)[0];
    const float want = host::texture_sum(texels, kWidth, t, samples, kTexScanSeed);
    if (std::memcmp(&got, &want, sizeof(float)) != 0) {
      r.detail = fmt("thread %u: %.9g, host %.9g after %llu samples", t, got, want,
                     static_cast<unsigned long long>(samples));
      return;
    }
  }
  r.valid = true;
  r.detail = fmt("threads first, middle, last: sums of %llu interpolated samples matched the host bit for bit",
                 static_cast<unsigned long long>(samples));
}

std::uint16_t half_bits(float f) {
  const __half_raw raw = __float2half_rn(f);
  return raw.x;
}

template <int kChains, int kUnroll>
void run_f16(Env& env, Result& r) {
  std::vector<float> a(2 * kCoefSlots), b(2 * kCoefSlots);  // [slot][lane]
  std::vector<std::uint32_t> coef(2 * kCoefSlots);          // per slot: a as half2, b as half2
  for (int i = 0; i < 2 * kCoefSlots; ++i) {
    const std::uint32_t h = hash32(kSeedCoef ^ (0x100U + i));
    a[i] = static_cast<float>(8 + h % 7) / 16.0f;                  // [0.5, 0.875], exact in f16
    b[i] = static_cast<float>(1 + (h >> 8) % 8) / 8.0f * ((h & 0x10000U) ? -1.0f : 1.0f);  // exact, |b| >= 1/8
  }
  for (int i = 0; i < kCoefSlots; ++i) {
    coef[2 * i] = half_bits(a[2 * i]) | (static_cast<std::uint32_t>(half_bits(a[2 * i + 1])) << 16);
    coef[2 * i + 1] = half_bits(b[2 * i]) | (static_cast<std::uint32_t>(half_bits(b[2 * i + 1])) << 16);
  }
  DeviceArray<std::uint32_t> dcoef(coef.size());
  dcoef.upload(coef);
  r.param("f16_lanes_per_thread", 2 * kChains);
  const std::uint64_t steps = run_alu(
      env, r, AluShape{kChains, kUnroll, 4.0, "HFMA2 (__hfma2, distinct operands)"}, hfma2_kernel<kChains, kUnroll>,
      "launch of hfma2_kernel", reinterpret_cast<const __half2*>(dcoef.get()), true,
      [&](std::uint32_t t, std::uint64_t n) {
        const int slot = static_cast<int>(t % kCoefSlots);
        return host::f16_chains(t, kChains, n, a[2 * slot], a[2 * slot + 1], b[2 * slot], b[2 * slot + 1]);
      });
  if (r.valid) {
    r.detail = fmt("threads first, middle, last: %d f16 lanes of %llu fused steps matched the host's "
                   "single-rounding f16 FMA",
                   2 * kChains, static_cast<unsigned long long>(steps));
  }
}

// ---------------------------------------------------------------------------------------------
// Tensor cores

// kAcc independent accumulators per warp, kUnroll MMAs each per loop iteration.
constexpr int kMmaAcc = 8, kMmaUnroll = 4;
// Exactness: |acc| <= 3 + steps * max|A * B| must stay below 2^24 (f32) and 2^31 (s32).
constexpr std::uint64_t kMaxMmaStepsF16 = 1000000, kMaxMmaStepsI8 = 16000000;

template <class Out, class KernelPtr>
void run_mma(Env& env, Result& r, const host::MmaTiles& tiles, KernelPtr kernel, const char* kernel_name,
             const char* instr, std::uint64_t max_steps) {
  DeviceArray<std::uint32_t> afrag(tiles.a_frag.size()), bfrag(tiles.b_frag.size());
  afrag.upload(tiles.a_frag);
  bfrag.upload(tiles.b_frag);
  const unsigned blocks = full_wave_blocks(env, kernel);
  const std::uint32_t warps = blocks * (kBlock / 32);
  DeviceArray<Out> out(static_cast<std::size_t>(warps) * kMmaAcc * 128);
  auto launch = [&](std::uint32_t iters) {
    kernel<<<blocks, kBlock>>>(afrag.get(), bfrag.get(), out.get(), iters);
    WGB_CK_LAUNCH("mma kernel");
  };
  const std::uint32_t iters =
      calibrate(env, env.opt.target_ms, 16, static_cast<std::uint32_t>(max_steps / kMmaUnroll), launch);
  const double ops_per_mma = 2.0 * tiles.m * tiles.n * tiles.k;
  r.param("instruction", instr);
  r.param("kernel", kernel_name);
  r.param("mma_shape", fmt("m%dn%dk%d", tiles.m, tiles.n, tiles.k));
  r.param("ops_per_mma", ops_per_mma);
  r.param("block_size", kBlock);
  r.param("blocks", blocks);
  r.param("warps", warps);
  r.param("accumulators_per_warp", kMmaAcc);
  r.param("mmas_per_loop_iteration", kMmaAcc * kMmaUnroll);
  r.param("loop_iterations", iters);
  r.param("operand_tiles", kTiles);
  r.work_per_launch = static_cast<double>(warps) * kMmaAcc * kMmaUnroll * iters * ops_per_mma;
  r.samples_ms = sample(env, 1, [&](int) { launch(iters); });

  const std::uint64_t steps = static_cast<std::uint64_t>(iters) * kMmaUnroll;
  std::vector<std::uint32_t> check{0, 1, warps / 2, warps - 1};
  std::sort(check.begin(), check.end());
  check.erase(std::unique(check.begin(), check.end()), check.end());
  for (std::uint32_t w : check) {
    const auto got = out.download(static_cast<std::size_t>(w) * kMmaAcc * 128, kMmaAcc * 128);
    for (int j = 0; j < kMmaAcc; ++j) {
      for (int lane = 0; lane < 32; ++lane) {
        for (int e = 0; e < 4; ++e) {
          const std::int64_t want = host::mma_expected(tiles, w, j, lane, e, steps);
          const Out g = got[(j * 32 + lane) * 4 + e];
          if (static_cast<double>(g) != static_cast<double>(want)) {
            r.detail = fmt("warp %u accumulator %d (row %d, col %d): %.17g, host %lld after %llu MMAs", w, j,
                           acc_row(lane, e), acc_col(lane, e), static_cast<double>(g), static_cast<long long>(want),
                           static_cast<unsigned long long>(steps));
            return;
          }
        }
      }
    }
  }
  r.valid = true;
  r.detail = fmt("warps %zu checked (first, second, middle, last), all %d accumulator tiles equal C + %llu * A * B "
                 "computed exactly on the host",
                 check.size(), kMmaAcc, static_cast<unsigned long long>(steps));
}

void run_mma_f16(Env& env, Result& r) {
  r.work_unit = "FLOP";
  r.unit = "TFLOP/s";
  r.unit_scale = 1e12;
  const auto tiles = host::make_f16_tiles();
  run_mma<float>(env, r, tiles, mma_f16_kernel<kMmaAcc, kMmaUnroll>, "mma_f16_kernel",
                 "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 (HMMA.16816.F32)", kMaxMmaStepsF16);
}

void run_mma_i8(Env& env, Result& r) {
  r.work_unit = "OP";
  r.unit = "TOPS";
  r.unit_scale = 1e12;
  const auto tiles = host::make_i8_tiles();
  run_mma<int>(env, r, tiles, mma_i8_kernel<kMmaAcc, kMmaUnroll>, "mma_i8_kernel",
               "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 (IMMA.16832.S8.S8)", kMaxMmaStepsI8);
}

// ---------------------------------------------------------------------------------------------
// Dependent loads

// The chase buffer of one footprint: a Sattolo cycle over 64-byte slots laid out by
// expand_chase_kernel, the host's copy of the cycle, and the walks the GPU made (checked at the end).
struct Chase {
  struct Walk {
    std::uint32_t start, hops, end;
  };
  std::uint32_t slots;
  std::vector<std::uint32_t> next;
  DeviceArray<std::uint32_t> chain, state;  // state: end position, 1 + SM of the walk
  std::vector<Walk> walks;
  std::uint32_t pos = 0;  // word index; carried across launches so no launch replays a warm path

  Chase(std::uint64_t footprint, Memory memory)
      : slots(static_cast<std::uint32_t>(footprint / 64)),
        next(host::sattolo_cycle(slots, kSeedChase ^ footprint)),
        chain(footprint / 4, memory),
        state(2) {
    if (host::cycle_length(next) != slots) throw std::logic_error("the host permutation is not one cycle");
    DeviceArray<std::uint32_t> dnext(slots);
    dnext.upload(next);
    expand_chase_kernel<<<1024, kBlock>>>(chain.get(), dnext.get(), slots, kSeedChase);
    WGB_CK_LAUNCH("expand_chase_kernel");
    WGB_CK(cudaDeviceSynchronize());
  }
  // After a launch that walked `hops` from pos (synchronizes): records the walk, returns the SM it ran on.
  std::uint32_t finish(std::uint32_t hops) {
    const auto st = state.download(0, 2);
    walks.push_back({pos, hops, st[0]});
    pos = st[0];
    return st[1] - 1U;
  }
  // Every walk's end index against the host's walk of the same cycle; empty when all matched.
  std::string check() const {
    for (const Walk& w : walks) {
      const std::uint32_t want = host::walk(next, w.start, w.hops);
      if (want != w.end) {
        return fmt("a walk of %u hops from word %u ended at word %u, host %u", w.hops, w.start, w.end, want);
      }
    }
    return "";
  }
  unsigned long long total_hops() const {
    unsigned long long total = 0;
    for (const Walk& w : walks) total += w.hops;
    return total;
  }
  void describe(Result& r, std::uint64_t footprint, Memory memory) const {
    r.work_unit = "hops";
    r.unit = "ns/hop";
    r.higher_is_better = false;
    r.param("footprint_bytes", static_cast<double>(footprint));
    r.param("slots", slots);
    r.param("slot_spacing_bytes", 64);
    r.param("memory", memory_name(memory));
    r.param("cycle", "Sattolo single cycle over all slots, position carried across launches");
  }
};

// The hop count that makes one <<<1, 1>>> walk last about target_ms.
std::uint32_t calibrate_hops(Env& env, Chase& c, double target_ms) {
  std::uint32_t hops = 1024;
  for (int round = 0; round < 12; ++round) {
    const double ms = timed(env, [&] {
      chase_kernel<<<1, 1>>>(c.chain.get(), c.pos, hops, c.state.get());
      WGB_CK_LAUNCH("chase_kernel");
    });
    c.finish(hops);
    if (ms >= 0.85 * target_ms && ms <= 1.2 * target_ms) break;
    const double scale = ms > 0.0 ? std::clamp(target_ms / ms, 0.05, 64.0) : 64.0;
    hops = static_cast<std::uint32_t>(std::clamp<double>(std::llround(hops * scale), 64.0, 1 << 24));
  }
  return hops;
}

// "3,17,40": the distinct SM numbers, ascending.
// Untimed <<<1, 1>>> walks for about kWarmWalkMs before a probe's timed launches. On an H200 the
// first ~200 ms of walking a fresh 256 MiB chain run up to 4 % faster than later walks (the samples
// of memory-latency rose from 42.1 to 42.7 ms per launch over its first four launches), so without
// this the first timings (and the first SMs of the per-SM probe) read a state that does not last.
constexpr double kWarmWalkMs = 400.0;
void warm_walk(Chase& c, std::uint32_t hops, double per_launch_ms) {
  const int launches = std::max(1, static_cast<int>(std::ceil(kWarmWalkMs / std::max(per_launch_ms, 0.1))));
  for (int k = 0; k < launches; ++k) {
    chase_kernel<<<1, 1>>>(c.chain.get(), c.pos, hops, c.state.get());
    WGB_CK_LAUNCH("chase_kernel (warm-up)");
    c.finish(hops);
  }
}

std::string sm_list(std::vector<std::uint32_t> sms) {
  std::sort(sms.begin(), sms.end());
  sms.erase(std::unique(sms.begin(), sms.end()), sms.end());
  std::string out;
  for (std::uint32_t s : sms) out += (out.empty() ? "" : ",") + std::to_string(s);
  return out;
}

void run_chase(Env& env, Result& r, std::uint64_t footprint, bool relaxed = false, Memory memory = Memory::Plain) {
  auto* kernel = relaxed ? chase_relaxed_kernel : chase_kernel;
  Chase c(footprint, memory);
  c.describe(r, footprint, memory);
  auto launch = [&](std::uint32_t hops) {
    kernel<<<1, 1>>>(c.chain.get(), c.pos, hops, c.state.get());
    if (relaxed) {
      WGB_CK_LAUNCH("chase_relaxed_kernel");
    } else {
      WGB_CK_LAUNCH("chase_kernel");
    }
  };
  const std::uint32_t hops = calibrate_hops(env, c, env.opt.latency_target_ms);
  warm_walk(c, hops, env.opt.latency_target_ms);
  launch(hops);  // warm-up of this kernel
  c.finish(hops);
  std::vector<std::uint32_t> sms;
  for (int s = 0; s < env.opt.samples; ++s) {
    r.samples_ms.push_back(timed(env, [&] { launch(hops); }));
    const std::uint32_t sm = c.finish(hops);
    if (!relaxed) sms.push_back(sm);
  }
  r.work_per_launch = hops;
  r.param("hops_per_launch", hops);
  r.param("threads", 1);
  r.param("load", relaxed ? "ld.relaxed.gpu.global.u32" : "ld.global.u32 (weak)");
  if (!sms.empty()) r.param("sm_of_timed_launches", sm_list(sms));
  if (const std::string bad = c.check(); !bad.empty()) {
    r.detail = bad;
    return;
  }
  r.valid = true;
  r.detail = fmt("the end index of all %zu launches (%llu hops) matched the host walk of the %u-slot cycle",
                 c.walks.size(), c.total_hops(), c.slots);
}

// The same walk from each SM in turn (chase_on_sm_kernel): which SM a single-thread kernel lands on
// is the scheduler's choice, in CUDA as in Vulkan, so this shows how much of a gap between two
// single-thread walks the SM alone can explain. Per SM: one warm-up and three timed launches of
// about latency_target_ms / 8; the SM's figure is the median of its three. samples_ms holds one
// figure per SM, so best is the fastest SM and median the median SM. Each launch also starts
// 4 x SMs - 1 blocks that return at once (a few microseconds in launches of about 5 ms).
void run_chase_per_sm(Env& env, Result& r, std::uint64_t footprint) {
  Chase c(footprint, Memory::Plain);
  c.describe(r, footprint, Memory::Plain);
  DeviceArray<std::uint32_t> claim(1);
  const std::uint32_t hops = calibrate_hops(env, c, env.opt.latency_target_ms / 8);
  warm_walk(c, hops, env.opt.latency_target_ms / 8);
  const unsigned grid = 4U * static_cast<unsigned>(env.sms);
  std::vector<double> per_sm_ms;
  std::vector<std::uint32_t> missed;
  std::string per_sm_json = "[";
  for (int sm = 0; sm < env.sms; ++sm) {
    std::vector<double> ms;  // launches that walked on this SM; the first is its warm-up
    for (int attempts = 0; ms.size() < 4 && attempts < 16; ++attempts) {
      WGB_CK(cudaMemset(claim.get(), 0, sizeof(std::uint32_t)));
      WGB_CK(cudaMemset(c.state.get() + 1, 0, sizeof(std::uint32_t)));
      const double t = timed(env, [&] {
        chase_on_sm_kernel<<<grid, 1>>>(c.chain.get(), c.pos, hops, static_cast<std::uint32_t>(sm), claim.get(),
                                        c.state.get());
        WGB_CK_LAUNCH("chase_on_sm_kernel");
      });
      if (c.state.download(1, 1)[0] != static_cast<std::uint32_t>(sm) + 1U) continue;  // no block on this SM
      c.finish(hops);
      ms.push_back(t);
    }
    if (ms.size() < 4) {
      missed.push_back(static_cast<std::uint32_t>(sm));
      per_sm_json += std::string(per_sm_json.size() > 1 ? ", " : "") + "null";
      continue;
    }
    const double m = median_of(std::vector<double>(ms.begin() + 1, ms.end()));
    per_sm_ms.push_back(m);
    per_sm_json += std::string(per_sm_json.size() > 1 ? ", " : "") + json_number(m * 1e6 / hops);
  }
  per_sm_json += "]";
  r.samples_ms = per_sm_ms;
  r.work_per_launch = hops;
  r.param("hops_per_launch", hops);
  r.param("launch", fmt("%u blocks of 1 thread; the first block on the target SM walks", grid));
  r.param("statistic_per_sm", "median of 3 timed launches after 1 warm-up launch on that SM");
  r.params.emplace_back("ns_per_hop_by_sm", per_sm_json);
  if (!per_sm_ms.empty()) {
    const auto [lo, hi] = std::minmax_element(per_sm_ms.begin(), per_sm_ms.end());
    r.param("spread_percent", 100.0 * (*hi / *lo - 1.0));
  }
  if (!missed.empty()) r.param("sms_not_reached", sm_list(missed));
  if (const std::string bad = c.check(); !bad.empty()) {
    r.detail = bad;
    return;
  }
  if (per_sm_ms.empty()) {
    r.detail = "no launch landed a block on its target SM";
    return;
  }
  r.valid = true;
  r.detail = fmt("%zu of %d SMs measured; the end index of all %zu walks (%llu hops) matched the host walk of the "
                 "%u-slot cycle",
                 per_sm_ms.size(), env.sms, c.walks.size(), c.total_hops(), c.slots);
}

// ---------------------------------------------------------------------------------------------
// The cost of the API (the suite's `api` family): transfers between host and device and within the
// device, the launch rate of a minimal kernel, and a launch-and-synchronize round trip. Host-side
// operations are timed on the host's steady clock around the whole operation to its completion, as
// the suite times its uploads, read-backs and submits; device-to-device copies and back-to-back
// launches on CUDA events, as the suite times its copies and dispatches with GPU timestamps. The
// statistic is the median (these are scheduler and I/O bound), as in the suite.

constexpr int kApiWarmups = 3;

// `samples` timings of `per_sample` calls of `op` (each to its completion) on the host clock; per call.
template <class Op>
std::vector<double> host_timed(Env& env, int per_sample, Op&& op) {
  for (int i = 0; i < kApiWarmups; ++i) op();
  std::vector<double> ms;
  for (int s = 0; s < env.opt.samples; ++s) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < per_sample; ++k) op();
    const auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count() / per_sample);
  }
  return ms;
}

// Host memory for the transfers: pageable (new) or pinned (cudaMallocHost).
struct HostBuffer {
  HostBuffer(std::size_t words, bool pin) : n(words), pinned(pin) {
    if (pinned) {
      WGB_CK(cudaMallocHost(reinterpret_cast<void**>(&p), words * 4));
    } else {
      p = new std::uint32_t[words];
    }
  }
  ~HostBuffer() {
    if (pinned) {
      cudaFreeHost(p);
    } else {
      delete[] p;
    }
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  std::uint32_t* p = nullptr;
  std::size_t n;
  bool pinned;
};

// Index of the first word of `p` that is not filled_word(i, seed), or -1.
long long first_wrong(const std::uint32_t* p, std::size_t words, std::uint32_t seed) {
  for (std::size_t i = 0; i < words; ++i) {
    if (p[i] != filled_word(i, seed)) return static_cast<long long>(i);
  }
  return -1;
}

void describe_transfer(Result& r, std::uint64_t bytes, const char* path) {
  r.param("bytes_per_operation", static_cast<double>(bytes));
  r.param("path", path);
  r.param("statistic", "median");
  r.work_unit = "bytes";
  r.unit = "GB/s";
  r.unit_scale = 1e9;
  r.work_per_launch = static_cast<double>(bytes);
}

// cudaMemcpy host to device (kUpload) or device to host, from/to pageable or pinned memory, each
// to its completion (the suite's upload-writebuffer / upload-mapped / readback-mapasync).
template <bool kUpload, bool kPinned>
void run_transfer(Env& env, Result& r) {
  const std::uint64_t bytes = env.opt.api_bytes;
  const std::size_t words = bytes / 4;
  describe_transfer(r, bytes, kUpload ? (kPinned ? "cudaMemcpy from cudaMallocHost memory, then synchronize"
                                                 : "cudaMemcpy from pageable memory, then synchronize")
                                      : (kPinned ? "cudaMemcpy into cudaMallocHost memory, then synchronize"
                                                 : "cudaMemcpy into pageable memory, then synchronize"));
  HostBuffer host(words, kPinned);
  DeviceArray<std::uint32_t> dev(words);
  if (kUpload) {
    for (std::size_t i = 0; i < words; ++i) host.p[i] = filled_word(i, kSeedA);
    fill_hashed_kernel<<<4096, kBlock>>>(dev.get(), words, kSeedB);  // stale data a no-op would leave
  } else {
    std::fill(host.p, host.p + words, 0U);
    fill_hashed_kernel<<<4096, kBlock>>>(dev.get(), words, kSeedA);
  }
  WGB_CK_LAUNCH("fill_hashed_kernel");
  WGB_CK(cudaDeviceSynchronize());
  r.samples_ms = host_timed(env, 4, [&] {
    if (kUpload) {
      WGB_CK(cudaMemcpy(dev.get(), host.p, bytes, cudaMemcpyHostToDevice));
    } else {
      WGB_CK(cudaMemcpy(host.p, dev.get(), bytes, cudaMemcpyDeviceToHost));
    }
    WGB_CK(cudaDeviceSynchronize());
  });
  long long bad = -1;
  if (kUpload) {
    const auto back = dev.download(0, words);
    bad = first_wrong(back.data(), words, kSeedA);
  } else {
    bad = first_wrong(host.p, words, kSeedA);
  }
  if (bad >= 0) {
    r.detail = fmt("word %lld of the %s does not hold the hashed data", bad, kUpload ? "device buffer" : "host copy");
    return;
  }
  r.valid = true;
  r.detail = fmt("all %zu words of the %s hold the hashed data", words, kUpload ? "device buffer" : "host copy");
}

// A device-to-device copy of --api-bytes, 8 back to back per timing on CUDA events, read + written
// counted; `copy(dst, src, bytes)` enqueues one. The destination is compared with the source.
template <class Copy>
void run_d2d(Env& env, Result& r, const char* path, Copy&& copy) {
  const std::uint64_t bytes = env.opt.api_bytes;
  const std::size_t words = bytes / 4;
  describe_transfer(r, bytes, path);
  r.work_per_launch = 2.0 * static_cast<double>(bytes);
  DeviceArray<std::uint32_t> src(words), dst(words);
  fill_hashed_kernel<<<4096, kBlock>>>(src.get(), words, kSeedA);
  fill_hashed_kernel<<<4096, kBlock>>>(dst.get(), words, kSeedB);
  WGB_CK_LAUNCH("fill_hashed_kernel");
  constexpr int kPer = 8;
  env.launches_per_sample = kPer;
  try {
    r.samples_ms = sample(env, 2, [&](int) { copy(dst.get(), src.get(), bytes); });
  } catch (...) {
    env.launches_per_sample = 1;
    throw;
  }
  env.launches_per_sample = 1;
  WGB_CK(cudaDeviceSynchronize());
  const auto back = dst.download(0, words);
  const long long bad = first_wrong(back.data(), words, kSeedA);
  if (bad >= 0) {
    r.detail = fmt("word %lld of the destination does not hold the source's data", bad);
    return;
  }
  r.valid = true;
  r.detail = fmt("all %zu words of the destination hold the source's hashed data", words);
}

// cudaMemcpyAsync device to device (copy-buffer-to-buffer).
void run_copy_d2d(Env& env, Result& r) {
  run_d2d(env, r, "cudaMemcpyAsync device to device, 8 back to back per timing (CUDA events)",
          [](std::uint32_t* dst, const std::uint32_t* src, std::uint64_t bytes) {
            WGB_CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice));
          });
}

// The same copy through cudaMemcpyBatchAsync with cudaMemcpyFlagPreferOverlapWithCompute, the hint
// that asks for a copy engine rather than the SMs (an experiment for copy-buffer-to-buffer: a
// Vulkan driver may run vkCmdCopyBuffer on a copy engine). The hint may be ignored; the row says
// what was asked, the rate says what happened. On the per-thread default stream, which the legacy
// stream's timing events order around.
void run_copy_d2d_ce_hint(Env& env, Result& r) {
  cudaMemcpyAttributes attrs{};
  attrs.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  attrs.flags = cudaMemcpyFlagPreferOverlapWithCompute;
  run_d2d(env, r,
          "cudaMemcpyBatchAsync device to device with cudaMemcpyFlagPreferOverlapWithCompute (a copy-engine "
          "hint), 8 back to back per timing (CUDA events)",
          [&](std::uint32_t* dst, const std::uint32_t* src, std::uint64_t bytes) {
            void* dsts[1] = {dst};
            const void* srcs[1] = {src};
            std::size_t sizes[1] = {bytes};
            std::size_t attr_index[1] = {0};
            WGB_CK(cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, &attrs, attr_index, 1, cudaStreamPerThread));
          });
}

// Launch rate of the minimal kernel: 4096 launches of <<<1, 1>>> back to back per timing on CUDA
// events (dispatch-overhead); the counter must equal the launches.
void run_launch_rate(Env& env, Result& r) {
  constexpr int kPer = 4096;
  DeviceArray<unsigned int> counter(1);
  counter.zero();
  r.work_unit = "launches";
  r.unit = "M/s";
  r.unit_scale = 1e6;
  r.work_per_launch = 1;
  r.param("kernel", "count_kernel<<<1, 1>>>: one atomicAdd");
  r.param("launches_per_timing", kPer);
  r.param("statistic", "median");
  env.launches_per_sample = kPer;
  try {
    r.samples_ms = sample(env, 16, [&](int) {
      count_kernel<<<1, 1>>>(counter.get());
    });
  } catch (...) {
    env.launches_per_sample = 1;
    throw;
  }
  env.launches_per_sample = 1;
  WGB_CK_LAUNCH("count_kernel");
  const std::uint64_t launched = 16 + static_cast<std::uint64_t>(kPer) * env.opt.samples;
  const unsigned int got = counter.download(0, 1)[0];
  if (got != static_cast<unsigned int>(launched)) {
    r.detail = fmt("the counter reads %u after %llu launches", got, static_cast<unsigned long long>(launched));
    return;
  }
  r.valid = true;
  r.detail = fmt("the counter equals the %llu launches", static_cast<unsigned long long>(launched));
}

// One launch of the minimal kernel and cudaStreamSynchronize, one at a time, on the host clock
// (submit-latency: a submit to its completion).
void run_sync_round_trip(Env& env, Result& r) {
  constexpr int kPer = 256;
  DeviceArray<unsigned int> counter(1);
  counter.zero();
  r.work_unit = "round trips";
  r.unit = "k/s";
  r.unit_scale = 1e3;
  r.work_per_launch = 1;
  r.param("operation", "count_kernel<<<1, 1>>> + cudaStreamSynchronize, one at a time (host steady clock)");
  r.param("round_trips_per_timing", kPer);
  r.param("statistic", "median");
  r.samples_ms = host_timed(env, kPer, [&] {
    count_kernel<<<1, 1>>>(counter.get());
    WGB_CK_LAUNCH("count_kernel");
    WGB_CK(cudaStreamSynchronize(0));
  });
  const std::uint64_t launched = kApiWarmups + static_cast<std::uint64_t>(kPer) * env.opt.samples;
  const unsigned int got = counter.download(0, 1)[0];
  if (got != static_cast<unsigned int>(launched)) {
    r.detail = fmt("the counter reads %u after %llu round trips", got, static_cast<unsigned long long>(launched));
    return;
  }
  r.valid = true;
  r.detail = fmt("every one of the %llu round trips ran its kernel", static_cast<unsigned long long>(launched));
}

// ---------------------------------------------------------------------------------------------
// The probe table

struct Probe {
  const char* id;
  const char* label;
  std::vector<std::string> webgpu_ids;
  std::function<void(Env&, Result&)> run;
};

std::vector<Probe> probes(std::unique_ptr<BandwidthBuffers>& bw) {
  auto with_bw = [&bw](void (*f)(Env&, BandwidthBuffers&, Result&)) {
    return [&bw, f](Env& env, Result& r) {
      if (!bw) bw = std::make_unique<BandwidthBuffers>(env.opt.bandwidth_bytes, env.opt.bandwidth_threads);
      f(env, *bw, r);
    };
  };
  // The same probe with each sample timing kBatchedLaunches back-to-back launches (like the suite's
  // passes of back-to-back dispatches) instead of one launch behind an idle spin kernel.
  auto batched = [&bw](void (*f)(Env&, BandwidthBuffers&, Result&)) {
    return [&bw, f](Env& env, Result& r) {
      if (!bw) bw = std::make_unique<BandwidthBuffers>(env.opt.bandwidth_bytes, env.opt.bandwidth_threads);
      env.launches_per_sample = kBatchedLaunches;
      r.param("launches_per_sample", kBatchedLaunches);
      try {
        f(env, *bw, r);
      } catch (...) {
        env.launches_per_sample = 1;
        throw;
      }
      env.launches_per_sample = 1;
    };
  };
  // The same probe on buffers of its own from another allocation path (the memory-kind experiments).
  auto with_memory = [](Memory mem, void (*f)(Env&, BandwidthBuffers&, Result&)) {
    return [mem, f](Env& env, Result& r) {
      BandwidthBuffers own(env.opt.bandwidth_bytes, env.opt.bandwidth_threads, mem);
      f(env, own, r);
    };
  };
  return {
      {"read-linear", "Read, vec4 loads XOR-folded", {"read-linear", "memory-read"}, with_bw(run_read)},
      {"write-linear", "Write, vec4 stores", {"write-linear", "memory-write"}, with_bw(run_write<WriteForm::Vec4>)},
      {"write-linear-relaxed-gpu", "Write, vec4 st.relaxed.gpu stores (the form of a NonPrivatePointer store)", {},
       with_bw(run_write<WriteForm::Vec4RelaxedGpu>)},
      {"write-linear-v2", "Write, each 16-byte element as two 8-byte stores", {},
       with_bw(run_write<WriteForm::TwoV2>)},
      {"write-linear-u32", "Write, each 16-byte element as four 4-byte stores", {},
       with_bw(run_write<WriteForm::FourU32>)},
      {"memory-copy", "Copy A->B, read + write counted", {"memory-copy"}, with_bw(run_copy)},
      {"f32-fma-scalar", "f32 FMA, 8 chains", {"f32-fma-scalar", "f32-fma-builtin"}, run_f32<8, 32>},
      {"f32-fma-vec4", "f32 FMA, 32 chains (8 x vec4)", {"f32-fma-vec4"}, run_f32<32, 8>},
      {"i32-mad-scalar", "i32 multiply-add, 8 chains", {"i32-mad-scalar"}, run_i32<8, 32>},
      {"i32-mad-vec4", "i32 multiply-add, 32 chains (8 x vec4)", {"i32-mad-vec4"}, run_i32<32, 8>},
      {"i8-dp4a", "Packed int8 dot product (dp4a), 16 chains", {"i8-dp4a"}, run_dp4a<16, 16>},
      {"f16-fma-vec4", "f16 FMA as half2, 16 half2 chains (8 x vec4<f16>)", {"f16-fma-vec4"}, run_f16<16, 16>},
      {"i32-div", "i32 division a / x + b, 8 chains", {"i32-div"}, run_div_i32},
      {"u32-packunpack", "u32 byte unpack/add/repack, 8 chains", {"u32-packunpack"}, run_packunpack},
      {"f32-select", "f32 select walk, 8 chains", {"f32-select"}, run_select_f32},
      {"f32-clamp", "f32 clamp to [0, 1] of an FMA, 8 chains", {"f32-clamp"}, run_clamp_f32<1>},
      {"f32-minmax", "f32 min and max of an FMA, 8 chains", {"f32-minmax"}, run_clamp_f32<2>},
      {"texture-interp-builtin", "Texture interpolation by the texture unit (tex2D, linear filter)",
       {"texture-interp-builtin"}, run_texture<Interp::Sampler>},
      {"texture-interp-manual", "Texture interpolation in the kernel (two point-sampled texture fetches and a blend)",
       {"texture-interp-manual"}, run_texture<Interp::Fetch>},
      {"texture-interp-manual-global", "Texture interpolation in the kernel from a plain buffer (two __ldg loads)", {},
       run_texture<Interp::Global>},
      {"subgroup-matrix-f16-f32-16x16x16", "Tensor core f16->f32 (mma.sync m16n8k16)",
       {"subgroup-matrix-f16-f32-16x16x16"}, run_mma_f16},
      {"subgroup-matrix-i8-i32-16x16x32", "Tensor core s8->s32 (mma.sync m16n8k32)",
       {"subgroup-matrix-i8-i32-16x16x32"}, run_mma_i8},
      {"memory-latency", "Dependent loads, 256 MiB footprint", {"memory-latency"},
       [](Env& env, Result& r) { run_chase(env, r, 256ULL << 20); }},
      {"read-dependent-chain", "Dependent loads, 4 MiB footprint", {"read-dependent-chain"},
       [](Env& env, Result& r) { run_chase(env, r, 4ULL << 20); }},
      {"read-linear-batched", "Read, vec4 loads, 16 back-to-back launches per timing", {}, batched(run_read)},
      {"write-linear-batched", "Write, vec4 stores, 16 back-to-back launches per timing", {},
       batched(run_write<WriteForm::Vec4>)},
      {"memory-copy-batched", "Copy A->B, 16 back-to-back launches per timing", {}, batched(run_copy)},
      {"write-linear-wgsl-data", "Write, vec4 stores of the WGSL kernel's data pattern", {},
       with_bw(run_write<WriteForm::Vec4, WriteData::Wgsl>)},
      {"write-linear-hashed-data", "Write, vec4 stores of hashed (incompressible) words", {},
       with_bw(run_write<WriteForm::Vec4, WriteData::Hashed>)},
      {"write-linear-compressible-wgsl-data", "Write, the WGSL kernel's data pattern into compressible memory", {},
       with_memory(Memory::Compressible, run_write<WriteForm::Vec4, WriteData::Wgsl>)},
      {"write-linear-compressible-hashed-data", "Write, hashed words into compressible memory", {},
       with_memory(Memory::Compressible, run_write<WriteForm::Vec4, WriteData::Hashed>)},
      {"write-linear-vmm", "Write, vec4 stores, buffers from cuMemCreate (no compression)", {},
       with_memory(Memory::Vmm, run_write<WriteForm::Vec4>)},
      {"write-linear-compressible", "Write, vec4 stores, buffers from cuMemCreate with generic compression", {},
       with_memory(Memory::Compressible, run_write<WriteForm::Vec4>)},
      {"memory-latency-vmm", "Dependent loads, 256 MiB footprint, chain from cuMemCreate (no compression)", {},
       [](Env& env, Result& r) { run_chase(env, r, 256ULL << 20, false, Memory::Vmm); }},
      {"memory-latency-compressible", "Dependent loads, 256 MiB footprint, chain in compressible memory", {},
       [](Env& env, Result& r) { run_chase(env, r, 256ULL << 20, false, Memory::Compressible); }},
      {"read-dependent-chain-compressible", "Dependent loads, 4 MiB footprint, chain in compressible memory", {},
       [](Env& env, Result& r) { run_chase(env, r, 4ULL << 20, false, Memory::Compressible); }},
      {"memory-latency-per-sm", "Dependent loads, 256 MiB footprint, walked from each SM in turn", {},
       [](Env& env, Result& r) { run_chase_per_sm(env, r, 256ULL << 20); }},
      {"read-dependent-chain-per-sm", "Dependent loads, 4 MiB footprint, walked from each SM in turn", {},
       [](Env& env, Result& r) { run_chase_per_sm(env, r, 4ULL << 20); }},
      {"memory-latency-relaxed-gpu", "Dependent ld.relaxed.gpu loads, 256 MiB footprint", {},
       [](Env& env, Result& r) { run_chase(env, r, 256ULL << 20, true); }},
      {"read-dependent-chain-relaxed-gpu", "Dependent ld.relaxed.gpu loads, 4 MiB footprint", {},
       [](Env& env, Result& r) { run_chase(env, r, 4ULL << 20, true); }},
      {"upload-pageable", "cudaMemcpy host to device from pageable memory", {"upload-writebuffer"},
       run_transfer<true, false>},
      {"upload-pinned", "cudaMemcpy host to device from pinned memory", {"upload-mapped"}, run_transfer<true, true>},
      {"readback-pageable", "cudaMemcpy device to host into pageable memory", {"readback-mapasync"},
       run_transfer<false, false>},
      {"readback-pinned", "cudaMemcpy device to host into pinned memory", {}, run_transfer<false, true>},
      {"copy-device-to-device", "cudaMemcpyAsync device to device, read + write counted", {"copy-buffer-to-buffer"},
       run_copy_d2d},
      {"copy-device-to-device-ce-hint", "cudaMemcpyBatchAsync device to device, copy-engine hint, read + write", {},
       run_copy_d2d_ce_hint},
      {"launch-rate", "Back-to-back launches of a one-thread kernel", {"dispatch-overhead"}, run_launch_rate},
      {"sync-round-trip", "One-thread kernel launch + cudaStreamSynchronize", {"submit-latency"},
       run_sync_round_trip},
  };
}

// ---------------------------------------------------------------------------------------------
// Host-only self-test (no GPU needed): the fragment layouts are bijections onto their matrices,
// and the host emulations give known answers. Run by bench/cuda_reference.sh before the GPU run.

std::vector<std::string> self_test() {
  std::vector<std::string> failures;
  auto expect = [&](bool ok, const std::string& what) {
    if (!ok) failures.push_back(what);
  };
  // Each fragment element maps to a distinct matrix element and all are covered.
  auto covers = [&](const char* name, int rows, int cols, auto&& visit) {
    std::vector<int> hits(rows * cols, 0);
    bool in_range = true;
    visit([&](int r, int c) {
      if (r < 0 || r >= rows || c < 0 || c >= cols) {
        in_range = false;
      } else {
        ++hits[r * cols + c];
      }
    });
    expect(in_range && std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }),
           std::string(name) + " fragment layout is not a bijection");
  };
  covers("f16 A", 16, 16, [](auto&& f) {
    for (int l = 0; l < 32; ++l)
      for (int r = 0; r < 4; ++r)
        for (int h = 0; h < 2; ++h) f(f16_a_row(l, r), f16_a_col(l, r) + h);
  });
  covers("f16 B", 16, 8, [](auto&& f) {
    for (int l = 0; l < 32; ++l)
      for (int r = 0; r < 2; ++r)
        for (int h = 0; h < 2; ++h) f(f16_b_k(l, r) + h, l >> 2);
  });
  covers("s8 A", 16, 32, [](auto&& f) {
    for (int l = 0; l < 32; ++l)
      for (int r = 0; r < 4; ++r)
        for (int i = 0; i < 4; ++i) f(i8_a_row(l, r), i8_a_col(l, r) + i);
  });
  covers("s8 B", 32, 8, [](auto&& f) {
    for (int l = 0; l < 32; ++l)
      for (int r = 0; r < 2; ++r)
        for (int i = 0; i < 4; ++i) f(i8_b_k(l, r) + i, l >> 2);
  });
  covers("accumulator", 16, 8, [](auto&& f) {
    for (int l = 0; l < 32; ++l)
      for (int e = 0; e < 4; ++e) f(acc_row(l, e), acc_col(l, e));
  });
  // Known answers of the emulations.
  expect(host::dp4a(0x01020304U, 0x01010101U, 10) == 20, "dp4a of positive bytes");
  expect(host::dp4a(0x000000FFU, 0x00000002U, 0) == 0xFFFFFFFEU, "dp4a of a negative byte");
  expect(host::dp4a(0x80808080U, 0x80808080U, 0) == 4U * 16384U, "dp4a of -128 * -128");
  expect(host::hfma(1.0f, 0.5f, 0.25f) == 0.75f, "hfma exact");
  expect(host::hfma(1.0f, 1.0f, 0x1p-11f) == 1.0f, "hfma ties to even (down)");
  expect(host::hfma(1.0f + 0x1p-10f, 1.0f, 0x1p-11f) == 1.0f + 0x1p-9f, "hfma ties to even (up)");
  expect(host::hfma(1.0f, 1.0f, 0x1p-11f + 0x1p-20f) == 1.0f + 0x1p-10f, "hfma single rounding");
  expect(half_bits(1.0f) == 0x3C00 && half_bits(-1.0f) == 0xBC00 && half_bits(0.5f) == 0x3800, "f16 bit patterns");
  expect(host::f16_bits_of_small_int(-1) == 0xBC00 && host::f16_bits_of_small_int(1) == 0x3C00, "f16 tile values");
  // Integer tiles: A * B by the fragments equals A * B by the matrices (a software mma over lanes).
  const auto f16 = host::make_f16_tiles();
  const auto i8 = host::make_i8_tiles();
  auto half_value = [](std::uint32_t bits) { return bits == 0x3C00 ? 1 : (bits == 0xBC00 ? -1 : 0); };
  for (int s = 0; s < kTiles; ++s) {
    std::vector<std::int64_t> d16(16 * 8, 0), d8(16 * 8, 0);
    std::vector<int> a16(16 * 16), b16(16 * 8), a8(16 * 32), b8(32 * 8);
    for (int l = 0; l < 32; ++l) {
      for (int r = 0; r < 4; ++r) {
        const std::uint32_t w = f16.a_frag[(s * 32 + l) * 4 + r];
        a16[f16_a_row(l, r) * 16 + f16_a_col(l, r)] = half_value(w & 0xFFFF);
        a16[f16_a_row(l, r) * 16 + f16_a_col(l, r) + 1] = half_value(w >> 16);
        const std::uint32_t v = i8.a_frag[(s * 32 + l) * 4 + r];
        for (int i = 0; i < 4; ++i) a8[i8_a_row(l, r) * 32 + i8_a_col(l, r) + i] = static_cast<std::int8_t>(v >> (8 * i));
      }
      for (int r = 0; r < 2; ++r) {
        const std::uint32_t w = f16.b_frag[(s * 32 + l) * 2 + r];
        b16[f16_b_k(l, r) * 8 + (l >> 2)] = half_value(w & 0xFFFF);
        b16[(f16_b_k(l, r) + 1) * 8 + (l >> 2)] = half_value(w >> 16);
        const std::uint32_t v = i8.b_frag[(s * 32 + l) * 2 + r];
        for (int i = 0; i < 4; ++i) b8[(i8_b_k(l, r) + i) * 8 + (l >> 2)] = static_cast<std::int8_t>(v >> (8 * i));
      }
    }
    bool same16 = true, same8 = true;
    for (int i = 0; i < 16 * 16; ++i) same16 = same16 && a16[i] == f16.a[s * 256 + i];
    for (int i = 0; i < 16 * 8; ++i) same16 = same16 && b16[i] == f16.b[s * 128 + i];
    for (int i = 0; i < 16 * 32; ++i) same8 = same8 && a8[i] == i8.a[s * 512 + i];
    for (int i = 0; i < 32 * 8; ++i) same8 = same8 && b8[i] == i8.b[s * 256 + i];
    expect(same16, "f16 fragments do not unpack to tile " + std::to_string(s));
    expect(same8, "s8 fragments do not unpack to tile " + std::to_string(s));
  }
  bool nonzero16 = false, nonzero8 = false;
  for (auto v : f16.ab) nonzero16 = nonzero16 || v != 0;
  for (auto v : i8.ab) nonzero8 = nonzero8 || v != 0;
  expect(nonzero16 && nonzero8, "tile products are all zero");
  // Sattolo: one cycle; the walk returns to its start after exactly `slots` hops.
  const auto next = host::sattolo_cycle(4096, 7);
  expect(host::cycle_length(next) == 4096, "Sattolo permutation is one cycle");
  expect(host::walk(next, 0, 4096) == 0 && host::walk(next, 0, 4095) != 0, "walk closes after 4096 hops");
  // The read fold matches a direct XOR over the thread's words.
  const auto fold = host::read_fold(3, 8, 64, kSeedA);
  std::uint32_t x0 = 0;
  for (std::uint32_t i = 3; i < 64; i += 8) x0 ^= filled_word(i * 4, kSeedA);
  expect(fold[0] == x0, "read fold");
  return failures;
}

// ---------------------------------------------------------------------------------------------
// Command line, device description, output

const char* kUsage =
    "usage: reference [--json PATH] [--samples N] [--bandwidth-bytes N[K|M|G]] [--bandwidth-threads N]\n"
    "                 [--api-bytes N[K|M|G]]\n"
    "                 [--target-ms MS] [--only ID[,ID...]] [--device N] [--sass-check FILE] [--list]\n"
    "                 [--self-test] [--help]\n"
    "Runs the CUDA reference kernels and writes JSON (stdout, or PATH with a table on stdout).\n"
    "Exit codes: 0 valid, 1 a probe failed validation, 2 usage, 3 no CUDA device, 4 CUDA error, 5 I/O.\n";

std::uint64_t parse_bytes(const std::string& s) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (end == s.c_str() || errno != 0 || s[0] == '-') throw UsageError("--bandwidth-bytes: not a size: " + s);
  std::uint64_t mult = 1;
  const std::string suffix(end);
  if (suffix == "K" || suffix == "KiB") mult = 1ULL << 10;
  else if (suffix == "M" || suffix == "MiB") mult = 1ULL << 20;
  else if (suffix == "G" || suffix == "GiB") mult = 1ULL << 30;
  else if (!suffix.empty()) throw UsageError("--bandwidth-bytes: unknown suffix in " + s);
  return v * mult;
}

double parse_number(const std::string& flag, const std::string& s, double lo, double hi) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || errno != 0 || !(v >= lo && v <= hi)) {
    throw UsageError(flag + ": expected a number in [" + json_number(lo) + ", " + json_number(hi) + "], got " + s);
  }
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw UsageError(a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(kExitOk);
    } else if (a == "--json") {
      o.json_path = value();
    } else if (a == "--samples") {
      o.samples = static_cast<int>(parse_number(a, value(), 1, 1000));
    } else if (a == "--bandwidth-bytes") {
      o.bandwidth_bytes = parse_bytes(value());
      if (o.bandwidth_bytes < 4096 || o.bandwidth_bytes % 16 != 0 || o.bandwidth_bytes > (4ULL << 30)) {
        throw UsageError("--bandwidth-bytes: must be a multiple of 16 in [4096, 4 GiB]");
      }
    } else if (a == "--api-bytes") {
      o.api_bytes = parse_bytes(value());
      if (o.api_bytes < 4096 || o.api_bytes % 16 != 0 || o.api_bytes > (4ULL << 30)) {
        throw UsageError("--api-bytes: must be a multiple of 16 in [4096, 4 GiB]");
      }
    } else if (a == "--bandwidth-threads") {
      o.bandwidth_threads = static_cast<std::uint64_t>(parse_number(a, value(), 32, 65535.0 * kBlock));
    } else if (a == "--target-ms") {
      o.target_ms = parse_number(a, value(), 0.5, 1000);
    } else if (a == "--device") {
      o.device = static_cast<int>(parse_number(a, value(), 0, 64));
    } else if (a == "--only") {
      std::stringstream ss(value());
      for (std::string id; std::getline(ss, id, ',');) {
        if (!id.empty()) o.only.push_back(id);
      }
    } else if (a == "--sass-check") {
      o.sass_check_path = value();
    } else if (a == "--list") {
      o.list = true;
    } else if (a == "--self-test") {
      o.self_test = true;
    } else {
      throw UsageError("unknown argument " + a);
    }
  }
  return o;
}

std::string version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

int attribute(cudaDeviceAttr a, int device) {
  int v = -1;
  if (cudaDeviceGetAttribute(&v, a, device) != cudaSuccess) {
    cudaGetLastError();  // not sticky; clear it
    return -1;
  }
  return v;
}

std::string kernel_json(const Result& r) {
  std::string s = "    {\"id\": " + json_string(r.id) + ", \"label\": " + json_string(r.label) + ", \"webgpu_ids\": [";
  for (std::size_t i = 0; i < r.webgpu_ids.size(); ++i) s += (i ? ", " : "") + json_string(r.webgpu_ids[i]);
  const bool number = r.status == "ok";
  s += "],\n     \"status\": " + json_string(r.status) + ", \"unit\": " + json_string(r.unit) +
       ", \"higher_is_better\": " + (r.higher_is_better ? "true" : "false") +
       ", \"best\": " + json_number(number ? r.best() : NAN) + ", \"median\": " + json_number(number ? r.median() : NAN) +
       ", \"cv_percent\": " + json_number(cv_percent(r.samples_ms)) + ",\n     \"samples_ms\": [";
  for (std::size_t i = 0; i < r.samples_ms.size(); ++i) s += (i ? ", " : "") + json_number(r.samples_ms[i]);
  s += "], \"work_per_launch\": " + json_number(r.work_per_launch) + ", \"work_unit\": " + json_string(r.work_unit) +
       ",\n     \"validation\": {\"ok\": " + (r.valid ? "true" : "false") + ", \"detail\": " + json_string(r.detail) +
       "},\n     \"parameters\": {";
  for (std::size_t i = 0; i < r.params.size(); ++i) {
    s += (i ? ", " : "") + json_string(r.params[i].first) + ": " + r.params[i].second;
  }
  s += "},\n     \"sm_clock_mhz_after\": " + (r.sm_clock_mhz >= 0 ? json_int(r.sm_clock_mhz) : "null") +
       ", \"clock_event_reasons_after\": " + (r.clock_event_reasons >= 0 ? json_int(r.clock_event_reasons) : "null") +
       "}";
  return s;
}

// What the JSON says about the device and the software.
struct DeviceInfo {
  std::string name, pci_bus_id, compute_capability, driver_version, runtime_version;
  int index = 0, sm_count = 0, peak_sm_clock_mhz = -1, peak_memory_clock_mhz = -1, memory_bus_width_bits = -1;
  long long memory_bytes = 0, l2_bytes = 0;
  bool nvml_available = false;
  int sm_clock_mhz_start = -1, sm_clock_mhz_end = -1;
};

std::string json_opt_int(long long v) { return v >= 0 ? json_int(v) : "null"; }

std::string document_json(const DeviceInfo& d, const Options& opt, const std::vector<std::string>& sass_lines,
                          const std::vector<Result>& results) {
  bool all_valid = !results.empty();
  for (const Result& r : results) all_valid = all_valid && (r.status == "ok" || r.status == "skipped");
  std::string json = "{\n  \"generator\": \"webgpu-bench reference/cuda\",\n  \"device\": {\"name\": " +
                     json_string(d.name) + ", \"index\": " + json_int(d.index) +
                     ", \"pci_bus_id\": " + json_string(d.pci_bus_id) +
                     ", \"compute_capability\": " + json_string(d.compute_capability) +
                     ",\n             \"sm_count\": " + json_int(d.sm_count) +
                     ", \"memory_bytes\": " + json_int(d.memory_bytes) + ", \"l2_bytes\": " + json_int(d.l2_bytes) +
                     ", \"peak_sm_clock_mhz\": " + json_opt_int(d.peak_sm_clock_mhz) +
                     ", \"peak_memory_clock_mhz\": " + json_opt_int(d.peak_memory_clock_mhz) +
                     ", \"memory_bus_width_bits\": " + json_opt_int(d.memory_bus_width_bits) +
                     "},\n  \"driver_version\": " + json_string(d.driver_version) +
                     ", \"runtime_version\": " + json_string(d.runtime_version) +
                     ",\n  \"nvml\": {\"available\": " + (d.nvml_available ? "true" : "false") +
                     ", \"sm_clock_mhz_start\": " + json_opt_int(d.sm_clock_mhz_start) +
                     ", \"sm_clock_mhz_end\": " + json_opt_int(d.sm_clock_mhz_end) +
                     "},\n  \"settings\": {\"samples\": " + json_int(opt.samples) +
                     ", \"bandwidth_bytes\": " + json_int(static_cast<long long>(opt.bandwidth_bytes)) +
                     ", \"bandwidth_threads\": " + json_int(static_cast<long long>(opt.bandwidth_threads)) +
                     ", \"target_ms\": " + json_number(opt.target_ms) +
                     ", \"latency_target_ms\": " + json_number(opt.latency_target_ms) +
                     ", \"timing\": \"cudaEvent pair around each launch; best = fastest sample, median of all "
                     "samples\"},\n";
  json += "  \"sass_check\": [";
  for (std::size_t i = 0; i < sass_lines.size(); ++i) json += (i ? ", " : "") + json_string(sass_lines[i]);
  json += "],\n  \"all_valid\": " + std::string(all_valid ? "true" : "false") + ",\n  \"kernels\": [\n";
  for (std::size_t i = 0; i < results.size(); ++i) {
    json += kernel_json(results[i]) + (i + 1 < results.size() ? ",\n" : "\n");
  }
  json += "  ]\n}\n";
  return json;
}

// Brackets and braces balance outside strings, and strings close: a cheap structural check of the
// hand-written JSON for the self-test.
bool json_balanced(const std::string& s) {
  std::vector<char> stack;
  bool in_string = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') stack.push_back(c);
    else if (c == '}' || c == ']') {
      if (stack.empty() || stack.back() != (c == '}' ? '{' : '[')) return false;
      stack.pop_back();
    }
  }
  return stack.empty() && !in_string;
}

// The document the self-test writes with --json: fabricated numbers, never measurements (the
// generator says so), to check the format without a GPU.
std::string self_test_document(const Options& opt) {
  DeviceInfo d;
  d.name = "self-test \"device\" \\ no GPU";
  d.pci_bus_id = "0000:00:00.0";
  d.compute_capability = "0.0";
  d.driver_version = d.runtime_version = "0.0";
  std::vector<Result> results(2);
  results[0].id = results[0].label = "self-test-rate";
  results[0].webgpu_ids = {"a", "b"};
  results[0].unit = "GB/s";
  results[0].work_unit = "bytes";
  results[0].unit_scale = 1e9;
  results[0].work_per_launch = 1e9;
  results[0].samples_ms = {1.0, 2.0, 3.0};
  results[0].status = "ok";
  results[0].valid = true;
  results[0].param("text", "x\ty");
  results[0].param("number", 1.5);
  results[1].id = results[1].label = "self-test-latency";
  results[1].unit = "ns/hop";
  results[1].higher_is_better = false;
  results[1].status = "invalid";
  results[1].detail = "fabricated";
  std::string json = document_json(d, opt, {"line \"one\"", "line two"}, results);
  const std::string marker = "\"generator\": \"webgpu-bench reference/cuda\"";
  json.replace(json.find(marker), marker.size(), "\"generator\": \"webgpu-bench reference/cuda self-test (fabricated values)\"");
  return json;
}

int run(int argc, char** argv) {
  Options opt;
  try {
    opt = parse(argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "error: %s\n%s", e.what(), kUsage);
    return kExitUsage;
  }
  if (opt.self_test) {
    auto failures = self_test();
    const std::string doc = self_test_document(opt);
    if (!json_balanced(doc)) failures.push_back("the JSON document is not balanced");
    if (doc.find("\"best\": 1000") == std::string::npos) failures.push_back("best of a 1 GB launch in 1 ms is not 1000 GB/s");
    if (doc.find("\"median\": 500") == std::string::npos) failures.push_back("median of 1, 2, 3 ms is not 500 GB/s");
    if (!opt.json_path.empty()) {
      std::ofstream f(opt.json_path);
      f << doc;
      if (!f) failures.push_back("cannot write " + opt.json_path);
    }
    for (const auto& f : failures) std::fprintf(stderr, "self-test failed: %s\n", f.c_str());
    std::printf("self-test: %zu failed\n", failures.size());
    return failures.empty() ? kExitOk : kExitInvalid;
  }
  std::unique_ptr<BandwidthBuffers> bw;
  const auto table = probes(bw);
  if (opt.list) {
    for (const Probe& p : table) {
      if (p.webgpu_ids.empty()) {
        std::printf("%-34s %s (no WebGPU counterpart: a CUDA-side experiment)\n", p.id, p.label);
        continue;
      }
      std::printf("%-34s %s (webgpu:", p.id, p.label);
      for (const auto& w : p.webgpu_ids) std::printf(" %s", w.c_str());
      std::printf(")\n");
    }
    return kExitOk;
  }
  for (const auto& id : opt.only) {
    if (std::none_of(table.begin(), table.end(), [&](const Probe& p) { return id == p.id; })) {
      std::fprintf(stderr, "error: unknown probe id %s (see --list)\n%s", id.c_str(), kUsage);
      return kExitUsage;
    }
  }
  std::vector<std::string> sass_lines;
  if (!opt.sass_check_path.empty()) {
    std::ifstream in(opt.sass_check_path);
    if (!in) {
      std::fprintf(stderr, "error: cannot read --sass-check file %s\n", opt.sass_check_path.c_str());
      return kExitIo;
    }
    for (std::string line; std::getline(in, line);) sass_lines.push_back(line);
  }

  int count = 0;
  if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess || count == 0) {
    std::fprintf(stderr, "error: no CUDA device (%s)\n", e != cudaSuccess ? cudaGetErrorString(e) : "count is 0");
    return kExitNoDevice;
  }
  if (opt.device >= count) {
    std::fprintf(stderr, "error: --device %d but only %d CUDA device(s)\n", opt.device, count);
    return kExitUsage;
  }

  std::vector<Result> results;
  bool cuda_broken = false;
  std::string json;
  try {
    WGB_CK(cudaSetDevice(opt.device));
    Env env(opt);
    WGB_CK(cudaGetDeviceProperties(&env.prop, opt.device));
    env.sms = env.prop.multiProcessorCount;
    char bus[32] = {};
    WGB_CK(cudaDeviceGetPCIBusId(bus, sizeof(bus), opt.device));
    Nvml nvml(bus);
    env.nvml = &nvml;
    int driver = 0, runtime = 0;
    WGB_CK(cudaDriverGetVersion(&driver));
    WGB_CK(cudaRuntimeGetVersion(&runtime));
    const int clock_start = nvml.sm_clock_mhz();
    std::fprintf(stderr, "CUDA reference on %s (sm_%d%d, %d SMs), driver %s, runtime %s\n", env.prop.name,
                 env.prop.major, env.prop.minor, env.sms, version_text(driver).c_str(), version_text(runtime).c_str());

    int index = 0, chosen = 0;
    for (const Probe& p : table) chosen += opt.only.empty() || std::count(opt.only.begin(), opt.only.end(), p.id);
    for (const Probe& p : table) {
      if (!opt.only.empty() && std::count(opt.only.begin(), opt.only.end(), p.id) == 0) continue;
      Result r;
      r.id = p.id;
      r.label = p.label;
      r.webgpu_ids = p.webgpu_ids;
      ++index;
      if (!cuda_broken) {
        try {
          p.run(env, r);
          r.status = r.valid ? "ok" : "invalid";
        } catch (const CudaFailure& e) {
          r.status = "error";
          r.detail = e.what();
          r.valid = false;
          // An error that poisons the context (a fault) stops the rest; others (out of memory)
          // only this probe.
          if (cudaDeviceSynchronize() != cudaSuccess) cuda_broken = true;
          cudaGetLastError();
        } catch (const Unsupported& e) {
          r.status = "skipped";
          r.detail = e.what();
          r.valid = false;
        } catch (const std::logic_error& e) {
          r.status = "invalid";
          r.detail = e.what();
          r.valid = false;
        } catch (const std::bad_alloc&) {
          r.status = "error";
          r.detail = "host out of memory";
        }
        r.sm_clock_mhz = nvml.sm_clock_mhz();
        r.clock_event_reasons = nvml.clock_event_reasons();
      } else {
        r.detail = "not run: an earlier CUDA error left the device unusable";
      }
      if (r.status == "ok") {
        std::fprintf(stderr, "[%2d/%d] %-34s best %10.2f  median %10.2f %-7s  valid\n", index, chosen, r.id.c_str(),
                     r.best(), r.median(), r.unit.c_str());
      } else {
        std::fprintf(stderr, "[%2d/%d] %-34s %s: %s\n", index, chosen, r.id.c_str(), r.status.c_str(), r.detail.c_str());
      }
      results.push_back(std::move(r));
    }
    bw.reset();

    DeviceInfo info;
    info.name = env.prop.name;
    info.index = opt.device;
    info.pci_bus_id = bus;
    info.compute_capability = std::to_string(env.prop.major) + "." + std::to_string(env.prop.minor);
    info.sm_count = env.sms;
    info.memory_bytes = static_cast<long long>(env.prop.totalGlobalMem);
    info.l2_bytes = env.prop.l2CacheSize;
    const int clock_khz = attribute(cudaDevAttrClockRate, opt.device);
    const int mem_khz = attribute(cudaDevAttrMemoryClockRate, opt.device);
    info.peak_sm_clock_mhz = clock_khz > 0 ? clock_khz / 1000 : -1;
    info.peak_memory_clock_mhz = mem_khz > 0 ? mem_khz / 1000 : -1;
    info.memory_bus_width_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, opt.device);
    info.driver_version = version_text(driver);
    info.runtime_version = version_text(runtime);
    info.nvml_available = nvml.available();
    info.sm_clock_mhz_start = clock_start;
    info.sm_clock_mhz_end = nvml.sm_clock_mhz();
    json = document_json(info, opt, sass_lines, results);
  } catch (const CudaFailure& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return kExitCuda;
  }

  if (opt.json_path.empty()) {
    std::fputs(json.c_str(), stdout);
  } else {
    std::ofstream f(opt.json_path);
    f << json;
    f.close();
    if (!f) {
      std::fprintf(stderr, "error: cannot write %s\n", opt.json_path.c_str());
      return kExitIo;
    }
    std::printf("%-34s %12s %12s %-8s %s\n", "id", "best", "median", "unit", "validation");
    for (const Result& r : results) {
      std::printf("%-34s %12.2f %12.2f %-8s %s\n", r.id.c_str(), r.status == "ok" ? r.best() : NAN,
                  r.status == "ok" ? r.median() : NAN, r.unit.c_str(), r.status.c_str());
    }
    std::printf("wrote %s\n", opt.json_path.c_str());
  }
  bool any_error = cuda_broken, any_invalid = false;
  for (const Result& r : results) {
    any_error = any_error || r.status == "error";
    any_invalid = any_invalid || r.status == "invalid";
  }
  return any_error ? kExitCuda : (any_invalid ? kExitInvalid : kExitOk);
}

}  // namespace
}  // namespace wgbref

int main(int argc, char** argv) { return wgbref::run(argc, argv); }
