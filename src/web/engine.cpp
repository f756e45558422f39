// The browser engine's entry points (docs/browser.md "Engine ABI"): the catalog, and one run of the
// default suite (or a filter of the catalog) or of the memory suite through this project's own
// scheduler, sampler, statistics, progress estimate, validation and result document. The page only
// hosts WebGPU; everything that decides or reports comes from here, as events.
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <sstream>

#include "catalog/select.hpp"
#include "frontend/default_job.hpp"
#include "frontend/memory_job.hpp"
#include "gpu/build_info.hpp"
#include "memory/memory.hpp"
#include "report/browser_section.hpp"
#include "report/document.hpp"
#include "report/implementation.hpp"
#include "report/progress_line.hpp"
#include "report/table.hpp"
#include "web/browser.hpp"
#include "web/channel.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb::web {

namespace {

constexpr std::size_t kTableWidth = 120;  // the table as `run` prints it at 120 columns
using Clock = std::chrono::steady_clock;

int fail(ErrorKind kind, const std::string& message) {
  const int code = frontend::exit_code_for(kind);
  emit({{"type", "error"}, {"message", message}, {"exit", code}});
  return code;
}

// The progress events (SuiteProgress with the command line's semantics: "~" while approximate,
// "paused" while the tab is hidden, 100 % only when the run completed) and their status line.
class ProgressRelay {
 public:
  void begin(std::size_t count, std::vector<double> estimates_s) {
    progress_.emplace(count, std::move(estimates_s));
    started_ = Clock::now();
  }
  void on_progress(const ProgressEvent& e) {
    cancel_requested();  // every scheduler event also notices a Cancel
    if (!progress_ || ended_) return;
    if (e.kind == ProgressEvent::Kind::SuiteStart) offset_s_ = e.now_s - now_s();
    progress_->on_progress(e);
    if (e.kind != ProgressEvent::Kind::Resolved) {
      if (!e.id.empty()) current_ = e.id;
      stage_ = e.stage;
    }
    send(false);
  }
  void on_result(std::size_t index) {
    if (!progress_ || ended_) return;
    progress_->on_result(index, now_s() + offset_s_);
    send(true);
  }
  // Blocks while the tab is hidden: progress says "paused" and the pause is not counted as the
  // next benchmark's time. Returns when visible again or when Cancel is pressed.
  void wait_while_paused() {
    if (!paused() || !progress_) return;
    ProgressEvent e;
    e.kind = ProgressEvent::Kind::PauseStart;
    e.now_s = now_s() + offset_s_;
    progress_->on_progress(e);
    paused_ = true;
    send(true);
    while (paused() && !cancel_requested()) sleep_for_ms(100);
    e.kind = ProgressEvent::Kind::PauseEnd;
    e.now_s = now_s() + offset_s_;
    progress_->on_progress(e);
    paused_ = false;
    send(true);
  }
  void finish() {
    if (!progress_ || ended_) return;
    progress_->finish();
    send(true);
    ended_ = true;
  }
  // An interrupted run stops where it was: never 100 %.
  void stop() { ended_ = true; }

 private:
  double now_s() const { return std::chrono::duration<double>(Clock::now() - started_).count(); }
  void send(bool force) {
    const double t = now_ms();
    if (!force && t - last_sent_ms_ < 200) return;  // a few events a second are enough for a bar
    last_sent_ms_ = t;
    progress_->tick(now_s() + offset_s_);
    const auto snap = report::snapshot(*progress_, current_, stage_);
    const auto eta = progress_->remaining_seconds();
    emit({{"type", "progress"},
          {"fraction", progress_->finished() ? 1.0 : progress_->display_fraction()},
          {"eta_s", eta ? nlohmann::json(*eta) : nlohmann::json(nullptr)},
          {"approximate", progress_->is_approximate()},
          {"paused", paused_ || progress_->paused()},
          {"done", progress_->finished()},
          {"current", current_},
          {"line", report::format_progress_line(snap)}});
  }

  std::optional<SuiteProgress> progress_;
  Clock::time_point started_ = Clock::now();
  double offset_s_ = 0;
  double last_sent_ms_ = -1e9;
  std::string current_, stage_;
  bool paused_ = false;
  bool ended_ = false;
};

using RunOptions = report::RunRequest;

Expected<RunOptions> parse_options(std::string_view text) { return report::read_run_request(text); }

// What the page's request says of the browser, else what the runtime said of itself at init.
std::string browser_string(const std::optional<std::string>& asked, const std::optional<std::string>& init) {
  return asked.value_or(init.value_or(""));
}

// machine.host for a browser: what a page may know about the computer it runs on.
report::MachineRecord browser_machine(const RunOptions& o) {
  report::BrowserHostRecord host;
  host.user_agent = browser_string(o.user_agent, init_reply().user_agent);
  if (o.logical_cpus) host.logical_cpus = *o.logical_cpus;
  report::MachineRecord m;
  m.host = report::to_json(host);
  m.build = build_json();
  m.build_runtime = "browser";
  return m;
}

// What only a browser knows, added to the document (docs/results-schema.md).
void add_browser_fields(report::ResultDocument& doc, const RunOptions& o) {
  report::BrowserRecord browser;
  const report::PageInit& init = init_reply();
  browser.user_agent = browser_string(o.user_agent, init.user_agent);
  browser.webgpu_thread = browser_string(o.webgpu_thread, init.webgpu_thread);
  browser.timestamp_quantization_ns = timestamp_quantum_ns();
  // Which implementation ran it: the host's answer (it knows its runtime), else the user agent's.
  report::Implementation impl = report::implementation_from_user_agent(browser.user_agent);
  if (init.implementation.is_object()) impl = report::implementation_of({{"implementation", init.implementation}});
  // Where the adapter's identity came from (adapter.info, a WebGL renderer string, none).
  browser.adapter_source = browser_string(o.adapter_source, init.adapter_source);
  doc.set_browser(report::to_json(browser), report::implementation_json(impl));
}

void emit_adapter(const gpu::Context& gpu) {
  const auto r = gpu::device_record(gpu);
  emit({{"type", "adapter"}, {"adapter", report::page_adapter_json(r.adapter, gpu.has_timestamps())}});
}

std::vector<std::string> command_of(const RunOptions& o) {
  std::vector<std::string> c = {"webgpu-bench", "browser-engine", o.suite == "memory" ? "memory" : "run"};
  if (!o.filter.empty()) {
    c.push_back("--filter");
    c.push_back(o.filter);
  }
  return c;
}

void emit_document(const report::ResultDocument& doc) { emit({{"type", "document"}, {"document", doc.json()}}); }

// The page as a front end of the one loop (frontend/frontend.hpp): every step becomes an event for
// the page (the adapter, the table's header, progress, each row with its table line), a hidden tab
// pauses between rows, and Cancel is the page's flag.
class PageFrontEnd final : public frontend::FrontEnd {
 public:
  CancelToken cancel() const override { return CancelToken{cancel_flag()}; }
  Status started(frontend::Job& job) override {
    if (job.device() != nullptr) emit_adapter(*job.device());
    return ok();
  }
  void header(const std::string& table_header) override {
    nlohmann::json lines = nlohmann::json::array();
    std::istringstream header(table_header);
    for (std::string line; std::getline(header, line);) lines.push_back(line);
    emit({{"type", "table_header"}, {"lines", lines}});
  }
  void begin(std::size_t count, std::vector<double> estimates_s) override { relay_.begin(count, std::move(estimates_s)); }
  void progress(const ProgressEvent& e) override { relay_.on_progress(e); }
  void row(const BenchmarkResult& row, const std::string& table_line, const std::string&,
           const report::ResultDocument& doc) override {
    emit({{"type", "row"}, {"row", report::to_json(doc.rows().back())}, {"line", table_line}});
    relay_.on_result(row.index);
  }
  // Between rows only: a hidden tab never stretches a timed batch.
  void between_rows() override { relay_.wait_while_paused(); }
  void end(bool completed) override {
    if (completed) {
      relay_.finish();
    } else {
      relay_.stop();
    }
  }

 private:
  ProgressRelay relay_;
};

// What the page is told when the run ends: the document, then an error event for a run that did not
// complete, and the exit code the command line would give.
int finish(const frontend::Outcome& outcome, frontend::Job& job, const char* unit) {
  if (!outcome.ran) {  // nothing was measured: there is no document to give
    const Error e = outcome.fatal ? *outcome.fatal : Error{ErrorKind::Cancelled, "cancelled before any benchmark ran"};
    return fail(e.kind, e.message);
  }
  emit_document(job.document());
  if (outcome.cancelled) {
    return fail(ErrorKind::Cancelled, fmt::format("cancelled; {} completed {}{} kept", outcome.completed, unit,
                                                  outcome.completed == 1 ? " was" : "s were"));
  }
  if (outcome.fatal) return fail(outcome.fatal->kind, outcome.fatal->message);
  return frontend::exit_status(outcome);
}

int run_default(const RunOptions& o) {
  auto created = gpu::Context::create({});
  if (!created) return fail(created.error().kind, created.error().message);
  frontend::DefaultJobOptions jo;
  jo.context = created->get();
  jo.filter = o.filter;
  jo.command = command_of(o);
  jo.machine = browser_machine(o);
  jo.annotate = [&o](report::ResultDocument& doc) { add_browser_fields(doc, o); };
  jo.accuracy = o.accuracy;  // after the rows, on the page's device, as run --accuracy
  frontend::DefaultJob job(std::move(jo));
  PageFrontEnd page;
  const frontend::Outcome outcome = frontend::run(job, page, kTableWidth);
  if (outcome.ran) emit({{"type", "verdicts"}, {"text", job.verdicts(kTableWidth)}});
  return finish(outcome, job, "row");
}

int run_memory_suite(const RunOptions& o) {
  frontend::MemoryJobOptions jo;
  if (o.memory_bytes != 0) {
    jo.memory.working_set_mib = std::max<std::uint64_t>(1, o.memory_bytes >> 20);
    jo.memory.min_working_set_mib = std::min(jo.memory.min_working_set_mib, jo.memory.working_set_mib);
  }
  if (auto st = memory::validate_options(jo.memory); !st) return fail(st.error().kind, st.error().message);
  auto created = gpu::Context::create({});
  if (!created) return fail(created.error().kind, created.error().message);
  jo.context = created->get();
  jo.command = command_of(o);
  jo.machine = browser_machine(o);
  jo.annotate = [&o](report::ResultDocument& doc) { add_browser_fields(doc, o); };
  frontend::MemoryJob job(std::move(jo));
  PageFrontEnd page;
  return finish(frontend::run(job, page, kTableWidth), job, "phase");
}

// The buffers returned to the page by wgb_catalog: kept until the next call.
std::string g_catalog;

}  // namespace

}  // namespace wgb::web

extern "C" {

__attribute__((export_name("wgb_alloc"))) void* wgb_alloc(std::uint32_t n) { return std::malloc(n == 0 ? 1 : n); }

__attribute__((export_name("wgb_free"))) void wgb_free(void* p) { std::free(p); }

// [u32 little-endian length][JSON array of {id, label, category, family, default, unit, description}]
__attribute__((export_name("wgb_catalog"))) const char* wgb_catalog() {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& d : wgb::builtin_benchmarks()) {
    list.push_back({{"id", d.id},
                    {"label", d.label},
                    {"category", d.category},
                    {"family", d.family},
                    {"default", d.in_default_suite},
                    {"unit", d.metric.unit},
                    {"description", d.description}});
  }
  const std::string text = list.dump();
  auto& out = wgb::web::g_catalog;
  out.assign(4, '\0');
  const auto n = static_cast<std::uint32_t>(text.size());
  for (int i = 0; i < 4; ++i) out[i] = static_cast<char>((n >> (8 * i)) & 0xff);
  out += text;
  return out.data();
}

// Runs synchronously; returns the exit code the command line would.
__attribute__((export_name("wgb_run"))) std::int32_t wgb_run(const char* options, std::int32_t length) {
  wgb::web::cancel_flag()->store(false);  // a new run starts uncancelled
  auto o = wgb::web::parse_options(std::string_view(options, length > 0 ? static_cast<std::size_t>(length) : 0));
  if (!o) return wgb::web::fail(o.error().kind, o.error().message);
  if (!o->filter.empty()) {
    if (auto st = wgb::catalog::require_globs(o->filter); !st) {
      return wgb::web::fail(st.error().kind, st.error().message);
    }
  }
  return o->suite == "memory" ? wgb::web::run_memory_suite(*o) : wgb::web::run_default(*o);
}

}  // extern "C"
