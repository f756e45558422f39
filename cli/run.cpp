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

#include "cli/common.hpp"
#include "catalog/select.hpp"
#include "cli/host.hpp"
#include "cli/sampling_flags.hpp"
#include "cli/session.hpp"
#include "cli/terminal.hpp"
#include "frontend/default_job.hpp"
#include "report/csv.hpp"
#include "report/document.hpp"
#include "report/files.hpp"
#include "report/repro.hpp"
#include "report/table.hpp"
#include "report/verdict.hpp"
#include "suite/ceilings.hpp"
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
  std::uint64_t bandwidth_mib = defaults::run::kBandwidthBytes >> 20;
  std::uint32_t compute_threads = 0;
  std::string ceilings_path;  // --ceilings: measured ceilings of this adapter for the plausibility check
  bool reverse = false;       // --reverse: the selection in reverse order
  bool accuracy = false;      // --accuracy: the builtins' accuracy beside their speed (the job, after the rows)
};

int run_on_adapter(const RunFlags& f) {
  // Before the device exists, so its driver threads leave Ctrl-Z to the session (job_control.hpp).
  Session session(f.out);
  if (auto st = session.check_before_work(); !st) return fail(st.error());
  frontend::DefaultJobOptions o;
  o.suite.device = f.device.options();
  o.suite.sampling = f.sampling;
  o.suite.bandwidth_bytes = f.bandwidth_mib << 20;
  o.suite.compute_threads = f.compute_threads;
  o.suite.reverse = f.reverse;
  o.filter = f.filter;
  if (!f.ceilings_path.empty()) {
    auto loaded = report::load_document(f.ceilings_path);
    if (!loaded) return fail(ErrorKind::Usage, loaded.error().message);
    auto measured = measured_ceilings_from(*loaded);
    if (!measured) return fail(measured.error());
    o.ceilings = std::move(*measured);
  }
  o.ceilings_path = f.ceilings_path;
  o.repro = f.out.repro;
  o.command = command_line();
  o.machine = host::native_machine();
  if (f.out.second_run) {
    // Test-only: the second process of --repro may be told to perturb one row (repro.hpp).
    auto p = report::test_perturbation_from_env();
    if (!p) return fail(p.error());
    o.perturbation = *p;
    o.annotate = [](report::ResultDocument& doc) { doc.mark_second_run(); };
  }
  o.accuracy = f.accuracy;
  // Each probe's accuracy is written as it is attached; its progress line only where the bar is.
  o.on_accuracy = [&session](const report::ResultDocument& doc, const std::string& line, bool note) {
    session.write(doc);
    if (note || session.display().enabled()) std::cerr << line << '\n' << std::flush;
  };
  frontend::DefaultJob job(std::move(o));
  TerminalFrontEnd terminal(session, {.stream_table = true});
  return run_to_end(session, job, terminal, terminal_width(), "benchmark", [&](Outcome& outcome) {
    if (!f.out.repro || outcome.cancelled || outcome.fatal) return;
    const report::ReproSummary repro = session.reproduce(job.document(), f.sampling.improvement_tolerance);
    if (repro.verdict != "pass") {
      outcome.failure = repro.verdict == "fail" ? "the second run disagrees with the first (see the repro column)"
                                                : "the second run could not be compared";
    }
  });
}

// --adapter all: the same run on every adapter in turn, then the rates side by side. Each adapter's
// document goes to <json>.<index>.json (and CSV likewise) when --json/--csv are given.
int run(const RunFlags& f) {
  if (f.filter_given) {
    if (auto st = catalog::require_globs(f.filter); !st) return fail(st.error());
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
  auto f = std::make_shared<DeviceChoice<RunFlags>>();
  RunFlags& r = f->own;
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
  cmd->add_flag("--reverse", r.reverse,
                "Run the selection in reverse order: a rate that moves with its position in the run is not the "
                "kernel's (compare the two documents)");
  cmd->add_flag("--accuracy", r.accuracy,
                "Also measure the accuracy of every floating-point builtin the run times, over dense inputs against "
                "the exact results, beside its rate (docs/method.md#accuracy)");
  add_sampling_flags(*cmd, r.sampling);
  f->host_options = add_host_options(*cmd, f->host, HostUse::Run);
  cmd->callback([&exit_code, f, filter, cmd] {
    const std::set<std::string> shared = {"--filter", "--json",   "--csv",          "--quiet",
                                                 "--repro",  "--submit", "--submit-token", report::kSecondRunFlag};
    if (auto st = f->resolve(*cmd, shared); !st) {
      exit_code = fail(st.error());
      return;
    }
    f->own.filter_given = filter->count() > 0;
    if (f->on_host()) {
      if (f->own.filter_given) f->host.o.filter = f->own.filter;
      exit_code = run_host(f->host, f->own.out);
      return;
    }
    exit_code = with_kernel_dir(f->own.kernel_dir, [&] { return run(f->own); });
  });
}

}  // namespace wgb::cli
