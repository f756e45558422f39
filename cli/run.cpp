// `webgpu-bench run`: the default suite (or --filter) on the chosen adapter; a table on stdout,
// progress on stderr, and --json / --csv written after every row (a cancelled run keeps what
// completed). --repro runs the whole procedure again in a second process and flags every row
// where the two disagree by more than the reported dispersion (src/report/repro.hpp).
#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <csignal>
#include <map>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

#include "catalog/subgroup_matrix/subgroup_matrix.hpp"
#include "cli/common.hpp"
#include "cli/filter.hpp"
#include "cli/job_control.hpp"
#include "cli/progress_display.hpp"
#include "cli/sampling_flags.hpp"
#include "cli/second_process.hpp"
#include "report/csv.hpp"
#include "report/document.hpp"
#include "report/repro.hpp"
#include "report/table.hpp"
#include "report/verdict.hpp"
#include "store/client.hpp"
#include "suite/plausibility.hpp"
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
  std::string kernel_dir;  // --kernel-dir
  std::string filter;
  bool filter_given = false;  // --filter was on the command line (even empty)
  std::string json_path;
  std::string csv_path;
  bool quiet = false;     // nothing on stderr but errors
  bool progress = false;  // the bar and per-row lines on stderr even when it is not a terminal
  bool repro = false;
  bool second_run = false;  // hidden: this process is the second run of --repro
  SamplingOptions sampling;
  std::uint64_t bandwidth_mib = 64;
  std::uint32_t compute_threads = 0;
  std::string submit_url;    // --submit: send the finished document to a results server
  std::string submit_token;
  std::string ceilings_path;  // --ceilings: measured ceilings of this adapter for the plausibility check
};

std::string row_line(const BenchmarkResult& r) {
  if (r.value > 0) {
    return fmt::format("  {:<28} {:>14}  ({} {})", r.id, report::format_rate(r.value, r.metric.unit),
                       to_string(r.statistic), report::dispersion_text(r));
  }
  return fmt::format("  {:<28} {}: {}", r.id, to_string(r.status), r.message);
}

// Writes the document's JSON and CSV (each when asked for), atomically.
Status write_outputs(const RunFlags& f, const report::ResultDocument& doc) {
  return report::write_outputs(f.json_path, f.csv_path, doc);
}

// Seed 004 protocol step 5: the same command again in a second process, compared row by row.
void check_reproducibility(const RunFlags& f, report::ResultDocument& doc) {
  const auto tmp = std::filesystem::temp_directory_path() / fmt::format("webgpu-bench-repro-{}.json", getpid());
  std::vector<std::string> args(command_line().begin() + (command_line().empty() ? 0 : 1), command_line().end());
  args = report::second_run_arguments(args, tmp.string());
  if (!f.quiet) std::cerr << "repro: running the whole procedure again in a second process...\n";
  nlohmann::json second{{"command", args}, {"started_at", report::utc_now_iso8601()}};
  const double tolerance = f.sampling.improvement_tolerance;
  auto code = run_self(args);
  second["finished_at"] = report::utc_now_iso8601();
  report::ReproSummary summary;
  if (!code) {
    summary = report::repro_incomplete(doc.rows(), code.error().message, tolerance);
  } else {
    second["exit_code"] = *code;
    auto loaded = report::load_document(tmp);
    if (!loaded) {
      summary = report::repro_incomplete(
          doc.rows(), fmt::format("the second process (exit code {}) left no usable document: {}", *code, loaded.error().message),
          tolerance);
    } else {
      second["state"] = loaded->json.value("state", std::string());
      if (loaded->json.contains("test_perturbation")) second["test_perturbation"] = loaded->json["test_perturbation"];
      second["rows"] = loaded->rows.size();
      if (loaded->json.value("state", std::string()) != "complete") {
        summary = report::repro_incomplete(
            doc.rows(), fmt::format("the second process ended '{}' (exit code {})", loaded->json.value("state", std::string("?")), *code),
            tolerance);
      } else {
        summary = report::apply_repro(doc.rows(), loaded->rows, tolerance);
      }
    }
  }
  std::error_code ec;
  std::filesystem::remove(tmp, ec);
  doc.set_repro(summary, second);
}

int run_on_adapter(const RunFlags& f) {
  ProgressDisplay display(f.quiet ? ProgressMode::Never : f.progress ? ProgressMode::Always : ProgressMode::Auto);
  // Ctrl-Z is an unbounded pause: no ETA while stopped, and the stopped time is not counted as the
  // running benchmark's duration. Before the device exists, so its driver threads leave SIGTSTP
  // to the watcher (job_control.hpp).
  StopWatcher stop_watcher([&display] { display.pause("stopped (job control)"); }, [&display] { display.resume(); });
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
  if (f.second_run) {
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
  options.cancel.flag = &g_cancel;
  options.on_progress = [&display](const ProgressEvent& e) { display.on_progress(e); };

  g_cancel = false;
  auto previous = std::signal(SIGINT, on_sigint);
  std::optional<SuiteRun> suite(run_suite(std::move(options)));
  if (auto st = suite->start(); !st) {
    std::signal(SIGINT, previous);
    if (g_cancel) return fail(ErrorKind::Cancelled, "interrupted before any benchmark ran");
    return fail(st.error());
  }
  if (ceilings) {
    if (auto st = check_same_adapter(*ceilings, suite->context()->adapter()); !st) {
      std::signal(SIGINT, previous);
      return fail(st.error());
    }
  }

  report::ResultDocument doc("default", command_line());
  doc.set_device(*suite->context());
  doc.set_options({{"sampling", report::sampling_json(f.sampling)},
                   {"bandwidth_bytes", f.bandwidth_mib << 20},
                   {"compute_threads", f.compute_threads},
                   {"filter", f.filter},
                   {"repro", f.repro},
                   {"ceilings", f.ceilings_path}});
  if (f.second_run) doc.json()["repro_second_run"] = true;
  if (perturb) {
    doc.json()["test_perturbation"] =
        fmt::format("TEST-ONLY: {}'s times multiplied by {} after measurement", perturb->id, perturb->factor);
  }
  if (auto st = write_outputs(f, doc); !st) return fail(st.error());

  const auto& a = suite->context()->adapter();
  // Informational, like the bar: only where the bar is drawn (a terminal, or --progress).
  if (display.enabled()) {
    std::cerr << fmt::format("adapter: {} ({}, {}, {}), robustness {}\n", a.device.empty() ? a.description : a.device,
                             a.backend, a.adapter_type, a.driver, suite->context()->options().robustness ? "on" : "off");
  }
  display.begin(suite->benchmark_count(), suite->initial_estimates_s());
  bool any_error = false;
  std::size_t completed = 0;  // rows that really completed (not the cancelled ones of an interrupt)
  Status io = ok();
  while (auto row = suite->next()) {
    // Outside the measured path: the row is complete; only its reported times are scaled.
    if (perturb) report::apply_test_perturbation(*row, *perturb);
    any_error = any_error || row->status == RowStatus::Error;
    if (row->status != RowStatus::Cancelled) {
      ++completed;
      display.on_result(row->index, row_line(*row));  // printed above the bar when the bar is shown
    }
    report::annotate_technique_row(*row);  // derived numbers (ns/hop) before the row is recorded
    doc.add_row(*row);
    if (auto st = write_outputs(f, doc); !st && io) io = st;
  }
  const bool cancelled = g_cancel.load();
  const std::optional<Error> fatal = suite->fatal_error();
  // Only a run that completed reaches 100 %; an interrupted one stops drawing where it was.
  if (cancelled || fatal) {
    display.stop();
  } else {
    display.finish();
  }
  std::signal(SIGINT, previous);

  suite.reset();  // release the device before a second process needs one
  context.reset();
  doc.finish(cancelled ? "cancelled" : fatal ? to_string(fatal->kind) : "complete");
  const bool do_repro = f.repro && !cancelled && !fatal;
  if (do_repro) check_reproducibility(f, doc);
  if (auto st = write_outputs(f, doc); !st && io) io = st;
  report::write_table(std::cout, doc.rows());
  report::write_summary(std::cout, doc.rows(), doc.json());
  std::vector<BenchmarkResult> results;
  for (const auto& r : doc.rows()) results.push_back(r.result);
  report::write_verdicts(std::cout, report::family_verdicts(results));  // technique rows only; else nothing
  if (!io) return fail(io.error());
  if (!f.submit_url.empty() && !cancelled) {
    // Nothing is sent anywhere unless the user asked (--submit).
    if (auto st = store::submit_document(doc.json(), f.submit_url, f.submit_token); !st) return fail(st.error());
    if (!f.quiet) std::cerr << fmt::format("submitted to {}\n", f.submit_url);
  }
  if (cancelled) {
    return fail(ErrorKind::Cancelled, fmt::format("interrupted; {} completed row{} kept{}", completed,
                                                  completed == 1 ? " was" : "s were",
                                                  f.json_path.empty() ? "" : " in " + f.json_path));
  }
  if (fatal) return fail(*fatal);
  if (do_repro && doc.json()["repro"]["verdict"] != "pass") {
    std::cerr << fmt::format("webgpu-bench: the second run {}\n", doc.json()["repro"]["verdict"] == "fail"
                                                                      ? "disagrees with the first (see the repro column)"
                                                                      : "could not be compared");
    return kExitBenchmarkFailed;
  }
  return any_error ? kExitBenchmarkFailed : kExitOk;
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
  if (f.repro) return fail(ErrorKind::Usage, "--repro with --adapter all is not supported; run each adapter");
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
    one.json_path = suffixed(f.json_path, a.index);
    one.csv_path = suffixed(f.csv_path, a.index);
    // Each adapter's document is read back for the side-by-side table, so keep one even without --json.
    const auto tmp = std::filesystem::temp_directory_path() / fmt::format("webgpu-bench-all-{}-{}.json", getpid(), a.index);
    if (one.json_path.empty()) one.json_path = tmp.string();
    if (!f.quiet) std::cerr << fmt::format("=== adapter [{}] {} ({}) ===\n", a.index, a.device, a.backend);
    const int code = run_on_adapter(one);
    if (code == kExitCancelled) return code;
    worst = std::max(worst, code);
    names.push_back(fmt::format("[{}] {}", a.index, a.device));
    std::map<std::string, std::string> col;
    if (auto loaded = report::load_document(one.json_path)) {
      for (const auto& r : loaded->json["rows"]) {
        const auto id = r["id"].get<std::string>();
        if (std::find(order.begin(), order.end(), id) == order.end()) order.push_back(id);
        const double v = r["value"].get<double>();
        col[id] = v > 0 ? report::format_rate(v, r["metric"]["unit"].get<std::string>()) : r["status"].get<std::string>();
      }
    }
    rates.push_back(std::move(col));
    std::error_code ec;
    if (f.json_path.empty()) std::filesystem::remove(tmp, ec);
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
  static RunFlags f;
  add_device_flags(*cmd, f.device);
  add_kernel_dir_flag(*cmd, f.kernel_dir);
  auto* filter = cmd->add_option("--filter", f.filter,
                                 "Comma-separated globs of benchmark ids (default: the default suite)");
  cmd->add_option("--json", f.json_path, "Write the result document here (after every row, atomically)");
  cmd->add_option("--csv", f.csv_path, "Write the rows as CSV here (after every row, atomically)");
  cmd->add_flag("--repro", f.repro,
                "Run everything again in a second process and flag rows where the two runs disagree by more than "
                "the reported dispersion (exit code 1 when any does)");
  cmd->add_flag(report::kSecondRunFlag, f.second_run)->group("");  // hidden: set by --repro
  cmd->add_flag("-q,--quiet", f.quiet, "Nothing on stderr but errors (wins over --progress)");
  cmd->add_flag("--progress", f.progress,
                "Draw the progress bar and per-row lines on stderr even when it is not a terminal (by default "
                "they are shown only on a terminal)");
  cmd->add_option("--bandwidth-mib", f.bandwidth_mib, "Buffer size of the bandwidth probes in MiB (default 64)")
      ->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--compute-threads", f.compute_threads,
                  "Invocations per dispatch of the ALU and streaming bandwidth probes (0: each probe's default)");
  cmd->add_option("--ceilings", f.ceilings_path,
                  "A result document measured earlier on this adapter (memory suite or run): rows above its measured "
                  "ceilings x 1.25 are marked suspect");
  cmd->add_option("--submit", f.submit_url, "Send the finished result document to this results server (see 'serve')");
  cmd->add_option("--submit-token", f.submit_token, "Bearer token for --submit");
  add_sampling_flags(*cmd, f.sampling);
  cmd->callback([&exit_code, filter] {
    f.filter_given = filter->count() > 0;
    exit_code = with_kernel_dir(f.kernel_dir, [] { return run(f); });
  });
}

}  // namespace wgb::cli
