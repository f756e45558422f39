// `webgpu-bench browser`: the same benchmarks in a local headless Chromium (the /run page, the
// engine in WebAssembly) and natively on the same adapter, in alternating rounds, and the
// comparison browser/native per benchmark (src/browser/against_native.hpp).
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "browser/against_native.hpp"
#include "browser/cdp.hpp"
#include "cli/common.hpp"
#include "catalog/select.hpp"
#include "cli/session.hpp"
#include "cli/terminal.hpp"
#include "report/accuracy.hpp"
#include "report/document.hpp"
#include "report/files.hpp"
#include "store/server.hpp"
#include "store/store.hpp"

extern char** environ;

namespace wgb::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace std::chrono_literals;
using browser::deadline_in;

struct BrowserFlags {
  std::string filter;
  bool filter_given = false;
  std::string suite = "default";
  int rounds = 10;
  std::string out;
  std::string chromium;
  int port = 0;
  int working_set_mib = 0;
  int round_timeout_s = 1800;
  std::string keep;
  std::vector<std::string> native_options;
  bool accuracy = false;  // --accuracy: both sides measure the builtins' accuracy as run --accuracy does
};

// Chromium's own SwiftShader Vulkan driver, which native Dawn can load too.
constexpr const char* kSwiftShaderIcd = "/usr/lib/chromium/vk_swiftshader_icd.json";

// This program again with `args`; stdout to `stdout_path` (or /dev/null), stderr inherited.
Expected<int> run_child(const std::vector<std::string>& args, const std::string& stdout_path) {
  std::vector<std::string> all = self_command();
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdout_path.empty() ? "/dev/null" : stdout_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return make_error(ErrorKind::Failed, fmt::format("cannot start {}: {}", all.front(), std::strerror(rc)));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return make_error(ErrorKind::Failed, fmt::format("waiting for {}: {}", all.front(), std::strerror(errno)));
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

std::string url_encode(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || c == '*' || c == ',') {
      out += static_cast<char>(c);
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A temporary folder removed with everything in it when the command ends.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "wgb-browser-XXXXXX").string();
    if (mkdtemp(t.data()) != nullptr) path = t;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

// The native adapters (`devices --json` in a child process, which sees the environment as it is now).
Expected<json> native_devices(const fs::path& dir) {
  const std::string out = (dir / "devices.json").string();
  auto code = run_child({"devices", "--json"}, out);
  if (!code) return code.error();
  if (*code != 0) return make_error(ErrorKind::NoAdapter, fmt::format("listing the native adapters failed (exit {})", *code));
  json d = json::parse(read_file(out), nullptr, false);
  if (!d.is_array()) return make_error(ErrorKind::Failed, "listing the native adapters gave no JSON array");
  return d;
}

// Evaluated on the page: what the automation needs from window.wgbState, small.
constexpr const char* kStateProbe =
    "(() => { const s = window.wgbState; if (!s) return {missing: true};"
    " return {phase: s.phase, ready: !!s.ready, error: s.error, exit_code: s.exit_code,"
    " adapter: s.adapter ? (s.adapter.adapter || s.adapter) : null, rows: (s.rows || []).length,"
    " line: s.progress && s.progress.line ? s.progress.line : null}; })()";

struct PageResult {
  json document;
  double wall_s = 0;
};

int browser_command(const BrowserFlags& f) {
  if (f.filter_given) {
    if (auto st = catalog::require_globs(f.filter); !st) return fail(st.error());
  }
  const Interrupt stop(/*also_sigterm=*/true);
  TempDir tmp;
  if (tmp.path.empty()) return fail(ErrorKind::Io, fmt::format("cannot create a folder in {}: {}", fs::temp_directory_path().string(), std::strerror(errno)));
  const fs::path docs = f.keep.empty() ? tmp.path : fs::path(f.keep);
  if (!f.keep.empty()) {
    std::error_code ec;
    fs::create_directories(docs, ec);
    if (ec) return fail(ErrorKind::Io, fmt::format("cannot create {}: {}", f.keep, ec.message()));
  }
  // An unknown benchmark id is a usage error before anything starts (`list` says which).
  if (f.filter_given && f.suite == "default") {
    auto code = run_child({"list", "--filter", f.filter}, "");
    if (!code) return fail(code.error());
    if (*code != 0) return kExitUsage;
  }

  // The results server, in this process, on loopback, with a temporary store.
  auto db = store::Store::open((tmp.path / "results.db").string());
  if (!db) return fail(db.error());
  store::ServerOptions so;
  so.host = "127.0.0.1";
  so.port = f.port;
  so.open_submissions = true;  // the page may submit without a token (the store is temporary)
  so.open_submissions_per_window = 1000;
  auto server = store::Server::start(**db, so);
  if (!server) return fail(server.error());
  const std::string base = (*server)->url();

  browser::LaunchOptions lo;
  lo.chromium = f.chromium;
  auto chromium = browser::Browser::launch_with_adapter(lo);
  if (!chromium) return fail(chromium.error());
  auto page = (*chromium)->new_page(deadline_in(20s));
  if (!page) return fail(page.error());

  // The page's adapter (the device host's answer to init).
  if (auto st = (*page)->navigate(base + "/run", deadline_in(60s)); !st) return fail(st.error());
  auto first = (*page)->wait_until(
      "(() => { const s = window.wgbState; if (!s) return null;"
      " if (s.phase === 'error') return {error: s.error || 'the page failed'};"
      " return s.ready && s.adapter ? {adapter: s.adapter.adapter || s.adapter} : null; })()",
      deadline_in(90s), "the /run page to show its adapter and load the engine");
  if (!first) {
    auto probe = (*page)->evaluate("typeof window.wgbState", deadline_in(5s));
    if (probe && *probe == "undefined") {
      return fail(ErrorKind::NoAdapter, fmt::format("{}/run is not the benchmark page (this program may be built "
                                                    "without the browser page)", base));
    }
    return fail(first.error());
  }
  if (first->contains("error")) {
    return fail(ErrorKind::NoAdapter, fmt::format("the /run page: {}", (*first)["error"].get<std::string>()));
  }
  const json adapter = (*first)["adapter"];

  // The same adapter natively: as it is, else through Chromium's SwiftShader driver.
  auto devices = native_devices(tmp.path);
  std::optional<std::size_t> native = devices ? browser::match_native_adapter(adapter, *devices) : std::nullopt;
  std::string native_env;
  if (!native && browser::is_swiftshader(adapter) && fs::exists(kSwiftShaderIcd)) {
    setenv("VK_DRIVER_FILES", kSwiftShaderIcd, 1);
    native_env = fmt::format("VK_DRIVER_FILES={}", kSwiftShaderIcd);
    devices = native_devices(tmp.path);
    native = devices ? browser::match_native_adapter(adapter, *devices) : std::nullopt;
  }
  if (!native) {
    std::string listed;
    if (devices) {
      for (const auto& d : *devices) listed += (listed.empty() ? "" : "; ") + browser::adapter_text(d);
    }
    return fail(ErrorKind::NoAdapter,
                fmt::format("no native adapter matches the browser's {} (native: {}){}", browser::adapter_text(adapter),
                            listed.empty() ? (devices ? "none" : devices.error().message) : listed,
                            browser::is_swiftshader(adapter) && !fs::exists(kSwiftShaderIcd)
                                ? fmt::format("; {} is missing", kSwiftShaderIcd)
                                : ""));
  }
  std::cerr << fmt::format("{} ({}) against {}\n", (*chromium)->version(), (*chromium)->program(), base);
  std::cerr << fmt::format("adapter: {} (browser) = native adapter {}{}\n", browser::adapter_text(adapter), *native,
                           native_env.empty() ? "" : " with " + native_env);

  std::string query = "suite=" + f.suite;
  if (f.filter_given) query += "&filter=" + url_encode(f.filter);
  if (f.working_set_mib > 0) query += fmt::format("&memory_bytes={}", std::uint64_t(f.working_set_mib) << 20);
  if (f.accuracy) query += "&accuracy=1";
  const std::string run_url = base + "/run?" + query + "&autorun=1";
  std::vector<std::string> native_args = {f.suite == "memory" ? "memory" : "run", "--quiet", "--adapter",
                                          std::to_string(*native)};
  if (f.filter_given && f.suite == "default") native_args.insert(native_args.end(), {"--filter", f.filter});
  if (f.working_set_mib > 0) native_args.insert(native_args.end(), {"--working-set", std::to_string(f.working_set_mib)});
  native_args.insert(native_args.end(), f.native_options.begin(), f.native_options.end());
  if (f.accuracy) native_args.push_back("--accuracy");

  std::vector<browser::Round> rounds;
  const bool show_progress = isatty(STDERR_FILENO) != 0;
  const std::size_t width = terminal_width(STDERR_FILENO);
  auto browser_round = [&](int i, browser::Round& r) -> int {
    const auto t0 = std::chrono::steady_clock::now();
    if (auto st = (*page)->navigate(run_url, deadline_in(60s)); !st) return fail(st.error());
    const auto deadline = deadline_in(std::chrono::seconds(f.round_timeout_s));
    json s;
    for (;;) {
      if (stop.requested()) {
        (void)(*page)->evaluate("document.getElementById('cancel') && document.getElementById('cancel').click()",
                                deadline_in(5s));
        return kExitCancelled;
      }
      auto v = (*page)->evaluate(kStateProbe, deadline_in(30s));
      if (!v) return fail(v.error());
      s = *v;
      const std::string phase = s.value("phase", "");
      if (phase == "done" || phase == "error" || phase == "cancelled") break;
      if (browser::Clock::now() >= deadline) {
        return fail(ErrorKind::Failed, fmt::format("round {}: the page did not finish within {} s (at: {})", i,
                                                   f.round_timeout_s, s.value("line", json("starting")).dump()));
      }
      if (show_progress && s["line"].is_string()) {
        // The page's own status line (as `run` draws it), cut to the terminal.
        std::string line = fmt::format("round {}/{} browser: {}", i, f.rounds, s["line"].get<std::string>());
        if (line.size() + 1 > width) line.resize(width > 1 ? width - 1 : 0);
        std::cerr << "\r\033[K" << line << std::flush;
      }
      std::this_thread::sleep_for(250ms);
    }
    if (show_progress) std::cerr << "\r\033[K" << std::flush;
    r.browser_wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s.value("phase", "") != "done") {
      std::string why = s["error"].is_string() ? s["error"].get<std::string>() : s.value("phase", "");
      return fail(ErrorKind::Failed, fmt::format("round {}: the page's run ended: {}", i, why));
    }
    auto doc = (*page)->evaluate("window.wgbState.document", deadline_in(60s));
    if (!doc) return fail(doc.error());
    const fs::path path = docs / fmt::format("round-{:02}-browser.json", i);
    if (auto st = report::write_json_atomic(path, *doc); !st) return fail(st.error());
    auto loaded = report::load_document(path);
    if (!loaded) return fail(ErrorKind::Failed, fmt::format("round {}: the page's document: {}", i, loaded.error().message));
    r.browser = std::move(*loaded);
    return kExitOk;
  };
  auto native_round = [&](int i, browser::Round& r) -> int {
    const fs::path path = docs / fmt::format("round-{:02}-native.json", i);
    std::vector<std::string> args = native_args;
    args.insert(args.end(), {"--json", path.string()});
    const auto t0 = std::chrono::steady_clock::now();
    auto code = run_child(args, "");
    r.native_wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!code) return fail(code.error());
    if (*code == kExitCancelled || stop.requested()) return kExitCancelled;
    if (*code == kExitUsage) return kExitUsage;  // its own one line said why (a --native-option, say)
    if (*code != kExitOk && *code != kExitBenchmarkFailed) {
      return fail(ErrorKind::Failed, fmt::format("round {}: the native run exited with status {}", i, *code));
    }
    auto loaded = report::load_document(path);
    if (!loaded) return fail(ErrorKind::Failed, fmt::format("round {}: the native document: {}", i, loaded.error().message));
    r.native = std::move(*loaded);
    return kExitOk;
  };

  int code = kExitOk;
  for (int i = 1; i <= f.rounds && code == kExitOk; ++i) {
    browser::Round r;
    r.index = i;
    r.browser_first = i % 2 == 1;  // B N, N B, ...: drift over the session hits both sides alike
    code = r.browser_first ? browser_round(i, r) : native_round(i, r);
    if (code == kExitOk) code = r.browser_first ? native_round(i, r) : browser_round(i, r);
    if (code != kExitOk) break;
    std::cerr << fmt::format("round {}/{}: browser {:.1f} s ({} rows), native {:.1f} s ({} rows)\n", i, f.rounds,
                             r.browser_wall_s, r.browser.rows.size(), r.native_wall_s, r.native.rows.size());
    rounds.push_back(std::move(r));
  }
  if (rounds.empty()) return code;  // nothing completed: the error was said

  // What completed is reported, even after an interruption or a failed round.
  const auto pooled = browser::pool_rounds(rounds);
  const std::string browser_name = (*chromium)->version();
  browser::write_pooled(std::cout, pooled, adapter, browser_name, terminal_width());
  if (f.accuracy) {  // the first round's: accuracy does not vary between rounds
    std::cout << "\nbrowser:";
    report::write_accuracy_table(std::cout, rounds.front().browser.rows, terminal_width());
    std::cout << "\nnative:";
    report::write_accuracy_table(std::cout, rounds.front().native.rows, terminal_width());
  }
  if (!f.out.empty()) {
    json j = browser::pooled_json(pooled);
    j["adapter"] = adapter;
    for (const auto& d : *devices) {
      if (d.value("index", json()) == *native) j["native_adapter"] = d;
    }
    j["native_environment"] = native_env;
    j["native_command"] = native_args;
    j["browser"] = {{"product", browser_name}, {"user_agent", (*chromium)->user_agent()}};
    j["page"] = run_url.substr(base.size());
    j["command_line"] = command_line();
    if (auto st = report::write_json_atomic(f.out, j); !st) return fail(st.error());
  }
  if (code != kExitOk) return code;
  for (const auto& row : pooled.rows) {
    if (row.status_browser == "error" || row.status_native == "error") return kExitBenchmarkFailed;
  }
  return kExitOk;
}

}  // namespace

void register_browser(CLI::App& app, int& exit_code) {
  static BrowserFlags f;
  auto* cmd = app.add_subcommand(
      "browser",
      "Compare headless Chromium against native Dawn on one adapter");
  auto* filter = cmd->add_option("--filter", f.filter, "Comma-separated globs over benchmark ids (default: the default suite)");
  cmd->add_option("--suite", f.suite, "default or memory")->capture_default_str()->check(one_of({"default", "memory"}));
  cmd->add_option("--rounds", f.rounds, "Alternating browser/native rounds")->capture_default_str()->check(in_range(1, 100));
  cmd->add_option("--out", f.out, "Write the comparison as JSON here");
  cmd->add_option("--chromium", f.chromium, "The Chromium program (default: $WGB_CHROMIUM, else chromium on PATH)");
  cmd->add_option("--port", f.port, "Port of the local results server (0: any free port)")
      ->capture_default_str()
      ->check(in_range(0, 65535));
  cmd->add_option("--working-set", f.working_set_mib, "Memory suite working set, MiB (default: the suite's)")
      ->check(in_range(1, 1 << 20));
  cmd->add_option("--round-timeout", f.round_timeout_s, "Seconds one browser round may take")
      ->capture_default_str()
      ->check(in_range(10, 86400));
  cmd->add_option("--keep", f.keep, "Keep every round's two result documents in this folder");
  cmd->add_flag("--accuracy", f.accuracy,
                "Also measure the accuracy of the floating-point builtins on both sides, as run --accuracy does, and "
                "print the first round's (docs/method.md#accuracy)");
  cmd->add_option("--native-option", f.native_options,
                  "Pass an option to the native run (repeatable), e.g. =--no-robustness")
      ->allow_extra_args(false);
  cmd->callback([&exit_code, filter] {
    f.filter_given = filter->count() > 0;
    if (f.filter_given && f.suite == "memory") {
      exit_code = fail(ErrorKind::Usage, "--filter applies to the default suite; the memory suite runs whole");
      return;
    }
    exit_code = browser_command(f);
  });
}

}  // namespace wgb::cli
