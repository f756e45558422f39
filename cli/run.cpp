// `webgpu-bench run`: the default suite (or --filter) on the chosen adapter; a table on stdout,
// progress on stderr, and --json / --csv written after every row (a cancelled run keeps what
// completed). --repro runs the whole procedure again in a second process and flags every row
// where the two disagree by more than the reported dispersion (src/report/repro.hpp). Signals,
// the display, writing, the second process, submitting and the exit code are the session's
// (session.hpp); --device host runs the host suite instead (host.hpp).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <set>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

#include "catalog/subgroup_matrix/subgroup_matrix.hpp"
#include "cli/common.hpp"
#include "cli/filter.hpp"
#include "cli/host.hpp"
#include "cli/sampling_flags.hpp"
#include "cli/session.hpp"
#include "cli/terminal.hpp"
#include "report/csv.hpp"
#include "report/document.hpp"
#include "report/files.hpp"
#include "report/repro.hpp"
#include "report/table.hpp"
#include "report/verdict.hpp"
#include "suite/plausibility.hpp"
#include "webgpu_bench/suite.hpp"
#include "host/machine.hpp"

namespace wgb::cli {

namespace {

struct RunFlags {
  DeviceFlags device;
  std::string kernel_dir;  // --kernel-dir
  std::string filter;
  bool filter_given = false;  // --filter was on the command line (even empty)
  OutputFlags out;
  SamplingOptions sampling;
  std::uint64_t bandwidth_mib = 64;
  std::uint32_t compute_threads = 0;
  std::string ceilings_path;  // --ceilings: measured ceilings of this adapter for the plausibility check
};

std::string row_line(const BenchmarkResult& r) {
  if (r.value > 0) {
    return fmt::format("  {:<28} {:>14}  ({} {})", r.id, report::format_rate(r.value, r.metric.unit),
                       to_string(r.statistic), report::dispersion_text(r));
  }
  return fmt::format("  {:<28} {}: {}", r.id, to_string(r.status), r.message);
}

int run_on_adapter(const RunFlags& f) {
  // Before the device exists, so its driver threads leave Ctrl-Z to the session (job_control.hpp).
  Session session(f.out);
  if (auto st = session.check_before_work(); !st) return fail(st.error());
  ProgressDisplay& display = session.display();
  const std::size_t width = terminal_width();
  // With --experimental the device is opened first, so the subgroup-matrix configurations the
  // adapter reports beyond the built-in ones become benchmarks too.
  std::unique_ptr<gpu::Context> context;
  std::vector<BenchmarkDefinition> catalog = builtin_benchmarks();
  if (f.device.experimental) {
    auto created = gpu::Context::create(f.device.options());
    if (!created) return fail(created.error());
    context = std::move(*created);
    catalog = catalog::subgroup_matrix::with_adapter_shapes(std::move(catalog), context->adapter());
  }
  auto chosen = select_benchmarks(catalog, f.filter, /*default_only=*/f.filter.empty());
  if (!chosen) return fail(chosen.error());
  if (f.bandwidth_mib == 0 || f.bandwidth_mib > (1u << 20)) {
    return fail(ErrorKind::Usage, fmt::format("--bandwidth-mib {} is out of range (1..1048576)", f.bandwidth_mib));
  }
  std::optional<MeasuredCeilings> ceilings;
  if (!f.ceilings_path.empty()) {
    auto loaded = report::load_result_document(f.ceilings_path);
    if (!loaded) return fail(ErrorKind::Usage, loaded.error().message);
    auto measured = measured_ceilings_from(*loaded, f.ceilings_path);
    if (!measured) return fail(measured.error());
    ceilings = std::move(*measured);
  }
  // Test-only: the second process of --repro may be told to perturb one row (repro.hpp).
  std::optional<report::TestPerturbation> perturb;
  if (f.out.second_run) {
    auto p = report::test_perturbation_from_env();
    if (!p) return fail(p.error());
    perturb = *p;
  }

  SuiteOptions options;
  options.device = f.device.options();
  options.context = context.get();
  options.benchmarks = std::move(*chosen);
  options.sampling = f.sampling;
  options.bandwidth_bytes = f.bandwidth_mib << 20;
  options.compute_threads = f.compute_threads;
  options.measured_ceilings = ceilings;
  options.cancel = session.cancel();
  options.on_progress = [&display](const ProgressEvent& e) { display.on_progress(e); };

  std::optional<SuiteRun> suite(run_suite(std::move(options)));
  if (auto st = suite->start(); !st) {
    if (session.cancelled()) return fail(ErrorKind::Cancelled, "interrupted before any benchmark ran");
    return fail(st.error());
  }
  if (ceilings) {
    if (auto st = check_same_adapter(*ceilings, suite->context()->adapter()); !st) return fail(st.error());
  }

  report::ResultDocument doc("default", command_line(), host::native_machine());
  doc.set_device(gpu::device_record(*suite->context()));
  doc.set_options({{"sampling", report::sampling_json(f.sampling)},
                   {"bandwidth_bytes", f.bandwidth_mib << 20},
                   {"compute_threads", f.compute_threads},
                   {"filter", f.filter},
                   {"repro", f.out.repro},
                   {"ceilings", f.ceilings_path}});
  if (f.out.second_run) doc.json()["repro_second_run"] = true;
  if (perturb) {
    doc.json()["test_perturbation"] =
        fmt::format("TEST-ONLY: {}'s times multiplied by {} after measurement", perturb->id, perturb->factor);
  }
  if (auto st = session.write_first(doc); !st) return fail(st.error());

  const auto& a = suite->context()->adapter();
  // Informational, like the bar: only where the bar is drawn (a terminal, or --progress).
  if (display.enabled()) {
    std::cerr << fmt::format("adapter: {} ({}, {}), Dawn {}, robustness {}\n  driver: {}\n",
                             a.device.empty() ? a.description : a.device, a.backend, a.adapter_type,
                             suite->context()->options().configuration,
                             suite->context()->options().robustness ? "on" : "off", a.driver);
  }
  // Each row is printed on stdout as it completes, in columns sized up front; where stdout is not
  // the terminal the bar is on, the bar's own one-line summary of the row is shown above it too.
  std::vector<std::string> ids, units;
  for (const auto& d : suite->benchmarks()) {
    ids.push_back(d.id);
    units.push_back(d.metric.unit);
  }
  const report::TableStream stream(ids, units, width);
  std::cout << stream.header() << std::flush;
  const bool stdout_is_terminal = ::isatty(STDOUT_FILENO) != 0;
  display.begin(suite->benchmark_count(), suite->initial_estimates_s());
  Outcome outcome;
  while (auto row = suite->next()) {
    // Outside the measured path: the row is complete; only its reported times are scaled.
    if (perturb) report::apply_test_perturbation(*row, *perturb);
    outcome.any_error = outcome.any_error || row->status == RowStatus::Error;
    auto print = [&] { std::cout << stream.row(*row) << std::flush; };
    if (row->status != RowStatus::Cancelled) {
      ++outcome.completed;  // rows that really completed (not the cancelled ones of an interrupt)
      display.on_result(row->index, stdout_is_terminal ? "" : row_line(*row), print);
    } else {
      display.on_result(row->index, "", print);
    }
    report::annotate_technique_row(*row);  // derived numbers (ns/hop) before the row is recorded
    doc.add_row(*row);
    session.write(doc);
  }
  outcome.cancelled = session.cancelled();
  outcome.fatal = suite->fatal_error();
  // Only a run that completed reaches 100 %; an interrupted one stops drawing where it was.
  if (outcome.cancelled || outcome.fatal) {
    display.stop();
  } else {
    display.finish();
  }

  suite.reset();  // release the device before a second process needs one
  context.reset();
  doc.finish(outcome.cancelled ? "cancelled" : outcome.fatal ? to_string(outcome.fatal->kind) : "complete");
  const bool do_repro = f.out.repro && !outcome.cancelled && !outcome.fatal;
  if (do_repro) session.reproduce(doc, f.sampling.improvement_tolerance);
  session.write(doc);
  report::write_roofline_table(std::cout, doc.rows());
  report::write_repro_table(std::cout, doc.rows());
  report::write_summary(std::cout, doc.rows(), doc.repro(), width, /*streamed=*/true);
  std::vector<BenchmarkResult> results;
  for (const auto& r : doc.rows()) results.push_back(r.result);
  std::ostringstream verdicts;
  report::write_verdicts(verdicts, report::family_verdicts(results));  // technique rows only; else nothing
  std::cout << report::wrap_block(verdicts.str(), width);
  if (do_repro && doc.json()["repro"]["verdict"] != "pass") {
    outcome.failure = doc.json()["repro"]["verdict"] == "fail" ? "the second run disagrees with the first (see the repro column)"
                                                              : "the second run could not be compared";
  }
  return session.finish(doc.json(), outcome);
}

// --adapter all: the same run on every adapter in turn, then the rates side by side. Each adapter's
// document goes to <json>.<index>.json (and CSV likewise) when --json/--csv are given.
int run(const RunFlags& f) {
  if (f.filter_given) {
    if (auto st = require_globs(f.filter); !st) return fail(st.error());
  }
  std::string sel = f.device.adapter;
  std::transform(sel.begin(), sel.end(), sel.begin(), [](unsigned char c) { return std::tolower(c); });
  if (sel != "all") return run_on_adapter(f);
  if (f.out.repro) return fail(ErrorKind::Usage, "--repro with --adapter all is not supported; run each adapter");
  if (!f.ceilings_path.empty()) {
    return fail(ErrorKind::Usage, "--ceilings with --adapter all is not supported: the ceilings are one adapter's");
  }
  auto adapters = gpu::Context::enumerate(f.device.options());
  if (!adapters) return fail(adapters.error());
  if (adapters->empty()) return fail(ErrorKind::NoAdapter, "no usable WebGPU adapter");
  auto suffixed = [](const std::string& path, std::size_t i) {
    if (path.empty()) return path;
    const auto dot = path.rfind('.');
    return dot == std::string::npos || dot == 0 ? fmt::format("{}.{}", path, i)
                                                : fmt::format("{}.{}{}", path.substr(0, dot), i, path.substr(dot));
  };
  std::vector<std::string> names;
  std::vector<std::map<std::string, std::string>> rates;
  std::vector<std::string> order;
  int worst = kExitOk;
  for (const auto& a : *adapters) {
    RunFlags one = f;
    one.device.adapter = std::to_string(a.index);
    one.out.json_path = suffixed(f.out.json_path, a.index);
    one.out.csv_path = suffixed(f.out.csv_path, a.index);
    // Each adapter's document is read back for the side-by-side table, so keep one even without --json.
    const auto tmp = std::filesystem::temp_directory_path() / fmt::format("webgpu-bench-all-{}-{}.json", getpid(), a.index);
    if (one.out.json_path.empty()) one.out.json_path = tmp.string();
    if (!f.out.quiet) std::cerr << fmt::format("=== adapter [{}] {} ({}) ===\n", a.index, a.device, a.backend);
    const int code = run_on_adapter(one);
    if (code == kExitCancelled) return code;
    worst = std::max(worst, code);
    names.push_back(fmt::format("[{}] {}", a.index, a.device));
    std::map<std::string, std::string> col;
    if (auto loaded = report::load_document(one.out.json_path)) {
      for (const auto& row : loaded->rows) {
        const BenchmarkResult& r = row.result;
        if (std::find(order.begin(), order.end(), r.id) == order.end()) order.push_back(r.id);
        col[r.id] = r.value > 0 ? report::format_rate(r.value, r.metric.unit) : std::string(to_string(r.status));
      }
    }
    rates.push_back(std::move(col));
    std::error_code ec;
    if (f.out.json_path.empty()) std::filesystem::remove(tmp, ec);
  }
  std::cout << "\nSide by side (each adapter's own statistic per row):\n";
  std::size_t w = 9;
  for (const auto& id : order) w = std::max(w, id.size());
  std::cout << fmt::format("{:<{}}", "benchmark", w);
  for (const auto& n : names) std::cout << fmt::format("  {:>24}", n.substr(0, 24));
  std::cout << '\n';
  for (const auto& id : order) {
    std::cout << fmt::format("{:<{}}", id, w);
    for (const auto& col : rates) {
      auto it = col.find(id);
      std::cout << fmt::format("  {:>24}", it == col.end() ? "-" : it->second);
    }
    std::cout << '\n';
  }
  return worst;
}

}  // namespace

void register_run(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("run", "Run the default suite (or --filter) and print a results table");
  struct Flags {
    RunFlags run;
    std::string device = "gpu";
    HostFlags host;
    std::vector<CLI::Option*> host_options;
  };
  auto f = std::make_shared<Flags>();
  RunFlags& r = f->run;
  add_device_choice(*cmd, f->device, "the host CPU suite, as 'webgpu-bench host'");
  add_device_flags(*cmd, r.device, /*all_adapters=*/true);
  add_kernel_dir_flag(*cmd, r.kernel_dir);
  auto* filter = cmd->add_option("--filter", r.filter,
                                 "Comma-separated globs of benchmark ids (default: the default suite; with --device "
                                 "host: host benchmark ids)")
                     ->type_name("GLOBS");
  add_output_flags(*cmd, r.out, OutputFlagSet{"row"});
  cmd->add_option("--bandwidth-mib", r.bandwidth_mib, "Buffer size of the bandwidth probes in MiB, 1 to 1048576 (64)")
      ->type_name("MIB")
      ->check(in_range(1, 1 << 20));
  cmd->add_option("--compute-threads", r.compute_threads,
                  "Invocations per dispatch of the ALU and streaming bandwidth probes (0: each probe's default)")
      ->type_name("N");
  cmd->add_option("--ceilings", r.ceilings_path,
                  "A result document measured earlier on this adapter (memory suite or run): rows above its measured "
                  "ceilings x 1.25 are marked suspect")
      ->type_name("FILE");
  add_sampling_flags(*cmd, r.sampling);
  f->host_options = add_host_options(*cmd, f->host, HostUse::Run);
  cmd->callback([&exit_code, f, filter, cmd] {
    const bool host = f->device == "host";
    const std::set<std::string> shared = {"--filter", "--json",   "--csv",          "--quiet",
                                                 "--repro",  "--submit", "--submit-token", report::kSecondRunFlag};
    if (auto st = resolve_device(*cmd, host, f->host_options, shared); !st) {
      exit_code = fail(st.error());
      return;
    }
    f->run.filter_given = filter->count() > 0;
    if (host) {
      if (f->run.filter_given) f->host.o.filter = f->run.filter;
      exit_code = run_host(f->host, f->run.out);
      return;
    }
    exit_code = with_kernel_dir(f->run.kernel_dir, [&] { return run(f->run); });
  });
}

}  // namespace wgb::cli
