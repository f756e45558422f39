// `webgpu-bench hierarchy`: the memory levels of one adapter inferred from a latency curve and a
// bandwidth curve over the working set (frontend/hierarchy_job.hpp, docs/method.md#hierarchy). This
// file maps flags; the session owns signals, writing and the exit code.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>

#include "catalog/select.hpp"
#include "cli/common.hpp"
#include "cli/session.hpp"
#include "cli/terminal.hpp"
#include "frontend/hierarchy_job.hpp"
#include "host/machine.hpp"
#include "report/run_options.hpp"
#include "report/table.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb::cli {

namespace {

struct HierarchyFlags {
  DeviceFlags device;
  std::string from = "4K", to;
  int per_octave = 4;
  double budget_s = 180;
  std::string curves = "both";
  std::string spread = "auto";
  std::string infer;  // a hierarchy document whose rows are read again (no device)
  OutputFlags out;
};

Expected<BenchmarkDefinition> benchmark(const char* id) {
  auto chosen = catalog::select_benchmarks(builtin_benchmarks(), id, /*default_only=*/false);
  if (!chosen) return std::move(chosen).error();
  return chosen->front();
}

// The levels of a saved run inferred again from its rows by this build's inference: after the method
// changes, a run is read anew without measuring it again.
int infer_again(const HierarchyFlags& f) {
  auto doc = report::load_document(f.infer);
  if (!doc) return fail(doc.error());
  if (doc->suite != "hierarchy") {
    return fail(ErrorKind::Usage, fmt::format("--infer {}: a '{}' document, not one `hierarchy` wrote", f.infer,
                                              doc->suite.empty() ? "unknown" : doc->suite));
  }
  const report::HierarchyRunOptions asked = report::read_hierarchy_options(doc->options);
  namespace hier = report::hierarchy;
  const auto inference =
      hier::infer_rows(doc->rows, asked.latency_benchmark, asked.bandwidth_benchmark, asked.spread_benchmark);
  const std::size_t width = terminal_width();
  std::cout << report::wrap_text(fmt::format("Memory levels of {} inferred again from its {} (docs/method.md#hierarchy)",
                                             f.infer, hier::points_text(inference)),
                                 width, 0, 2)
            << '\n';
  hier::write_table(std::cout, inference.levels, inference.notes, width);
  if (!f.out.json_path.empty()) {
    if (auto st = hier::write_inferred_again(f.infer, f.out.json_path, inference); !st) return fail(st.error());
  }
  return 0;
}

int hierarchy_command(const HierarchyFlags& f) {
  if (!f.infer.empty()) return infer_again(f);
  if (auto st = single_adapter(f.device, "hierarchy"); !st) return fail(st.error());
  auto from = parse_size(f.from);
  if (!from) return fail(from.error());
  auto latency = benchmark("read-latency");
  if (!latency) return fail(latency.error());
  auto bandwidth = benchmark("read-linear");
  if (!bandwidth) return fail(bandwidth.error());
  auto spread = benchmark("read-latency-spread");
  if (!spread) return fail(spread.error());

  // Before the device exists, so its driver threads leave Ctrl-Z to the session.
  Session session(f.out, "point");
  auto ctx = gpu::Context::create(f.device.options());
  if (!ctx) return fail(ctx.error());
  // By default up to 1 GiB (several times the largest cache of most devices), or the adapter's
  // largest storage binding where that is smaller.
  const auto& limits = (*ctx)->limits();
  const std::uint64_t limit = std::min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);
  auto to = f.to.empty() ? Expected<std::uint64_t>(std::min<std::uint64_t>(1ull << 30, limit)) : parse_size(f.to);
  if (!to) return fail(to.error());
  auto footprints = frontend::hierarchy_footprints(*from, *to, f.per_octave);
  if (!footprints) return fail(footprints.error());

  frontend::HierarchyJobOptions o;
  o.latency = *latency;
  o.bandwidth = *bandwidth;
  o.spread = *spread;
  o.spread_curve = f.spread == "on"    ? frontend::SpreadCurve::On
                   : f.spread == "off" ? frontend::SpreadCurve::Off
                                       : frontend::SpreadCurve::Auto;
  o.footprints = std::move(*footprints);
  o.curves = f.curves == "latency"     ? frontend::HierarchyCurves::Latency
             : f.curves == "bandwidth" ? frontend::HierarchyCurves::Bandwidth
                                       : frontend::HierarchyCurves::Both;
  o.budget_s = f.budget_s;
  o.per_octave = f.per_octave;
  o.base.context = ctx->get();
  o.command = command_line();
  o.machine = host::native_machine();
  frontend::HierarchyJob job(std::move(o));
  TerminalFrontEnd terminal(session, {.stream_table = false, .notes_without_bar = true});
  const std::size_t width = terminal_width();
  const Outcome outcome = frontend::run(job, terminal, width);
  if (!outcome.ran) {
    return outcome.cancelled ? fail(ErrorKind::Cancelled, "interrupted before any point ran") : fail(*outcome.fatal);
  }
  session.write(job.document());
  std::cout << job.summary(width);
  return session.finish(job.document().json(), outcome);
}

}  // namespace

void register_hierarchy(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "hierarchy",
      "Infer the memory levels (capacity, latency, bandwidth, each with its uncertainty) from a latency curve and a "
      "bandwidth curve over the working set (docs/method.md#hierarchy)");
  auto f = std::make_shared<HierarchyFlags>();
  add_device_flags(*cmd, f->device);
  cmd->add_option("--from", f->from, "Smallest working set (4K)")->type_name("SIZE");
  cmd->add_option("--to", f->to, "Largest working set (1G, or the adapter's largest storage binding)")
      ->type_name("SIZE");
  cmd->add_option("--per-octave", f->per_octave, "Working sets per doubling, 1 to 16 (4)")
      ->type_name("N")
      ->check(in_range(1, 16));
  cmd->add_option("--budget", f->budget_s, "Seconds the sampling of all points aims at, 10 to 36000 (180)")
      ->type_name("S")
      ->check(in_range(10, 36000));
  cmd->add_option("--curve", f->curves, "Which curves to measure (both)")
      ->type_name("both|latency|bandwidth")
      ->check(one_of({"both", "latency", "bandwidth"}));
  cmd->add_option("--spread", f->spread,
                  "The device-wide latency curve (read-latency-spread: walkers on every compute unit, from 1 MiB), "
                  "whose last step is the capacity of the cache the device shares; auto: on a GPU, not on a CPU "
                  "adapter (auto)")
      ->type_name("auto|on|off")
      ->check(one_of({"auto", "on", "off"}));
  cmd->add_option("--infer", f->infer,
                  "Measure nothing: infer the levels again from the rows of a document hierarchy --json wrote, "
                  "with this build's method; with --json, that document with the new levels is written there")
      ->type_name("FILE");
  add_output_flags(*cmd, f->out, OutputFlagSet{"point", /*progress=*/true, /*repro=*/false, /*submit=*/false});
  cmd->callback([&exit_code, f] { exit_code = hierarchy_command(*f); });
}

}  // namespace wgb::cli
