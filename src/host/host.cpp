// The host suite: thread teams, buffers, the protocol of harness.hpp around every point, the
// checks of every kernel, curves over thread count and working-set size, and everything the result
// document records of the host (docs/method.md#record).
#include "host/host.hpp"

#include <fmt/format.h>
#include <fnmatch.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <optional>

#include "gpu/build_info.hpp"
#include "host/buffer.hpp"
#include "host/build_flags.hpp"
#include "host/clock.hpp"
#include "host/kernels.hpp"
#include "host/topology.hpp"
#include "measure/record.hpp"
#include "measure/stats.hpp"
#include "report/table.hpp"
#include "suite/row.hpp"

namespace wgb::host {

namespace {

using Clock = std::chrono::steady_clock;
using json = nlohmann::json;

const Metric kBytesMetric{"bytes", "B", "Bytes moved (STREAM counting: arrays read + written, no write-allocate)"};
const Metric kFlopsMetric{"flops", "FLOP", "Floating-point operations (an FMA counts 2)"};
const Metric kLoadsMetric{"loads", "load", "Dependent loads (one per 64-byte node)"};

std::uint64_t round_up(std::uint64_t v, std::uint64_t g) { return g == 0 ? v : (v + g - 1) / g * g; }

long anon_huge_pages_kib();

// ---- one measured point ------------------------------------------------------------------------

struct Point {
  json x = json::object();  // what varies: threads, array_bytes, working_set_bytes, ...
  ProtocolResult proto;
  Summary sum;
  WorkModel work;  // one pass
  bool valid = true;
  std::string validation;
  std::vector<double> member_mhz;  // add chain on every member right after the timed regions
  std::vector<int> cpus_seen;      // sched_getcpu() of every member at that moment
  std::vector<OsClock> os;
  double seconds = 0;    // wall time of the whole point (allocation to check)
  double cpu_share = 0;  // CPU time / (timed wall time x threads): 1 = CPUs held throughout
};

// Fills cpu_share from the protocol's rusage counters (threads = team size).
void set_cpu_share(Point& p, unsigned threads) {
  const double wall = p.proto.timed_wall_ms * static_cast<double>(std::max(1u, threads));
  p.cpu_share = wall > 0 ? std::min(1.0, p.proto.timed_cpu_ms / wall) : 0;
}

double median_of(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !(x > 0); }), v.end());
  return measure::median(v);
}

json point_json(const Point& p, const Metric& metric) {
  json j = p.x;
  j["value"] = p.sum.value;
  j["value_unit"] = metric.unit + "/s";
  j["value_iqr"] = {p.sum.value_low, p.sum.value_high};
  j["time_ms"] = p.sum.time_ms;
  j["median_ms"] = p.sum.stats.median;
  j["min_ms"] = p.sum.stats.min;
  j["q1_ms"] = p.sum.stats.q1;
  j["q3_ms"] = p.sum.stats.q3;
  j["iqr_relative"] = p.sum.iqr_relative;
  j["repeat"] = p.proto.repeat;
  j["repetitions"] = p.proto.region_ms.size();
  j["region_ms_min"] =
      p.proto.region_ms.empty() ? 0.0 : *std::min_element(p.proto.region_ms.begin(), p.proto.region_ms.end());
  j["warmup_runs"] = p.proto.warmup_runs;
  j["warmup_ms"] = p.proto.warmup_ms;
  j["warmup_steady"] = p.proto.warmup_steady;
  j["short_regions"] = p.proto.short_regions;
  j["cpu_share"] = p.cpu_share;
  j["involuntary_switches"] = p.proto.involuntary_switches;
  j["recalibrations"] = p.proto.recalibrations;
  j["scaling"] = p.proto.scaling;
  j["scaling_steps"] = p.proto.scaling_steps;
  j["clock_mhz"] = median_of(p.member_mhz);
  j["clock_mhz_members"] = p.member_mhz;
  j["cpus_seen"] = p.cpus_seen;
  json os = json::array();
  for (const auto& c : p.os) os.push_back(c.mhz > 0 ? json(c.mhz) : json(nullptr));
  j["os_mhz"] = os;
  j["valid"] = p.valid;
  j["validation"] = p.validation;
  return j;
}

// ---- the run -------------------------------------------------------------------------------------

struct Run {
  const HostOptions& o;
  report::ResultDocument& doc;
  const std::function<Status()>& checkpoint;
  Topology topo;
  unsigned threads = 1;
  std::vector<int> cpus;  // pinned CPUs for `threads` members (empty: not pinned)
  std::vector<unsigned> thread_list;
  TimerInfo timer;
  std::uint64_t llc = 0;
  std::uint64_t array_bytes = 0;
  std::uint64_t latency_max = 0;
  FmaIsa isa = FmaIsa::Scalar;
  std::vector<std::string> selected;
  HostRun out;
  std::vector<double> all_mhz;  // every add-chain reading of the run
  std::vector<double> all_os_mhz;
  std::string os_clock_source;

  bool wanted(const std::string& id) const { return std::find(selected.begin(), selected.end(), id) != selected.end(); }
  bool cancelled() const { return o.cancel.cancelled(); }
  void progress(const std::string& s) const {
    if (o.on_progress) o.on_progress(s);
  }

  Expected<std::unique_ptr<ThreadTeam>> team(unsigned t) const {
    std::vector<int> c;
    if (!cpus.empty()) c.assign(cpus.begin(), cpus.begin() + t);
    return ThreadTeam::create(t, std::move(c));
  }

  // Times `body` (each member's share of one pass of `current` repeats) with the host protocol, then
  // records what share of `threads` CPUs the timed passes had and the members' clocks.
  void time_team(ThreadTeam& team, Point& p, std::function<void(unsigned)>& body, std::uint64_t& current,
                 unsigned threads) {
    p.proto = run_protocol(
        [&](std::uint64_t repeat) {
          current = repeat;
          team.run(body);
        },
        o.protocol);
    set_cpu_share(p, threads);
    probe_clock(team, p);
  }

  void probe_clock(ThreadTeam& team, Point& p) {
    const unsigned T = team.size();
    p.member_mhz.assign(T, 0);
    p.cpus_seen.assign(T, -1);
    const double ms = o.clock_probe_ms;
    std::function<void(unsigned)> f = [&](unsigned t) {
      p.cpus_seen[t] = sched_getcpu();
      p.member_mhz[t] = ms > 0 ? add_chain_mhz(ms) : 0;
    };
    team.run(f);
    p.os = os_clock_mhz(p.cpus_seen);
    for (double m : p.member_mhz) {
      if (m > 0) all_mhz.push_back(m);
    }
    for (const auto& c : p.os) {
      if (c.mhz > 0) {
        all_os_mhz.push_back(c.mhz);
        os_clock_source = c.source;
      }
    }
  }

  std::size_t first_touch_align(std::size_t n, unsigned T) const {
    // Page-sized blocks (512 doubles) when blocks are large, so each page is first touched by
    // the member that uses it; cache-line blocks otherwise.
    return n / std::max(1u, T) >= 4096 ? 512 : 8;
  }

  // ---- STREAM ----

  struct StreamArrays {
    Buffer buf;
    double* a = nullptr;
    double* b = nullptr;
    double* c = nullptr;
    std::size_t n = 0;
  };

  // One mapping; a at a 2 MiB boundary, b and c after it, each array's start offset by a further
  // 1 KiB so that a[i], b[i], c[i] never share address bits 0-11 (no 4K aliasing between the
  // stores of one array and the loads of another).
  Expected<StreamArrays> map_stream(std::size_t n) const {
    const std::size_t slot = round_up(n * sizeof(double), 4096);
    auto buf = Buffer::map(3 * slot + 3 * 1024, o.huge_pages);
    if (!buf) return std::move(buf).error();
    StreamArrays s;
    s.buf = std::move(*buf);
    auto* base = static_cast<unsigned char*>(s.buf.data());
    s.a = reinterpret_cast<double*>(base);
    s.b = reinterpret_cast<double*>(base + slot + 1024);
    s.c = reinterpret_cast<double*>(base + 2 * slot + 2048);
    s.n = n;
    return s;
  }

  void first_touch(ThreadTeam& team, StreamArrays& s) const {
    const unsigned T = team.size();
    const std::size_t align = first_touch_align(s.n, T);
    std::function<void(unsigned)> f = [&](unsigned t) {
      const Block b = block_of(s.n, t, T, align);
      for (std::size_t i = b.begin; i < b.end; ++i) {
        s.a[i] = 1.0;
        s.b[i] = 2.0;
        s.c[i] = 0.0;
      }
    };
    team.run(f);
  }

  Point measure_stream(ThreadTeam& team, StreamArrays& s, StreamOp op, StreamModel& model) {
    const auto t0 = Clock::now();
    Point p;
    const unsigned T = team.size();
    const std::size_t align = first_touch_align(s.n, T);
    std::uint64_t current = 1;
    std::function<void(unsigned)> body = [&](unsigned t) {
      const Block b = block_of(s.n, t, T, align);
      stream_repeat(op, s.a + b.begin, s.b + b.begin, s.c + b.begin, b.size(), current);
    };
    time_team(team, p, body, current, T);
    // The closed-form STREAM check: every element of the array this kernel wrote must equal the
    // scalar model (repeats of one kernel are idempotent: it never reads what it writes).
    model.apply(op);
    const double* out = op == StreamOp::Copy || op == StreamOp::Add ? s.c : op == StreamOp::Scale ? s.b : s.a;
    const double expected = op == StreamOp::Copy || op == StreamOp::Add ? model.c
                            : op == StreamOp::Scale                     ? model.b
                                                                        : model.a;
    std::vector<double> err(T, 0.0);
    std::function<void(unsigned)> check = [&](unsigned t) {
      const Block b = block_of(s.n, t, T, align);
      err[t] = stream_relative_error(out + b.begin, b.size(), expected) * static_cast<double>(b.size());
    };
    team.run(check);
    double total = 0;
    for (double e : err) total += e;
    total /= static_cast<double>(s.n);
    p.valid = total <= kStreamEpsilon;
    p.validation = fmt::format(
        "STREAM check: {} of {} elements vs closed form {} (mean relative error {:.3g}, "
        "epsilon {:g})",
        to_string(op), s.n, expected, total, kStreamEpsilon);
    const double bytes = static_cast<double>(s.n) * sizeof(double);
    p.work.bytes_read = (arrays_touched(op) - 1) * bytes;
    p.work.bytes_written = bytes;
    p.work.operations = flops_per_element(op) * static_cast<double>(s.n);
    p.sum = summarize(p.proto.pass_ms, statistic_for(Regime::Memory), p.work.bytes_read + p.work.bytes_written);
    p.x["threads"] = T;
    p.x["array_bytes"] = s.n * sizeof(double);
    p.x["working_set_bytes"] = arrays_touched(op) * s.n * sizeof(double);
    p.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return p;
  }

  // ---- FMA ----

  Point measure_fma(ThreadTeam& team, bool f64) {
    const auto t0 = Clock::now();
    Point p;
    const unsigned T = team.size();
    const FmaShape shape = fma_shape(isa, f64);
    const std::size_t n = shape.state();
    const std::size_t slot = round_up(n * sizeof(double), 4096);  // one page per member: no sharing
    auto buf = Buffer::map(slot * (T + 2), false);
    if (!buf) {
      p.valid = false;
      p.validation = buf.error().message;
      return p;
    }
    auto* base = static_cast<unsigned char*>(buf->data());
    // Values stay finite and normal: x <- x*m + a contracts from [1, 2) towards a/(1-m) (40.96 in
    // f32, 10.49 in f64). `a` has bits below x's last place, so a separate multiply and add (two
    // roundings) would give different bits than the fused operation: the check below can fail.
    const float m32 = 1.0f - 0x1p-12f, a32 = 0.01f;
    const double m64 = 1.0 - 0x1p-20, a64 = 1e-5;
    auto init = [&](void* dst) {
      for (std::size_t j = 0; j < n; ++j) {
        const double v = 1.0 + static_cast<double>(j) / static_cast<double>(n);
        if (f64) {
          static_cast<double*>(dst)[j] = v;
        } else {
          static_cast<float*>(dst)[j] = static_cast<float>(v);
        }
      }
    };
    std::uint64_t current = 1;
    std::function<void(unsigned)> body = [&](unsigned t) {
      void* st = base + slot * t;
      init(st);  // every region starts from the same state, so every result can be compared
      if (f64) {
        fma_f64(isa, static_cast<double*>(st), m64, a64, current);
      } else {
        fma_f32(isa, static_cast<float*>(st), m32, a32, current);
      }
    };
    time_team(team, p, body, current, T);
    // Checks: (1) the timed results are finite and identical on every member; (2) the kernel
    // equals the scalar std::fma reference bit for bit over 2048 iterations (a mul+add pair would
    // round twice and differ), which also proves the instruction fuses.
    const std::size_t bytes = n * (f64 ? sizeof(double) : sizeof(float));
    bool same = true, finite = true;
    for (unsigned t = 0; t < T; ++t) {
      same = same && std::memcmp(base, base + slot * t, bytes) == 0;
      for (std::size_t j = 0; j < n; ++j) {
        const double v = f64 ? reinterpret_cast<double*>(base + slot * t)[j]
                             : static_cast<double>(reinterpret_cast<float*>(base + slot * t)[j]);
        finite = finite && std::isfinite(v);
      }
    }
    constexpr std::uint64_t kCheckIterations = 2048;
    void* k = base + slot * T;
    void* r = base + slot * (T + 1);
    init(k);
    init(r);
    if (f64) {
      fma_f64(isa, static_cast<double*>(k), m64, a64, kCheckIterations);
      fma_reference_f64(static_cast<double*>(r), n, m64, a64, kCheckIterations);
    } else {
      fma_f32(isa, static_cast<float*>(k), m32, a32, kCheckIterations);
      fma_reference_f32(static_cast<float*>(r), n, m32, a32, kCheckIterations);
    }
    const bool exact = std::memcmp(k, r, bytes) == 0;
    p.valid = same && finite && exact;
    p.validation = fmt::format(
        "{} lanes x {} chains: timed results {} and {} on all {} members; {} iterations {} the scalar "
        "std::fma reference bit for bit",
        shape.lanes, shape.accumulators, finite ? "finite" : "NOT finite", same ? "identical" : "DIFFERENT", T,
        kCheckIterations, exact ? "equal" : "DO NOT equal");
    p.work.operations = static_cast<double>(T) * shape.flops_per_iteration();
    p.sum = summarize(p.proto.pass_ms, statistic_for(Regime::Compute), p.work.operations);
    p.x["threads"] = T;
    p.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return p;
  }

  // ---- latency ----

  Point measure_latency(ThreadTeam& team, std::uint64_t bytes) {
    const auto t0 = Clock::now();
    Point p;
    const std::size_t nodes = std::max<std::size_t>(2, bytes / kNodeStride);
    p.x["working_set_bytes"] = nodes * kNodeStride;
    p.x["nodes"] = nodes;
    auto buf = Buffer::map(nodes * kNodeStride, o.huge_pages);
    if (!buf) {
      p.valid = false;
      p.validation = buf.error().message;
      return p;
    }
    void* base = buf->data();
    std::size_t length = 0;
    std::function<void(unsigned)> build = [&](unsigned) {
      build_cycle(base, nodes, kNodeStride, o.seed);
      length = cycle_length(base, nodes);  // one full walk: the check, and the first warm-up
    };
    team.run(build);  // one member, pinned: the walk's pages are touched on its node
    // Whether huge pages were really used: the process's AnonHugePages now (the buffer dominates).
    if (o.huge_pages) p.x["anon_huge_pages_kib"] = anon_huge_pages_kib();
    p.valid = length == nodes;
    p.validation =
        fmt::format("Sattolo cycle over {} nodes of {} B: the walk returns after {} hops ({})", nodes, kNodeStride,
                    length > nodes ? fmt::format("more than {}", nodes) : fmt::format("{}", length),
                    p.valid ? "one single cycle" : "NOT a single cycle");
    const void* cursor = base;
    std::uint64_t current = 1;
    std::function<void(unsigned)> body = [&](unsigned) { cursor = chase(cursor, current); };
    time_team(team, p, body, current, 1);
    keep(cursor);
    p.work.operations = 1;  // one pass = one hop
    p.sum = summarize(p.proto.pass_ms, statistic_for(Regime::Latency), 1.0);
    p.x["ns_per_load"] = p.sum.time_ms * 1e6;
    p.x["cycles_per_load"] = median_of(p.member_mhz) * 1e6 * p.sum.time_ms * 1e-3;
    p.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return p;
  }

  // ---- rows ----

  json timing_json(const Point& h, Regime regime) const {
    return {
        {"clock", "std::chrono::steady_clock"},
        {"clock_resolution_ns", timer.resolution_ns},
        {"clock_overhead_ns", timer.overhead_ns},
        {"repetitions", h.proto.region_ms.size()},
        {"timed", "each repetition individually (one region = `repeat` back-to-back passes)"},
        {"repeat", h.proto.repeat},
        {"repeat_dependency",
         "each pass's inputs depend (asm barrier) on the previous pass's output; FMA chains and pointer "
         "chases carry their own dependency"},
        {"min_region_ms", o.protocol.min_region_ms},
        {"region_ms_min",
         h.proto.region_ms.empty() ? 0.0 : *std::min_element(h.proto.region_ms.begin(), h.proto.region_ms.end())},
        {"short_regions", h.proto.short_regions},
        {"cpu_share", h.cpu_share},
        {"cpu_share_rule",
         "getrusage CPU time of the process / (sum of timed regions x threads); 1 = the "
         "threads held their CPUs throughout (spinning members count as holding them)"},
        {"involuntary_switches", h.proto.involuntary_switches},
        {"recalibrations", h.proto.recalibrations},
        {"scaling", h.proto.scaling},
        {"scaling_steps", h.proto.scaling_steps},
        {"scaling_rule",
         "calibration doubles the calibrated repeat count: the region must take >= 1.9x as long "
         "(fixed cost per region <= 10%), else the count grows; 0 = not checked (region >= 500 ms)"},
        {"warmup",
         {{"runs", h.proto.warmup_runs},
          {"ms", h.proto.warmup_ms},
          {"steady", h.proto.warmup_steady},
          {"rule", fmt::format("at least {} regions and {} ms, until two consecutive regions agree "
                               "within {}% (capped at 4x the time)",
                               o.protocol.warmup_min_runs, o.protocol.warmup_ms, 100 * o.protocol.steady_tolerance)}}},
        {"statistic", to_string(statistic_for(regime))},
        {"regime", to_string(regime)},
        {"dispersion",
         {{"iqr_ms", h.sum.stats.iqr},
          {"iqr_relative", h.sum.iqr_relative},
          {"cv", h.sum.stats.cv},
          {"min_ms", h.sum.stats.min},
          {"max_ms", h.sum.stats.max}}}};
  }

  json threads_json(unsigned T) const {
    std::vector<int> used;
    if (!cpus.empty()) used.assign(cpus.begin(), cpus.begin() + T);
    std::vector<int> nodes;
    for (int c : used) {
      const int n = numa_node_of(topo, c);
      if (std::find(nodes.begin(), nodes.end(), n) == nodes.end()) nodes.push_back(n);
    }
    return {{"count", T},
            {"affinity", to_string(o.affinity)},
            {"how", o.affinity == Affinity::Cores
                        ? "each std::jthread member (and the calling thread as member 0) pins itself with "
                          "pthread_setaffinity_np to one CPU before touching data: one per physical core, "
                          "in CPU order; SMT siblings only when there are more threads than cores"
                        : "not pinned: the OS scheduler places the threads (cpus_seen in each point)"},
            {"cpus", used.empty() ? json(nullptr) : json(format_cpu_list(used))},
            {"numa_nodes", nodes},
            {"first_touch", "each member initialises its own block, the same partition the kernel uses"}};
  }

  json clock_summary(const std::vector<Point>& pts) const {
    std::vector<double> mhz, os;
    for (const auto& p : pts) {
      for (double m : p.member_mhz) {
        if (m > 0) mhz.push_back(m);
      }
      for (const auto& c : p.os) {
        if (c.mhz > 0) os.push_back(c.mhz);
      }
    }
    json j = {{"method",
               "dependent add chain (100 register adds per iteration, 1 cycle each) run on every "
               "member right after its timed regions; best of 3 chains of ~" +
                   fmt::format("{:g}", o.clock_probe_ms) + " ms"}};
    j["sustained_mhz_median"] = mhz.empty() ? json(nullptr) : json(measure::median(mhz));
    j["sustained_mhz_min"] = mhz.empty() ? json(nullptr) : json(*std::min_element(mhz.begin(), mhz.end()));
    j["os_reported_mhz_median"] = os.empty() ? json(nullptr) : json(measure::median(os));
    j["os_reported_source"] = os_clock_source.empty() ? json(nullptr) : json(os_clock_source);
    return j;
  }

  BenchmarkResult make_row(const HostBenchmark& b, const std::string& family, Regime regime, const Metric& metric,
                           const Point& h, const std::vector<Point>& all, json parameters) {
    BenchmarkResult r;
    r.id = b.id;
    r.label = b.label;
    r.description = b.description;
    r.category = "host";
    r.family = family;
    r.metric = metric;
    r.statistic = statistic_for(regime);
    r.statistic_reason = statistic_reason(regime);
    r.knob_name = "repeat";
    // The host protocol's record (docs/method.md#host-protocol): every timed region kept, no
    // discards, a fixed repetition count on the host's steady clock.
    measure::Record rec;
    rec.knob = h.proto.repeat;
    rec.repetitions = static_cast<std::uint32_t>(std::min<std::uint64_t>(h.proto.repeat, 0xffffffffu));
    rec.calibration_trace = h.proto.calibration;
    rec.kept_ms = h.proto.pass_ms;
    rec.stop_reason = StopReason::FixedRepetitions;
    rec.clock = TimingMethod::HostSteadyClock;
    apply_record(r, rec, h.work);
    r.timing_notes.push_back(fmt::format("{} timed regions of {} pass(es) each; samples are region time / repeat",
                                         h.proto.region_ms.size(), h.proto.repeat));
    r.timing_notes.push_back(fmt::format("warm-up: {} regions, {:.1f} ms, {}", h.proto.warmup_runs, h.proto.warmup_ms,
                                         h.proto.warmup_steady ? "steady" : "stopped at the cap (not steady)"));
    if (h.proto.short_regions > 0) {
      r.notes.push_back(
          fmt::format("{} timed regions were not longer than {} ms", h.proto.short_regions, o.protocol.min_region_ms));
    }
    // Interference: the statistics assume the threads held their CPUs; say when they did not.
    if (h.cpu_share > 0 && h.cpu_share < 0.9) {
      r.notes.push_back(
          fmt::format("the threads held their CPUs {:.0f}% of the timed wall time ({} involuntary "
                      "context switches): other processes competed for the cores",
                      100 * h.cpu_share, h.proto.involuntary_switches));
    }
    int disturbed = 0;
    for (const auto& p : all) disturbed += p.cpu_share > 0 && p.cpu_share < 0.9 ? 1 : 0;
    if (disturbed > 0) {
      r.notes.push_back(
          fmt::format("{} of {} curve points had a CPU share below 90% (see cpu_share)", disturbed, all.size()));
    }
    std::string failures;
    for (const auto& p : all) {
      if (!p.valid) failures += (failures.empty() ? "" : "; ") + p.validation;
    }
    r.validation = h.validation;
    if (!h.valid || !failures.empty()) {
      r.status = RowStatus::Error;
      r.message = "check failed: " + (failures.empty() ? h.validation : failures);
      ++out.failed_rows;
    }
    double seconds = 0;
    for (const auto& p : all) seconds += p.seconds;
    r.duration_s = seconds;
    parameters["timing"] = timing_json(h, regime);
    parameters["threads"] = threads_json(h.x.value("threads", 1u));
    parameters["frequency"] = clock_summary(all);
    r.parameters = std::move(parameters);
    return r;
  }

  Status emit(BenchmarkResult row) {
    row.index = out.rows.size();
    doc.add_row(row);
    out.rows.push_back(std::move(row));
    if (o.on_row) o.on_row(out.rows.back());
    if (checkpoint) return checkpoint();
    return ok();
  }

  void report_point(const std::string& id, const Point& p, const Metric& metric, const std::string& where) const {
    progress(fmt::format(
        "{:<18} {:<28} {:>14}  ({} IQR {:.1f}%, repeat {}, {} reps){}", id, where, report::format_rate(p.sum.value, metric.unit),
        to_string(statistic_for(metric.key == "flops" ? Regime::Compute : Regime::Memory)), 100 * p.sum.iqr_relative,
        p.proto.repeat, p.proto.region_ms.size(), p.valid ? "" : "  CHECK FAILED"));
  }

  json series(const std::string& name, const std::string& x, const std::string& text, Regime regime,
              const std::vector<Point>& pts, const Metric& metric) const {
    json points = json::array();
    for (const auto& p : pts) points.push_back(point_json(p, metric));
    return {{"name", name},
            {"x", x},
            {"description", text},
            {"statistic", to_string(statistic_for(regime))},
            {"value_unit", metric.unit + "/s"},
            {"points", points}};
  }

  json cache_boundaries(unsigned T) const {
    std::vector<int> used = cpus;
    if (used.empty()) used = topo.one_per_core;
    used.resize(std::min<std::size_t>(used.size(), T));
    json b = json::array();
    for (const auto& c : caches_for(used)) {
      b.push_back({{"level", c.level},
                   {"type", c.type},
                   {"bytes_per_instance", c.bytes},
                   {"instances_used", c.instances},
                   {"total_bytes", c.total_bytes()}});
    }
    return b;
  }

  json input_stream(std::size_t n) const {
    return {{"array_bytes", n * sizeof(double)},
            {"elements", n},
            {"element_type", "f64"},
            {"shape", "three 1-D contiguous arrays a, b, c of n doubles"},
            {"alignment",
             "a at a 2 MiB boundary (mmap); b and c follow at +1 KiB and +2 KiB modulo 4 KiB "
             "(64-byte aligned, no 4K aliasing between arrays)"},
            {"numerical_character",
             "uniform arrays: a=1, b=2, c=0 at first touch, scalar 3.0 (STREAM); every "
             "value a small exact integer, so the closed-form check is exact"},
            {"last_level_cache_bytes", llc},
            {"array_vs_llc",
             llc > 0 ? json(static_cast<double>(n * sizeof(double)) / static_cast<double>(llc)) : json(nullptr)},
            {"huge_pages", o.huge_pages ? "madvise(MADV_HUGEPAGE)" : "not requested (THP: " + topo.thp + ")"},
            {"stores", "regular (compiler-generated) stores; write-allocate traffic is not counted"},
            {"kernel_isa", stream_isa() + " (target_clones resolver)"}};
  }

  // ---- the suites ----

  Status run_fma() {
    const bool f32 = wanted("host-fma-f32"), f64 = wanted("host-fma-f64");
    if (!f32 && !f64) return ok();
    std::vector<Point> p32, p64;
    for (unsigned t : thread_list) {
      if (cancelled()) break;
      auto tm = team(t);
      if (!tm) return std::move(tm).error();
      if (f32) {
        p32.push_back(measure_fma(**tm, false));
        report_point("host-fma-f32", p32.back(), kFlopsMetric, fmt::format("threads {}", t));
      }
      if (f64 && !cancelled()) {
        p64.push_back(measure_fma(**tm, true));
        report_point("host-fma-f64", p64.back(), kFlopsMetric, fmt::format("threads {}", t));
      }
    }
    for (bool is64 : {false, true}) {
      auto& pts = is64 ? p64 : p32;
      if (pts.empty() || pts.back().x.value("threads", 0u) != threads) continue;  // cancelled
      const auto& b = *std::find_if(host_benchmarks().begin(), host_benchmarks().end(),
                                    [&](const auto& x) { return x.id == (is64 ? "host-fma-f64" : "host-fma-f32"); });
      const FmaShape shape = fma_shape(isa, is64);
      json params = {
          {"input",
           {{"element_type", is64 ? "f64" : "f32"},
            {"shape", fmt::format("{} independent vector chains x {} lanes per member, in registers",
                                  shape.accumulators, shape.lanes)},
            {"alignment", "registers; the state is loaded from and stored to a page per member"},
            {"numerical_character",
             "x <- x*m + a from x0 in [1, 2); f32 m = 1 - 2^-12, a = 0.01; f64 m = 1 - 2^-20, a = 1e-5: "
             "finite, normal, no denormals, contracting towards a/(1-m)"},
            {"kernel_isa", to_string(isa)},
            {"kernel_symbol", fmt::format("wgb_host_fma_{}_{}", is64 ? "f64" : "f32",
                                          isa == FmaIsa::Avx512 ? "avx512"
                                          : isa == FmaIsa::Avx2 ? "avx2"
                                                                : "scalar")},
            {"flops_per_iteration_per_member", shape.flops_per_iteration()}}},
          {"series", json::array({series("threads", "threads", "FMA rate over thread count (pinned as stated)",
                                         Regime::Compute, pts, kFlopsMetric)})}};
      if (isa == FmaIsa::Scalar) params["note"] = "no vector FMA instruction set: the scalar fallback is not a peak";
      auto row = make_row(b, "fma", Regime::Compute, kFlopsMetric, pts.back(), pts, std::move(params));
      if (isa == FmaIsa::Scalar) row.notes.push_back("scalar std::fma fallback: not a peak rate");
      if (auto st = emit(std::move(row)); !st) return st;
    }
    return ok();
  }

  Status run_stream() {
    const StreamOp ops[] = {StreamOp::Copy, StreamOp::Scale, StreamOp::Add, StreamOp::Triad};
    std::vector<StreamOp> chosen;
    for (auto op : ops) {
      if (wanted(std::string("host-stream-") + to_string(op))) chosen.push_back(op);
    }
    if (chosen.empty()) return ok();
    std::map<StreamOp, std::vector<Point>> by_threads, by_size;
    const std::size_t n_head = round_up(array_bytes / sizeof(double), 8);
    // Curve over thread count: fresh arrays for every count, first-touched by that team.
    for (unsigned t : thread_list) {
      if (cancelled()) break;
      auto tm = team(t);
      if (!tm) return std::move(tm).error();
      auto arrays = map_stream(n_head);
      if (!arrays) return std::move(arrays).error();
      first_touch(**tm, *arrays);
      StreamModel model;
      for (auto op : chosen) {
        if (cancelled()) break;
        by_threads[op].push_back(measure_stream(**tm, *arrays, op, model));
        report_point(std::string("host-stream-") + to_string(op), by_threads[op].back(), kBytesMetric,
                     fmt::format("threads {} array {}", t, report::format_bytes(static_cast<double>(n_head * 8))));
      }
    }
    // Curve over working-set size at the headline thread count, across the cache boundaries.
    if (o.size_sweep && !cancelled()) {
      auto tm = team(threads);
      if (!tm) return std::move(tm).error();
      const std::uint64_t hi = o.sweep_max_bytes ? o.sweep_max_bytes : array_bytes;
      for (std::uint64_t bytes : size_points(o.sweep_min_bytes, hi, o.points_per_octave, 64ull * threads)) {
        if (cancelled()) break;
        auto arrays = map_stream(bytes / sizeof(double));
        if (!arrays) return std::move(arrays).error();
        first_touch(**tm, *arrays);
        StreamModel model;
        for (auto op : chosen) {
          if (cancelled()) break;
          by_size[op].push_back(measure_stream(**tm, *arrays, op, model));
          report_point(std::string("host-stream-") + to_string(op), by_size[op].back(), kBytesMetric,
                       fmt::format("array {}", report::format_bytes(static_cast<double>(bytes))));
        }
      }
    }
    for (auto op : chosen) {
      auto& tp = by_threads[op];
      if (tp.empty() || tp.back().x.value("threads", 0u) != threads) continue;
      const std::string id = std::string("host-stream-") + to_string(op);
      const auto& b =
          *std::find_if(host_benchmarks().begin(), host_benchmarks().end(), [&](const auto& x) { return x.id == id; });
      json params = {{"input", input_stream(n_head)}};
      params["series"] = json::array();
      params["series"].push_back(series("threads", "threads",
                                        "bandwidth over thread count at the headline array size; fresh arrays "
                                        "first-touched by each team",
                                        Regime::Memory, tp, kBytesMetric));
      std::vector<Point> all = tp;
      if (!by_size[op].empty()) {
        auto s = series("working_set", "working_set_bytes",
                        "bandwidth over working-set size (all arrays the kernel touches) at the headline thread "
                        "count; fresh arrays per size",
                        Regime::Memory, by_size[op], kBytesMetric);
        s["threads"] = threads;
        s["cache_boundaries"] = cache_boundaries(threads);
        params["series"].push_back(s);
        all.insert(all.end(), by_size[op].begin(), by_size[op].end());
      }
      auto row = make_row(b, "stream", Regime::Memory, kBytesMetric, tp.back(), all, std::move(params));
      if (llc > 0 && n_head * sizeof(double) < 4 * llc) {
        row.notes.push_back(
            fmt::format("arrays are {} each, below 4x the last-level cache ({}): the headline is "
                        "not a memory-bandwidth measurement",
                        report::format_bytes(static_cast<double>(n_head * 8)), report::format_bytes(static_cast<double>(4 * llc))));
      }
      if (auto st = emit(std::move(row)); !st) return st;
    }
    return ok();
  }

  Status run_latency() {
    if (!wanted("host-load-latency")) return ok();
    auto tm = team(1);
    if (!tm) return std::move(tm).error();
    std::vector<std::uint64_t> sizes;
    if (o.size_sweep) {
      sizes = size_points(o.sweep_min_bytes, latency_max, o.points_per_octave, kNodeStride);
    } else {
      sizes = {round_up(latency_max, kNodeStride)};
    }
    std::vector<Point> pts;
    for (auto bytes : sizes) {
      if (cancelled()) break;
      pts.push_back(measure_latency(**tm, bytes));
      const auto& p = pts.back();
      progress(fmt::format("{:<18} {:<28} {:>10.2f} ns/load  (median IQR {:.1f}%, {} hops/region, {} reps){}",
                           "host-load-latency", fmt::format("working set {}", report::format_bytes(static_cast<double>(bytes))),
                           p.sum.time_ms * 1e6, 100 * p.sum.iqr_relative, p.proto.repeat, p.proto.region_ms.size(),
                           p.valid ? "" : "  CHECK FAILED"));
    }
    if (pts.size() != sizes.size()) return ok();  // cancelled
    const auto& b = *std::find_if(host_benchmarks().begin(), host_benchmarks().end(),
                                  [](const auto& x) { return x.id == "host-load-latency"; });
    auto s =
        series("working_set", "working_set_bytes", "dependent-load latency over working-set size, one pinned thread",
               Regime::Latency, pts, kLoadsMetric);
    s["threads"] = 1;
    s["cache_boundaries"] = cache_boundaries(1);
    json params = {{"input",
                    {{"working_set_bytes", pts.back().x["working_set_bytes"]},
                     {"shape", "nodes of 64 B (one cache line), each holding the address of the next"},
                     {"alignment", "buffer at a 2 MiB boundary; nodes 64-byte aligned"},
                     {"numerical_character", fmt::format("one random cycle through all nodes (Sattolo), seed {:#x}; "
                                                         "pointer values",
                                                         o.seed)},
                     {"huge_pages", o.huge_pages ? "madvise(MADV_HUGEPAGE)" : "not requested (THP: " + topo.thp + ")"},
                     {"last_level_cache_bytes", llc}}},
                   {"ns_per_load", pts.back().sum.time_ms * 1e6},
                   {"series", json::array({s})}};
    auto row = make_row(b, "latency", Regime::Latency, kLoadsMetric, pts.back(), pts, std::move(params));
    return emit(std::move(row));
  }
};

// AnonHugePages of this process (/proc/self/smaps_rollup), in KiB; -1 when unreadable.
long anon_huge_pages_kib() {
  std::FILE* f = std::fopen("/proc/self/smaps_rollup", "r");
  if (f == nullptr) return -1;
  char line[256];
  long kib = -1;
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    if (std::strncmp(line, "AnonHugePages:", 14) == 0) kib = std::strtol(line + 14, nullptr, 10);
  }
  std::fclose(f);
  return kib;
}

std::string load_average() {
  std::FILE* f = std::fopen("/proc/loadavg", "r");
  if (f == nullptr) return {};
  char buf[128] = {};
  const bool ok = std::fgets(buf, sizeof(buf), f) != nullptr;
  std::fclose(f);
  std::string s = ok ? buf : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

json machine_json(const Run& r, double tsc, double idle_mhz) {
  const auto& b = build_info();
  json j;
  j["topology"] = topology_json(r.topo);
  j["clock"] = {{"base",
                 {{"tsc_mhz", tsc > 0 ? json(tsc) : json(nullptr)},
                  {"tsc_note",
                   "TSC ticks per second against steady_clock over 20 ms; on constant_tsc CPUs the TSC "
                   "runs at the nominal (base) clock"},
                  {"cpufreq", cpufreq_limits(r.topo.allowed_cpus.empty() ? 0 : r.topo.allowed_cpus.front())}}},
                {"idle_add_chain_mhz", idle_mhz > 0 ? json(idle_mhz) : json(nullptr)},
                {"method",
                 "sustained clock = dependent add chain (100 register-register adds per iteration; one add per "
                 "cycle) on each member right after its timed regions; the OS-reported clock (cpufreq "
                 "scaling_cur_freq, else /proc/cpuinfo) is read at the same moment"}};
  j["load_average_at_start"] = load_average();
  j["timer"] = {{"clock", "std::chrono::steady_clock"},
                {"resolution_ns", r.timer.resolution_ns},
                {"overhead_ns", r.timer.overhead_ns}};
  j["compiler"] = {{"vendor_version", fmt::format("{} {}", b.compiler_id, b.compiler_version)},
                   {"version_string", host_compiler_version()},
                   {"command", host_compile_command()},
                   {"multiversioning",
                    "STREAM: target_clones(avx512f, avx2, default) resolved by ifunc; FMA: one function per ISA "
                    "with target attributes and intrinsics, chosen at run time (--isa)"}};
  return j;
}

}  // namespace

// ---- public ----------------------------------------------------------------------------------------

const std::vector<HostBenchmark>& host_benchmarks() {
  static const std::vector<HostBenchmark> list = {
      {"host-fma-f32", "Host FMA f32",
       "Peak f32 FMA rate of the host CPU: independent vector FMA chains in registers on every member thread "
       "(minimum time: compute-bound)"},
      {"host-fma-f64", "Host FMA f64", "Peak f64 FMA rate of the host CPU, as host-fma-f32 in doubles"},
      {"host-stream-copy", "Host STREAM copy", "STREAM copy c = a (16 B per element)"},
      {"host-stream-scale", "Host STREAM scale", "STREAM scale b = q c (16 B per element)"},
      {"host-stream-add", "Host STREAM add", "STREAM add c = a + b (24 B per element)"},
      {"host-stream-triad", "Host STREAM triad",
       "STREAM triad a = b + q c (24 B per element); with arrays >= 4x the last-level cache, the host's "
       "measured stream bandwidth"},
      {"host-load-latency", "Host load latency",
       "Dependent-load latency: a pointer chase through one random cycle of 64-byte nodes (value: loads per "
       "second; ns_per_load in parameters)"},
  };
  return list;
}

Expected<std::vector<std::string>> select_host_benchmarks(const std::string& filter) {
  std::vector<std::string> out;
  if (filter.empty()) {
    for (const auto& b : host_benchmarks()) out.push_back(b.id);
    return out;
  }
  std::vector<std::string> globs;
  std::size_t i = 0;
  while (i <= filter.size()) {
    auto end = filter.find(',', i);
    if (end == std::string::npos) end = filter.size();
    auto g = filter.substr(i, end - i);
    if (!g.empty()) globs.push_back(g);
    i = end + 1;
  }
  for (const auto& g : globs) {
    bool any = false;
    for (const auto& b : host_benchmarks()) {
      if (fnmatch(g.c_str(), b.id.c_str(), 0) == 0) any = true;
    }
    if (!any) return make_error(ErrorKind::Usage, fmt::format("--filter '{}' matches no host benchmark", g));
  }
  for (const auto& b : host_benchmarks()) {
    for (const auto& g : globs) {
      if (fnmatch(g.c_str(), b.id.c_str(), 0) == 0) {
        out.push_back(b.id);
        break;
      }
    }
  }
  return out;
}

HostOptions quick_options() {
  HostOptions o;
  o.array_bytes = 4ull << 20;
  o.sweep_min_bytes = 16ull << 10;
  o.sweep_max_bytes = 4ull << 20;
  o.latency_max_bytes = 4ull << 20;
  o.points_per_octave = 1;
  o.protocol.repetitions = 5;
  o.protocol.warmup_ms = 5;
  o.clock_probe_ms = 0.5;
  return o;
}

Rates derive(double seconds, double flops, double bytes, double peak_flops, double peak_bandwidth) noexcept {
  Rates r;
  if (!(seconds > 0)) return r;
  r.flops_per_second = flops / seconds;
  r.bytes_per_second = bytes / seconds;
  r.arithmetic_intensity = bytes > 0 ? flops / bytes : std::numeric_limits<double>::infinity();
  const double bound = bytes > 0 ? std::min(peak_bandwidth * r.arithmetic_intensity, peak_flops) : peak_flops;
  // A kernel with no flops is bounded by bandwidth alone (its roofline is the bandwidth line).
  if (flops == 0) {
    r.fraction_of_roofline = peak_bandwidth > 0 ? r.bytes_per_second / peak_bandwidth : 0;
  } else {
    r.fraction_of_roofline = bound > 0 ? r.flops_per_second / bound : 0;
  }
  return r;
}

std::vector<std::uint64_t> size_points(std::uint64_t lo, std::uint64_t hi, int per_octave, std::uint64_t granule) {
  std::vector<std::uint64_t> out;
  granule = std::max<std::uint64_t>(1, granule);
  lo = std::max(lo, granule);
  hi = std::max(hi, lo);
  per_octave = std::max(1, per_octave);
  for (int k = 0; k < 10000; ++k) {
    const double v = static_cast<double>(lo) * std::pow(2.0, static_cast<double>(k) / per_octave);
    if (v > static_cast<double>(hi) * (1 + 1e-9)) break;
    const std::uint64_t r = std::max(granule, round_up(static_cast<std::uint64_t>(std::llround(v)), granule));
    if (out.empty() || r > out.back()) out.push_back(r);
  }
  const std::uint64_t last = round_up(hi, granule);
  if (out.empty() || out.back() < last) out.push_back(last);
  return out;
}

std::vector<unsigned> default_thread_list(unsigned n) {
  std::vector<unsigned> out;
  for (unsigned t = 1; t <= std::min(n, 8u); ++t) out.push_back(t);
  const unsigned step = std::max(1u, n / 8);
  for (unsigned t = 8 + step; t < n; t += step) out.push_back(t);
  if (out.empty() || out.back() != n) out.push_back(n);
  return out;
}

Expected<HostRun> run_host(const HostOptions& o, report::ResultDocument& doc,
                           const std::function<Status()>& checkpoint) {
  const auto& p = o.protocol;
  if (p.repetitions < 1 || p.repetitions > 100000) {
    return make_error(ErrorKind::Usage, fmt::format("repetitions {} out of range (1..100000)", p.repetitions));
  }
  if (!(p.min_region_ms > 0) || !(p.warmup_ms >= 0) || !(p.target_factor >= 1)) {
    return make_error(ErrorKind::Usage, "minimum region must be > 0 ms and warm-up >= 0 ms");
  }
  if (o.points_per_octave < 1 || o.points_per_octave > 16) {
    return make_error(ErrorKind::Usage, fmt::format("points per octave {} out of range (1..16)", o.points_per_octave));
  }
  auto selected = select_host_benchmarks(o.filter);
  if (!selected) return std::move(selected).error();

  Run r{o, doc, checkpoint};
  r.selected = std::move(*selected);
  r.topo = read_topology();
  const unsigned cores = static_cast<unsigned>(std::max<std::size_t>(1, r.topo.one_per_core.size()));
  r.threads = o.threads ? o.threads : cores;
  auto cpus = choose_cpus(r.threads, o.affinity, r.topo.one_per_core, r.topo.smt_siblings);
  if (!cpus) return std::move(cpus).error();
  r.cpus = std::move(*cpus);
  if (o.affinity == Affinity::None && r.threads > 4096) {
    return make_error(ErrorKind::Usage, fmt::format("{} threads is too many", r.threads));
  }
  if (!o.thread_sweep) {
    r.thread_list = {r.threads};
  } else if (!o.thread_list.empty()) {
    r.thread_list = o.thread_list;
    std::sort(r.thread_list.begin(), r.thread_list.end());
    r.thread_list.erase(std::unique(r.thread_list.begin(), r.thread_list.end()), r.thread_list.end());
    if (r.thread_list.front() == 0) return make_error(ErrorKind::Usage, "a thread count in the list is 0");
    if (r.thread_list.back() > r.threads) {
      return make_error(ErrorKind::Usage, fmt::format("thread list goes to {} but the run uses {} threads (--threads)",
                                                      r.thread_list.back(), r.threads));
    }
    if (r.thread_list.back() != r.threads) r.thread_list.push_back(r.threads);
  } else {
    r.thread_list = default_thread_list(r.threads);
  }

  // Sizes: STREAM arrays >= 4x the last-level cache of the CPUs used (STREAM's own sizing rule).
  std::vector<int> used = r.cpus.empty() ? r.topo.allowed_cpus : r.cpus;
  r.llc = last_level_cache_bytes(used);
  const std::uint64_t four_llc = std::max<std::uint64_t>(64ull << 20, 4 * r.llc);
  r.array_bytes = o.array_bytes ? o.array_bytes : four_llc;
  r.latency_max = o.latency_max_bytes ? o.latency_max_bytes : four_llc;
  if (r.array_bytes < 64ull * r.threads) {
    return make_error(ErrorKind::Usage,
                      fmt::format("arrays of {} B are too small for {} threads", r.array_bytes, r.threads));
  }
  if (o.sweep_min_bytes == 0 || (o.sweep_max_bytes && o.sweep_max_bytes < o.sweep_min_bytes)) {
    return make_error(ErrorKind::Usage, "size sweep: the minimum must be > 0 and not above the maximum");
  }
  const double allowed = o.memory_fraction * static_cast<double>(r.topo.mem_available_bytes);
  const auto stream_need = 3.0 * static_cast<double>(std::max(r.array_bytes, o.sweep_max_bytes));
  const auto needs_stream = std::any_of(r.selected.begin(), r.selected.end(),
                                        [](const auto& id) { return id.rfind("host-stream-", 0) == 0; });
  if (r.topo.mem_available_bytes > 0 && needs_stream && stream_need > allowed) {
    return make_error(ErrorKind::Usage,
                      fmt::format("STREAM arrays need {} but only {} ({}% of available memory) may be used; set "
                                  "--array-bytes",
                                  report::format_bytes(stream_need), report::format_bytes(allowed), 100 * o.memory_fraction));
  }
  if (r.topo.mem_available_bytes > 0 &&
      std::find(r.selected.begin(), r.selected.end(), "host-load-latency") != r.selected.end() &&
      static_cast<double>(r.latency_max) > allowed) {
    return make_error(ErrorKind::Usage,
                      fmt::format("the latency working set of {} exceeds {} of usable memory; set "
                                  "--latency-max-bytes",
                                  report::format_bytes(static_cast<double>(r.latency_max)), report::format_bytes(allowed)));
  }
  // FMA instruction set.
  const auto isas = available_fma_isas();
  if (o.isa.empty()) {
    r.isa = isas.front();
  } else {
    const auto it = std::find_if(isas.begin(), isas.end(), [&](FmaIsa i) {
      return o.isa == to_string(i) || (o.isa == "avx512" && i == FmaIsa::Avx512) ||
             (o.isa == "avx2" && i == FmaIsa::Avx2) || (o.isa == "scalar" && i == FmaIsa::Scalar);
    });
    if (it == isas.end()) {
      std::string have;
      for (auto i : isas) have += std::string(have.empty() ? "" : ", ") + to_string(i);
      return make_error(ErrorKind::Usage, fmt::format("--isa {} is not available here (available: {})", o.isa, have));
    }
    r.isa = *it;
  }

  // Machine characterisation before the kernels: timer, TSC, idle clock of the first member's core.
  r.timer = probe_steady_clock();
  double idle_mhz = 0;
  {
    auto tm = r.team(1);
    if (!tm) return std::move(tm).error();
    std::function<void(unsigned)> f = [&](unsigned) { idle_mhz = add_chain_mhz(2.0); };
    (*tm)->run(f);
  }
  const double tsc = tsc_mhz().value_or(0);
  auto& host = doc.json()["machine"]["host"];
  const json machine = machine_json(r, tsc, idle_mhz);  // a local: items() must not outlive it
  for (const auto& [k, v] : machine.items()) host[k] = v;
  json fma_isas = json::array();
  for (auto i : isas) fma_isas.push_back(to_string(i));
  host["kernel_isa"] = {{"stream", stream_isa()}, {"fma", to_string(r.isa)}, {"fma_available", fma_isas}};
  json tl = json::array();
  for (auto t : r.thread_list) tl.push_back(t);
  doc.set_options({{"suite", "host"},
                   {"benchmarks", r.selected},
                   {"threads", r.threads},
                   {"thread_list", tl},
                   {"affinity", to_string(o.affinity)},
                   {"cpus", r.cpus.empty() ? json(nullptr) : json(format_cpu_list(r.cpus))},
                   {"array_bytes", r.array_bytes},
                   {"size_sweep", o.size_sweep},
                   {"sweep_min_bytes", o.sweep_min_bytes},
                   {"sweep_max_bytes", o.sweep_max_bytes ? o.sweep_max_bytes : r.array_bytes},
                   {"latency_max_bytes", r.latency_max},
                   {"points_per_octave", o.points_per_octave},
                   {"repetitions", p.repetitions},
                   {"warmup_ms", p.warmup_ms},
                   {"min_region_ms", p.min_region_ms},
                   {"huge_pages", o.huge_pages},
                   {"isa", to_string(r.isa)},
                   {"seed", o.seed}});
  if (checkpoint) {
    if (auto st = checkpoint(); !st) return std::move(st).error();
  }

  for (auto step : {&Run::run_fma, &Run::run_stream, &Run::run_latency}) {
    if (r.cancelled()) break;
    if (auto st = (r.*step)(); !st) return std::move(st).error();
  }
  r.out.cancelled = r.cancelled();

  // Measured roofline and the derived quantities of every row (fraction of the roofline).
  auto value_of = [&](const std::string& id) -> double {
    for (const auto& row : r.out.rows) {
      if (row.id == id && row.status == RowStatus::Ok) return row.value;
    }
    return 0;
  };
  const double peak64 = value_of("host-fma-f64"), peak32 = value_of("host-fma-f32");
  double bw = value_of("host-stream-triad");
  std::string bw_from = "host-stream-triad";
  if (bw == 0) {
    for (const char* id : {"host-stream-copy", "host-stream-scale", "host-stream-add"}) {
      if (value_of(id) > bw) {
        bw = value_of(id);
        bw_from = id;
      }
    }
  }
  const bool dram = r.llc == 0 || r.array_bytes >= 4 * r.llc;
  json mem = {{"capacity_bytes", r.topo.mem_total_bytes},
              {"channels", nullptr},
              {"channels_note", "not readable without root (DMI tables via dmidecode); not reported"},
              {"stream_bandwidth_Bps", bw > 0 ? json(bw) : json(nullptr)},
              {"stream_bandwidth_from", bw > 0 ? json(bw_from) : json(nullptr)},
              {"stream_arrays_bytes", r.array_bytes},
              {"stream_arrays_at_least_4x_llc", dram},
              {"stream_threads", r.threads}};
  for (const char* id : {"host-stream-copy", "host-stream-scale", "host-stream-add", "host-stream-triad"}) {
    if (value_of(id) > 0) mem["stream"][std::string(id).substr(12)] = value_of(id);
  }
  host["memory_measured"] = mem;
  host["roofline"] = {{"peak_flops_f64", peak64 > 0 ? json(peak64) : json(nullptr)},
                      {"peak_flops_f32", peak32 > 0 ? json(peak32) : json(nullptr)},
                      {"bandwidth_Bps", bw > 0 ? json(bw) : json(nullptr)},
                      {"ridge_point_f64_flop_per_byte", peak64 > 0 && bw > 0 ? json(peak64 / bw) : json(nullptr)},
                      {"threads", r.threads},
                      {"note", "measured on this run: FMA peaks and STREAM bandwidth at the headline thread count"}};
  host["load_average_at_end"] = load_average();
  std::vector<double> os_all = r.all_os_mhz;
  host["clock"]["sustained_add_chain_mhz"] = r.all_mhz.empty()
                                                 ? json(nullptr)
                                                 : json({{"median", measure::median(r.all_mhz)},
                                                         {"min", *std::min_element(r.all_mhz.begin(), r.all_mhz.end())},
                                                         {"max", *std::max_element(r.all_mhz.begin(), r.all_mhz.end())},
                                                         {"readings", r.all_mhz.size()}});
  host["clock"]["os_reported_mhz"] = os_all.empty() ? json(nullptr)
                                                    : json({{"median", measure::median(os_all)},
                                                            {"min", *std::min_element(os_all.begin(), os_all.end())},
                                                            {"max", *std::max_element(os_all.begin(), os_all.end())},
                                                            {"source", r.os_clock_source}});
  for (std::size_t i = 0; i < r.out.rows.size(); ++i) {
    auto& row = r.out.rows[i];
    if (row.status != RowStatus::Ok || row.time_ms <= 0) continue;
    const bool is_f32 = row.id == "host-fma-f32";
    const double peak = is_f32 ? peak32 : peak64;
    if (row.family == "latency" || peak <= 0 || bw <= 0) continue;
    const Rates d = derive(row.time_ms * 1e-3, row.family == "fma" ? row.work.operations : row.work.operations,
                           row.work.bytes_read + row.work.bytes_written, peak, bw);
    json dj = {
        {"flops_per_second", d.flops_per_second},
        {"bytes_per_second", d.bytes_per_second},
        {"arithmetic_intensity", std::isfinite(d.arithmetic_intensity) ? json(d.arithmetic_intensity) : json(nullptr)},
        {"fraction_of_roofline", d.fraction_of_roofline},
        {"roofline", fmt::format("measured: peak {} ({}), bandwidth {} ({})", report::format_rate(peak, "FLOP"),
                                 is_f32 ? "host-fma-f32" : "host-fma-f64", report::format_rate(bw, "B"), bw_from)}};
    row.parameters["derived"] = dj;
    // The document's rows are typed: edit the row, then let the document rewrite its JSON.
    if (i < doc.rows().size()) doc.rows()[i].result.parameters["derived"] = dj;
  }
  doc.refresh();
  if (checkpoint) {
    if (auto st = checkpoint(); !st) return std::move(st).error();
  }
  return std::move(r.out);
}

}  // namespace wgb::host
