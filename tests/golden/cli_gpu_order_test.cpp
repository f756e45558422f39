// Order independence (docs/method.md#order): the default suite run forwards and with its order
// reversed (`run --reverse`) on the same adapter gives the same rates within the rows' noise. A rate
// that moves with its position in the run (a first row that is launch-bound or meets a cold device,
// a last row that meets heat) is a property of the run, not of the kernel. Runs the whole default
// suite twice on the best adapter (lavapipe in CI): minutes, serial like every GPU test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "process.hpp"
#include "report/files.hpp"
#include "report/model.hpp"
#include "report/noise.hpp"

namespace wgb {
namespace {

using test::quoted;
using test::run_command;

bool adapter_required() {
  const char* v = std::getenv("WGB_REQUIRE_ADAPTER");
  return v != nullptr && std::string(v) == "1";
}

bool measured(const BenchmarkResult& r) {
  return (r.status == RowStatus::Ok || r.status == RowStatus::Throttled) && r.value > 0 && std::isfinite(r.value);
}

report::Estimate estimate(const BenchmarkResult& r) { return {r.value, report::row_dispersion(r).relative, 1, 0}; }

// One row's rate over the two forward runs: their geometric mean, with the larger of the rows' own
// dispersions and the two runs' relative difference as its dispersion (what one order reproduces to).
report::Estimate forward_estimate(const BenchmarkResult& r1, const BenchmarkResult& r2) {
  const double value = std::sqrt(r1.value * r2.value);
  const double between = std::fabs(std::log(r1.value / r2.value));
  return {value, std::max({report::row_dispersion(r1).relative, report::row_dispersion(r2).relative, between}), 1, 0};
}

TEST(CliGpuOrder, ReversingTheDefaultSuiteChangesNoRateBeyondItsNoise) {
  test::TempFolder dir("cli-gpu-order");
  // Forward, reversed, forward again (an A-B-A design): whatever changes with the time since the test
  // began (other processes finishing on shared cores, a device warming) falls on both forward runs
  // around the reversed one and cancels in their mean, and the two forward runs side by side say what
  // one order reproduces to on this machine.
  const auto fwd = dir / "forward.json", rev = dir / "reversed.json", fwd2 = dir / "forward-again.json";
  auto r = run_command(fmt::format("{} run --json {} -q", quoted(WGB_CLI_BIN), quoted(fwd)), dir);
  if (r.exit_code == 3 && !adapter_required()) GTEST_SKIP() << "no WebGPU adapter: " << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_command(fmt::format("{} run --reverse --json {} -q", quoted(WGB_CLI_BIN), quoted(rev)), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_command(fmt::format("{} run --json {} -q", quoted(WGB_CLI_BIN), quoted(fwd2)), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto a = report::load_document(fwd);
  auto b = report::load_document(rev);
  auto a2 = report::load_document(fwd2);
  ASSERT_TRUE(a && b && a2);
  ASSERT_EQ(a->rows.size(), b->rows.size());
  ASSERT_EQ(a->rows.size(), a2->rows.size());
  ASSERT_GE(a->rows.size(), 10u);
  EXPECT_EQ(b->options.value("order", ""), "reverse");

  // The same rows, in the opposite order.
  const std::size_t n = a->rows.size();
  std::map<std::string, const BenchmarkResult*> late;  // each row as the reversed run measured it
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(a->rows[i].result.id, b->rows[n - 1 - i].result.id);
    EXPECT_EQ(a->rows[i].result.id, a2->rows[i].result.id);
    late[b->rows[i].result.id] = &b->rows[i].result;
  }

  // Each row against itself at the other end of the run, judged by the one rule.
  std::size_t compared = 0, differing = 0;
  std::string report;
  double early_log = 0, late_log = 0;  // mean log(forward / reversed) over the first and last rows
  double all_log = 0;                   // sum of log(reversed / forward) over every row compared
  double again_log = 0, again_early = 0;  // the same for the second forward run against the first
  const std::size_t ends = 5;
  for (std::size_t i = 0; i < n; ++i) {
    const BenchmarkResult& x1 = a->rows[i].result;
    const BenchmarkResult& x2 = a2->rows[i].result;
    const BenchmarkResult& y = *late[x1.id];
    if (!measured(x1) || !measured(x2) || !measured(y)) continue;
    ++compared;
    const report::Estimate x = forward_estimate(x1, x2);
    const auto d = report::compare_estimates(x, estimate(y));
    if (d.differs()) {
      ++differing;
      report += fmt::format("  {} at {} forwards / {} reversed: reversed / forward {:.3f} (allowed {:.1f}%)\n", x1.id,
                            i, n - 1 - i, d.ratio, 100 * d.allowance);
    }
    all_log += std::log(y.value / x.value);
    again_log += std::log(x2.value / x1.value);
    if (i < ends) {
      early_log += std::log(x.value / y.value) / ends;
      again_early += std::log(x2.value / x1.value) / ends;
    }
    if (i >= n - ends) late_log += std::log(x.value / y.value) / ends;
  }
  ASSERT_GE(compared, n / 2) << "too few rows measured in all three runs";
  // What this can show on the CI machine: a CPU adapter on two shared cores, where the same row moves
  // by 20-50 % between two runs of one order (results/one-pipeline-lavapipe-2026-12-03.md), more than
  // its within-run dispersion says. So no single row is judged; the run as a whole is. The whole
  // suite must not drift with the order (geometric mean of reversed / forward within 20 %), and
  // neither end may be much slower when it runs first (more than 30 % on average over its five
  // rows): a position effect of the size that once made the first rows launch-bound (nearly 2x)
  // fails here. The H200, where rows reproduce to 1 %, is where order independence is measured
  // (bench/h200_first_rows.sh: geometric mean 0.999, results/first-rows-h200-2026-12-03.md).
  const double drift = std::exp(all_log / static_cast<double>(compared));
  const std::string summary = fmt::format(
      "{} rows compared, {} differ beyond their noise; reversed / forward {:.3f}; first rows {:+.1f}% and last rows "
      "{:+.1f}% when run first; the second forward run against the first: {:.3f} overall, first rows {:+.1f}%\n{}",
      compared, differing, drift, 100 * (std::exp(early_log) - 1), 100 * (std::exp(-late_log) - 1),
      std::exp(again_log / static_cast<double>(compared)), 100 * (std::exp(again_early) - 1), report);
  EXPECT_GT(drift, 0.8) << "the reversed run is slower overall\n" << summary;
  EXPECT_LT(drift, 1.25) << "the reversed run is faster overall\n" << summary;
  EXPECT_GT(early_log, std::log(0.7)) << "the suite's first rows are slower when they run first\n" << summary;
  EXPECT_LT(late_log, -std::log(0.7)) << "the suite's last rows are slower when they run first (reversed)\n"
                                      << summary;
  std::cout << summary;
}

}  // namespace
}  // namespace wgb
