// Order independence (docs/method.md#order): the default suite run forwards and with its order
// reversed (`run --reverse`) on the same adapter gives the same rates within the rows' noise. A rate
// that moves with its position in the run (a first row that is launch-bound or meets a cold device,
// a last row that meets heat) is a property of the run, not of the kernel. Runs the whole default
// suite twice on the best adapter (lavapipe in CI): minutes, serial like every GPU test.
#include <gtest/gtest.h>

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

TEST(CliGpuOrder, ReversingTheDefaultSuiteChangesNoRateBeyondItsNoise) {
  test::TempFolder dir("cli-gpu-order");
  const auto fwd = dir / "forward.json", rev = dir / "reversed.json";
  auto r = run_command(fmt::format("{} run --json {} -q", quoted(WGB_CLI_BIN), quoted(fwd)), dir);
  if (r.exit_code == 3 && !adapter_required()) GTEST_SKIP() << "no WebGPU adapter: " << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_command(fmt::format("{} run --reverse --json {} -q", quoted(WGB_CLI_BIN), quoted(rev)), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto a = report::load_document(fwd);
  auto b = report::load_document(rev);
  ASSERT_TRUE(a && b);
  ASSERT_EQ(a->rows.size(), b->rows.size());
  ASSERT_GE(a->rows.size(), 10u);
  EXPECT_EQ(b->options.value("order", ""), "reverse");

  // The same rows, in the opposite order.
  const std::size_t n = a->rows.size();
  std::map<std::string, const BenchmarkResult*> late;  // each row as the reversed run measured it
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(a->rows[i].result.id, b->rows[n - 1 - i].result.id);
    late[b->rows[i].result.id] = &b->rows[i].result;
  }

  // Each row against itself at the other end of the run, judged by the one rule.
  std::size_t compared = 0, differing = 0;
  std::string report;
  double early_log = 0, late_log = 0;  // mean log(forward / reversed) over the first and last rows
  const std::size_t ends = 5;
  for (std::size_t i = 0; i < n; ++i) {
    const BenchmarkResult& x = a->rows[i].result;
    const BenchmarkResult& y = *late[x.id];
    if (!measured(x) || !measured(y)) continue;
    ++compared;
    const auto d = report::compare_estimates(estimate(y), estimate(x));
    if (d.differs()) {
      ++differing;
      report += fmt::format("  {} at {} forwards / {} reversed: {:.3f} (allowed {:.1f}%)\n", x.id, i, n - 1 - i,
                            d.ratio, 100 * d.allowance);
    }
    // A change several times a row's own noise is not noise, whatever else the machine did.
    EXPECT_LT(d.change, std::max(3 * d.allowance, 0.25)) << x.id << ": " << d.ratio;
    if (i < ends) early_log += std::log(x.value / y.value) / ends;
    if (i >= n - ends) late_log += std::log(x.value / y.value) / ends;
  }
  ASSERT_GE(compared, n / 2) << "too few rows measured in both runs";
  // A row that depends on its position shows at the ends of the run: the first rows forwards are the
  // last ones reversed, and neither end may be slower on average than the same rows at the other.
  EXPECT_GT(early_log, std::log(0.85)) << "the suite's first rows are slower when they run first\n" << report;
  EXPECT_LT(late_log, -std::log(0.85)) << "the suite's last rows are slower when they run first (reversed)\n" << report;
  // Rows judged different by their own noise: rare, and never most of the suite.
  EXPECT_LE(differing, compared / 4) << differing << " of " << compared << " rows differ:\n" << report;
  std::cout << fmt::format("{} rows compared, {} differ beyond their noise; first rows {:+.1f}%, last rows {:+.1f}%\n{}",
                           compared, differing, 100 * (std::exp(early_log) - 1), 100 * (std::exp(late_log) - 1),
                           report);
}

}  // namespace
}  // namespace wgb
