// The host CPU's benchmarks as definitions (docs/host.md): what each kernel is (id, names, regime,
// metric, family), how it builds its fixture for one point of a curve, the body each thread member
// runs for `repeat` passes, its check against a closed form, its work model and its curves. One
// generic loop (host.cpp) times any definition with the host protocol (harness.hpp) at every point
// and makes its row: adding a host kernel is one definition and its test.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "host/clock.hpp"
#include "host/harness.hpp"
#include "host/kernels.hpp"
#include "host/team.hpp"
#include "report/host_parameters.hpp"
#include "webgpu_bench/expected.hpp"
#include "webgpu_bench/metric.hpp"

namespace wgb::host {

struct HostOptions;

struct HostEnv {  // what a definition may read of the run: the options and what was resolved
  const HostOptions& o;
  unsigned threads = 1;  // the headline thread count
  std::vector<unsigned> thread_list;
  std::uint64_t array_bytes = 0;  // STREAM headline array size
  std::uint64_t latency_max = 0;  // latency sweep end
  std::uint64_t llc = 0;          // last-level cache bytes of the CPUs used (0: unknown)
  FmaIsa isa = FmaIsa::Scalar;
  std::string thp;  // transparent huge pages setting
};

struct PointSpec {  // one point of a curve: team size, bytes (0: no size), its name in progress
  unsigned threads = 1;
  std::uint64_t bytes = 0;
  std::string where;
};

// A curve of a row (row.parameters.series): its points in order. A size curve also records the
// thread count it ran at and the cache boundaries of those threads' CPUs.
struct Curve {
  std::string name, x, description;
  bool size_axis = false;
  std::vector<PointSpec> points;
};

struct Point {  // one measured point
  report::HostPointAt x;  // what varies: threads, array_bytes, ...
  HostTiming timing;
  measure::Headline sum;
  WorkModel work;  // one pass
  bool valid = true;
  std::string validation;
  std::vector<double> member_mhz;  // add chain on every member right after the timed regions
  double clock_mhz() const;        // their median over the members that have one (0: none)
  std::vector<int> cpus_seen;      // sched_getcpu() of every member at that moment
  std::vector<OsClock> os;
  double seconds = 0;    // wall time of the whole point (fixture to check)
  double cpu_share = 0;  // CPU time / (timed wall time x threads): 1 = CPUs held throughout
};

// The state a point's kernel works on (buffers, a thread team's first touch), built per point.
struct HostFixture {
  virtual ~HostFixture() = default;
};

struct Check {
  bool valid = false;
  std::string text;  // what was compared, and the outcome
};

// One definition's kernel at one point over its fixture.
struct HostKernel {
  std::function<void(unsigned member, std::uint64_t repeat)> body;  // member's share of `repeat` passes
  std::function<Check()> check;  // after the timed regions, against a closed form
  WorkModel work;                // one pass
  report::HostPointAt x;         // what varies at this point
  std::function<void(Point&)> after;  // optional: quantities derived from the summary (x, ...)
};

struct HostDefinition {
  std::string id;  // public name, never renamed
  std::string label;
  std::string description;
  std::string family;  // row.family: "fma", "stream", "latency", ...
  Regime regime = Regime::Compute;
  Metric metric;
  // Consecutive selected definitions with the same non-empty key share one fixture per point and
  // run one after another on it (STREAM's kernels on one set of arrays); they have the same curves.
  std::string shares;
  // The curves; the last point of the first one is the row's headline.
  std::function<std::vector<Curve>(const HostEnv&)> curves;
  std::function<Expected<std::unique_ptr<HostFixture>>(const HostEnv&, ThreadTeam&, const PointSpec&)> fixture;
  std::function<HostKernel(HostFixture&, const HostEnv&, ThreadTeam&, const PointSpec&)> kernel;
  // The row's parameters for the headline point (what it ran on, a note, ...); may add row notes.
  std::function<void(const HostEnv&, const Point& headline, std::vector<std::string>& notes,
                     report::HostRowParameters& parameters)>
      describe;
  // The progress line's value for a point; empty: the rate.
  std::function<std::string(const Point&)> progress_value;
};

// host-fma-f32, host-fma-f64, host-stream-copy, host-stream-scale, host-stream-add,
// host-stream-triad, host-load-latency (the order they run in).
const std::vector<HostDefinition>& host_benchmarks();

// Geometric size list from lo to hi (both included), `per_octave` points per doubling, each a
// multiple of `granule` bytes.
std::vector<std::uint64_t> size_points(std::uint64_t lo, std::uint64_t hi, int per_octave, std::uint64_t granule);
std::uint64_t round_up(std::uint64_t v, std::uint64_t granule);

}  // namespace wgb::host
