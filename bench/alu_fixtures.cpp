// alu-fixtures: every ALU probe against the plain kernel of the same operation (tests/fixtures/alu/,
// whose files replace the probes' templates: the same chains, operands and host reference, written
// as two plain loops), on one adapter, interleaved in one process. A measuring tool, not a test: each
// round dispatches the probe once and its fixture once at the same loop count (the order swaps every
// round, so drift in the machine's load hits both alike), on two clocks:
//   - wall: the pass timed as the suite times it (GPU timestamps where the adapter has them);
//   - cpu: the process's CPU time over the pass (CLOCK_PROCESS_CPUTIME_ID). On a CPU driver the
//     kernel runs on the process's own threads, so CPU time per dispatch barely moves when other
//     processes compete for the cores, where the wall clock stretches with them: on a shared machine
//     it is the clock to read. On a GPU it measures the host only and means nothing (read wall).
// Per probe it prints the ratio fixture / probe (1 or more: the probe is at least as fast) of the
// best times, and the paired ratio: the geometric mean of the rounds' ratios with twice its
// standard error, judged against 1 by the rule for paired rounds in docs/method.md#differ (the
// probe is "slower" only when the paired ratio is below 1 by more than max(1 %, 2 s.e.)).
// Both kernels are validated at the measured loop count against the host reference.
//
//   alu-fixtures [--filter ID,ID...] [--rounds N] [--target-ms MS] [--clock cpu|wall]
//                [--fixtures DIR] [--probes DIR] [--adapter A]
// --fixtures: the plain kernels (default: the tree's tests/fixtures/alu); --probes: a folder in
// --kernel-dir form that replaces the probes' own templates (earlier forms of a kernel, to time them
// the same way). --clock: the clock the paired ratio and the calibration read (default cpu on a CPU
// adapter, wall otherwise). Exit status 1 when a kernel failed or a probe is slower.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "catalog/common.hpp"
#include "catalog/compute/alu.hpp"
#include "gpu/kernel_override.hpp"
#include "report/noise.hpp"
#include "webgpu_bench/context.hpp"

namespace {

using namespace wgb;
namespace alu = catalog::alu;

struct Options {
  std::vector<std::string> ids;  // empty: every probe
  int rounds = 7;
  double target_ms = 50;
  std::string clock;  // "cpu" or "wall"; empty: cpu on a CPU adapter, wall otherwise
  std::string fixtures = std::string(WGB_SOURCE_DIR) + "/tests/fixtures/alu";
  std::string probes;  // empty: the probes' own templates
  std::string adapter;
};

// The CPU time of all the process's threads (the scheduler's own accounting, not tick samples).
double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

std::string load_average() {
  std::ifstream f("/proc/loadavg");
  std::string a, b, c;
  f >> a >> b >> c;
  return f ? fmt::format("{} {} {}", a, b, c) : "unknown";
}

struct Timing {
  double wall = 0;
  double cpu = 0;
  double on(bool cpu_clock) const { return cpu_clock ? cpu : wall; }
};

// One kernel of the comparison: a compiled runner and its time in every round.
struct Side {
  std::unique_ptr<alu::Runner> runner;
  std::vector<Timing> rounds;

  Expected<Timing> dispatch(gpu::Context& gpu, std::uint32_t iterations) {
    gpu.write(runner->uniform(), 0, &iterations, sizeof(iterations));  // Params::iterations
    const double c0 = cpu_ms();
    auto t = gpu.time_pass([&](wgpu::ComputePassEncoder& pass) {
      pass.SetPipeline(runner->pipeline());
      pass.SetBindGroup(0, runner->bind_group());
      pass.DispatchWorkgroups(runner->workgroups());
    });
    const double c1 = cpu_ms();
    if (!t) return std::move(t).error();
    return Timing{t->gpu_ms.value_or(t->wall_ms), c1 - c0};
  }
  double best(bool cpu_clock) const {
    double b = std::numeric_limits<double>::infinity();
    for (const auto& t : rounds) b = std::min(b, t.on(cpu_clock));
    return b;
  }
  std::string validate(gpu::Context& gpu, const alu::Probe& probe, std::uint32_t iterations) {
    auto out = runner->run(gpu, iterations);
    if (!out) return out.error().message;
    alu::Params params = runner->params();
    params.iterations = iterations;
    auto checked = alu::check_outputs(probe, params, alu::sample_invocations(runner->threads()), *out);
    return checked ? "ok" : checked.error().message;
  }
};

// The kernels of one side: the templates replaced by the files of `dir` (none when empty), as
// --kernel-dir does; the embedded templates again afterwards.
Expected<std::unique_ptr<alu::Runner>> compile(gpu::Context& gpu, const alu::Probe& probe, const std::string& dir) {
  auto known = [](std::string_view n) { return !kernels::find(n).empty(); };
  if (auto st = gpu::set_kernel_dir(dir, known); !st) return std::move(st).error();
  auto r = alu::Runner::create(gpu, probe, alu::default_threads(gpu.adapter()));
  (void)gpu::set_kernel_dir("", known);
  if (!r) return std::move(r).error();
  return std::make_unique<alu::Runner>(std::move(*r));
}

// The paired ratio (docs/method.md#differ, paired rounds, report/noise.hpp): the geometric mean of
// the per-round ratios fixture / probe, drift common to both sides of a round cancelling in each,
// with twice its relative standard error, against 1.
struct Paired {
  double ratio = 0;
  double spread = 0;  // 2 s.e.
  const char* verdict = "-";
};
Paired paired(const Side& probe, const Side& fixture, bool cpu_clock) {
  const std::size_t n = std::min(probe.rounds.size(), fixture.rounds.size());
  std::vector<double> ratios;
  for (std::size_t i = 0; i < n; ++i) ratios.push_back(fixture.rounds[i].on(cpu_clock) / probe.rounds[i].on(cpu_clock));
  const report::Estimate pooled = report::pooled_ratio(ratios, 0);
  const report::Significance d = report::compare_estimates(report::Estimate{1, 0, n}, pooled);
  if (d.verdict == report::Verdict::NotComparable) return {};
  // A ratio above 1 is the probe being faster than its fixture.
  return {d.ratio, d.spread, d.same() ? "same" : d.verdict == report::Verdict::Higher ? "faster" : "SLOWER"};
}

// Probe and fixture side by side: compiled, calibrated on the probe, measured in alternating order,
// validated. Returns whether the probe is slower (an error when a kernel fails).
Expected<bool> compare(gpu::Context& gpu, const alu::Probe& probe, const Options& o, bool cpu_clock) {
  Side fixture, shipped;
  auto f = compile(gpu, probe, o.fixtures);
  if (!f) return std::move(f).error();
  fixture.runner = std::move(*f);
  auto s = compile(gpu, probe, o.probes);
  if (!s) return std::move(s).error();
  shipped.runner = std::move(*s);
  // Calibrate: double the loop count until a dispatch of the probe takes the target on the clock
  // read (a CPU driver's first dispatch of a pipeline is slow, so each side runs once first).
  std::uint32_t iterations = static_cast<std::uint32_t>(probe.initial_iterations);
  for (Side* side : {&shipped, &fixture}) {
    if (auto t = side->dispatch(gpu, 1); !t) return std::move(t).error();
  }
  while (iterations < probe.max_iterations) {
    auto t = shipped.dispatch(gpu, iterations);
    if (!t) return std::move(t).error();
    if (t->on(cpu_clock) >= o.target_ms) break;
    iterations = static_cast<std::uint32_t>(std::min<std::uint64_t>(probe.max_iterations, 2ull * iterations));
  }
  for (int round = 0; round < o.rounds; ++round) {
    Side* order[2] = {&shipped, &fixture};
    if (round % 2 == 1) std::swap(order[0], order[1]);
    for (Side* side : order) {
      auto t = side->dispatch(gpu, iterations);
      if (!t) return std::move(t).error();
      side->rounds.push_back(*t);
    }
  }
  const std::string vs = shipped.validate(gpu, probe, iterations);
  const std::string vf = fixture.validate(gpu, probe, iterations);
  const Paired pr = paired(shipped, fixture, cpu_clock);
  fmt::print("{:<20} {:>6} {:>6.2f} {:>9.3f} {:>9.3f} {:>6.2f} {:>8.3f} {:>7.3f}  {}\n", probe.id, iterations,
             fixture.best(false) / shipped.best(false), shipped.best(cpu_clock), fixture.best(cpu_clock),
             fixture.best(cpu_clock) / shipped.best(cpu_clock), pr.ratio, pr.spread,
             vs == "ok" && vf == "ok" ? pr.verdict : "INVALID");
  std::fflush(stdout);
  if (vs != "ok") return make_error(ErrorKind::Failed, "the probe failed validation: " + vs);
  if (vf != "ok") return make_error(ErrorKind::Failed, "the fixture failed validation: " + vf);
  return std::string_view(pr.verdict) == "SLOWER";
}

Expected<Options> parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return make_error(ErrorKind::Usage, fmt::format("{} needs a value", a));
    const std::string v = argv[++i];
    if (a == "--filter") {
      std::stringstream ss(v);
      for (std::string id; std::getline(ss, id, ',');) o.ids.push_back(id);
    } else if (a == "--rounds") {
      o.rounds = std::max(1, std::atoi(v.c_str()));
    } else if (a == "--target-ms") {
      o.target_ms = std::max(1.0, std::atof(v.c_str()));
    } else if (a == "--clock" && (v == "cpu" || v == "wall")) {
      o.clock = v;
    } else if (a == "--fixtures") {
      o.fixtures = v;
    } else if (a == "--probes") {
      o.probes = v;
    } else if (a == "--adapter") {
      o.adapter = v;
    } else {
      return make_error(ErrorKind::Usage, fmt::format("unknown option {} {} (see the comment at the top of "
                                                      "bench/alu_fixtures.cpp)", a, v));
    }
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  auto o = parse(argc, argv);
  if (!o) {
    fmt::print(stderr, "alu-fixtures: {}\n", o.error().message);
    return 2;
  }
  gpu::ContextOptions co;
  co.adapter = o->adapter;
  auto gpu = gpu::Context::create(co);
  if (!gpu) {
    fmt::print(stderr, "alu-fixtures: {}\n", gpu.error().message);
    return 3;
  }
  const auto& adapter = (*gpu)->adapter();
  const bool cpu_clock = o->clock.empty() ? adapter.adapter_type == "cpu" : o->clock == "cpu";
  const char* clock = cpu_clock ? "cpu" : "wall";
  fmt::print("adapter: {} ({}, {}); load average at start: {}\n", adapter.description, adapter.backend,
             adapter.adapter_type, load_average());
  fmt::print("{} rounds of one dispatch each, alternating; x = fixture / probe (1 or more: the probe is at least\n"
             "as fast): wall x of the best wall times, best x of the best {} times, paired x the geometric mean\n"
             "of the rounds' {} ratios with 2 s.e.; the verdict is the paired ratio's\n",
             o->rounds, clock, clock);
  fmt::print("{:<20} {:>6} {:>6} {:>9} {:>9} {:>6} {:>8} {:>7}  verdict\n", "probe", "trips", "wall x",
             fmt::format("{} ms", clock), "fixture", "best x", "paired x", "2 s.e.");
  int failed = 0, slower = 0;
  for (const auto& probe : alu::probes()) {
    if (!o->ids.empty() && std::find(o->ids.begin(), o->ids.end(), probe.id) == o->ids.end()) continue;
    if ((probe.f16 && !(*gpu)->has_feature("shader-f16")) ||
        (probe.dot4 && !(*gpu)->has_wgsl_feature("packed_4x8_integer_dot_product"))) {
      fmt::print("{:<20} skipped: the adapter lacks a feature it needs\n", probe.id);
      continue;
    }
    auto r = compare(**gpu, probe, *o, cpu_clock);
    if (!r) {
      fmt::print("{:<20} error: {}\n", probe.id, r.error().message);
      ++failed;
    } else if (*r) {
      ++slower;
    }
  }
  fmt::print("load average at the end: {}; {} slower, {} failed\n", load_average(), slower, failed);
  return failed == 0 && slower == 0 ? 0 : 1;
}
