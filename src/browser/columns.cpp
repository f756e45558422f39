// The columns of columns.hpp and the alternating rounds.
#include "browser/columns.hpp"

#include <fmt/format.h>

#include <thread>

#include "process/child.hpp"
#include "report/page_messages.hpp"

namespace wgb::browser {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace std::chrono_literals;

const char* const kPageStateProbe =
    "(() => { const s = window.wgbState; if (!s) return {missing: true};"
    " return {phase: s.phase, ready: !!s.ready, error: s.error, exit_code: s.exit_code,"
    " adapter: s.adapter ? (s.adapter.adapter || s.adapter) : null, rows: (s.rows || []).length,"
    " line: s.progress && s.progress.line ? s.progress.line : null}; })()";

namespace {

constexpr std::chrono::seconds kPageStall{600};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

class ChildColumn : public Column {
 public:
  ChildColumn(std::string name, std::vector<std::string> command, std::string out_flag, std::vector<std::string> env)
      : name_(std::move(name)), command_(std::move(command)), out_flag_(std::move(out_flag)), env_(std::move(env)) {}

  RoundRun run(const RoundContext& ctx) override {
    RoundRun r;
    r.round = ctx.round;
    r.ran = true;
    const fs::path doc = ctx.folder / fmt::format("round-{:02}-{}.json", ctx.round, name_);
    process::Options o;
    o.argv = command_;
    o.argv.insert(o.argv.end(), {out_flag_, doc.string()});
    o.env = env_;
    o.log = (ctx.folder / fmt::format("round-{:02}-{}.log", ctx.round, name_)).string();
    const auto t0 = std::chrono::steady_clock::now();
    auto child = process::Child::spawn(o);
    if (!child) {
      r.error = child.error().message;
      return r;
    }
    if (ctx.progress) ctx.progress(fmt::format("round {}/{}: {} running", ctx.round, ctx.rounds, name_));
    // A cancel reaches the child as Ctrl-C would; it keeps what completed (30 s to write it).
    auto exit = child->wait(process::Clock::now() + ctx.timeout, ctx.cancel, 30s);
    r.wall_s = seconds_since(t0);
    if (!exit) {
      r.error = exit.error().message;
      return r;
    }
    r.exit_status = exit->status();
    r.cancelled = exit->cancelled || exit->status() == 130;
    if (exit->timed_out) {
      r.error = fmt::format("did not finish within {} s (ended with its process group): {}", ctx.timeout.count(),
                            child->log_tail());
      return r;
    }
    auto loaded = report::load_document(doc);
    if (!r.cancelled && exit->status() != 0 && exit->status() != 1) {
      // A crash after the document was written whole (atomically, its run complete): the rows stand
      // and the crash is said beside them. Deno on NVIDIA's driver did this at exit.
      if (exit->signal == 0 || !loaded || loaded->state != "complete") {
        r.error = fmt::format("{}: {}", exit->describe(), child->log_tail());
        return r;
      }
      r.warning = fmt::format("{} after writing its whole document (its rows are kept)", exit->describe());
    }
    if (!loaded) {
      if (!r.cancelled) r.error = fmt::format("{}, but its document: {}", exit->describe(), loaded.error().message);
      return r;
    }
    r.document = std::move(*loaded);
    return r;
  }

 private:
  std::string name_;
  std::vector<std::string> command_;
  std::string out_flag_;
  std::vector<std::string> env_;
};

class PageColumn : public Column {
 public:
  PageColumn(std::string name, PageDriver& page, std::shared_ptr<void> owner, std::string url,
             std::function<std::string()> log_tail)
      : name_(std::move(name)), page_(page), owner_(std::move(owner)), url_(std::move(url)),
        log_tail_(std::move(log_tail)) {}

  RoundRun run(const RoundContext& ctx) override {
    RoundRun r;
    r.round = ctx.round;
    r.ran = true;
    const auto t0 = std::chrono::steady_clock::now();
    auto failed = [&](const std::string& why) {
      const std::string tail = log_tail_ ? log_tail_() : std::string();
      r.error = tail.empty() ? why : fmt::format("{} (the browser's log: {})", why, tail);
      r.wall_s = seconds_since(t0);
      return r;
    };
    if (auto st = page_.navigate(url_, deadline_in(60s)); !st) return failed(st.error().message);
    const auto deadline = Clock::now() + ctx.timeout;
    // A page whose status line stops changing has hung (a measurement updates it several times a
    // second; a cooldown within seconds): it is not waited for until the round's deadline.
    const auto stall = std::min<std::chrono::seconds>(ctx.timeout, kPageStall);
    auto last_change = Clock::now();
    std::string last_line;
    report::PageState s;
    for (;;) {
      if (ctx.cancel != nullptr && ctx.cancel->load()) {
        (void)page_.evaluate("document.getElementById('cancel') && document.getElementById('cancel').click()",
                             deadline_in(5s));
        r.cancelled = true;
        r.wall_s = seconds_since(t0);
        return r;
      }
      auto v = page_.evaluate(kPageStateProbe, deadline_in(30s));
      if (!v) return failed(v.error().message);
      s = report::read_page_state(*v);
      if (s.phase == "done" || s.phase == "error" || s.phase == "cancelled") break;
      if (Clock::now() >= deadline) {
        return failed(fmt::format("the page did not finish within {} s (at: {})", ctx.timeout.count(), s.line_shown));
      }
      if (s.line_shown != last_line) {
        last_line = s.line_shown;
        last_change = Clock::now();
      } else if (Clock::now() - last_change >= stall) {
        return failed(fmt::format("the page made no progress for {} s (at: {})", stall.count(), s.line_shown));
      }
      if (ctx.progress && s.line) {
        ctx.progress(fmt::format("round {}/{} {}: {}", ctx.round, ctx.rounds, name_, *s.line));
      }
      std::this_thread::sleep_for(250ms);
    }
    r.wall_s = seconds_since(t0);
    if (s.phase != "done") return failed(fmt::format("the page's run ended: {}", s.error.value_or(s.phase)));
    auto doc = page_.evaluate("window.wgbState.document", deadline_in(60s));
    if (!doc) return failed(doc.error().message);
    const fs::path path = ctx.folder / fmt::format("round-{:02}-{}.json", ctx.round, name_);
    if (auto st = report::write_json_atomic(path, *doc); !st) return failed(st.error().message);
    auto loaded = report::load_document(path);
    if (!loaded) return failed(fmt::format("the page's document: {}", loaded.error().message));
    r.document = std::move(*loaded);
    return r;
  }

 private:
  std::string name_;
  PageDriver& page_;
  std::shared_ptr<void> owner_;
  std::string url_;
  std::function<std::string()> log_tail_;
};

}  // namespace

std::unique_ptr<Column> child_column(std::string name, std::vector<std::string> command, std::string out_flag,
                                     std::vector<std::string> env) {
  return std::make_unique<ChildColumn>(std::move(name), std::move(command), std::move(out_flag), std::move(env));
}

std::unique_ptr<Column> page_column(std::string name, PageDriver& page, std::shared_ptr<void> owner,
                                    std::string run_url, std::function<std::string()> log_tail) {
  return std::make_unique<PageColumn>(std::move(name), page, std::move(owner), std::move(run_url),
                                      std::move(log_tail));
}

std::vector<std::vector<RoundRun>> run_rounds(const std::vector<Column*>& columns, const std::vector<std::string>& names,
                                              RoundContext ctx, const std::function<void(const std::string&)>& note) {
  std::vector<std::vector<RoundRun>> runs(columns.size());
  std::vector<bool> failed(columns.size(), false);
  const int rounds = ctx.rounds;
  for (int i = 1; i <= rounds; ++i) {
    ctx.round = i;
    std::vector<std::size_t> order(columns.size());
    for (std::size_t c = 0; c < order.size(); ++c) order[c] = i % 2 == 1 ? c : order.size() - 1 - c;
    std::string line;
    for (std::size_t c : order) {
      RoundRun r;
      r.round = i;
      const bool stop = ctx.cancel != nullptr && ctx.cancel->load();
      if (!failed[c] && !stop) {
        r = columns[c]->run(ctx);
        if (!r.error.empty() && !r.cancelled) {
          failed[c] = true;
          note(fmt::format("round {}: {} failed and is not run again: {}", i, names[c], r.error));
        }
        line += fmt::format("{}{} {:.1f} s ({} rows)", line.empty() ? "" : ", ", names[c], r.wall_s,
                            r.document ? r.document->rows.size() : 0);
      }
      runs[c].push_back(std::move(r));
    }
    if (!line.empty()) note(fmt::format("round {}/{}: {}", i, rounds, line));
    if (ctx.cancel != nullptr && ctx.cancel->load()) break;
  }
  return runs;
}

}  // namespace wgb::browser
