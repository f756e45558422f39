// The host suite: the one generic loop that runs any host definition (definitions.hpp) over its
// curves' points with the host protocol (harness.hpp), and makes its row with everything the result
// document records of the host (docs/method.md#record).
#include "host/host.hpp"

#include <fmt/format.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>

#include "catalog/select.hpp"
#include "gpu/build_info.hpp"
#include "host/build_flags.hpp"
#include "host/clock.hpp"
#include "host/topology.hpp"
#include "measure/record.hpp"
#include "measure/stats.hpp"
#include "report/host_parameters.hpp"
#include "report/roofline.hpp"
#include "report/table.hpp"
#include "suite/driver.hpp"
#include "suite/row.hpp"

namespace wgb::host {

namespace {

using Clock = std::chrono::steady_clock;
using json = nlohmann::json;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

double region_ms_min(const Point& p) {
  const auto& r = p.timing.report.region_ms;
  return r.empty() ? 0.0 : *std::min_element(r.begin(), r.end());
}

// What the protocol did at a point, in every point and in every row's timing.
report::HostProtocolRecord protocol_of(const Point& p) {
  const auto& t = p.timing.report;
  return {t.knob,           t.region_ms.size(), region_ms_min(p),
          t.short_regions,  p.cpu_share,        static_cast<std::uint64_t>(std::max(0L, p.timing.involuntary_switches)),
          t.recalibrations, t.scaling,          t.scaling_steps};
}

// The median, minimum and maximum of clock readings; none when there are none.
std::optional<report::ClockSpread> spread(const std::vector<double>& v) {
  if (v.empty()) return std::nullopt;
  report::ClockSpread s;
  s.median = measure::median(v);
  s.min = *std::min_element(v.begin(), v.end());
  s.max = *std::max_element(v.begin(), v.end());
  return s;
}

report::HostPointRecord point_record(const Point& p, const Metric& metric) {
  const auto& t = p.timing.report;
  report::HostPointRecord r{.at = p.x,
                            .protocol = protocol_of(p),
                            .value = p.sum.value,
                            .value_unit = metric.unit + "/s",
                            .value_iqr = {p.sum.value_low, p.sum.value_high},
                            .time_ms = p.sum.time_ms,
                            .median_ms = p.sum.stats.median,
                            .min_ms = p.sum.stats.min,
                            .q1_ms = p.sum.stats.q1,
                            .q3_ms = p.sum.stats.q3,
                            .iqr_relative = p.sum.iqr_relative,
                            .warmup_runs = t.warmup_runs,
                            .warmup_ms = t.warmup_ms,
                            .warmup_steady = t.warmup_steady,
                            .clock_mhz = p.clock_mhz(),
                            .clock_mhz_members = p.member_mhz,
                            .cpus_seen = p.cpus_seen,
                            .os_mhz = {},
                            .valid = p.valid,
                            .validation = p.validation};
  for (const auto& c : p.os) r.os_mhz.push_back(c.mhz > 0 ? std::optional<double>(c.mhz) : std::nullopt);
  return r;
}

// ---- the run -------------------------------------------------------------------------------------

// What a host row is before anything is measured: the planned row, and the start of the measured one.
BenchmarkResult identity_of(const HostDefinition& d) {
  BenchmarkResult r;
  r.id = d.id;
  r.label = d.label;
  r.description = d.description;
  r.category = "host";
  r.family = d.family;
  r.metric = d.metric;
  r.statistic = statistic_for(d.regime);
  r.statistic_reason = statistic_reason(d.regime);
  return r;
}

struct Run {
  const HostOptions& o;
  HostEnv env{o};
  Topology topo;
  std::vector<int> cpus;  // pinned CPUs for the headline thread count (empty: not pinned)
  TimerInfo timer;
  std::vector<const HostDefinition*> selected;
  HostRun out;
  std::vector<double> all_mhz;  // every add-chain reading of the run
  std::vector<double> all_os_mhz;
  std::string os_clock_source;

  bool cancelled() const { return o.cancel.cancelled(); }

  Expected<std::unique_ptr<ThreadTeam>> team(unsigned t) const {
    std::vector<int> c;
    if (!cpus.empty()) c.assign(cpus.begin(), cpus.begin() + t);
    return ThreadTeam::create(t, std::move(c));
  }

  void probe_clock(ThreadTeam& team, Point& p) {
    const unsigned T = team.size();
    p.member_mhz.assign(T, 0);
    p.cpus_seen.assign(T, -1);
    const double ms = o.clock_probe_ms;
    team.run([&](unsigned t) {
      p.cpus_seen[t] = sched_getcpu();
      p.member_mhz[t] = ms > 0 ? add_chain_mhz(ms) : 0;
    });
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

  // ---- rows ----

  report::HostTimingRecord timing_of(const Point& h, Regime regime) const {
    const auto& t = h.timing.report;
    report::HostTimingRecord r;
    r.protocol = protocol_of(h);
    r.clock_resolution_ns = timer.resolution_ns;
    r.clock_overhead_ns = timer.overhead_ns;
    r.min_region_ms = o.protocol.min_region_ms;
    r.warmup_runs = t.warmup_runs;
    r.warmup_ms = t.warmup_ms;
    r.warmup_steady = t.warmup_steady;
    r.warmup_rule = fmt::format(
        "at least {} regions and {} ms, until two consecutive regions agree within {}% (capped at 4x the time)",
        o.protocol.warmup_min_runs, o.protocol.warmup_ms, 100 * o.protocol.steady_tolerance);
    r.statistic = to_string(statistic_for(regime));
    r.regime = to_string(regime);
    r.iqr_ms = h.sum.stats.iqr;
    r.iqr_relative = h.sum.iqr_relative;
    r.cv = h.sum.stats.cv;
    r.min_ms = h.sum.stats.min;
    r.max_ms = h.sum.stats.max;
    return r;
  }

  report::HostThreadsRecord threads_of(unsigned T) const {
    std::vector<int> used;
    if (!cpus.empty()) used.assign(cpus.begin(), cpus.begin() + T);
    report::HostThreadsRecord r;
    for (int c : used) {
      const int n = numa_node_of(topo, c);
      if (std::find(r.numa_nodes.begin(), r.numa_nodes.end(), n) == r.numa_nodes.end()) r.numa_nodes.push_back(n);
    }
    r.count = T;
    r.affinity = to_string(o.affinity);
    r.how = o.affinity == Affinity::Cores
                ? "each std::jthread member (and the calling thread as member 0) pins itself with "
                  "pthread_setaffinity_np to one CPU before touching data: one per physical core, "
                  "in CPU order; SMT siblings only when there are more threads than cores"
                : "not pinned: the OS scheduler places the threads (cpus_seen in each point)";
    if (!used.empty()) r.cpus = format_cpu_list(used);
    return r;
  }

  report::HostFrequencyRecord frequency_of(const std::vector<Point>& pts) const {
    std::vector<double> mhz, os;
    for (const auto& p : pts) {
      for (double m : p.member_mhz) {
        if (m > 0) mhz.push_back(m);
      }
      for (const auto& c : p.os) {
        if (c.mhz > 0) os.push_back(c.mhz);
      }
    }
    report::HostFrequencyRecord r;
    r.method =
        "dependent add chain (100 register adds per iteration, 1 cycle each) run on every member right after its "
        "timed regions; best of 3 chains of ~" +
        fmt::format("{:g}", o.clock_probe_ms) + " ms";
    if (!mhz.empty()) {
      r.sustained_mhz_median = measure::median(mhz);
      r.sustained_mhz_min = *std::min_element(mhz.begin(), mhz.end());
    }
    if (!os.empty()) r.os_reported_mhz_median = measure::median(os);
    if (!os_clock_source.empty()) r.os_reported_source = os_clock_source;
    return r;
  }

  std::vector<report::HostCacheBoundaryRecord> cache_boundaries(unsigned T) const {
    std::vector<int> used = cpus;
    if (used.empty()) used = topo.one_per_core;
    used.resize(std::min<std::size_t>(used.size(), T));
    std::vector<report::HostCacheBoundaryRecord> b;
    for (const auto& c : caches_for(used)) {
      b.push_back({.level = c.level,
                   .type = c.type,
                   .bytes_per_instance = c.bytes,
                   .instances_used = static_cast<std::uint64_t>(c.instances),
                   .total_bytes = c.total_bytes()});
    }
    return b;
  }

  report::HostCurveRecord series(const Curve& c, const HostDefinition& d, const std::vector<Point>& pts) const {
    report::HostCurveRecord s{.name = c.name,
                              .x = c.x,
                              .description = c.description,
                              .statistic = to_string(statistic_for(d.regime)),
                              .value_unit = d.metric.unit + "/s"};
    for (const auto& p : pts) s.points.push_back(point_record(p, d.metric));
    if (c.size_axis) {
      const unsigned T = c.points.front().threads;
      s.threads = T;
      s.cache_boundaries = cache_boundaries(T);
    }
    return s;
  }

  // The row of a definition from its curves' points (pts[c] for curves[c]); the headline is the
  // last point of the first curve.
  BenchmarkResult make_row(const HostDefinition& d, const std::vector<Curve>& curves,
                           const std::vector<std::vector<Point>>& pts) {
    const Point& h = pts.front().back();
    std::vector<Point> all;
    for (const auto& c : pts) all.insert(all.end(), c.begin(), c.end());
    BenchmarkResult r = identity_of(d);
    r.knob_name = "repeat";
    // The host protocol's record (docs/method.md#host-protocol): the final timed set kept, every
    // re-timed set discarded with its reason, a fixed repetition count on the host's steady clock.
    apply_record(r, h.timing.report, h.work);
    const auto& t = h.timing.report;
    r.timing_notes.push_back(
        fmt::format("{} timed regions of {} pass(es) each; samples are region time / repeat", t.region_ms.size(), t.knob));
    r.timing_notes.push_back(fmt::format("warm-up: {} regions, {:.1f} ms, {}", t.warmup_runs, t.warmup_ms,
                                         t.warmup_steady ? "steady" : "stopped at the cap (not steady)"));
    if (t.short_regions > 0) {
      r.notes.push_back(
          fmt::format("{} timed regions were not longer than {} ms", t.short_regions, o.protocol.min_region_ms));
    }
    // Interference: the statistics assume the threads held their CPUs; say when they did not.
    if (h.cpu_share > 0 && h.cpu_share < 0.9) {
      r.notes.push_back(
          fmt::format("the threads held their CPUs {:.0f}% of the timed wall time ({} involuntary "
                      "context switches): other processes competed for the cores",
                      100 * h.cpu_share, h.timing.involuntary_switches));
    }
    const auto disturbed = std::count_if(all.begin(), all.end(), [](const Point& p) { return p.cpu_share > 0 && p.cpu_share < 0.9; });
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
    r.duration_s = 0;
    for (const auto& p : all) r.duration_s += p.seconds;
    std::vector<std::string> notes;
    report::HostRowParameters parameters;
    d.describe(env, h, notes, parameters);
    for (std::size_t c = 0; c < curves.size(); ++c) {
      if (!pts[c].empty()) parameters.series.push_back(series(curves[c], d, pts[c]));
    }
    parameters.timing = timing_of(h, d.regime);
    parameters.threads = threads_of(static_cast<unsigned>(h.x.threads.value_or(1)));
    parameters.frequency = frequency_of(all);
    r.parameters = report::to_json(parameters);
    r.notes.insert(r.notes.end(), notes.begin(), notes.end());
    return r;
  }

  void report_point(const HostDefinition& d, const Point& p, const std::string& where) const {
    if (!o.on_progress) return;
    o.on_progress(fmt::format("{:<18} {:<28} {:>14}  ({} IQR {:.1f}%, repeat {}, {} reps){}", d.id, where,
                              d.progress_value ? d.progress_value(p) : report::format_rate(p.sum.value, d.metric.unit),
                              to_string(statistic_for(d.regime)), 100 * p.sum.iqr_relative, p.timing.report.knob,
                              p.timing.report.region_ms.size(), p.valid ? "" : "  CHECK FAILED"));
  }
};

// Host definitions bound to the host CPU for the one driver: a group of definitions that share a
// fixture (STREAM's kernels on one set of arrays; a group of one otherwise), every point of every
// curve in order, the fixture built once per point on a team of the point's size and each member
// timed on it in turn with the host protocol (one region = one team run of `repeat` passes); then
// each member's row from its points. A cancel keeps a row whose first curve is complete.
class HostGroupEntry final : public Entry {
 public:
  HostGroupEntry(Run& run, std::vector<const HostDefinition*> group) : r_(run), group_(std::move(group)) {
    curves_ = group_.front()->curves(r_.env);
    for (std::size_t c = 0; c < curves_.size(); ++c) {
      for (std::size_t k = 0; k < curves_[c].points.size(); ++k) at_.emplace_back(c, k);
    }
    pts_.assign(group_.size(), std::vector<std::vector<Point>>(curves_.size()));
  }
  std::size_t members() const override { return group_.size(); }
  BenchmarkResult identity(std::size_t m) const override { return identity_of(*group_[m]); }
  std::size_t points() const override { return at_.size(); }
  // Anything that fails here (a team, a measurement) leaves the host's state unknown: the run ends.
  bool ends_run(Step step, const Error&) const override { return step != Step::Validation; }

  Status set_up(std::size_t p, const std::function<void(std::string)>&) override {
    const PointSpec& at = spec(p);
    if (!team_ || team_->size() != at.threads) {
      team_.reset();  // the old team ends (and gives the caller back its CPUs) before a new one starts
      auto made = r_.team(at.threads);
      if (!made) return std::move(made).error();
      team_ = std::move(*made);
    }
    const auto t0 = Clock::now();
    fixture_ = group_.front()->fixture(r_.env, *team_, at);
    fixture_s_ = seconds_since(t0);
    return ok();
  }

  Expected<TimedPoint> timing(std::size_t p, std::size_t m) override {
    started_ = Clock::now();
    if (!fixture_) return TimedPoint{};  // nothing to time: record() is not called (end_point says why)
    kernel_ = group_[m]->kernel(**fixture_, r_.env, *team_, spec(p));
    repeat_ = 1;
    body_ = [this](unsigned t) { kernel_.body(t, repeat_); };
    timing_.emplace(
        [this](std::uint64_t repeat) {
          repeat_ = repeat;
          team_->run(body_);
        },
        r_.o.protocol);
    return timing_->point();
  }

  void record(std::size_t p, std::size_t m, measure::Record rec) override {
    const HostDefinition& d = *group_[m];
    Point pt;
    pt.x = std::move(kernel_.x);
    pt.work = kernel_.work;
    pt.timing = timing_->result(std::move(rec));
    pt.cpu_share = pt.timing.cpu_share(team_->size());
    r_.probe_clock(*team_, pt);
    const Check c = kernel_.check();
    pt.valid = c.valid;
    pt.validation = c.text;
    pt.sum = summarize(pt.timing.report.kept_ms, statistic_for(d.regime), pt.work.count(d.metric));
    if (kernel_.after) kernel_.after(pt);
    pt.seconds = seconds_since(started_) + (m == 0 ? fixture_s_ : 0);
    add(p, m, std::move(pt));
  }

  void end_point(std::size_t p) override {
    if (fixture_) return;
    for (std::size_t m = 0; m < group_.size(); ++m) {
      Point pt;
      pt.valid = false;
      pt.validation = fixture_.error().message;
      add(p, m, std::move(pt));
    }
  }

  bool usable_when_cancelled(std::size_t m) const override {
    return pts_[m].front().size() == curves_.front().points.size();
  }
  bool fill(std::size_t m, BenchmarkResult& row) override {
    const std::size_t index = row.index;
    row = r_.make_row(*group_[m], curves_, pts_[m]);
    row.index = index;
    return row.status != RowStatus::Error;
  }
  // Each point was checked against its closed form as it was measured.
  Expected<std::string> validate(std::size_t m) override { return pts_[m].front().back().validation; }

 private:
  const PointSpec& spec(std::size_t p) const { return curves_[at_[p].first].points[at_[p].second]; }
  void add(std::size_t p, std::size_t m, Point pt) {
    r_.report_point(*group_[m], pt, spec(p).where);
    pts_[m][at_[p].first].push_back(std::move(pt));
  }

  Run& r_;
  std::vector<const HostDefinition*> group_;
  std::vector<Curve> curves_;
  std::vector<std::pair<std::size_t, std::size_t>> at_;  // (curve, point) in run order
  std::vector<std::vector<std::vector<Point>>> pts_;     // [member][curve] -> points
  std::unique_ptr<ThreadTeam> team_;
  Expected<std::unique_ptr<HostFixture>> fixture_ = make_error(ErrorKind::Failed, "no fixture yet");
  double fixture_s_ = 0;
  HostKernel kernel_;
  std::uint64_t repeat_ = 1;
  std::function<void(unsigned)> body_;
  std::optional<RegionTiming> timing_;
  Clock::time_point started_ = Clock::now();
};

// Every selected definition in order, consecutive ones that share a fixture as one entry.
Expected<std::vector<std::unique_ptr<Entry>>> host_entries(Run& r) {
  std::vector<std::unique_ptr<Entry>> entries;
  for (std::size_t i = 0; i < r.selected.size();) {
    std::vector<const HostDefinition*> group{r.selected[i++]};
    while (i < r.selected.size() && !group.front()->shares.empty() && r.selected[i]->shares == group.front()->shares) {
      group.push_back(r.selected[i++]);
    }
    const std::vector<Curve> curves = group.front()->curves(r.env);
    if (curves.empty() || curves.front().points.empty()) {
      return make_error(ErrorKind::Usage, fmt::format("{} has no curve points for these options", group.front()->id));
    }
    entries.push_back(std::make_unique<HostGroupEntry>(r, std::move(group)));
  }
  return entries;
}

std::string load_average() { return read_line("/proc/loadavg"); }

// What the document records of the host before the kernels run (report/host_section.hpp).
report::HostSuiteRecord suite_record(const Run& r, double tsc, double idle_mhz) {
  const auto& b = build_info();
  report::HostSuiteRecord rec;
  rec.topology = topology_record(r.topo);
  if (tsc > 0) rec.clock.tsc_mhz = tsc;
  rec.clock.cpufreq = cpufreq_limits(r.topo.allowed_cpus.empty() ? 0 : r.topo.allowed_cpus.front());
  if (idle_mhz > 0) rec.clock.idle_add_chain_mhz = idle_mhz;
  rec.load_average_at_start = load_average();
  rec.timer = {r.timer.resolution_ns, r.timer.overhead_ns};
  rec.compiler = {fmt::format("{} {}", b.compiler_id, b.compiler_version), host_compiler_version(),
                  host_compile_command(),
                  "STREAM: target_clones(avx512f, avx2, default) resolved by ifunc; FMA: one function per ISA "
                  "with target attributes and intrinsics, chosen at run time (--isa)"};
  rec.kernel_isa.stream = stream_isa();
  rec.kernel_isa.fma = to_string(r.env.isa);
  return rec;
}

}  // namespace

// ---- public ----------------------------------------------------------------------------------------

Expected<std::vector<std::string>> select_host_benchmarks(const std::string& filter,
                                                          const std::vector<HostDefinition>& catalog) {
  std::vector<std::string> ids;
  for (const auto& d : catalog) ids.push_back(d.id);
  auto matched = catalog::match_ids(
      ids, filter, [](const std::string& glob) { return fmt::format("--filter '{}' matches no host benchmark", glob); });
  if (!matched) return std::move(matched).error();
  std::vector<std::string> out;
  for (std::size_t k : *matched) out.push_back(ids[k]);
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

std::vector<unsigned> default_thread_list(unsigned n) {
  std::vector<unsigned> out;
  for (unsigned t = 1; t <= std::min(n, 8u); ++t) out.push_back(t);
  const unsigned step = std::max(1u, n / 8);
  for (unsigned t = 8 + step; t < n; t += step) out.push_back(t);
  if (out.empty() || out.back() != n) out.push_back(n);
  return out;
}

struct HostSuite::Impl {
  HostOptions o;
  Run r{o};
  std::optional<Driver> driver;
  report::HostSuiteRecord record;  // the document's host section, filled at start and at the end

  explicit Impl(HostOptions options) : o(std::move(options)) {}
  Status start(report::ResultDocument& doc);
  void finish(report::ResultDocument& doc);
};

Status HostSuite::Impl::start(report::ResultDocument& doc) {
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
  const auto& catalog = o.definitions ? *o.definitions : host_benchmarks();
  auto selected = select_host_benchmarks(o.filter, catalog);
  if (!selected) return std::move(selected).error();
  const std::vector<std::string>& ids = *selected;

  for (const auto& d : catalog) {
    if (std::find(ids.begin(), ids.end(), d.id) != ids.end()) r.selected.push_back(&d);
  }
  r.topo = read_topology();
  r.env.thp = r.topo.thp;
  const unsigned cores = static_cast<unsigned>(std::max<std::size_t>(1, r.topo.one_per_core.size()));
  r.env.threads = o.threads ? o.threads : cores;
  auto cpus = choose_cpus(r.env.threads, o.affinity, r.topo.one_per_core, r.topo.smt_siblings);
  if (!cpus) return std::move(cpus).error();
  r.cpus = std::move(*cpus);
  if (o.affinity == Affinity::None && r.env.threads > 4096) {
    return make_error(ErrorKind::Usage, fmt::format("{} threads is too many", r.env.threads));
  }
  if (!o.thread_sweep) {
    r.env.thread_list = {r.env.threads};
  } else if (!o.thread_list.empty()) {
    r.env.thread_list = o.thread_list;
    std::sort(r.env.thread_list.begin(), r.env.thread_list.end());
    r.env.thread_list.erase(std::unique(r.env.thread_list.begin(), r.env.thread_list.end()), r.env.thread_list.end());
    if (r.env.thread_list.front() == 0) return make_error(ErrorKind::Usage, "a thread count in the list is 0");
    if (r.env.thread_list.back() > r.env.threads) {
      return make_error(ErrorKind::Usage, fmt::format("thread list goes to {} but the run uses {} threads (--threads)",
                                                      r.env.thread_list.back(), r.env.threads));
    }
    if (r.env.thread_list.back() != r.env.threads) r.env.thread_list.push_back(r.env.threads);
  } else {
    r.env.thread_list = default_thread_list(r.env.threads);
  }

  // Sizes: STREAM arrays >= 4x the last-level cache of the CPUs used (STREAM's own sizing rule).
  std::vector<int> used = r.cpus.empty() ? r.topo.allowed_cpus : r.cpus;
  r.env.llc = last_level_cache_bytes(used);
  const std::uint64_t four_llc = std::max<std::uint64_t>(defaults::host::kMinArrayBytes, 4 * r.env.llc);
  r.env.array_bytes = o.array_bytes ? o.array_bytes : four_llc;
  r.env.latency_max = o.latency_max_bytes ? o.latency_max_bytes : four_llc;
  if (r.env.array_bytes < 64ull * r.env.threads) {
    return make_error(ErrorKind::Usage,
                      fmt::format("arrays of {} B are too small for {} threads", r.env.array_bytes, r.env.threads));
  }
  if (o.sweep_min_bytes == 0 || (o.sweep_max_bytes && o.sweep_max_bytes < o.sweep_min_bytes)) {
    return make_error(ErrorKind::Usage, "size sweep: the minimum must be > 0 and not above the maximum");
  }
  const double allowed = o.memory_fraction * static_cast<double>(r.topo.mem_available_bytes);
  const auto stream_need = 3.0 * static_cast<double>(std::max(r.env.array_bytes, o.sweep_max_bytes));
  const auto needs_stream =
      std::any_of(ids.begin(), ids.end(), [](const auto& id) { return id.rfind("host-stream-", 0) == 0; });
  if (r.topo.mem_available_bytes > 0 && needs_stream && stream_need > allowed) {
    return make_error(ErrorKind::Usage,
                      fmt::format("STREAM arrays need {} but only {} ({}% of available memory) may be used; set "
                                  "--array-bytes",
                                  report::format_bytes(stream_need), report::format_bytes(allowed), 100 * o.memory_fraction));
  }
  const bool needs_latency = std::find(ids.begin(), ids.end(), "host-load-latency") != ids.end();
  if (r.topo.mem_available_bytes > 0 && needs_latency && static_cast<double>(r.env.latency_max) > allowed) {
    return make_error(ErrorKind::Usage,
                      fmt::format("the latency working set of {} exceeds {} of usable memory; set "
                                  "--latency-max-bytes",
                                  report::format_bytes(static_cast<double>(r.env.latency_max)), report::format_bytes(allowed)));
  }
  // FMA instruction set.
  const auto isas = available_fma_isas();
  if (o.isa.empty()) {
    r.env.isa = isas.front();
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
    r.env.isa = *it;
  }

  // Machine characterisation before the kernels: timer, TSC, idle clock of the first member's core.
  r.timer = probe_steady_clock();
  double idle_mhz = 0;
  {
    auto tm = r.team(1);
    if (!tm) return std::move(tm).error();
    (*tm)->run([&](unsigned) { idle_mhz = add_chain_mhz(2.0); });
  }
  const double tsc = tsc_mhz().value_or(0);
  record = suite_record(r, tsc, idle_mhz);
  for (auto i : isas) record.kernel_isa.fma_available.push_back(to_string(i));
  doc.set_host_suite(record);
  report::HostOptionsRecord asked;
  asked.benchmarks = ids;
  asked.threads = r.env.threads;
  asked.thread_list = r.env.thread_list;
  asked.affinity = to_string(o.affinity);
  if (!r.cpus.empty()) asked.cpus = format_cpu_list(r.cpus);
  asked.array_bytes = r.env.array_bytes;
  asked.size_sweep = o.size_sweep;
  asked.sweep_min_bytes = o.sweep_min_bytes;
  asked.sweep_max_bytes = o.sweep_max_bytes ? o.sweep_max_bytes : r.env.array_bytes;
  asked.latency_max_bytes = r.env.latency_max;
  asked.points_per_octave = o.points_per_octave;
  asked.repetitions = p.repetitions;
  asked.warmup_ms = p.warmup_ms;
  asked.min_region_ms = p.min_region_ms;
  asked.huge_pages = o.huge_pages;
  asked.isa = to_string(r.env.isa);
  asked.seed = o.seed;
  doc.set_options(report::to_json(asked));
  auto entries = host_entries(r);
  if (!entries) return std::move(entries).error();
  DriverOptions dopt;
  dopt.cancel = o.cancel;
  dopt.on_progress = o.on_event;
  driver.emplace(std::move(*entries), std::move(dopt));
  return driver->start();
}

// After the last row: the measured roofline and the derived quantities of every row (fraction of
// the roofline), written into the document's host section and rows.
void HostSuite::Impl::finish(report::ResultDocument& doc) {
  r.out.cancelled = r.cancelled();
  // Measured roofline and the derived quantities of every row (fraction of the roofline): the host
  // CPU's ceilings as every report finds them (report/roofline.hpp), from this run's rows.
  const report::Ceilings ceilings = report::find_host_ceilings(doc.rows());
  auto peak_of = [&](const char* precision) {
    const auto it = ceilings.flops.find(precision);
    return it == ceilings.flops.end() ? 0.0 : it->second.value;
  };
  const double peak64 = peak_of("f64"), peak32 = peak_of("f32");
  const double bw = ceilings.bandwidth ? ceilings.bandwidth->value : 0;
  const std::string bw_from = ceilings.bandwidth ? ceilings.bandwidth->from : "host-stream-triad";
  auto value_of = [&](const std::string& id) -> double {
    for (const auto& row : r.out.rows) {
      if (row.id == id && row.status == RowStatus::Ok) return row.value;
    }
    return 0;
  };
  auto positive = [](double v) { return v > 0 ? std::optional<double>(v) : std::nullopt; };
  report::HostMemoryRecord mem;
  mem.capacity_bytes = r.topo.mem_total_bytes;
  mem.stream_bandwidth_Bps = positive(bw);
  mem.stream_bandwidth_from = bw_from;
  mem.stream_arrays_bytes = r.env.array_bytes;
  mem.stream_arrays_at_least_4x_llc = r.env.llc == 0 || r.env.array_bytes >= 4 * r.env.llc;
  mem.stream_threads = r.env.threads;
  for (const char* id : {"host-stream-copy", "host-stream-scale", "host-stream-add", "host-stream-triad"}) {
    if (value_of(id) > 0) mem.stream.emplace_back(std::string(id).substr(12), value_of(id));
  }
  record.memory_measured = mem;
  record.roofline = report::HostRooflineRecord{positive(peak64), positive(peak32), positive(bw), r.env.threads};
  record.load_average_at_end = load_average();
  record.clock.finished = true;
  record.clock.sustained_add_chain_mhz = spread(r.all_mhz);
  if (record.clock.sustained_add_chain_mhz) record.clock.sustained_add_chain_mhz->readings = r.all_mhz.size();
  record.clock.os_reported_mhz = spread(r.all_os_mhz);
  if (record.clock.os_reported_mhz) record.clock.os_reported_mhz->source = r.os_clock_source;
  doc.set_host_suite(record);
  for (std::size_t i = 0; i < r.out.rows.size(); ++i) {
    auto& row = r.out.rows[i];
    if (row.status != RowStatus::Ok || row.time_ms <= 0) continue;
    const bool is_f32 = row.id == "host-fma-f32";
    const double peak = is_f32 ? peak32 : peak64;
    if (row.family == "latency" || peak <= 0 || bw <= 0) continue;
    const double seconds = row.time_ms * 1e-3, flops = row.work.operations;
    const double bytes = row.work.bytes_read + row.work.bytes_written;
    const report::HostDerivedRecord derived{
        .flops_per_second = flops / seconds,
        .bytes_per_second = bytes / seconds,
        .arithmetic_intensity = bytes > 0 ? std::optional<double>(flops / bytes) : std::nullopt,
        .fraction_of_roofline = report::roofline_fraction(seconds, flops, bytes, peak, bw),
        .roofline = fmt::format("measured: peak {} ({}), bandwidth {} ({})", report::format_rate(peak, "FLOP"),
                                is_f32 ? "host-fma-f32" : "host-fma-f64", report::format_rate(bw, "B"), bw_from)};
    report::set_derived(row.parameters, derived);
    // The document's rows are typed: edit the row, then let the document rewrite its JSON.
    if (i < doc.rows().size()) report::set_derived(doc.rows()[i].result.parameters, derived);
  }
  doc.refresh();
}

HostSuite::HostSuite(HostOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}
HostSuite::~HostSuite() = default;
Status HostSuite::start(report::ResultDocument& doc) { return impl_->start(doc); }

std::optional<BenchmarkResult> HostSuite::next() {
  if (!impl_->driver) return std::nullopt;
  while (auto row = impl_->driver->next()) {
    if (row->status == RowStatus::Cancelled) continue;  // not measured: the document keeps what completed
    impl_->r.out.rows.push_back(*row);
    if (impl_->o.on_row) impl_->o.on_row(*row);
    return row;
  }
  return std::nullopt;
}

std::optional<Error> HostSuite::fatal() const { return impl_->driver ? impl_->driver->fatal_error() : std::nullopt; }
std::vector<BenchmarkResult> HostSuite::planned() const {
  return impl_->driver ? impl_->driver->identities() : std::vector<BenchmarkResult>{};
}
void HostSuite::finish(report::ResultDocument& doc) { impl_->finish(doc); }
const HostRun& HostSuite::result() const { return impl_->r.out; }

Expected<HostRun> run_host(const HostOptions& o, report::ResultDocument& doc,
                           const std::function<Status()>& checkpoint) {
  HostSuite suite(o);
  if (auto st = suite.start(doc); !st) return std::move(st).error();
  if (checkpoint) {
    if (auto st = checkpoint(); !st) return std::move(st).error();
  }
  while (auto row = suite.next()) {
    doc.add_row(*row);
    if (checkpoint) {
      if (auto st = checkpoint(); !st) return std::move(st).error();
    }
  }
  if (suite.fatal()) return *suite.fatal();
  suite.finish(doc);
  if (checkpoint) {
    if (auto st = checkpoint(); !st) return std::move(st).error();
  }
  return suite.result();
}

}  // namespace wgb::host
