// `webgpu-bench browser`: the same benchmarks in every WebGPU implementation at hand, side by side:
// the /run page in headless Chromium (Dawn) and Firefox (wgpu), the Deno entry (wgpu), and this
// program natively in each native configuration, in alternating rounds, each implementation
// against native Dawn on its own adapter (src/browser/matrix.hpp).
#include <unistd.h>

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "browser/against_native.hpp"
#include "browser/launch.hpp"
#include "browser/matrix.hpp"
#include "browser/runtimes.hpp"
#include "cli/common.hpp"
#include "catalog/select.hpp"
#include "cli/session.hpp"
#include "cli/terminal.hpp"
#include "gpu/build_info.hpp"
#include "process/child.hpp"
#include "report/accuracy.hpp"
#include "report/document.hpp"
#include "report/files.hpp"
#include "report/table.hpp"
#include "store/server.hpp"
#include "store/store.hpp"
#include "webgpu_bench/context.hpp"

namespace wgb::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct BrowserFlags {
  std::string filter;
  bool filter_given = false;
  std::string suite = "default";
  int rounds = 10;
  std::string out;
  std::string runtime;
  bool runtime_given = false;
  std::string chromium, firefox, deno;
  int port = 0;
  int working_set_mib = 0;
  int round_timeout_s = 1800;
  std::string keep;
  std::vector<std::string> native_options;
  bool accuracy = false;  // --accuracy: both sides measure the builtins' accuracy as run --accuracy does
};

// Chromium's own SwiftShader Vulkan driver, which native Dawn can load too.
constexpr const char* kSwiftShaderIcd = "/usr/lib/chromium/vk_swiftshader_icd.json";

// This program again with `args` (a process::Child: its own group, default signals, a Ctrl-C passed
// on); stdout to `stdout_path` (or /dev/null), stderr inherited.
Expected<int> run_child(const std::vector<std::string>& args, const std::string& stdout_path,
                        const std::vector<std::string>& env = {}, const Interrupt* stop = nullptr) {
  process::Options o;
  o.argv = self_command();
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  o.env = env;
  o.out = stdout_path.empty() ? process::Sink::Null : process::Sink::File;
  o.out_file = stdout_path;
  o.err = process::Sink::Inherit;
  auto child = process::Child::spawn(o);
  if (!child) return child.error();
  auto exit = child->wait(process::kNoDeadline, stop != nullptr ? stop->token().flag : nullptr);
  if (!exit) return exit.error();
  return exit->status();
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

// The native adapters under `env` (`devices --json` in a child process).
Expected<json> native_devices(const fs::path& dir, const std::vector<std::string>& env) {
  const std::string out = (dir / "devices.json").string();
  auto code = run_child({"devices", "--json"}, out, env);
  if (!code) return code.error();
  if (*code != 0) return make_error(ErrorKind::NoAdapter, fmt::format("listing the native adapters failed (exit {})", *code));
  json d = json::parse(read_file(out), nullptr, false);
  if (!d.is_array()) return make_error(ErrorKind::Failed, "listing the native adapters gave no JSON array");
  return d;
}

// One adapter and the native environment that reaches it: its columns share it.
struct Group {
  std::string name;              // "llvmpipe", "swiftshader"
  std::vector<std::string> env;  // e.g. VK_DRIVER_FILES=... for Chromium's SwiftShader
  std::size_t index = 0;         // the native adapter's index under `env`
  json device;                   // its `devices --json` entry, as the document records it
  report::AdapterIdentity identity;  // the same, read
  std::vector<browser::OpenedRuntime> runtimes;
};

// "llvmpipe (LLVM 15.0.6, 256 bits)" -> "llvmpipe": a short name for column names and blocks.
std::string short_name(const report::AdapterIdentity& device) {
  std::string text = device.device;
  if (text.empty()) text = device.description.empty() && !device.recorded ? "adapter" : device.description;
  std::string out;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0) {
      if (!out.empty()) break;
      continue;
    }
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out.empty() ? "adapter" : out;
}

// The name a column's adapter goes by: the native device's, or the group's where none was listed.
std::string adapter_name(const Group& g) { return g.identity.recorded ? g.identity.device : g.name; }

// Where this runtime's adapter is natively: as the environment is, else (Chromium's SwiftShader)
// through Chromium's own SwiftShader driver. A sentence saying why not otherwise.
Expected<Group> find_native(const browser::OpenedRuntime& rt, const fs::path& dir) {
  const report::AdapterIdentity adapter = rt.init.identity;
  std::vector<std::vector<std::string>> envs = {{}};
  if (browser::is_swiftshader(adapter) && fs::exists(kSwiftShaderIcd)) {
    envs.push_back({fmt::format("VK_DRIVER_FILES={}", kSwiftShaderIcd)});
  }
  std::string listed;
  for (const auto& env : envs) {
    auto devices = native_devices(dir, env);
    if (!devices) {
      listed = devices.error().message;
      continue;
    }
    const std::vector<report::AdapterIdentity> native = report::read_adapter_list(*devices);
    if (auto i = browser::match_native_adapter(adapter, native)) {
      Group g;
      g.env = env;
      g.index = *i;
      for (std::size_t k = 0; k < native.size(); ++k) {
        if (native[k].index == *i) {
          g.device = (*devices)[k];
          g.identity = native[k];
        }
      }
      g.name = short_name(g.identity);
      return g;
    }
    listed.clear();
    for (const auto& d : native) listed += (listed.empty() ? "" : "; ") + browser::adapter_text(d);
  }
  return make_error(ErrorKind::NoAdapter,
                    fmt::format("no native adapter matches {}'s {} (native: {}){}", rt.info.product,
                                browser::adapter_text(adapter), listed.empty() ? "none" : listed,
                                browser::is_swiftshader(adapter) && !fs::exists(kSwiftShaderIcd)
                                    ? fmt::format("; {} is missing", kSwiftShaderIcd)
                                    : ""));
}

// "dawn" for the default configuration, "dawn-no-robustness" for the others: a column's name.
std::string native_column_name(const gpu::NativeConfiguration& c) {
  return &c == &gpu::native_configurations().front() ? "dawn" : "dawn-" + c.name;
}

browser::ColumnSpec skipped(const browser::RuntimeInfo& info, const std::string& why) {
  browser::ColumnSpec s;
  s.name = info.name;
  s.label = fmt::format("{} ({})", info.product, info.webgpu);
  s.kind = "runtime";
  s.runtime = info.name;
  s.webgpu = info.webgpu;
  s.status = "skipped";
  s.reason = why;
  s.install = info.install;
  return s;
}

// Each column's accuracy entries, from its first document: accuracy does not vary between rounds.
void write_accuracy(const browser::Matrix& m) {
  for (std::size_t c = 0; c < m.runs.size(); ++c) {
    for (const auto& r : m.runs[c]) {
      if (!r.document) continue;
      std::cout << "\n" << m.columns[c].name << ":";
      report::write_accuracy_table(std::cout, r.document->rows, terminal_width());
      break;
    }
  }
}

int browser_command(const BrowserFlags& f) {
  auto selected = browser::parse_runtimes(f.runtime_given ? f.runtime : "chromium,firefox,deno");
  if (!selected) return fail(selected.error());
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

  // The results server, in this process, on loopback, with a temporary store: the pages and the
  // Deno entry load the runner and the engine from it.
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

  const std::vector<std::string> self = self_command();
  browser::LaunchSettings ls{base, f.chromium, f.firefox, f.deno, browser::runtime_vulkan_env(), tmp.path,
                             fs::path(self.back())};
  const browser::Selection selection{f.suite, f.filter_given && f.suite == "default" ? f.filter : "",
                                     f.working_set_mib > 0 ? std::uint64_t(f.working_set_mib) << 20 : 0,
                                     f.accuracy};
  browser::Matrix m;
  std::vector<Group> groups;
  std::vector<std::string> unavailable;
  const bool terminal = isatty(STDERR_FILENO) != 0;
  const std::size_t err_width = terminal_width(STDERR_FILENO);
  for (const auto& info : *selected) {
    if (stop.requested()) return kExitCancelled;
    if (terminal) std::cerr << fmt::format("starting {}...\n", info.product);
    auto rt = browser::open_runtime(info, ls);
    auto group = rt ? find_native(*rt, tmp.path) : Expected<Group>(rt.error());
    if (!group) {
      // Said once the others are known: when none can run, one line says why for each.
      m.columns.push_back(skipped(info, group.error().message));
      // With how to get it, as the matrix says of every skipped column.
      unavailable.push_back(fmt::format("{}: {} (to get it: {})", info.name, group.error().message, info.install));
      continue;
    }
    std::cerr << report::wrap_block(fmt::format("{} ({}): adapter {} = native adapter {}{}", rt->label(), rt->program,
                                                browser::adapter_text(rt->init.identity), group->index,
                                                group->env.empty() ? "" : " with " + group->env.front()),
                                    err_width);
    if (!rt->warning.empty()) {
      m.notes.push_back(fmt::format("{}: {}", info.name, rt->warning));
      std::cerr << report::wrap_block(fmt::format("{}: {}", info.name, rt->warning), err_width);
    }
    auto same = std::find_if(groups.begin(), groups.end(),
                             [&](const Group& g) { return g.env == group->env && g.index == group->index; });
    if (same == groups.end()) same = groups.insert(groups.end(), std::move(*group));
    same->runtimes.push_back(std::move(*rt));
  }
  if (groups.empty()) {
    std::string all;
    for (const auto& u : unavailable) all += (all.empty() ? "" : "; ") + u;
    return fail(ErrorKind::NoAdapter, fmt::format("no runtime could run: {}", all));
  }
  for (const auto& u : unavailable) std::cerr << report::wrap_block("skipped " + u, err_width);

  // The columns: per adapter, native Dawn in each configuration, then the runtimes that use it.
  std::vector<std::unique_ptr<browser::Column>> owned;
  std::vector<std::string> names;
  std::vector<std::size_t> spec_of;  // column -> its entry in m.columns
  const std::vector<browser::ColumnSpec> skipped_specs = m.columns;
  m.columns.clear();
  for (const auto& g : groups) {
    const std::string suffix = groups.size() > 1 ? "@" + g.name : "";
    // One column per native configuration (gpu::native_configurations(), the default first: the
    // reference every other column of this adapter is compared with).
    const auto& configurations = gpu::native_configurations();
    const std::string reference = native_column_name(configurations.front()) + suffix;
    for (const auto& cfg : configurations) {
      browser::ColumnSpec s;
      s.name = native_column_name(cfg) + suffix;
      s.label = fmt::format("native Dawn ({})", cfg.name);
      s.kind = "native";
      s.runtime = "native";
      s.version = build_info().version;
      s.webgpu = "Dawn";
      s.webgpu_version = build_info().dawn_version;
      s.group = g.name;
      s.adapter_name = adapter_name(g);
      s.baseline = s.name == reference ? "" : reference;
      s.adapter = g.device;
      std::vector<std::string> args = {f.suite == "memory" ? "memory" : "run", "--quiet", "--adapter",
                                       std::to_string(g.index)};
      if (!selection.filter.empty()) args.insert(args.end(), {"--filter", selection.filter});
      if (f.working_set_mib > 0) args.insert(args.end(), {"--working-set", std::to_string(f.working_set_mib)});
      args.insert(args.end(), f.native_options.begin(), f.native_options.end());
      args.insert(args.end(), {"--dawn-config", cfg.name});
      if (f.accuracy) args.push_back("--accuracy");
      s.detail = {{"environment", g.env}, {"command", args}, {"configuration", cfg.name}, {"why", cfg.description}};
      std::vector<std::string> command = self;
      command.insert(command.end(), args.begin(), args.end());
      owned.push_back(browser::child_column(s.name, command, "--json", g.env));
      names.push_back(s.name);
      m.columns.push_back(std::move(s));
      spec_of.push_back(m.columns.size() - 1);
    }
    for (const auto& rt : g.runtimes) {
      browser::ColumnSpec s;
      s.name = rt.info.name;
      s.label = rt.label();
      s.kind = "runtime";
      s.runtime = rt.info.name;
      s.version = rt.version;
      s.webgpu = rt.info.webgpu;
      s.group = g.name;
      s.adapter_name = adapter_name(g);
      s.baseline = reference;
      s.adapter = rt.adapter();
      s.detail = {{"program", rt.program},
                  {"native_adapter", g.device},
                  {"native_environment", g.env},
                  {"implementation", rt.init.implementation.is_null() ? json::object() : rt.init.implementation},
                  {"adapter_source", rt.init.adapter_source.value_or("")}};
      owned.push_back(rt.column(s.name, selection));
      names.push_back(s.name);
      m.columns.push_back(std::move(s));
      spec_of.push_back(m.columns.size() - 1);
    }
  }
  for (const auto& s : skipped_specs) m.columns.push_back(s);
  if (groups.size() > 1) {
    std::string where;
    for (const auto& g : groups) {
      std::string who;
      for (const auto& rt : g.runtimes) who += (who.empty() ? "" : ", ") + rt.info.product;
      where += fmt::format("{}{} on {}", where.empty() ? "" : "; ", who, browser::adapter_text(g.identity));
    }
    m.notes.push_back(fmt::format("Not every runtime reaches the same adapter ({}): each is compared with native "
                                  "Dawn on its own.", where));
  }
  for (const auto& g : groups) {
    for (const auto& rt : g.runtimes) {
      if (rt.info.name == "chromium" && browser::is_swiftshader(rt.init.identity)) {
        m.notes.push_back("Chromium runs on its own SwiftShader: it does not use Mesa's lavapipe for WebGPU (lavapipe "
                          "lacks VK_KHR_external_semaphore_fd), so its reference is native Dawn on SwiftShader.");
      }
    }
  }

  // The rounds.
  const bool show_progress = isatty(STDERR_FILENO) != 0;
  const std::size_t width = terminal_width(STDERR_FILENO);
  bool drawn = false;
  browser::RoundContext ctx;
  ctx.rounds = f.rounds;
  ctx.cancel = stop.token().flag;
  ctx.timeout = std::chrono::seconds(f.round_timeout_s);
  ctx.folder = docs;
  if (show_progress) {
    ctx.progress = [&](const std::string& line) {
      std::string l = line;
      if (l.size() + 1 > width) l.resize(width > 1 ? width - 1 : 0);
      std::cerr << "\r\033[K" << l << std::flush;
      drawn = true;
    };
  }
  auto note = [&](const std::string& line) {
    if (drawn) std::cerr << "\r\033[K";
    drawn = false;
    std::cerr << report::wrap_block(line, width);
  };
  std::vector<browser::Column*> columns;
  for (auto& c : owned) columns.push_back(c.get());
  auto runs = browser::run_rounds(columns, names, ctx, note);
  if (drawn) std::cerr << "\r\033[K" << std::flush;
  m.runs.assign(m.columns.size(), {});
  bool any_failed = false;
  for (std::size_t c = 0; c < runs.size(); ++c) {
    auto& spec = m.columns[spec_of[c]];
    for (const auto& r : runs[c]) {
      if (!r.error.empty() && !r.cancelled && spec.status == "ok") {
        spec.status = "failed";
        spec.reason = fmt::format("round {}: {}", r.round, r.error);
        any_failed = true;
      }
      if (r.ran) m.rounds = std::max(m.rounds, r.round);
    }
    m.runs[spec_of[c]] = std::move(runs[c]);
  }
  if (m.rounds == 0) return stop.requested() ? kExitCancelled : kExitBenchmarkFailed;

  // What completed is reported, even after an interruption or a failed column.
  const auto pooled = browser::pool_matrix(m);
  browser::write_matrix(std::cout, m, pooled, terminal_width());
  if (f.accuracy) write_accuracy(m);
  if (!f.out.empty()) {
    report::MatrixDocument doc = browser::matrix_document(m, pooled);
    doc.page = "/run?" + browser::run_query(selection) + "&autorun=1";
    doc.command_line = command_line();
    if (auto st = report::write_json_atomic(f.out, to_json(doc)); !st) return fail(st.error());
  }
  if (stop.requested()) return kExitCancelled;
  if (any_failed) return kExitBenchmarkFailed;
  for (const auto& row : pooled.rows) {
    for (const auto& cell : row.cells) {
      if (cell.status == "error") return kExitBenchmarkFailed;
    }
  }
  return kExitOk;
}

}  // namespace

void register_browser(CLI::App& app, int& exit_code) {
  static BrowserFlags f;
  auto* cmd = app.add_subcommand(
      "browser", "Compare every WebGPU implementation at hand (Chromium, Firefox, Deno) with native Dawn");
  auto* filter = cmd->add_option("--filter", f.filter, "Comma-separated globs over benchmark ids (default: the default suite)");
  auto* runtime = cmd->add_option("--runtime", f.runtime,
                                  "Comma-separated runtimes: chromium, firefox, deno (default: every one; those "
                                  "missing are shown as skipped with how to get them)");
  cmd->add_option("--suite", f.suite, "default or memory")->capture_default_str()->check(one_of({"default", "memory"}));
  cmd->add_option("--rounds", f.rounds, "Rounds; each runs every column once, in alternating order")
      ->capture_default_str()
      ->check(in_range(1, 100));
  cmd->add_option("--out", f.out, "Write the comparison as JSON here (every round of every column)");
  cmd->add_option("--chromium", f.chromium, "The Chromium program (default: $WGB_CHROMIUM, else chromium on PATH)");
  cmd->add_option("--firefox", f.firefox, "The Firefox program (default: $WGB_FIREFOX, else firefox-esr on PATH)");
  cmd->add_option("--deno", f.deno, "The Deno program (default: $WGB_DENO, deno on PATH, else .deps/deno)");
  cmd->add_option("--port", f.port, "Port of the local results server (0: any free port)")
      ->capture_default_str()
      ->check(in_range(0, 65535));
  cmd->add_option("--working-set", f.working_set_mib, "Memory suite working set, MiB (default: the suite's)")
      ->check(in_range(1, 1 << 20));
  cmd->add_option("--round-timeout", f.round_timeout_s, "Seconds one column's round may take")
      ->capture_default_str()
      ->check(in_range(10, 86400));
  cmd->add_option("--keep", f.keep, "Keep every round's documents and logs in this folder");
  cmd->add_flag("--accuracy", f.accuracy,
                "Also measure the accuracy of the floating-point builtins in every column, as run --accuracy does, "
                "and print the first round's (docs/method.md#accuracy)");
  cmd->add_option("--native-option", f.native_options,
                  "Pass an option to every native run (repeatable), e.g. =--clock=wall")
      ->allow_extra_args(false);
  cmd->callback([&exit_code, filter, runtime] {
    f.filter_given = filter->count() > 0;
    f.runtime_given = runtime->count() > 0;
    if (f.filter_given && f.suite == "memory") {
      exit_code = fail(ErrorKind::Usage, "--filter applies to the default suite; the memory suite runs whole");
      return;
    }
    exit_code = browser_command(f);
  });
}

}  // namespace wgb::cli
