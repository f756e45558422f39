// `webgpu-bench memory`: the memory suite (seeds 001/002). The engine runs on its own thread
// (std::jthread); this thread only receives its events through a mailbox, draws progress and writes
// the result document after every phase, so the display never submits GPU work and never delays a
// timing callback (the engine's observers only push to the mailbox).
#include <fmt/format.h>

#include <chrono>
#include <condition_variable>
#include <csignal>
#include <deque>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>
#include <variant>

#include "cli/common.hpp"
#include "cli/progress_display.hpp"
#include "memory/document.hpp"
#include "memory/memory.hpp"
#include "report/csv.hpp"
#include "store/client.hpp"

namespace wgb::cli {

namespace {

std::atomic<bool> g_cancel{false};

extern "C" void on_memory_sigint(int) {
  // First Ctrl-C: stop at the next check and write what completed. Second: leave at once.
  if (g_cancel.exchange(true)) std::_Exit(kExitCancelled);
}

struct MemoryFlags {
  DeviceFlags device;
  std::string kernel_dir;  // --kernel-dir
  std::uint64_t working_set_mib = memory::kDefaultWorkingSetMiB;
  std::uint64_t min_working_set_mib = memory::kDefaultFloorMiB;
  std::string phases = "all";
  memory::MemoryOptions defaults;  // budgets and sample sizes, edited by the options below
  std::size_t min_samples = 8;
  std::string json_path;
  std::string csv_path;      // --csv: the phase rows, with run's CSV conventions (report::write_csv)
  std::string submit_url;    // --submit: send the finished document to a results server
  std::string submit_token;
  bool quiet = false;
  bool progress = false;
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
  memory::MemoryOptions o = f.defaults;
  o.working_set_mib = f.working_set_mib;
  o.min_working_set_mib = f.min_working_set_mib;
  o.min_samples = f.min_samples;
  auto phases = memory::parse_phases(f.phases);
  if (!phases) return fail(phases.error());
  o.phases = std::move(*phases);
  if (auto st = memory::validate_options(o); !st) return fail(st.error());
  if (!f.submit_url.empty()) {
    // A malformed --submit URL is a usage error before any work, not after the run.
    if (auto url = store::parse_server_url(f.submit_url); !url) return fail(url.error());
  }

  auto created = gpu::Context::create(f.device.options());
  if (!created) return fail(created.error());
  gpu::Context& gpu = **created;

  memory::MemoryDocument doc(command_line(), gpu, o);
  auto write = [&]() -> Status {
    if (!f.json_path.empty()) {
      if (auto st = doc.write(f.json_path); !st) return st;
    }
    if (!f.csv_path.empty()) return report::write_csv_atomic(f.csv_path, doc.document().rows());
    return ok();
  };
  if (auto st = write(); !st) return fail(st.error());  // an unwritable file fails before any work

  const auto& a = gpu.adapter();
  // run's conventions: the bar, the adapter line and per-phase lines only on a terminal (or with
  // --progress); --quiet leaves nothing on stderr but errors.
  ProgressDisplay display(f.quiet ? ProgressMode::Never : f.progress ? ProgressMode::Always : ProgressMode::Auto);
  if (display.enabled()) {
    std::cerr << fmt::format("adapter: {} ({}, {}, {}), robustness {}, clock {}\n",
                             a.device.empty() ? a.description : a.device, a.backend, a.adapter_type, a.driver,
                             gpu.options().robustness ? "on" : "off",
                             gpu.has_timestamps() ? "gpu-timestamp" : "wall-clock");
  }
  display.begin(o.phases.size(), memory::estimate_phase_seconds(o, gpu.has_timestamps()));

  Mailbox box;
  o.cancel.flag = &g_cancel;
  o.on_progress = [&box](const ProgressEvent& e) { box.push(e); };
  o.on_working_set = [&box](const memory::WorkingSet& ws) { box.push(ws); };
  o.on_row = [&box](const BenchmarkResult& r) { box.push(r); };

  g_cancel = false;
  auto previous = std::signal(SIGINT, on_memory_sigint);
  memory::MemoryRun result;
  Status io = ok();
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
          if (auto st = write(); !st && io) io = st;
        } else if (auto* r = std::get_if<BenchmarkResult>(&item)) {
          doc.add_row(*r);
          if (auto st = write(); !st && io) io = st;  // after every phase, atomically
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
  std::signal(SIGINT, previous);

  doc.finish(result);
  if (auto st = write(); !st && io) io = st;
  if (!(result.fatal && result.fatal->kind == ErrorKind::Usage)) memory::write_summary(std::cout, result, o, a);
  if (!io) return fail(io.error());
  const bool cancelled = result.fatal && result.fatal->kind == ErrorKind::Cancelled;
  const bool ran = !(result.fatal && result.fatal->kind == ErrorKind::Usage) && !result.rows.empty();
  if (!f.submit_url.empty() && !cancelled && ran) {
    // Nothing is sent anywhere unless the user asked (--submit); the same client as `run --submit`.
    if (auto st = store::submit_document(doc.json(), f.submit_url, f.submit_token); !st) return fail(st.error());
    if (!f.quiet) std::cerr << fmt::format("submitted to {}\n", f.submit_url);
  }
  if (result.fatal) {
    if (result.fatal->kind == ErrorKind::Cancelled) {
      std::size_t completed = 0;
      for (const auto& r : result.rows) completed += r.status == RowStatus::Ok ? 1 : 0;
      return fail(ErrorKind::Cancelled, fmt::format("interrupted; {} completed phase{} kept{}", completed,
                                                    completed == 1 ? " was" : "s were",
                                                    f.json_path.empty() ? "" : " in " + f.json_path));
    }
    return fail(*result.fatal);
  }
  for (const auto& r : result.rows) {
    if (r.status == RowStatus::Error) return kExitBenchmarkFailed;
  }
  return kExitOk;
}

}  // namespace

void register_memory(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "memory",
      "The memory suite: read, write, copy, random, latency and sustain through two alternating storage buffers "
      "(seeds 001/002)");
  static MemoryFlags f;
  add_device_flags(*cmd, f.device);
  add_kernel_dir_flag(*cmd, f.kernel_dir);
  cmd->add_option("--working-set", f.working_set_mib,
                  "MiB per buffer: a power of two from 16 to 512 (default 256; smaller only when the adapter caps "
                  "it or memory runs out, and such runs are unranked)");
  cmd->add_option("--min-working-set", f.min_working_set_mib,
                  "Halve the working set on out-of-memory down to this many MiB, then stop (default 32)");
  cmd->add_option("--phases", f.phases, "Comma-separated phases: read,write,copy,random,latency,sustain (default all)");
  cmd->add_option("--json", f.json_path, "Write the result document here (after every phase, atomically)");
  cmd->add_option("--csv", f.csv_path, "Write the phase rows as CSV here (after every phase, atomically)");
  cmd->add_option("--submit", f.submit_url, "Send the finished result document to this results server (see 'serve')");
  cmd->add_option("--submit-token,--token", f.submit_token, "Bearer token for --submit");
  cmd->add_flag("-q,--quiet", f.quiet, "Nothing on stderr but errors (wins over --progress)");
  cmd->add_flag("--progress", f.progress,
                "Draw the progress bar and per-phase lines on stderr even when it is not a terminal (by default "
                "they are shown only on a terminal)");
  // Ranges are checked by memory::validate_options (one line each, exit code 2).
  auto& d = f.defaults;
  cmd->add_option("--budget-ms", d.budget_ms, "Sampling budget of read, write, copy and random (3000)");
  cmd->add_option("--latency-budget-ms", d.latency_budget_ms, "Sampling budget of latency (3000)");
  cmd->add_option("--sustain-ms", d.sustain_ms, "How long sustain runs the copy kernel (18000)");
  cmd->add_option("--sample-ms", d.sample_ms, "GPU work per sample with timestamps; twice this on the wall clock (40)");
  cmd->add_option("--latency-sample-ms", d.latency_sample_ms,
                  "Hops per latency sample, in ms (45; 90 on the wall clock)");
  cmd->add_option("--warmup-ms", d.warmup_ms, "Warm-up per phase, at most a tenth of its budget (500)");
  cmd->add_option("--transition-ms", d.transition_ms, "Idle GPU between phases (650)");
  cmd->add_option("--min-samples", f.min_samples, "Samples per phase at least (8)");
  cmd->callback([&exit_code] { exit_code = with_kernel_dir(f.kernel_dir, [] { return run(f); }); });
}

}  // namespace wgb::cli
