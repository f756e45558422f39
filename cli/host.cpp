// `webgpu-bench host`: the host CPU as a second device (seed 004). Runs the host suite (FMA peak,
// STREAM, dependent-load latency) as curves over thread count and working-set size, prints the
// reporting table, the rows and every curve as markdown on stdout (progress on stderr), writes the
// result document with --json, and with --repro runs everything again in a second process and
// rejects rows whose two results disagree by more than their dispersion.
//
// `webgpu-bench run --device host` is the same suite with default options: register_host adds
// --device to `run` (when run has none) and, for "host", swaps run's callback for this one.
#include "host/host.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "cli/common.hpp"
#include "host/repro.hpp"
#include "host/text.hpp"
#include "report/document.hpp"

namespace wgb::cli {

namespace {

std::atomic<bool> g_host_cancel{false};

extern "C" void on_host_sigint(int) {
  if (g_host_cancel.exchange(true)) std::_Exit(kExitCancelled);
}

struct HostFlags {
  host::HostOptions o;
  std::string json_path;
  std::string threads_list;
  std::string affinity = "cores";
  bool no_thread_sweep = false;
  bool no_size_sweep = false;
  bool quick = false;
  bool repro = false;
  bool quiet = false;
  bool list = false;
  std::string render;  // --render FILE: print a saved host document, run nothing
  // Options given explicitly (override --quick's sizes).
  CLI::Option* opt_array = nullptr;
  CLI::Option* opt_min = nullptr;
  CLI::Option* opt_max = nullptr;
  CLI::Option* opt_lat = nullptr;
  CLI::Option* opt_ppo = nullptr;
  CLI::Option* opt_reps = nullptr;
  CLI::Option* opt_warm = nullptr;
};

Expected<std::vector<unsigned>> parse_thread_list(const std::string& s) {
  std::vector<unsigned> out;
  std::size_t i = 0;
  while (i < s.size()) {
    auto end = s.find(',', i);
    if (end == std::string::npos) end = s.size();
    const auto part = s.substr(i, end - i);
    char* stop = nullptr;
    const long v = std::strtol(part.c_str(), &stop, 10);
    if (part.empty() || stop == nullptr || *stop != '\0' || v < 1 || v > 65536) {
      return make_error(ErrorKind::Usage, fmt::format("--threads-list: '{}' is not a thread count (1..65536)", part));
    }
    out.push_back(static_cast<unsigned>(v));
    i = end + 1;
  }
  if (out.empty()) return make_error(ErrorKind::Usage, "--threads-list is empty");
  return out;
}

int run_host_command(HostFlags& f) {
  if (f.list) {
    for (const auto& b : host::host_benchmarks()) std::cout << fmt::format("{:<20} {}\n", b.id, b.description);
    return kExitOk;
  }
  if (!f.render.empty()) {
    auto doc = report::load_result_document(f.render);
    if (!doc) return fail(doc.error());
    if (doc->value("suite", std::string()) != "host") {
      return fail(ErrorKind::Usage, fmt::format("{}: not a host-suite document (suite is not \"host\")", f.render));
    }
    host::write_host_summary(std::cout, *doc);
    host::write_host_curves(std::cout, *doc);
    return kExitOk;
  }
  host::HostOptions o = f.o;
  if (f.quick) {
    const auto q = host::quick_options();
    if (f.opt_array == nullptr || f.opt_array->count() == 0) o.array_bytes = q.array_bytes;
    if (f.opt_min == nullptr || f.opt_min->count() == 0) o.sweep_min_bytes = q.sweep_min_bytes;
    if (f.opt_max == nullptr || f.opt_max->count() == 0) o.sweep_max_bytes = q.sweep_max_bytes;
    if (f.opt_lat == nullptr || f.opt_lat->count() == 0) o.latency_max_bytes = q.latency_max_bytes;
    if (f.opt_ppo == nullptr || f.opt_ppo->count() == 0) o.points_per_octave = q.points_per_octave;
    if (f.opt_reps == nullptr || f.opt_reps->count() == 0) o.protocol.repetitions = q.protocol.repetitions;
    if (f.opt_warm == nullptr || f.opt_warm->count() == 0) o.protocol.warmup_ms = q.protocol.warmup_ms;
    o.clock_probe_ms = q.clock_probe_ms;
  }
  if (!f.threads_list.empty()) {
    auto tl = parse_thread_list(f.threads_list);
    if (!tl) return fail(tl.error());
    o.thread_list = std::move(*tl);
  }
  o.affinity = f.affinity == "none" ? host::Affinity::None : host::Affinity::Cores;
  o.thread_sweep = !f.no_thread_sweep;
  o.size_sweep = !f.no_size_sweep;
  o.cancel.flag = &g_host_cancel;
  if (!f.quiet) o.on_progress = [](const std::string& line) { std::cerr << line << '\n'; };

  report::ResultDocument doc("host", command_line());
  auto write = [&]() -> Status {
    if (f.json_path.empty()) return ok();
    return report::write_json_atomic(f.json_path, doc.json());
  };
  g_host_cancel = false;
  auto previous = std::signal(SIGINT, on_host_sigint);
  auto run = host::run_host(o, doc, write);
  std::signal(SIGINT, previous);
  if (!run) return fail(run.error());
  const bool cancelled = run->cancelled;
  doc.finish(cancelled ? "cancelled" : "complete");

  int rejected = 0;
  if (f.repro && !cancelled) {
    // Step 5 of the protocol: the whole procedure again, in a second process.
    char tmpl[] = "/tmp/wgb-host-repro-XXXXXX";
    const int fd = mkstemp(tmpl);
    if (fd < 0) return fail(ErrorKind::Io, "cannot create a temporary file for the second process");
    close(fd);
    const std::string child_json = tmpl;
    const auto args = host::repro_arguments(command_line(), child_json);
    if (!f.quiet) std::cerr << "repro: running the same command in a second process\n";
    std::vector<std::string> executed;
    auto status = host::run_self(args, &executed);
    if (!status) return fail(status.error());
    auto second = report::load_result_document(child_json);
    std::error_code ec;
    std::filesystem::remove(child_json, ec);
    if (*status != kExitOk && *status != kExitBenchmarkFailed) {
      return fail(ErrorKind::Failed, fmt::format("the second process exited with status {}", *status));
    }
    if (!second) return fail(second.error());
    auto outcome = host::compare_and_mark(doc.json(), *second);
    outcome.json["second_command"] = args;
    outcome.json["second_exec"] = executed;  // as exec'd: /proc/self/exe (and the loader's options)
    outcome.json["second_exit_status"] = *status;
    doc.json()["repro"] = outcome.json;
    rejected = outcome.rows_rejected;
    if (!f.quiet) {
      std::cerr << fmt::format("repro: {} rows compared, {} rejected; {} of {} curve points disagree\n",
                               outcome.rows_compared, outcome.rows_rejected, outcome.points_disagreeing,
                               outcome.points_compared);
    }
  }
  const Status io = write();
  host::write_host_summary(std::cout, doc.json());
  host::write_host_curves(std::cout, doc.json());
  std::cout << "\nstatistic: minimum for compute-bound kernels (FMA), median with IQR for memory and latency "
               "(STREAM, dependent loads); rates per second of the row's unit.\n";
  if (!io) return fail(io.error());
  if (cancelled) {
    return fail(ErrorKind::Cancelled, fmt::format("interrupted; {} completed rows were kept{}", run->rows.size(),
                                                  f.json_path.empty() ? "" : " in " + f.json_path));
  }
  if (run->failed_rows > 0) {
    return fail(ErrorKind::Failed, fmt::format("{} host row(s) failed their check", run->failed_rows));
  }
  if (rejected > 0) {
    return fail(ErrorKind::Failed,
                fmt::format("{} host row(s) rejected: the second process disagreed beyond the dispersion", rejected));
  }
  return kExitOk;
}

void add_host_options(CLI::App& cmd, HostFlags& f) {
  auto& o = f.o;
  cmd.add_option("--filter", o.filter, "Comma-separated globs over host benchmark ids (see --list)");
  cmd.add_flag("--list", f.list, "List the host benchmarks and exit");
  cmd.add_option("--render", f.render, "Print a saved host result document (--json) as markdown tables; run nothing");
  cmd.add_option("--threads", o.threads, "Threads of the headline rows (default: one per allowed physical core)")
      ->check(CLI::Range(1, 65536));
  cmd.add_option("--threads-list", f.threads_list,
                 "Thread counts of the sweep, e.g. 1,2,4,8 (default: 1..8, then steps of N/8, up to --threads)");
  cmd.add_flag("--no-thread-sweep", f.no_thread_sweep, "Only the headline thread count");
  cmd.add_flag("--no-size-sweep", f.no_size_sweep, "No curves over working-set size");
  cmd.add_option("--affinity", f.affinity,
                 "cores: pin one thread per physical core (pthread_setaffinity_np); none: let the OS place them")
      ->check(CLI::IsMember({"cores", "none"}));
  f.opt_array = cmd.add_option("--array-bytes", o.array_bytes,
                               "Each STREAM array (default: 4x the last-level cache, at least 64 MiB); e.g. 1G")
                    ->transform(CLI::AsSizeValue(false));
  f.opt_min = cmd.add_option("--sweep-min-bytes", o.sweep_min_bytes, "Size sweeps start here (default 4 KiB)")
                  ->transform(CLI::AsSizeValue(false));
  f.opt_max =
      cmd.add_option("--sweep-max-bytes", o.sweep_max_bytes, "STREAM size sweep ends here (default: --array-bytes)")
          ->transform(CLI::AsSizeValue(false));
  f.opt_lat = cmd.add_option("--latency-max-bytes", o.latency_max_bytes,
                             "Latency sweep ends here (default: 4x the last-level cache, at least 64 MiB)")
                  ->transform(CLI::AsSizeValue(false));
  f.opt_ppo = cmd.add_option("--points-per-octave", o.points_per_octave, "Size sweep density (default 2)")
                  ->check(CLI::Range(1, 16));
  f.opt_reps = cmd.add_option("--repetitions", o.protocol.repetitions, "Timed repetitions per point (default 15)")
                   ->check(CLI::Range(1, 100000));
  f.opt_warm = cmd.add_option("--warmup-ms", o.protocol.warmup_ms, "Minimum untimed warm-up per point (default 50)")
                   ->check(CLI::Range(0.0, 1e6));
  cmd.add_option("--min-region-ms", o.protocol.min_region_ms,
                 "Every timed region lasts longer than this (default and floor 1: below it the clock's "
                 "resolution would dominate)")
      ->check(CLI::Range(1.0, 1e6));
  cmd.add_flag("--huge-pages", o.huge_pages, "madvise(MADV_HUGEPAGE) on every buffer");
  cmd.add_option("--isa", o.isa, "FMA instruction set: avx512f, avx2, scalar (default: the widest available)")
      ->check(CLI::IsMember({"avx512f", "avx512", "avx2", "scalar"}));
  cmd.add_flag("--quick", f.quick, "Small sizes, 5 repetitions, one point per octave (seconds; not DRAM figures)");
  cmd.add_option("--json", f.json_path, "Write the result document here (after every row, atomically)");
  cmd.add_flag("--repro", f.repro,
               "Run everything again in a second process; rows that disagree beyond their IQR become 'suspect' "
               "and the exit status is 1");
  cmd.add_flag("-q,--quiet", f.quiet, "No progress output on stderr");
}

}  // namespace

void register_host(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "host", "The host CPU as a second device: FMA peak, STREAM and load latency curves (seed 004 protocol)");
  static HostFlags f;
  add_host_options(*cmd, f);
  cmd->callback([&exit_code] { exit_code = run_host_command(f); });

  // `run --device host`: run's own file stays as it is; this adds the option when run has none
  // and, when it says "host", replaces run's callback (before it runs) with the host suite,
  // honouring run's --json, --quiet and --filter (over host ids).
  auto subs = app.get_subcommands([](CLI::App* a) { return a->get_name() == "run"; });
  if (subs.empty()) return;
  CLI::App* run = subs.front();
  if (run->get_option_no_throw("--device") != nullptr) return;
  run->add_option_function<std::string>(
         "--device",
         [run, &exit_code](const std::string& device) {
           if (device != "host") return;
           run->final_callback([run, &exit_code] {
             static HostFlags rf;
             if (auto* j = run->get_option_no_throw("--json"); j != nullptr && j->count() > 0) {
               rf.json_path = j->as<std::string>();
             }
             if (auto* q = run->get_option_no_throw("--quiet"); q != nullptr) rf.quiet = q->count() > 0;
             if (auto* fl = run->get_option_no_throw("--filter"); fl != nullptr && fl->count() > 0) {
               rf.o.filter = fl->as<std::string>();
             }
             exit_code = run_host_command(rf);
           });
         },
         "gpu (default): the WebGPU adapter; host: the host CPU suite, as 'webgpu-bench host' with its "
         "defaults (run's --json, --quiet and --filter apply)")
      ->check(CLI::IsMember({"gpu", "host"}));
}

}  // namespace wgb::cli
