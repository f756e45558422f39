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
#include "catalog/select.hpp"
#include "cli/host.hpp"
#include "cli/session.hpp"
#include "cli/terminal.hpp"
#include "frontend/sweep_job.hpp"
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
  auto chosen = catalog::select_benchmarks(builtin_benchmarks(), f.benchmark, /*default_only=*/false);
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

  frontend::SweepJobOptions o;
  o.benchmark = def;
  o.spec = std::move(*spec);
  o.base.context = ctx->get();
  o.base.sampling = f.sampling;
  // The bar's ETA: each point's first estimate is the suite's budget-based guess for the benchmark
  // (a skipped point costs nothing); only worth a preparation where the bar is drawn.
  o.estimate = session.display().enabled();
  o.command = command_line();
  o.machine = host::native_machine();
  frontend::SweepJob job(std::move(o));
  TerminalFrontEnd terminal(session, {.stream_table = false, .notes_without_bar = true});
  const std::size_t width = terminal_width();
  const Outcome outcome = frontend::run(job, terminal, width);
  if (!outcome.ran) return outcome.cancelled ? fail(ErrorKind::Cancelled, "interrupted before any point ran")
                                             : fail(*outcome.fatal);
  session.write(job.document());
  std::cout << job.summary(width);
  return session.finish(job.document().json(), outcome);
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
