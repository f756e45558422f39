// Starting the runtimes of launch.hpp.
#include "browser/launch.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "browser/cdp.hpp"
#include "browser/firefox.hpp"
#include "process/child.hpp"

namespace wgb::browser {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

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

// "156.0.7632.116" -> "156"; "153.8.0" -> "153.8": enough to tell releases apart in a label.
std::string short_version(const std::string& v, int parts) {
  std::size_t at = 0;
  for (int i = 0; i < parts; ++i) {
    at = v.find('.', i == 0 ? 0 : at + 1);
    if (at == std::string::npos) return v;
  }
  return v.substr(0, at);
}

// Opens the /run page and waits until it shows its adapter and has loaded the engine: the device
// host's init reply.
Expected<report::PageInit> page_init(PageDriver& page, const std::string& base) {
  if (auto st = page.navigate(base + "/run", deadline_in(60s)); !st) return st.error();
  auto first = page.wait_until(
      "(() => { const s = window.wgbState; if (!s) return null;"
      " if (s.phase === 'error') return {error: s.error || 'the page failed'};"
      " return s.ready && s.adapter ? {init: s.adapter} : null; })()",
      deadline_in(120s), "the /run page to show its adapter and load the engine");
  if (!first) {
    auto probe = page.evaluate("typeof window.wgbState", deadline_in(5s));
    if (probe && *probe == "undefined") {
      return make_error(ErrorKind::NoAdapter, fmt::format("{}/run is not the benchmark page (this program may be built "
                                                          "without the browser page)", base));
    }
    return make_error(ErrorKind::NoAdapter, first.error().message);
  }
  const report::PageOpened opened = report::read_page_opened(*first);
  if (opened.error) return make_error(ErrorKind::NoAdapter, fmt::format("the /run page: {}", *opened.error));
  return report::read_page_init(opened.init);
}

// A browser and its page, kept alive together by the column.
struct ChromiumHold {
  std::unique_ptr<Browser> browser;
  std::unique_ptr<Page> page;
};

Expected<OpenedRuntime> open_chromium(OpenedRuntime r, const LaunchSettings& s) {
  LaunchOptions lo;
  lo.chromium = s.chromium;
  auto b = Browser::launch_with_adapter(lo);
  if (!b) return b.error();
  auto hold = std::make_shared<ChromiumHold>();
  hold->browser = std::move(*b);
  auto page = hold->browser->new_page(deadline_in(20s));
  if (!page) return page.error();
  hold->page = std::move(*page);
  auto init = page_init(*hold->page, s.base);
  if (!init) return init.error();
  r.init = *init;
  r.program = hold->browser->program();
  const std::string product = hold->browser->version();  // "Chrome/156.0.7632.116"
  r.version = product.substr(product.find('/') == std::string::npos ? 0 : product.find('/') + 1);
  const std::string base = s.base;
  r.column = [hold, base](const std::string& name, const Selection& sel) {
    Browser* browser = hold->browser.get();
    return page_column(name, *hold->page, hold, base + "/run?" + run_query(sel) + "&autorun=1",
                       [browser] { return browser->log_tail(); });
  };
  return r;
}

Expected<OpenedRuntime> open_firefox(OpenedRuntime r, const LaunchSettings& s) {
  FirefoxOptions fo;
  fo.program = s.firefox;
  fo.env = s.vulkan_env;
  auto f = Firefox::launch(fo);
  if (!f) return f.error();
  std::shared_ptr<Firefox> ff = std::move(*f);
  auto init = page_init(*ff, s.base);
  if (!init) {
    const std::string tail = ff->log_tail();
    return make_error(init.error().kind, tail.empty() ? init.error().message
                                                      : fmt::format("{} (Firefox's log: {})", init.error().message, tail));
  }
  r.init = *init;
  r.program = ff->program();
  r.version = ff->version();
  const std::string base = s.base;
  r.column = [ff, base](const std::string& name, const Selection& sel) {
    Firefox* driver = ff.get();
    return page_column(name, *driver, ff, base + "/run?" + run_query(sel) + "&autorun=1",
                       [driver] { return driver->log_tail(); });
  };
  return r;
}

Expected<OpenedRuntime> open_deno(OpenedRuntime r, const LaunchSettings& s) {
  auto program = find_deno(s.deno, s.program);
  if (!program) return program.error();
  r.program = *program;
  // The entry and the engine come from this program's own server: nothing beside the program.
  std::vector<std::string> command = {*program,       "run", "--unstable-webgpu", "-A", "--no-config", "--quiet",
                                      s.base + "/run/deno.js", "--engine", s.base + "/run/webgpu-bench-engine.wasm",
                                      "--quiet"};
  std::vector<std::string> env = s.vulkan_env;
  env.push_back("DENO_DIR=" + (s.folder / "deno-cache").string());  // its module cache: private, temporary
  env.emplace_back("DENO_NO_UPDATE_CHECK=1");
  env.emplace_back("NO_COLOR=1");
  process::Options o;
  o.argv = command;
  o.argv.emplace_back("--adapter");
  o.env = env;
  o.out = process::Sink::File;
  o.out_file = (s.folder / "deno-adapter.json").string();
  o.err = process::Sink::Log;
  o.log = (s.folder / "deno-adapter.log").string();
  auto child = process::Child::spawn(o);
  if (!child) return make_error(ErrorKind::NoAdapter, child.error().message);
  auto exit = child->wait(process::deadline_in(120s));
  if (!exit) return make_error(ErrorKind::NoAdapter, exit.error().message);
  std::ifstream in(o.out_file);
  std::stringstream text;
  text << in.rdbuf();
  r.init = report::read_page_init(json::parse(text.str(), nullptr, false));
  const bool whole = r.init.has_adapter;
  // A crash after the adapter's record was printed whole is said, not fatal: its rounds are judged
  // on their own (Deno on NVIDIA's driver crashed at exit, after its output).
  if (!exit->success() && !(whole && exit->signal != 0 && !exit->timed_out)) {
    return make_error(ErrorKind::NoAdapter,
                      fmt::format("{} --adapter {}: {}", *program, exit->describe(), child->log_tail()));
  }
  if (!exit->success()) r.warning = fmt::format("--adapter {} after printing the adapter", exit->describe());
  if (!whole) {
    return make_error(ErrorKind::NoAdapter, fmt::format("{} --adapter printed no adapter: {}", *program,
                                                        text.str().substr(0, 200)));
  }
  r.version = r.init.runtime_version;
  r.column = [command, env](const std::string& name, const Selection& sel) {
    std::vector<std::string> c = command;
    for (auto& a : deno_arguments(sel)) c.push_back(a);
    return child_column(name, c, "--out", env);
  };
  return r;
}

}  // namespace

std::string run_query(const Selection& s) {
  std::string q = "suite=" + s.suite;
  if (!s.filter.empty()) q += "&filter=" + url_encode(s.filter);
  if (s.memory_bytes > 0) q += fmt::format("&memory_bytes={}", s.memory_bytes);
  if (s.accuracy) q += "&accuracy=1";
  return q;
}

std::vector<std::string> deno_arguments(const Selection& s) {
  std::vector<std::string> a = {"--suite", s.suite};
  if (!s.filter.empty()) a.insert(a.end(), {"--filter", s.filter});
  if (s.memory_bytes > 0) a.insert(a.end(), {"--memory-bytes", std::to_string(s.memory_bytes)});
  if (s.accuracy) a.push_back("--accuracy");
  return a;
}

std::string OpenedRuntime::label() const {
  const std::string v = short_version(version, info.name == "chromium" ? 1 : 2);
  return fmt::format("{}{} ({})", info.product, v.empty() ? "" : " " + v, info.webgpu);
}

Expected<std::string> find_deno(const std::string& given, const fs::path& program) {
  auto named = find_runtime_program(*find_runtime("deno"), given);
  if (!named || !named->empty()) return named;
  fs::path dir = program.parent_path();
  for (int up = 0; up < 5 && !dir.empty(); ++up, dir = dir.parent_path()) {
    const fs::path candidate = dir / ".deps" / "deno" / "bin" / "deno";
    if (auto found = process::find_program(candidate.string()); !found.empty()) return found;
    if (dir == dir.parent_path()) break;
  }
  return make_error(ErrorKind::NoAdapter, "no Deno found (looked for $WGB_DENO, deno on PATH and .deps/deno)");
}

Expected<OpenedRuntime> open_runtime(const RuntimeInfo& info, const LaunchSettings& settings) {
  OpenedRuntime r;
  r.info = info;
  if (info.name == "chromium") return open_chromium(std::move(r), settings);
  if (info.name == "firefox") return open_firefox(std::move(r), settings);
  if (info.name == "deno") return open_deno(std::move(r), settings);
  return make_error(ErrorKind::Usage, fmt::format("no way to start the runtime '{}'", info.name));
}

}  // namespace wgb::browser
