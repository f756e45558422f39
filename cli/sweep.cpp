// `webgpu-bench sweep <benchmark>`: one benchmark over a parameter range (working-set size or
// thread count), as a series: a table on stdout, --json (a result document with a "sweep" object,
// written after every point) and --csv. See src/suite/sweep.hpp. Signals, writing and the exit
// code are the session's (session.hpp); --device host sweeps a host benchmark (host.hpp).
#include <fmt/format.h>

#include <chrono>
#include <fmt/ranges.h>

#include <algorithm>
#include <memory>
#include <set>
#include <iostream>
#include <sstream>

#include "cli/common.hpp"
#include "cli/filter.hpp"
#include "cli/host.hpp"
#include "cli/session.hpp"
#include "cli/terminal.hpp"
#include "cli/sampling_flags.hpp"
#include "report/csv.hpp"
#include "report/document.hpp"
#include "report/sweep.hpp"
#include "suite/sweep.hpp"
#include "report/table.hpp"
#include "webgpu_bench/suite.hpp"
#include "host/machine.hpp"

namespace wgb::cli {

namespace {

struct SweepFlags {
  DeviceFlags device;
  std::string kernel_dir;  // --kernel-dir
  std::string benchmark;
  std::string parameter = "size";
  std::string from, to, values;
  OutputFlags out;
  SamplingOptions sampling;
};

int sweep_command(const SweepFlags& f) {
  if (auto st = single_adapter(f.device, "sweep"); !st) return fail(st.error());
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

  // Before the device exists, so its driver threads leave Ctrl-Z to the session.
  Session session(f.out, "point");
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

  report::ResultDocument doc("sweep", command_line(), host::native_machine());
  doc.set_device(gpu::device_record(**ctx));
  doc.set_options({{"sampling", report::sampling_json(f.sampling)}, {"benchmark", def.id}, {"parameter", spec->parameter}});
  doc.json()["sweep"] = sweep_json(def.id, *spec);
  auto write = [&] {
    doc.json()["sweep"] = sweep_json(def.id, *spec);
    session.write(doc);
  };
  if (auto st = session.write_first(doc); !st) return fail(st.error());  // before any work

  SuiteOptions base;
  base.context = ctx->get();
  base.sampling = f.sampling;
  base.cancel = session.cancel();

  // The bar and its ETA, as for `run`: one step per point. Each point's first estimate is the
  // suite's budget-based guess for the benchmark (a skipped point costs nothing); the events of
  // each point's run are renumbered to the point and put on one clock.
  ProgressDisplay& display = session.display();
  std::vector<double> estimates(spec->values.size(), 0.0);
  if (display.enabled()) {
    for (auto v : spec->values) {
      if (spec->skipped.count(v) != 0) continue;
      SuiteOptions probe = base;
      probe.benchmarks = {def};
      apply_sweep_value(probe, spec->parameter, v);
      SuiteRun guess = run_suite(std::move(probe));
      if (guess.start()) {
        const auto e = guess.initial_estimates_s();
        for (std::size_t i = 0; i < estimates.size(); ++i) {
          if (spec->skipped.count(spec->values[i]) == 0 && !e.empty()) estimates[i] = e.front();
        }
      }
      break;
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto since_start = [&t0] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  std::size_t point = 0;
  base.on_progress = [&](const ProgressEvent& e) {
    if (e.kind == ProgressEvent::Kind::SuiteStart && point > 0) return;
    ProgressEvent m = e;
    m.index = point;
    m.now_s = since_start();
    m.id = sweep_value_text(spec->parameter, spec->values[point]);
    display.on_progress(m);
  };
  display.begin(spec->values.size(), estimates);
  Outcome outcome;
  const auto st = run_sweep(
      def, base, *spec,
      [&](BenchmarkResult& row) {
        const auto value = row.parameters["sweep"]["value"].get<std::uint64_t>();
        const std::string line = fmt::format(
            "  {} {}: {}", sweep_parameter_text(spec->parameter), sweep_value_text(spec->parameter, value),
            report::has_rate(row) ? fmt::format("{} ({} clock)", report::format_rate(row.value, row.metric.unit),
                                                report::clock_text(row.timing_method))
                                  : std::string(to_string(row.status)) + ": " + row.message);
        outcome.any_error = outcome.any_error || row.status == RowStatus::Error;
        if (row.status != RowStatus::Cancelled) ++outcome.completed;
        if (display.enabled()) {
          display.on_result(row.index, line);
        } else {
          session.note(line);
        }
        doc.add_row(row);
        write();
      },
      [&](std::size_t i, std::size_t) {
        point = i;
        if (spec->skipped.count(spec->values[i]) != 0) {  // known to cost nothing
          ProgressEvent e;
          e.kind = ProgressEvent::Kind::Resolved;
          e.index = i;
          e.now_s = since_start();
          e.stage = "resolved";
          display.on_progress(e);
        }
      });
  if (session.cancelled() || !st) {
    display.stop();
  } else {
    display.finish();
  }
  outcome.cancelled = session.cancelled();
  doc.finish(outcome.cancelled ? "cancelled" : !st ? to_string(st.error().kind) : "complete");
  write();
  std::cout << fmt::format("{} over the {}\n", def.id, sweep_parameter_text(spec->parameter));
  report::write_sweep_table(std::cout, doc.rows(), spec->parameter, terminal_width());
  for (const auto& n : spec->notes) std::cout << "note: " << n << '\n';
  if (!st) outcome.fatal = st.error();
  return session.finish(doc.json(), outcome);
}

}  // namespace

void register_sweep(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "sweep", "Run one benchmark over a parameter range (working-set size, thread count or workgroup size)");
  struct Flags {
    SweepFlags sweep;
    std::string device = "gpu";
    HostFlags host;
    std::vector<CLI::Option*> host_options;
  };
  auto f = std::make_shared<Flags>();
  SweepFlags& w = f->sweep;
  add_device_choice(*cmd, f->device,
                    "a host benchmark's curve over thread count (--param threads) or working-set size (--param size)");
  add_device_flags(*cmd, w.device);
  add_kernel_dir_flag(*cmd, w.kernel_dir);
  cmd->add_option("benchmark", w.benchmark, "The benchmark id (see 'webgpu-bench list')")->required()->type_name("ID");
  cmd->add_option("--param", w.parameter,
                  "size: working-set bytes (default 16K..1G); threads: the invocations of the ALU and streaming "
                  "bandwidth probes (default 64..1048576); workgroup: the ALU probes' workgroup size (default "
                  "32..1024, capped by the adapter)")
      ->type_name("size|threads|workgroup")
      ->check(one_of({"size", "threads", "workgroup"}));
  cmd->add_option("--from", w.from, "First point (sizes take K/M/G suffixes)")->type_name("VALUE");
  cmd->add_option("--to", w.to, "Last point; the points are the powers of two from --from up to --to")
      ->type_name("VALUE");
  cmd->add_option("--values", w.values, "Comma-separated points instead of a range (e.g. 16K,1M,64M)")
      ->type_name("LIST");
  add_output_flags(*cmd, w.out, OutputFlagSet{"point", /*progress=*/false, /*repro=*/false, /*submit=*/false});
  add_sampling_flags(*cmd, w.sampling);
  f->host_options = add_host_options(*cmd, f->host, HostUse::Sweep);
  cmd->callback([&exit_code, f, cmd] {
    const bool host = f->device == "host";
    const std::set<std::string> shared = {"benchmark", "--param", "--from", "--to",
                                          "--values",  "--json",  "--csv",  "--quiet"};
    if (auto st = resolve_device(*cmd, host, f->host_options, shared); !st) {
      exit_code = fail(st.error());
      return;
    }
    if (host) {
      const SweepFlags& s = f->sweep;
      const std::string param = cmd->get_option("--param")->count() > 0 ? s.parameter : std::string();
      exit_code = run_host(f->host, s.out, [&s, param](host::HostOptions& o) {
        return host_sweep_options(o, s.benchmark, param, s.from, s.to, s.values);
      });
      return;
    }
    exit_code = with_kernel_dir(f->sweep.kernel_dir, [&] { return sweep_command(f->sweep); });
  });
}

}  // namespace wgb::cli
