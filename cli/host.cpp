// `webgpu-bench host`: the host CPU as a second device (seed 004). Runs the host suite (FMA peak,
// STREAM, dependent-load latency) as curves over thread count and working-set size, prints the
// reporting table, the rows and every curve as markdown on stdout (progress on stderr), writes the
// result document with --json (and its rows with --csv), sends it with --submit, and with --repro
// runs everything again in a second process and rejects rows whose two results disagree by more
// than their dispersion.
//
// `--device host` wherever a device is chosen: register_host adds it to `run` (the whole host
// suite), `memory` (the host's memory measurements: STREAM and the latency curve) and `sweep` (the
// host's thread-count or working-set curve of one host benchmark). Each of those commands then
// accepts every host option (listed in its help under "Host CPU") and forwards its own output
// options; an option that only means something for the GPU is refused with one line (exit 2), and
// a host option without --device host likewise: nothing is silently dropped.
#include "host/host.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <set>
#include <sstream>

#include "cli/common.hpp"
#include "host/repro.hpp"
#include "host/text.hpp"
#include "report/csv.hpp"
#include "report/document.hpp"
#include "suite/sweep.hpp"
#include "store/client.hpp"

namespace wgb::cli {

namespace {

std::atomic<bool> g_host_cancel{false};

extern "C" void on_host_sigint(int) {
  if (g_host_cancel.exchange(true)) std::_Exit(kExitCancelled);
}

struct HostFlags {
  host::HostOptions o;
  std::string json_path;
  std::string csv_path;
  std::string submit_url;  // --submit: send the finished document to a results server
  std::string submit_token;
  // Set by the commands that borrow the host suite (memory, sweep): their choices over the options
  // built from the flags (filter, sweeps), or a usage error.
  std::function<Status(host::HostOptions&)> adjust;
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

// The document's JSON and its rows as CSV (run's conventions), each when asked for.
Status write_outputs(const HostFlags& f, const report::ResultDocument& doc) {
  return report::write_outputs(f.json_path, f.csv_path, doc);
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
  if (!f.submit_url.empty()) {
    // A malformed --submit URL is a usage error before any work, not after the run.
    if (auto url = store::parse_server_url(f.submit_url); !url) return fail(url.error());
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
  if (f.adjust) {
    if (auto st = f.adjust(o); !st) return fail(st.error());
  }
  o.cancel.flag = &g_host_cancel;
  if (!f.quiet) o.on_progress = [](const std::string& line) { std::cerr << line << '\n'; };

  report::ResultDocument doc("host", command_line());
  auto write = [&]() -> Status { return write_outputs(f, doc); };
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
    // The verdict in run --repro's terms: "pass" when every compared row agreed, else "fail".
    outcome.json["verdict"] = outcome.rows_rejected > 0 ? "fail" : "pass";
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
  if (!f.submit_url.empty() && !cancelled) {
    // Nothing is sent anywhere unless the user asked (--submit); the same client as `run --submit`.
    if (auto st = store::submit_document(doc.json(), f.submit_url, f.submit_token); !st) return fail(st.error());
    std::cerr << fmt::format("submitted to {}\n", f.submit_url);
  }
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

// Adds the host options to `cmd`, except those in `skip` and those `cmd` already has (which the
// borrowing command forwards itself). `tag` is applied to each option added (group, validator) and
// the options added are returned, so a borrowing command can tell them from its own.
std::vector<CLI::Option*> add_host_options(CLI::App& cmd, HostFlags& f, const std::set<std::string>& skip = {},
                                           const std::function<void(CLI::Option*)>& tag = {}) {
  auto& o = f.o;
  std::vector<CLI::Option*> added;
  // CLI11 option names: the first long name decides whether it is wanted.
  auto want = [&](const std::string& name) {
    return skip.count(name) == 0 && cmd.get_option_no_throw(name) == nullptr;
  };
  auto keep = [&](CLI::Option* opt) {
    if (tag) tag(opt);
    added.push_back(opt);
    return opt;
  };
  if (want("--filter")) {
    keep(cmd.add_option("--filter", o.filter, "Comma-separated globs over host benchmark ids (see --list)"));
  }
  if (want("--list")) keep(cmd.add_flag("--list", f.list, "List the host benchmarks and exit"));
  if (want("--render")) {
    keep(cmd.add_option("--render", f.render,
                        "Print a saved host result document (--json) as markdown tables; run nothing"));
  }
  if (want("--threads")) {
    keep(cmd.add_option("--threads", o.threads, "Threads of the headline rows (default: one per allowed physical core)")
             ->check(CLI::Range(1, 65536)));
  }
  if (want("--threads-list")) {
    keep(
        cmd.add_option("--threads-list", f.threads_list,
                       "Thread counts of the sweep, e.g. 1,2,4,8 (default: 1..8, then steps of N/8, up to --threads)"));
  }
  if (want("--no-thread-sweep"))
    keep(cmd.add_flag("--no-thread-sweep", f.no_thread_sweep, "Only the headline thread count"));
  if (want("--no-size-sweep"))
    keep(cmd.add_flag("--no-size-sweep", f.no_size_sweep, "No curves over working-set size"));
  if (want("--affinity")) {
    keep(cmd.add_option("--affinity", f.affinity,
                        "cores: pin one thread per physical core (pthread_setaffinity_np); none: let the OS place them")
             ->check(CLI::IsMember({"cores", "none"})));
  }
  if (want("--array-bytes")) {
    f.opt_array = keep(cmd.add_option("--array-bytes", o.array_bytes,
                                      "Each STREAM array (default: 4x the last-level cache, at least 64 MiB); e.g. 1G")
                           ->transform(CLI::AsSizeValue(false)));
  }
  if (want("--sweep-min-bytes")) {
    f.opt_min = keep(cmd.add_option("--sweep-min-bytes", o.sweep_min_bytes, "Size sweeps start here (default 4 KiB)")
                         ->transform(CLI::AsSizeValue(false)));
  }
  if (want("--sweep-max-bytes")) {
    f.opt_max = keep(
        cmd.add_option("--sweep-max-bytes", o.sweep_max_bytes, "STREAM size sweep ends here (default: --array-bytes)")
            ->transform(CLI::AsSizeValue(false)));
  }
  if (want("--latency-max-bytes")) {
    f.opt_lat = keep(cmd.add_option("--latency-max-bytes", o.latency_max_bytes,
                                    "Latency sweep ends here (default: 4x the last-level cache, at least 64 MiB)")
                         ->transform(CLI::AsSizeValue(false)));
  }
  if (want("--points-per-octave")) {
    f.opt_ppo = keep(cmd.add_option("--points-per-octave", o.points_per_octave, "Size sweep density (default 2)")
                         ->check(CLI::Range(1, 16)));
  }
  if (want("--repetitions")) {
    f.opt_reps =
        keep(cmd.add_option("--repetitions", o.protocol.repetitions, "Timed repetitions per point (default 15)")
                 ->check(CLI::Range(1, 100000)));
  }
  if (want("--warmup-ms")) {
    f.opt_warm =
        keep(cmd.add_option("--warmup-ms", o.protocol.warmup_ms, "Minimum untimed warm-up per point (default 50)")
                 ->check(CLI::Range(0.0, 1e6)));
  }
  if (want("--min-region-ms")) {
    keep(cmd.add_option("--min-region-ms", o.protocol.min_region_ms,
                        "Every timed region lasts longer than this (default and floor 1: below it the clock's "
                        "resolution would dominate)")
             ->check(CLI::Range(1.0, 1e6)));
  }
  if (want("--huge-pages")) keep(cmd.add_flag("--huge-pages", o.huge_pages, "madvise(MADV_HUGEPAGE) on every buffer"));
  if (want("--isa")) {
    keep(cmd.add_option("--isa", o.isa, "FMA instruction set: avx512f, avx2, scalar (default: the widest available)")
             ->check(CLI::IsMember({"avx512f", "avx512", "avx2", "scalar"})));
  }
  if (want("--quick")) {
    keep(cmd.add_flag("--quick", f.quick,
                      "Small sizes, 5 repetitions, one point per octave (seconds; not DRAM figures)"));
  }
  if (want("--json")) {
    keep(cmd.add_option("--json", f.json_path, "Write the result document here (after every row, atomically)"));
  }
  if (want("--csv"))
    keep(cmd.add_option("--csv", f.csv_path, "Write the rows as CSV here (after every row, atomically)"));
  if (want("--repro")) {
    keep(cmd.add_flag("--repro", f.repro,
                      "Run everything again in a second process; rows that disagree beyond their IQR become 'suspect' "
                      "and the exit status is 1"));
  }
  if (want("--quiet")) keep(cmd.add_flag("-q,--quiet", f.quiet, "No progress output on stderr"));
  if (want("--submit")) {
    keep(cmd.add_option("--submit", f.submit_url,
                        "Send the finished result document to this results server (see 'serve')"));
  }
  if (want("--submit-token"))
    keep(cmd.add_option("--submit-token,--token", f.submit_token, "Bearer token for --submit"));
  return added;
}

// How a GPU command borrows the host suite with --device host.
enum class Borrower { Run, Memory, Sweep };

// The command's own options that it forwards to the host suite (all others of its own are GPU-only).
const std::set<std::string>& forwarded(Borrower b) {
  static const std::set<std::string> run = {"--filter", "--json",   "--csv",         "--quiet",
                                            "--repro",  "--submit", "--submit-token"};
  // memory's --warmup-ms (warm-up per phase) is the host's warm-up per point.
  static const std::set<std::string> memory = {"--json",   "--csv",          "--quiet",
                                               "--submit", "--submit-token", "--warmup-ms"};
  static const std::set<std::string> sweep = {"benchmark", "--param", "--from", "--to",
                                              "--values",  "--json",  "--csv",  "--quiet"};
  return b == Borrower::Run ? run : b == Borrower::Memory ? memory : sweep;
}

// Host options a borrower does not take: they would contradict what the command itself chooses
// (memory: the memory kernels; sweep: the benchmark, the parameter and its points).
std::set<std::string> not_offered(Borrower b) {
  if (b == Borrower::Memory) return {"--filter", "--list", "--render"};
  if (b == Borrower::Sweep) {
    return {"--filter",
            "--list",
            "--render",
            "--threads-list",
            "--no-thread-sweep",
            "--no-size-sweep",
            "--sweep-min-bytes",
            "--sweep-max-bytes",
            "--latency-max-bytes",
            "--submit",
            "--submit-token",
            "--repro"};
  }
  return {};
}

std::string value_of(CLI::App& cmd, const std::string& name) {
  auto* opt = cmd.get_option_no_throw(name);
  return opt != nullptr && opt->count() > 0 ? opt->as<std::string>() : std::string();
}

// sweep --device host <id>: one host benchmark's curve over thread count or working-set size.
Status adjust_for_sweep(CLI::App& cmd, host::HostOptions& o) {
  const std::string id = value_of(cmd, "benchmark");
  auto chosen = host::select_host_benchmarks(id);
  if (!chosen) return std::move(chosen).error();
  if (chosen->size() != 1) {
    return make_error(ErrorKind::Usage,
                      fmt::format("'{}' matches {} host benchmarks; a sweep runs exactly one (see 'host --list')", id,
                                  chosen->size()));
  }
  o.filter = chosen->front();
  const std::string param = value_of(cmd, "--param").empty() ? "size" : value_of(cmd, "--param");
  const std::string from = value_of(cmd, "--from"), to = value_of(cmd, "--to"), values = value_of(cmd, "--values");
  const bool threads = param == "threads";
  // The curves each host benchmark has: FMA over thread count only, latency over size only (one thread).
  if (threads && o.filter == "host-load-latency") {
    return make_error(ErrorKind::Usage, "host-load-latency runs one thread: its curve is over size (--param size)");
  }
  if (!threads && o.filter.rfind("host-fma-", 0) == 0) {
    return make_error(ErrorKind::Usage,
                      fmt::format("{} works in registers: its curve is over thread count (--param threads)", o.filter));
  }
  o.thread_sweep = threads;
  o.size_sweep = !threads;
  if (!threads && !values.empty()) {
    return make_error(ErrorKind::Usage,
                      "sweep --device host --param size takes --from/--to: the host's size points are "
                      "--points-per-octave apart, not a list");
  }
  if (from.empty() && to.empty() && values.empty()) return ok();  // the host suite's default points
  auto spec =
      make_sweep_spec(param, from.empty() ? (threads ? "1" : "4K") : from, to.empty() ? from : to, values);
  if (!spec) return std::move(spec).error();
  if (threads) {
    o.thread_list.clear();
    for (auto v : spec->values) o.thread_list.push_back(static_cast<unsigned>(v));
    o.threads = *std::max_element(o.thread_list.begin(), o.thread_list.end());
  } else {
    o.sweep_min_bytes = spec->values.front();
    o.sweep_max_bytes = spec->values.back();
    o.latency_max_bytes = spec->values.back();
    if (o.array_bytes < o.sweep_max_bytes) o.array_bytes = o.sweep_max_bytes;
  }
  return ok();
}

// Adds --device to `cmd` (when it has none) and makes "host" run the host suite in its place.
void borrow_host(CLI::App& cmd, int& exit_code, Borrower b) {
  if (cmd.get_option_no_throw("--device") != nullptr) return;
  static HostFlags flags[3];
  static bool is_host[3] = {false, false, false};
  static std::vector<CLI::Option*> host_options[3];
  const auto k = static_cast<std::size_t>(b);
  HostFlags& hf = flags[k];
  const char* what = b == Borrower::Run      ? "the host CPU suite, as 'webgpu-bench host'"
                     : b == Borrower::Memory ? "the host's memory measurements: STREAM and the load-latency curve"
                                             : "a host benchmark's curve over thread count (--param threads) or "
                                               "working-set size (--param size)";
  CLI::App* app = &cmd;
  // --device is defined before the host options, so its callback runs first (CLI11 processes given
  // options in definition order) and the host options' check below sees the choice.
  cmd.add_option_function<std::string>(
         "--device",
         [app, &exit_code, b, k](const std::string& device) {
           is_host[k] = device == "host";
           if (!is_host[k]) return;
           for (CLI::Option* opt : app->get_options()) {
             if (opt->count() == 0 || opt == app->get_help_ptr() || opt->get_name().empty()) continue;
             const std::string name = opt->get_name();
             const bool host_option =
                 std::find(host_options[k].begin(), host_options[k].end(), opt) != host_options[k].end();
             if (name == "--device" || host_option || forwarded(b).count(name) > 0) continue;
             throw CLI::ValidationError(
                 fmt::format("{} is a GPU option of '{}': it means nothing with --device host "
                             "(the host's options are under 'Host CPU' in '{} --help')",
                             name, app->get_name(), app->get_name()));
           }
           app->final_callback([app, &exit_code, b, k] {
             HostFlags& f = flags[k];
             if (forwarded(b).count("--json") > 0) f.json_path = value_of(*app, "--json");
             if (forwarded(b).count("--csv") > 0) f.csv_path = value_of(*app, "--csv");
             if (auto* q = app->get_option_no_throw("--quiet"); q != nullptr) f.quiet = f.quiet || q->count() > 0;
             if (b == Borrower::Run) {
               if (!value_of(*app, "--filter").empty()) f.o.filter = value_of(*app, "--filter");
               if (auto* r = app->get_option_no_throw("--repro"); r != nullptr) f.repro = f.repro || r->count() > 0;
             }
             if (b != Borrower::Sweep) {
               f.submit_url = value_of(*app, "--submit");
               f.submit_token = value_of(*app, "--submit-token");
             }
             if (b == Borrower::Memory) {
               if (auto* w = app->get_option_no_throw("--warmup-ms"); w != nullptr && w->count() > 0) {
                 f.o.protocol.warmup_ms = w->as<double>();
                 f.opt_warm = w;  // given: --quick keeps it
               }
               f.adjust = [](host::HostOptions& o) {
                 o.filter = "host-stream-*,host-load-latency";
                 return ok();
               };
             } else if (b == Borrower::Sweep) {
               f.adjust = [app](host::HostOptions& o) { return adjust_for_sweep(*app, o); };
             }
             exit_code = run_host_command(f);
           });
         },
         fmt::format("gpu (default): the WebGPU adapter; host: {} (the Host CPU options below apply; options of "
                     "the GPU are refused)",
                     what))
      ->check(CLI::IsMember({"gpu", "host"}));
  const bool* host_chosen = &is_host[k];
  host_options[k] = add_host_options(cmd, hf, not_offered(b), [host_chosen](CLI::Option* opt) {
    opt->group("Host CPU (--device host)");
    opt->check(CLI::Validator(
        [host_chosen](std::string&) {
          return *host_chosen ? std::string() : std::string("is a host CPU option: it needs --device host");
        },
        "", "host-only"));
  });
}

}  // namespace

void register_host(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "host", "The host CPU as a second device: FMA peak, STREAM and load latency curves (seed 004 protocol)");
  static HostFlags f;
  add_host_options(*cmd, f);
  cmd->callback([&exit_code] { exit_code = run_host_command(f); });

  // --device host on the commands that choose a device (registered before this one); their own
  // files stay as they are.
  for (auto [name, b] :
       {std::pair{"run", Borrower::Run}, std::pair{"memory", Borrower::Memory}, std::pair{"sweep", Borrower::Sweep}}) {
    auto subs = app.get_subcommands([n = std::string(name)](CLI::App* a) { return a->get_name() == n; });
    if (!subs.empty()) borrow_host(*subs.front(), exit_code, b);
  }
}

}  // namespace wgb::cli
