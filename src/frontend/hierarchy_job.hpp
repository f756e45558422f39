// The memory hierarchy as a front-end Job (frontend.hpp): `webgpu-bench hierarchy`. Two curves over
// the working set, run as two sweeps (suite/sweep.hpp SweepRun) whose points alternate: the
// dependent-load latency (`read-latency`) and the streaming rate of re-reading a footprint
// (`read-linear`, whose two buffers are read in address order pass after pass, so every byte is
// reused after exactly the footprint's worth of other traffic). After every row the levels are
// inferred again (report/hierarchy.hpp) and the document's "hierarchy" section rewritten, so a
// cancelled run keeps the levels of what it measured. Method: docs/method.md#hierarchy.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frontend/frontend.hpp"
#include "report/hierarchy.hpp"
#include "suite/sweep.hpp"

namespace wgb::frontend {

// Which curves a run measures.
enum class HierarchyCurves { Both, Latency, Bandwidth };

// The working sets: `per_octave` points per doubling from `from` to `to` (both included), each
// rounded to a whole number of 128-byte units (a 64-byte node of the chase; two 16-byte-aligned
// buffers of the stream). Usage errors for an empty or inverted range and per_octave outside 1..16.
Expected<std::vector<std::uint64_t>> hierarchy_footprints(std::uint64_t from, std::uint64_t to, int per_octave);

// The order the points run in: a stride through the sorted points (about 0.38 of their count,
// coprime with it), so neighbouring footprints run far apart in time. A burst of load from other
// processes then disturbs scattered points, which the inference's running median removes, instead of
// a stretch of neighbours that would read as a plateau or a step.
std::vector<std::uint64_t> hierarchy_run_order(const std::vector<std::uint64_t>& sorted);

// The sampling of one point for a run of `points` points in about `budget_s` seconds: shorter
// batches and fewer rounds than `run`'s (a curve needs many points more than a precise one).
SamplingOptions hierarchy_sampling(double budget_s, std::size_t points);

// Whether to measure the device-wide chase (read-latency-spread): auto measures it on a GPU and not
// on a CPU adapter, whose few threads run the walkers one after another.
enum class SpreadCurve { Auto, On, Off };

// Footprints of the device-wide chase: from 1 MiB (below that no GPU's shared cache ends; its 256
// walkers would hold a few nodes each).
inline constexpr std::uint64_t kSpreadFrom = 1ull << 20;

struct HierarchyJobOptions {
  BenchmarkDefinition latency, bandwidth;  // read-latency and read-linear
  std::optional<BenchmarkDefinition> spread;  // read-latency-spread
  SpreadCurve spread_curve = SpreadCurve::Auto;
  std::vector<std::uint64_t> footprints;   // sorted (hierarchy_footprints)
  HierarchyCurves curves = HierarchyCurves::Both;
  double budget_s = 180;
  int per_octave = 4;
  SuiteOptions base;  // its context is the device; its sampling is replaced by hierarchy_sampling
  std::vector<std::string> command;
  report::MachineRecord machine;
};

class HierarchyJob final : public Job {
 public:
  explicit HierarchyJob(HierarchyJobOptions options);
  ~HierarchyJob() override;

  const gpu::Context* device() const override { return o_.base.context; }
  Status start(const JobContext& context) override;
  report::ResultDocument& document() override { return *doc_; }
  std::vector<BenchmarkResult> planned() const override;
  std::vector<double> estimates_s() const override;
  std::optional<BenchmarkResult> next() override;
  std::optional<Error> fatal() const override;
  void record(BenchmarkResult& row) override;
  std::string progress_line(const BenchmarkResult& row) const override;
  void finish(const Outcome& outcome) override;
  std::string summary(std::size_t width) const override;

  const report::hierarchy::Inference& inference() const { return inference_; }

 private:
  struct Curve {
    BenchmarkDefinition def;
    SweepSpec spec;
    std::optional<SweepRun> run;
    bool done = false;
  };
  void update();
  void again(const Curve& c, BenchmarkResult& row);

  HierarchyJobOptions o_;
  std::optional<report::ResultDocument> doc_;
  std::vector<Curve> curves_;  // latency first; next() alternates between them
  std::size_t turn_ = 0;
  std::optional<Error> fatal_;
  report::hierarchy::Inference inference_;
  std::vector<std::string> notes_;  // the job's own (a curve left out, and why)
};

}  // namespace wgb::frontend
