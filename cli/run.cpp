// `webgpu-bench run`: the default suite (or --filter) on the chosen adapter; a table on stdout,
// progress on stderr, and --json written after every row (a cancelled run keeps what completed).
#include <fmt/format.h>

#include <csignal>
#include <iostream>

#include "cli/common.hpp"
#include "cli/filter.hpp"
#include "cli/progress_display.hpp"
#include "report/document.hpp"
#include "report/table.hpp"
#include "report/verdict.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb::cli {

namespace {

std::atomic<bool> g_cancel{false};

extern "C" void on_sigint(int) {
  // First Ctrl-C: stop at the next check and write what completed. Second: leave at once.
  if (g_cancel.exchange(true)) std::_Exit(kExitCancelled);
}

struct RunFlags {
  DeviceFlags device;
  std::string filter;
  std::string json_path;
  bool quiet = false;
  SamplingOptions sampling;
  std::uint64_t bandwidth_mib = 64;
};

std::string row_line(const BenchmarkResult& r) {
  if (r.value > 0) {
    return fmt::format("  {:<28} {:>14}  ({} {})", r.id, report::format_rate(r.value, r.metric.unit),
                       to_string(r.statistic), report::dispersion_text(r));
  }
  return fmt::format("  {:<28} {}: {}", r.id, to_string(r.status), r.message);
}

int run(const RunFlags& f) {
  auto chosen = select_benchmarks(builtin_benchmarks(), f.filter, /*default_only=*/f.filter.empty());
  if (!chosen) return fail(chosen.error());
  if (f.bandwidth_mib == 0 || f.bandwidth_mib > (1u << 20)) {
    return fail(ErrorKind::Usage, fmt::format("--bandwidth-mib {} is out of range (1..1048576)", f.bandwidth_mib));
  }

  ProgressDisplay display(!f.quiet);
  SuiteOptions options;
  options.device = f.device.options();
  options.benchmarks = std::move(*chosen);
  options.sampling = f.sampling;
  options.bandwidth_bytes = f.bandwidth_mib << 20;
  options.cancel.flag = &g_cancel;
  options.on_progress = [&display](const ProgressEvent& e) { display.on_progress(e); };

  g_cancel = false;
  auto previous = std::signal(SIGINT, on_sigint);
  SuiteRun suite = run_suite(std::move(options));
  if (auto st = suite.start(); !st) {
    std::signal(SIGINT, previous);
    if (g_cancel) return fail(ErrorKind::Cancelled, "interrupted before any benchmark ran");
    return fail(st.error());
  }

  report::ResultDocument doc("default", command_line());
  doc.set_device(*suite.context());
  doc.set_options({{"sampling", report::sampling_json(f.sampling)},
                   {"bandwidth_bytes", f.bandwidth_mib << 20},
                   {"filter", f.filter}});
  auto write = [&]() -> Status {
    if (f.json_path.empty()) return ok();
    return report::write_json_atomic(f.json_path, doc.json());
  };
  if (auto st = write(); !st) return fail(st.error());

  const auto& a = suite.context()->adapter();
  std::cerr << fmt::format("adapter: {} ({}, {}, {}), robustness {}\n", a.device.empty() ? a.description : a.device,
                           a.backend, a.adapter_type, a.driver, suite.context()->options().robustness ? "on" : "off");
  display.begin(suite.benchmark_count(), suite.initial_estimates_s());
  std::vector<BenchmarkResult> rows;
  bool any_error = false;
  Status io = ok();
  while (auto row = suite.next()) {
    any_error = any_error || row->status == RowStatus::Error;
    display.on_result(row->index, display.enabled() ? row_line(*row) : std::string());
    if (!display.enabled() && !f.quiet) std::cerr << row_line(*row) << '\n';
    report::annotate_technique_row(*row);  // derived numbers (ns/hop) before the row is recorded
    doc.add_row(*row);
    if (auto st = write(); !st && io) io = st;
    rows.push_back(std::move(*row));
  }
  display.finish();
  std::signal(SIGINT, previous);

  const bool cancelled = g_cancel.load();
  const auto& fatal = suite.fatal_error();
  doc.finish(cancelled ? "cancelled" : fatal ? to_string(fatal->kind) : "complete");
  if (auto st = write(); !st && io) io = st;
  report::write_table(std::cout, rows);
  std::cout << "statistic: 'best' = fastest kept run (compute-bound); 'median' = median with IQR (memory "
               "traffic, contention); rates are metric units per second.\n";
  report::write_verdicts(std::cout, report::family_verdicts(rows));  // technique rows only; else nothing
  if (!io) return fail(io.error());
  if (cancelled) return fail(ErrorKind::Cancelled, fmt::format("interrupted; {} completed rows were kept{}",
                                                              rows.size(), f.json_path.empty() ? "" : " in " + f.json_path));
  if (fatal) return fail(*fatal);
  return any_error ? kExitBenchmarkFailed : kExitOk;
}

}  // namespace

void register_run(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("run", "Run the default suite (or --filter) and print a results table");
  static RunFlags f;
  add_device_flags(*cmd, f.device);
  cmd->add_option("--filter", f.filter, "Comma-separated globs of benchmark ids (default: the default suite)");
  cmd->add_option("--json", f.json_path, "Write the result document here (after every row, atomically)");
  cmd->add_flag("-q,--quiet", f.quiet, "No progress output on stderr");
  cmd->add_option("--bandwidth-mib", f.bandwidth_mib, "Buffer size of the bandwidth probes in MiB (default 64)")
      ->check(CLI::Range(1, 1 << 20));
  auto& s = f.sampling;
  cmd->add_option("--target-dispatch-ms", s.target_dispatch_ms, "Calibrate work per dispatch toward this (10)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--measurement-ms", s.measurement_ms, "Batch repetitions toward this per measurement (100)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--idle-gap-ms", s.idle_gap_ms, "Idle gap between measurements (100)")->check(CLI::NonNegativeNumber);
  cmd->add_option("--min-rounds", s.min_rounds, "Minimum timed rounds (3)")->check(CLI::Range(1, 10000));
  cmd->add_option("--stable-rounds", s.stable_rounds, "Rounds without improvement to converge (2)")
      ->check(CLI::Range(1, 10000));
  cmd->add_option("--tolerance", s.improvement_tolerance, "Improvement tolerance (0.01)")->check(CLI::Range(0.0, 0.99));
  cmd->add_option("--max-rounds", s.max_rounds, "Cap on timed rounds (10)")->check(CLI::Range(1, 100000));
  cmd->add_option("--throttle-ratio", s.throttle_ratio, "Discard runs slower than best x this (1.2)")
      ->check(CLI::Range(1.0001, 100.0));
  cmd->add_option("--cooldown-ms", s.cooldown_ms, "Cooldown after two discards (3000)")->check(CLI::NonNegativeNumber);
  cmd->add_option("--max-cooldowns", s.max_cooldowns, "Suite-wide cooldown budget (3)")->check(CLI::Range(0, 1000));
  cmd->callback([&exit_code] { exit_code = run(f); });
}

}  // namespace wgb::cli
