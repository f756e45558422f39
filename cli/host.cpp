// `webgpu-bench host`: the host CPU as a second device. Runs the host suite (FMA peak, STREAM,
// dependent-load latency) as curves over thread count and working-set size, prints the reporting
// table, the rows and every curve as markdown on stdout (progress on stderr), through the session
// (session.hpp): --json/--csv after every row, --submit, --repro, the exit code.
//
// `--device host` wherever a device is chosen (host.hpp): `run` (the whole host suite), `memory`
// (STREAM and the latency curve) and `sweep` (one host benchmark's thread-count or working-set
// curve). Those commands accept the host options (listed by 'webgpu-bench host --help') with
// --device host; an option that only means something for the other device is refused with one
// line (exit 2): nothing is silently dropped.
#include "cli/host.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "report/repro.hpp"
#include "cli/terminal.hpp"
#include "host/job.hpp"
#include "host/text.hpp"
#include "report/document.hpp"
#include "report/files.hpp"
#include "suite/sweep.hpp"
#include "host/machine.hpp"

namespace wgb::cli {

namespace {

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

bool given(const CLI::Option* opt) { return opt != nullptr && opt->count() > 0; }

// The host options as flags give them, or a usage error.
Expected<host::HostOptions> host_options_of(const HostFlags& f) {
  host::HostOptions o = f.o;
  if (f.quick) {
    const auto q = host::quick_options();
    if (!given(f.opt_array)) o.array_bytes = q.array_bytes;
    if (!given(f.opt_min)) o.sweep_min_bytes = q.sweep_min_bytes;
    if (!given(f.opt_max)) o.sweep_max_bytes = q.sweep_max_bytes;
    if (!given(f.opt_lat)) o.latency_max_bytes = q.latency_max_bytes;
    if (!given(f.opt_ppo)) o.points_per_octave = q.points_per_octave;
    if (!given(f.opt_reps)) o.protocol.repetitions = q.protocol.repetitions;
    if (!given(f.opt_warm)) o.protocol.warmup_ms = q.protocol.warmup_ms;
    o.clock_probe_ms = q.clock_probe_ms;
  }
  if (!f.threads_list.empty()) {
    auto tl = parse_thread_list(f.threads_list);
    if (!tl) return std::move(tl).error();
    o.thread_list = std::move(*tl);
  }
  o.affinity = f.affinity == "none" ? host::Affinity::None : host::Affinity::Cores;
  o.thread_sweep = !f.no_thread_sweep;
  o.size_sweep = !f.no_size_sweep;
  return o;
}

}  // namespace

int run_host(const HostFlags& f, const OutputFlags& out, const std::function<Status(host::HostOptions&)>& adjust) {
  if (f.list) {
    for (const auto& b : host::host_benchmarks()) std::cout << fmt::format("{:<20} {}\n", b.id, b.description);
    return kExitOk;
  }
  if (!f.render.empty()) {
    auto doc = report::load_result_document(f.render);
    if (!doc) return fail(doc.error());
    auto typed = report::read_document(*doc, f.render);
    if (!typed) return fail(typed.error());
    if (!typed->host_suite()) {
      return fail(ErrorKind::Usage, fmt::format("{}: not a host-suite document (suite is not \"host\")", f.render));
    }
    host::write_host_summary(std::cout, typed->machine, typed->options, typed->rows);
    host::write_host_curves(std::cout, typed->rows);
    return kExitOk;
  }
  auto options = host_options_of(f);
  if (!options) return fail(options.error());
  host::HostOptions o = std::move(*options);
  if (adjust) {
    if (auto st = adjust(o); !st) return fail(st.error());
  }
  Session session(out);
  if (auto st = session.check_before_work(); !st) return fail(st.error());
  if (!out.quiet) o.on_progress = [](const std::string& line) { std::cerr << line << '\n'; };
  host::HostJob job(std::move(o), command_line(), host::native_machine());
  TerminalFrontEnd terminal(session, {.stream_table = false, .bar = false});
  Outcome outcome = frontend::run(job, terminal, terminal_width());
  if (!outcome.ran) return outcome.cancelled ? fail(ErrorKind::Cancelled, "interrupted before any row ran")
                                             : fail(*outcome.fatal);
  report::ResultDocument& doc = job.document();
  const host::HostRun& run = job.result();
  if (run.failed_rows > 0) outcome.failure = fmt::format("{} host row(s) failed their check", run.failed_rows);
  if (out.repro && !outcome.cancelled && !outcome.fatal) {
    // The host protocol has no convergence tolerance of its own: the sampler's default stands for
    // what the engine does not resolve.
    const report::ReproSummary repro = session.reproduce(doc, SamplingOptions{}.improvement_tolerance);
    if (repro.verdict != "pass" && outcome.failure.empty()) {
      outcome.failure = repro.verdict == "fail"
                            ? fmt::format("{} host row(s) suspect: the second process disagreed beyond the dispersion",
                                          repro.disagreeing.size())
                            : "the second process left no complete document: " + repro.reason;
    }
  }
  session.write(doc);
  std::cout << job.summary(terminal_width());
  return session.finish(doc.json(), outcome);
}

std::vector<CLI::Option*> add_host_options(CLI::App& cmd, HostFlags& f, HostUse use) {
  auto& o = f.o;
  std::vector<CLI::Option*> added;
  // What the borrowing commands choose themselves: memory its kernels, sweep its benchmark, its
  // parameter and its points; and the options a command already has (it forwards those itself).
  std::set<std::string> skip;
  if (use == HostUse::Memory || use == HostUse::Sweep) skip = {"--filter", "--list", "--render"};
  if (use == HostUse::Sweep) {
    skip.insert({"--threads-list", "--no-thread-sweep", "--no-size-sweep", "--sweep-min-bytes", "--sweep-max-bytes",
                 "--latency-max-bytes"});
  }
  auto want = [&](const std::string& name) {
    return skip.count(name) == 0 && cmd.get_option_no_throw(name) == nullptr;
  };
  auto keep = [&](CLI::Option* opt) {
    // Only `host --help` lists them; the other commands accept them with --device host.
    if (use != HostUse::Host) opt->group("");
    added.push_back(opt);
    return opt;
  };
  if (want("--filter")) {
    keep(cmd.add_option("--filter", o.filter, "Comma-separated globs over host benchmark ids (see --list)")
             ->type_name("GLOBS"));
  }
  if (want("--list")) keep(cmd.add_flag("--list", f.list, "List the host benchmarks and exit"));
  if (want("--render")) {
    keep(cmd.add_option("--render", f.render,
                        "Print a saved host result document (--json) as markdown tables; run nothing")
             ->type_name("FILE"));
  }
  if (want("--threads")) {
    keep(cmd.add_option("--threads", o.threads, "Threads of the headline rows (default: one per allowed physical core)")
             ->type_name("N")
             ->check(in_range(1, 65536)));
  }
  if (want("--threads-list")) {
    keep(cmd.add_option("--threads-list", f.threads_list,
                        "Thread counts of the sweep, e.g. 1,2,4,8 (default: 1..8, then steps of N/8, up to --threads)")
             ->type_name("N,N,..."));
  }
  if (want("--no-thread-sweep"))
    keep(cmd.add_flag("--no-thread-sweep", f.no_thread_sweep, "Only the headline thread count"));
  if (want("--no-size-sweep"))
    keep(cmd.add_flag("--no-size-sweep", f.no_size_sweep, "No curves over working-set size"));
  if (want("--affinity")) {
    keep(cmd.add_option("--affinity", f.affinity,
                        "cores: pin one thread per physical core (pthread_setaffinity_np); none: let the OS place them")
             ->type_name("cores|none")
             ->check(one_of({"cores", "none"})));
  }
  // A byte count, K/M/G suffixes taken (1G); the help says its default.
  auto bytes = [&](const char* name, std::uint64_t& field, const char* help) {
    return keep(cmd.add_option(name, field, help)->type_name("BYTES")->transform(CLI::AsSizeValue(false).description("")));
  };
  if (want("--array-bytes")) {
    f.opt_array = bytes("--array-bytes", o.array_bytes,
                        "Each STREAM array (default: 4x the last-level cache, at least 64 MiB); e.g. 1G");
  }
  if (want("--sweep-min-bytes")) {
    f.opt_min = bytes("--sweep-min-bytes", o.sweep_min_bytes, "Size sweeps start here (default 4 KiB)");
  }
  if (want("--sweep-max-bytes")) {
    f.opt_max = bytes("--sweep-max-bytes", o.sweep_max_bytes, "STREAM size sweep ends here (default: --array-bytes)");
  }
  if (want("--latency-max-bytes")) {
    f.opt_lat = bytes("--latency-max-bytes", o.latency_max_bytes,
                      "Latency sweep ends here (default: 4x the last-level cache, at least 64 MiB)");
  }
  if (want("--points-per-octave")) {
    f.opt_ppo = keep(cmd.add_option("--points-per-octave", o.points_per_octave, "Size sweep density (default 2)")
                         ->type_name("N")
                         ->check(in_range(1, 16)));
  }
  if (want("--repetitions")) {
    f.opt_reps =
        keep(cmd.add_option("--repetitions", o.protocol.repetitions, "Timed repetitions per point (default 15)")
                 ->type_name("N")
                 ->check(in_range(1, 100000)));
  }
  if (want("--warmup-ms")) {
    f.opt_warm =
        keep(cmd.add_option("--warmup-ms", o.protocol.warmup_ms, "Minimum untimed warm-up per point (default 50)")
                 ->type_name("MS")
                 ->check(in_range(0.0, 1e6)));
  }
  if (want("--min-region-ms")) {
    keep(cmd.add_option("--min-region-ms", o.protocol.min_region_ms,
                        "Every timed region lasts longer than this (default and floor 1: below it the clock's "
                        "resolution would dominate)")
             ->type_name("MS")
             ->check(in_range(1.0, 1e6)));
  }
  if (want("--huge-pages")) keep(cmd.add_flag("--huge-pages", o.huge_pages, "madvise(MADV_HUGEPAGE) on every buffer"));
  if (want("--isa")) {
    keep(cmd.add_option("--isa", o.isa, "FMA instruction set: avx512f, avx2, scalar (default: the widest available)")
             ->type_name("avx512f|avx2|scalar")
             ->check(one_of({"avx512f", "avx512", "avx2", "scalar"})));
  }
  if (want("--quick")) {
    keep(cmd.add_flag("--quick", f.quick,
                      "Small sizes, 5 repetitions, one point per octave (seconds; not DRAM figures)"));
  }
  return added;
}

void add_device_choice(CLI::App& cmd, std::string& device, const char* host_meaning) {
  cmd.add_option("--device", device,
                 fmt::format("gpu (default): the WebGPU adapter; host: {} (takes the options listed by "
                             "'webgpu-bench host --help'; options of the GPU are refused)",
                             host_meaning))
      ->type_name("gpu|host")
      ->check(one_of({"gpu", "host"}));
}

Status resolve_device(const CLI::App& cmd, bool host, const std::vector<CLI::Option*>& host_options,
                      const std::set<std::string>& shared) {
  // CLI11's get_name() is empty for options kept out of the help: name them from their long name.
  auto name_of = [](const CLI::Option* opt) {
    if (!opt->get_lnames().empty()) return "--" + opt->get_lnames().front();
    if (!opt->get_snames().empty()) return "-" + opt->get_snames().front();
    return opt->get_name(/*positional=*/true);
  };
  for (const CLI::Option* opt : cmd.get_options()) {
    if (opt->count() == 0 || opt == cmd.get_help_ptr()) continue;
    const std::string name = name_of(opt);
    if (name == "--device" || shared.count(name) > 0) continue;
    const bool host_option = std::find(host_options.begin(), host_options.end(), opt) != host_options.end();
    if (host && !host_option) {
      return make_error(ErrorKind::Usage,
                        fmt::format("{} is a GPU option of '{}': it means nothing with --device host (the host's "
                                    "options: 'webgpu-bench host --help')",
                                    name, cmd.get_name()));
    }
    if (!host && host_option) {
      return make_error(
          ErrorKind::Usage,
          fmt::format("{} is a host CPU option: it needs --device host (see 'webgpu-bench host --help')", name));
    }
  }
  return ok();
}

Status host_sweep_options(host::HostOptions& o, const std::string& id, const std::string& param_given,
                          const std::string& from, const std::string& to, const std::string& values) {
  auto chosen = host::select_host_benchmarks(id);
  if (!chosen) return std::move(chosen).error();
  if (chosen->size() != 1) {
    return make_error(ErrorKind::Usage,
                      fmt::format("'{}' matches {} host benchmarks; a sweep runs exactly one (see 'host --list')", id,
                                  chosen->size()));
  }
  o.filter = chosen->front();
  const std::string param = param_given.empty() ? "size" : param_given;
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

void register_host(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "host",
      "The host CPU as a second device: FMA peak, STREAM and load latency curves, each repetition timed on its "
      "own");
  struct Flags {
    HostFlags host;
    OutputFlags out;
  };
  auto f = std::make_shared<Flags>();
  add_host_options(*cmd, f->host, HostUse::Host);
  add_output_flags(*cmd, f->out, OutputFlagSet{"row", /*progress=*/false, /*repro=*/true, /*submit=*/true});
  cmd->callback([&exit_code, f] { exit_code = run_host(f->host, f->out); });
}

}  // namespace wgb::cli
