// `webgpu-bench memory`: the memory suite (docs/method.md#memory-workload) through the one front-end
// loop (frontend/frontend.hpp): the bar and one line per phase on stderr, the document after every
// phase, the summary on stdout. The display draws on its own thread and the loop only hands it
// events between passes, so it never submits GPU work or delays a timing callback. Signals, writing,
// submitting and the exit code are the session's (session.hpp); --device host measures the host's
// memory (host.hpp).
#include <fmt/format.h>

#include <iostream>

#include "cli/common.hpp"
#include "cli/host.hpp"
#include "cli/session.hpp"
#include "cli/terminal.hpp"
#include "frontend/memory_job.hpp"
#include "host/machine.hpp"

namespace wgb::cli {

namespace {

struct MemoryFlags {
  DeviceFlags device;
  std::string kernel_dir;  // --kernel-dir
  std::uint64_t working_set_mib = memory::kDefaultWorkingSetMiB;
  std::uint64_t min_working_set_mib = memory::kDefaultFloorMiB;
  std::string phases = "all";
  memory::MemoryOptions defaults;  // budgets and sample sizes, edited by the options below
  std::size_t min_samples = 8;
  OutputFlags out;  // --csv: the phase rows, with run's CSV conventions (report::write_csv)
};

int run(const MemoryFlags& f) {
  if (auto st = single_adapter(f.device, "memory"); !st) return fail(st.error());
  frontend::MemoryJobOptions o;
  o.memory = f.defaults;
  o.memory.working_set_mib = f.working_set_mib;
  o.memory.min_working_set_mib = f.min_working_set_mib;
  o.memory.min_samples = f.min_samples;
  auto phases = memory::parse_phases(f.phases);
  if (!phases) return fail(phases.error());
  o.memory.phases = std::move(*phases);
  // Options out of range are a usage error before any device or output exists.
  if (auto st = memory::validate_options(o.memory); !st) return fail(st.error());
  o.device = f.device.options();
  o.command = command_line();
  o.machine = host::native_machine();
  // Before the device exists, so its driver threads leave Ctrl-Z to the session.
  Session session(f.out, "phase");
  // A malformed --submit URL is a usage error before any work, not after the run.
  if (auto st = session.check_before_work(); !st) return fail(st.error());
  frontend::MemoryJob job(std::move(o));
  TerminalFrontEnd terminal(session, {.stream_table = false});
  const std::size_t width = terminal_width();
  Outcome outcome = frontend::run(job, terminal, width);
  if (!outcome.ran) return outcome.cancelled ? fail(ErrorKind::Cancelled, "interrupted before any phase ran")
                                             : fail(*outcome.fatal);
  session.write(job.document());
  std::cout << job.summary(width);
  return session.finish(job.document().json(), outcome);
}

}  // namespace

void register_memory(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "memory",
      "The memory suite: read, write, copy, random, latency and sustain through two alternating storage buffers");
  struct Flags {
    MemoryFlags memory;
    std::string device = "gpu";
    HostFlags host;
    std::vector<CLI::Option*> host_options;
  };
  auto f = std::make_shared<Flags>();
  MemoryFlags& m = f->memory;
  add_device_choice(*cmd, f->device, "the host's memory measurements: STREAM and the load-latency curve");
  add_device_flags(*cmd, m.device);
  add_kernel_dir_flag(*cmd, m.kernel_dir);
  cmd->add_option("--working-set", m.working_set_mib,
                  "MiB per buffer: a power of two from 16 to 512 (default 256; smaller only when the adapter caps "
                  "it or memory runs out, and such runs are unranked)")
      ->type_name("MIB");
  cmd->add_option("--min-working-set", m.min_working_set_mib,
                  "Halve the working set on out-of-memory down to this many MiB, then stop (default 32)")
      ->type_name("MIB");
  cmd->add_option("--phases", m.phases, "Comma-separated phases: read,write,copy,random,latency,sustain (default all)")
      ->type_name("PHASES");
  add_output_flags(*cmd, m.out, OutputFlagSet{"phase", /*progress=*/true, /*repro=*/false, /*submit=*/true});
  // Ranges are checked by memory::validate_options (one line each, exit code 2).
  auto& d = m.defaults;
  cmd->add_option("--budget-ms", d.budget_ms, "Sampling budget of read, write, copy and random (3000)")->type_name("MS");
  cmd->add_option("--latency-budget-ms", d.latency_budget_ms, "Sampling budget of latency (3000)")->type_name("MS");
  cmd->add_option("--sustain-ms", d.sustain_ms, "How long sustain runs the copy kernel (18000)")->type_name("MS");
  cmd->add_option("--sample-ms", d.sample_ms, "GPU work per sample with timestamps; twice this on the wall clock (40)")
      ->type_name("MS");
  cmd->add_option("--latency-sample-ms", d.latency_sample_ms, "Hops per latency sample, in ms (45; 90 on the wall clock)")
      ->type_name("MS");
  auto* warmup = cmd->add_option("--warmup-ms", d.warmup_ms,
                                 "Warm-up per phase, at most a tenth of its budget (500); with --device host: the "
                                 "minimum warm-up per point")
                     ->type_name("MS");
  cmd->add_option("--transition-ms", d.transition_ms, "Idle GPU between phases (650)")->type_name("MS");
  cmd->add_option("--min-samples", m.min_samples, "Samples per phase at least (8)")->type_name("N");
  f->host_options = add_host_options(*cmd, f->host, HostUse::Memory);
  cmd->callback([&exit_code, f, cmd, warmup] {
    const bool host = f->device == "host";
    // memory's --warmup-ms (warm-up per phase) is the host's warm-up per point.
    const std::set<std::string> shared = {"--json", "--csv", "--quiet", "--submit", "--submit-token", "--warmup-ms"};
    if (auto st = resolve_device(*cmd, host, f->host_options, shared); !st) {
      exit_code = fail(st.error());
      return;
    }
    if (host) {
      if (warmup->count() > 0) {
        f->host.o.protocol.warmup_ms = f->memory.defaults.warmup_ms;
        f->host.opt_warm = warmup;  // given: --quick keeps it
      }
      exit_code = run_host(f->host, f->memory.out, [](host::HostOptions& o) {
        o.filter = "host-stream-*,host-load-latency";
        return ok();
      });
      return;
    }
    exit_code = with_kernel_dir(f->memory.kernel_dir, [&] { return run(f->memory); });
  });
}

}  // namespace wgb::cli
