// `webgpu-bench sweep <benchmark>`: one benchmark over a parameter range (working-set size or
// thread count), as a series: a table on stdout, --json (a result document with a "sweep" object,
// written after every point) and --csv. See src/report/sweep.hpp.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <csignal>
#include <iostream>
#include <sstream>

#include "cli/common.hpp"
#include "cli/filter.hpp"
#include "cli/sampling_flags.hpp"
#include "report/csv.hpp"
#include "report/document.hpp"
#include "report/sweep.hpp"
#include "suite/sweep.hpp"
#include "report/table.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb::cli {

namespace {

std::atomic<bool> g_sweep_cancel{false};

extern "C" void on_sweep_sigint(int) {
  if (g_sweep_cancel.exchange(true)) std::_Exit(kExitCancelled);
}

struct SweepFlags {
  DeviceFlags device;
  std::string kernel_dir;  // --kernel-dir
  std::string benchmark;
  std::string parameter = "size";
  std::string from, to, values;
  std::string json_path, csv_path;
  bool quiet = false;
  SamplingOptions sampling;
};

int sweep_command(const SweepFlags& f) {
  auto chosen = select_benchmarks(builtin_benchmarks(), f.benchmark, /*default_only=*/false);
  if (!chosen) return fail(chosen.error());
  if (chosen->size() != 1) {
    return fail(ErrorKind::Usage, fmt::format("'{}' matches {} benchmarks; a sweep runs exactly one", f.benchmark, chosen->size()));
  }
  const BenchmarkDefinition def = chosen->front();
  auto spec = make_sweep_spec(f.parameter, f.from, f.to, f.values);
  if (!spec) return fail(spec.error());
  if (std::ranges::find(def.sweep_parameters, spec->parameter) == def.sweep_parameters.end()) {
    const std::string varies = def.sweep_parameters.empty() ? "none (its work is fixed by its definition)"
                                                            : fmt::format("{}", fmt::join(def.sweep_parameters, ", "));
    return fail(ErrorKind::Usage, fmt::format("'{}' does not use --param {}: every point would repeat one "
                                              "measurement (parameters it uses: {})",
                                              def.id, spec->parameter, varies));
  }

  auto ctx = gpu::Context::create(f.device.options());
  if (!ctx) return fail(ctx.error());
  const auto& limits = (*ctx)->limits();
  if (spec->parameter == "size") {
    const bool binding = limits.maxStorageBufferBindingSize <= limits.maxBufferSize;
    limit_sweep(*spec, binding ? limits.maxStorageBufferBindingSize : limits.maxBufferSize,
                binding ? "largest storage binding (maxStorageBufferBindingSize)" : "largest buffer (maxBufferSize)");
  }
  if (spec->parameter == "workgroup") {
    const bool by_x = limits.maxComputeWorkgroupSizeX < limits.maxComputeInvocationsPerWorkgroup;
    limit_sweep(*spec, by_x ? limits.maxComputeWorkgroupSizeX : limits.maxComputeInvocationsPerWorkgroup,
                by_x ? "workgroup width limit (maxComputeWorkgroupSizeX)"
                     : "workgroup size limit (maxComputeInvocationsPerWorkgroup)");
  }
  for (const auto& n : spec->notes) std::cerr << "sweep: " << n << '\n';

  report::ResultDocument doc("sweep", command_line());
  doc.set_device(**ctx);
  doc.set_options({{"sampling", report::sampling_json(f.sampling)}, {"benchmark", def.id}, {"parameter", spec->parameter}});
  doc.json()["sweep"] = sweep_json(def.id, *spec);
  auto write = [&]() -> Status {
    doc.json()["sweep"] = sweep_json(def.id, *spec);
    if (!f.json_path.empty()) {
      if (auto st = report::write_json_atomic(f.json_path, doc.json()); !st) return st;
    }
    if (!f.csv_path.empty()) {
      std::ostringstream csv;
      report::write_csv(csv, doc.rows());
      return report::write_text_atomic(f.csv_path, csv.str());
    }
    return ok();
  };
  if (auto st = write(); !st) return fail(st.error());

  SuiteOptions base;
  base.context = ctx->get();
  base.sampling = f.sampling;
  base.cancel.flag = &g_sweep_cancel;
  g_sweep_cancel = false;
  auto previous = std::signal(SIGINT, on_sweep_sigint);
  Status io = ok();
  bool any_error = false;
  const auto st = run_sweep(def, base, *spec, [&](BenchmarkResult& row) {
    if (!f.quiet) {
      const auto value = row.parameters["sweep"]["value"].get<std::uint64_t>();
      std::cerr << fmt::format("  {} {}: {}\n", sweep_parameter_text(spec->parameter),
                               sweep_value_text(spec->parameter, value),
                               report::has_rate(row) ? fmt::format("{} ({} clock)", report::format_rate(row.value, row.metric.unit),
                                                                   report::clock_text(row.timing_method))
                                                     : std::string(to_string(row.status)) + ": " + row.message);
    }
    any_error = any_error || row.status == RowStatus::Error;
    doc.add_row(row);
    if (auto w = write(); !w && io) io = w;
  });
  std::signal(SIGINT, previous);
  const bool cancelled = g_sweep_cancel.load();
  doc.finish(cancelled ? "cancelled" : !st ? to_string(st.error().kind) : "complete");
  if (auto w = write(); !w && io) io = w;
  std::cout << fmt::format("{} over the {}\n", def.id, sweep_parameter_text(spec->parameter));
  report::write_sweep_table(std::cout, doc.rows(), spec->parameter);
  for (const auto& n : spec->notes) std::cout << "note: " << n << '\n';
  if (!io) return fail(io.error());
  if (cancelled) return fail(ErrorKind::Cancelled, "interrupted; completed points were kept");
  if (!st) return fail(st.error());
  return any_error ? kExitBenchmarkFailed : kExitOk;
}

}  // namespace

void register_sweep(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "sweep", "Run one benchmark over a parameter range (working-set size, thread count or workgroup size)");
  static SweepFlags f;
  add_device_flags(*cmd, f.device);
  add_kernel_dir_flag(*cmd, f.kernel_dir);
  cmd->add_option("benchmark", f.benchmark, "The benchmark id (see 'webgpu-bench list')")->required();
  cmd->add_option("--param", f.parameter,
                  "size: working-set bytes (bandwidth_bytes and working_set_bytes; default 16K..1G); threads: "
                  "compute_threads, the invocations of the ALU and streaming bandwidth probes (default 64..1048576); "
                  "workgroup: compute_workgroup_size, the ALU probes' workgroup size (default 32..1024, capped by "
                  "the adapter)")
      ->check(CLI::IsMember({"size", "threads", "workgroup"}));
  cmd->add_option("--from", f.from, "First point (sizes take K/M/G suffixes)");
  cmd->add_option("--to", f.to, "Last point; the points are the powers of two from --from up to --to");
  cmd->add_option("--values", f.values, "Comma-separated points instead of a range (e.g. 16K,1M,64M)");
  cmd->add_option("--json", f.json_path, "Write the series as a result document here (after every point)");
  cmd->add_option("--csv", f.csv_path, "Write the series as CSV here");
  cmd->add_flag("-q,--quiet", f.quiet, "No per-point lines on stderr");
  add_sampling_flags(*cmd, f.sampling);
  cmd->callback([&exit_code] { exit_code = with_kernel_dir(f.kernel_dir, [] { return sweep_command(f); }); });
}

}  // namespace wgb::cli
