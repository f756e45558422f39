// `webgpu-bench memory`: the memory suite (docs/method.md#memory-workload). The engine runs on its own thread
// (std::jthread); this thread only receives its events through a mailbox, draws progress and writes
// the result document after every phase, so the display never submits GPU work and never delays a
// timing callback (the engine's observers only push to the mailbox). Signals, writing, submitting
// and the exit code are the session's (session.hpp); --device host measures the host's memory
// (host.hpp).
#include <fmt/format.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>
#include <variant>

#include "cli/common.hpp"
#include "cli/host.hpp"
#include "cli/session.hpp"
#include "cli/terminal.hpp"
#include "memory/document.hpp"
#include "memory/memory.hpp"
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

// Engine thread -> CLI thread. push() holds the lock only to append, so the engine never waits on
// the terminal.
class Mailbox {
 public:
  using Item = std::variant<ProgressEvent, memory::WorkingSet, BenchmarkResult>;
  void push(Item item) {
    {
      std::lock_guard lock(mutex_);
      items_.push_back(std::move(item));
    }
    cv_.notify_one();
  }
  void close() {
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
    }
    cv_.notify_one();
  }
  // Waits up to `timeout` for items. `done` becomes true once closed and drained.
  std::deque<Item> take(std::chrono::milliseconds timeout, bool& done) {
    std::unique_lock lock(mutex_);
    cv_.wait_for(lock, timeout, [&] { return !items_.empty() || closed_; });
    std::deque<Item> out;
    out.swap(items_);
    done = closed_;
    return out;
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Item> items_;
  bool closed_ = false;
};

int run(const MemoryFlags& f) {
  if (auto st = single_adapter(f.device, "memory"); !st) return fail(st.error());
  memory::MemoryOptions o = f.defaults;
  o.working_set_mib = f.working_set_mib;
  o.min_working_set_mib = f.min_working_set_mib;
  o.min_samples = f.min_samples;
  auto phases = memory::parse_phases(f.phases);
  if (!phases) return fail(phases.error());
  o.phases = std::move(*phases);
  if (auto st = memory::validate_options(o); !st) return fail(st.error());
  // Before the device exists, so its driver threads leave Ctrl-Z to the session.
  Session session(f.out, "phase");
  // A malformed --submit URL is a usage error before any work, not after the run.
  if (auto st = session.check_before_work(); !st) return fail(st.error());

  auto created = gpu::Context::create(f.device.options());
  if (!created) return fail(created.error());
  gpu::Context& gpu = **created;

  memory::MemoryDocument doc(command_line(), gpu, o, host::native_machine());
  // An unwritable file fails before any work.
  if (auto st = session.write_first(doc.document()); !st) return fail(st.error());

  const auto& a = gpu.adapter();
  // run's conventions: the bar, the adapter line and per-phase lines only on a terminal (or with
  // --progress); --quiet leaves nothing on stderr but errors.
  ProgressDisplay& display = session.display();
  if (display.enabled()) {
    // Two short lines rather than one that wraps: the driver string alone can fill a terminal.
    std::cerr << fmt::format("adapter: {} ({}, {}), robustness {}, clock {}\n  driver: {}\n",
                             a.device.empty() ? a.description : a.device, a.backend, a.adapter_type,
                             gpu.options().robustness ? "on" : "off",
                             gpu.has_timestamps() ? "gpu-timestamp" : "wall-clock", a.driver);
  }
  display.begin(o.phases.size(), memory::estimate_phase_seconds(o, gpu.has_timestamps()));

  Mailbox box;
  o.cancel = session.cancel();
  o.on_progress = [&box](const ProgressEvent& e) { box.push(e); };
  o.on_working_set = [&box](const memory::WorkingSet& ws) { box.push(ws); };
  o.on_row = [&box](const BenchmarkResult& r) { box.push(r); };

  memory::MemoryRun result;
  {
    std::jthread engine([&] {
      result = memory::run_memory(gpu, o);
      box.close();
    });
    for (bool done = false; !done;) {
      for (auto& item : box.take(std::chrono::milliseconds(250), done)) {
        if (auto* e = std::get_if<ProgressEvent>(&item)) {
          display.on_progress(*e);
        } else if (auto* ws = std::get_if<memory::WorkingSet>(&item)) {
          doc.set_working_set(*ws);
          session.write(doc.document());
        } else if (auto* r = std::get_if<BenchmarkResult>(&item)) {
          doc.add_row(*r);
          session.write(doc.document());  // after every phase, atomically
          const std::string line = memory::phase_line(*r);
          if (r->status != RowStatus::Cancelled) display.on_result(r->index, line);
        }
      }
    }
  }  // joins the engine thread
  // Only a suite that completed reaches 100 %; an interrupted or failed one stops where it was.
  if (result.fatal) {
    display.stop();
  } else {
    display.finish();
  }

  doc.finish(result);
  session.write(doc.document());
  const bool usage = result.fatal && result.fatal->kind == ErrorKind::Usage;
  if (!usage) memory::write_summary(std::cout, result, o, a, terminal_width());
  Outcome outcome;
  outcome.cancelled = result.fatal && result.fatal->kind == ErrorKind::Cancelled;
  if (!outcome.cancelled) outcome.fatal = result.fatal;
  outcome.ran = !usage && !result.rows.empty();
  for (const auto& r : result.rows) {
    outcome.completed += r.status == RowStatus::Ok ? 1 : 0;
    outcome.any_error = outcome.any_error || r.status == RowStatus::Error;
  }
  return session.finish(doc.json(), outcome);
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
