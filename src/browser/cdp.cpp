// The DevTools client of cdp.hpp: the Chromium process (its own process group, a private profile in a
// temporary folder), one WebSocket to the browser target and flattened sessions for pages.
#include "browser/cdp.hpp"

#include <fmt/format.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "browser/runtimes.hpp"

namespace wgb::browser {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

// D-Bus noise in Chromium's log (the headless browser tries the system bus, which containers lack):
// not a reason worth showing in an error message.
bool dbus_noise(std::string_view line) {
  return line.find("dbus") != std::string_view::npos || line.find("unexpected operator") != std::string_view::npos;
}

constexpr std::size_t kConsoleLines = 200;

}  // namespace

Expected<std::unique_ptr<Browser>> Browser::launch(const LaunchOptions& options) {
  auto found = program_and_profile(find_chromium(options.chromium), "wgb-chromium");
  if (!found) return found.error();
  std::unique_ptr<Browser> b(new Browser(std::move(*found)));
  const std::string log = b->profile_dir_ + "/chromium.log";

  std::vector<std::string> args = {b->program_,
                                   "--headless=new",
                                   "--no-sandbox",
                                   "--user-data-dir=" + b->profile_dir_,
                                   "--remote-debugging-address=127.0.0.1",
                                   "--remote-debugging-port=0",
                                   "--no-first-run",
                                   "--no-default-browser-check",
                                   "--disable-extensions",
                                   "--disable-sync",
                                   "--disable-background-networking",
                                   "--disable-component-update",
                                   // A measuring page must not be throttled for being in the background
                                   // (headless windows count as occluded).
                                   "--disable-background-timer-throttling",
                                   "--disable-renderer-backgrounding",
                                   "--disable-backgrounding-occluded-windows"};
  if (options.unsafe_webgpu) args.emplace_back("--enable-unsafe-webgpu");
  args.insert(args.end(), options.extra_flags.begin(), options.extra_flags.end());
  args.emplace_back("about:blank");
  process::Options po;
  po.argv = std::move(args);
  po.log = log;
  auto child = process::Child::spawn(po);
  if (!child) return make_error(ErrorKind::NoAdapter, child.error().message);
  b->child_ = std::move(*child);

  // DevToolsActivePort: "PORT\n/devtools/browser/ID\n" once the browser listens.
  const auto deadline = deadline_in(options.start_timeout);
  const std::string port_file = b->profile_dir_ + "/DevToolsActivePort";
  std::string ws_path;
  for (;;) {
    if (auto exit = b->child_.poll()) {
      return make_error(ErrorKind::NoAdapter, fmt::format("{} exited ({}) before DevTools listened: {}", b->program_,
                                                          exit->describe(), b->child_.log_tail(3, dbus_noise)));
    }
    std::ifstream in(port_file);
    std::string port_line;
    if (in && std::getline(in, port_line) && std::getline(in, ws_path) && !ws_path.empty()) {
      b->port_ = std::atoi(port_line.c_str());
      if (b->port_ > 0) break;
    }
    if (Clock::now() >= deadline) {
      return make_error(ErrorKind::Failed, fmt::format("{} did not open DevTools within {} s: {}", b->program_,
                                                       options.start_timeout.count() / 1000, b->child_.log_tail(3, dbus_noise)));
    }
    std::this_thread::sleep_for(50ms);
  }
  auto ws = WebSocket::connect("127.0.0.1", b->port_, ws_path, deadline_in(10s));
  if (!ws) return ws.error();
  b->ws_ = std::move(*ws);
  auto version = b->call("Browser.getVersion", json::object(), "", deadline_in(10s));
  if (!version) return version.error();
  b->version_ = result_text(*version, "product");
  b->user_agent_ = result_text(*version, "userAgent");
  return b;
}

Expected<std::unique_ptr<Browser>> Browser::launch_with_adapter(const LaunchOptions& options) {
  std::string why;
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (attempt > 0) std::this_thread::sleep_for(500ms);
    auto b = launch(options);
    if (!b) return b.error();
    auto page = (*b)->new_page(deadline_in(10s));
    if (!page) return page.error();
    // WebGPU exists only in secure contexts, which about:blank opened over DevTools is not; the
    // browser's own DevTools HTTP server on 127.0.0.1 is one (loopback counts as secure).
    const std::string probe = fmt::format("http://127.0.0.1:{}/json/version", (*b)->port());
    if (auto st = (*page)->navigate(probe, deadline_in(20s)); !st) return st.error();
    auto found = (*page)->evaluate(
        "(async () => { if (!navigator.gpu) return 'navigator.gpu is undefined';"
        " const a = await navigator.gpu.requestAdapter({powerPreference: 'high-performance'});"
        " return a ? '' : 'navigator.gpu.requestAdapter() returned null'; })()",
        deadline_in(20s));
    if (!found) return found.error();
    if (found->is_string() && found->get<std::string>().empty()) return b;
    why = found->is_string() ? found->get<std::string>() : found->dump();
  }
  return make_error(ErrorKind::NoAdapter, fmt::format("the browser offers no WebGPU adapter (twice): {}{}", why,
                                                      options.unsafe_webgpu ? "" : " (without --enable-unsafe-webgpu)"));
}

Browser::~Browser() { shut_down(); }

std::string Browser::log_tail() const { return child_.log_tail(3, dbus_noise); }

void Browser::shut_down() {
  if (ws_.is_open()) {
    // Best effort: a clean close lets Chromium remove its own files; the group is killed anyway.
    (void)ws_.send_text(json{{"id", next_id_++}, {"method", "Browser.close"}}.dump(), deadline_in(1s));
    ws_.close();
  }
  if (child_.running()) {
    // Up to 3 s for Browser.close; then the group (the helpers, and the browser if still there).
    (void)child_.wait(process::deadline_in(3s));
  }
  child_.terminate(0ms);
  if (!profile_dir_.empty()) {
    std::error_code ec;
    fs::remove_all(profile_dir_, ec);
    profile_dir_.clear();
  }
}

void Browser::handle_event(const ProtocolMessage& message) {
  const CdpEvent event = read_cdp_event(message);
  switch (event.kind) {
    case CdpEvent::Kind::Other:
      return;
    case CdpEvent::Kind::Detached:
      crashed_[event.session_id] = "the page was closed";
      return;
    case CdpEvent::Kind::Crashed:
      crashed_[event.session_id] = "the page crashed";
      break;
    case CdpEvent::Kind::Console:
      break;
  }
  auto& q = console_[event.session_id];
  q.push_back(event.line);
  if (q.size() > kConsoleLines) q.pop_front();
}

std::vector<std::string> Browser::console(const std::string& session_id) const {
  const auto it = console_.find(session_id);
  if (it == console_.end()) return {};
  return {it->second.begin(), it->second.end()};
}

Expected<json> Browser::call(const std::string& method, const json& params, const std::string& session_id,
                             Deadline deadline) {
  if (const auto c = crashed_.find(session_id); !session_id.empty() && c != crashed_.end()) {
    return make_error(ErrorKind::Failed, fmt::format("{}: {}", method, c->second));
  }
  const int id = next_id_++;
  if (auto st = ws_.send_text(protocol_command(id, method, params, session_id), deadline); !st) {
    return make_error(st.error().kind, fmt::format("{}: {}", method, st.error().message));
  }
  for (;;) {
    auto text = ws_.receive(deadline);
    if (!text) return make_error(text.error().kind, fmt::format("{}: {}", method, text.error().message));
    const ProtocolMessage reply = read_cdp_message(*text);
    if (!reply.is_object) continue;
    if (!reply.has_id) {
      handle_event(reply);
      if (const auto c = crashed_.find(session_id); !session_id.empty() && c != crashed_.end()) {
        return make_error(ErrorKind::Failed, fmt::format("{}: {}", method, c->second));
      }
      continue;
    }
    if (reply.id != id) continue;  // an answer to a call that timed out earlier
    if (reply.error) return make_error(ErrorKind::Failed, fmt::format("{}: {}", method, *reply.error));
    return reply.result;
  }
}

Expected<std::unique_ptr<Page>> Browser::new_page(Deadline deadline) {
  auto target = call("Target.createTarget", {{"url", "about:blank"}}, "", deadline);
  if (!target) return target.error();
  const std::string target_id = result_text(*target, "targetId");
  auto attached = call("Target.attachToTarget", {{"targetId", target_id}, {"flatten", true}}, "", deadline);
  if (!attached) return attached.error();
  auto page = std::make_unique<Page>(*this, target_id, result_text(*attached, "sessionId"));
  for (const char* domain : {"Runtime.enable", "Page.enable", "Inspector.enable"}) {
    if (auto r = call(domain, json::object(), page->session_id(), deadline); !r) return r.error();
  }
  return page;
}

Status Page::navigate(const std::string& url, Deadline deadline) {
  auto r = browser_.call("Page.navigate", {{"url", url}}, session_id_, deadline);
  if (!r) return r.error();
  if (const std::string err = result_text(*r, "errorText"); !err.empty()) {
    return make_error(ErrorKind::Failed, fmt::format("cannot load {}: {}", url, err));
  }
  auto loaded = wait_until("document.readyState === 'complete' && location.href !== 'about:blank'", deadline,
                           fmt::format("{} to load", url), 50ms);
  if (!loaded) return loaded.error();
  return ok();
}

Expected<json> Page::evaluate(const std::string& expression, Deadline deadline) {
  auto r = browser_.call("Runtime.evaluate",
                         {{"expression", expression}, {"awaitPromise", true}, {"returnByValue", true}}, session_id_,
                         deadline);
  if (!r) return r.error();
  Evaluated e = read_cdp_evaluation(*r);
  if (e.exception) return make_error(ErrorKind::Failed, fmt::format("JavaScript error: {}", *e.exception));
  return std::move(e.value);
}

Status Page::add_init_script(const std::string& source, Deadline deadline) {
  auto r = browser_.call("Page.addScriptToEvaluateOnNewDocument", {{"source", source}}, session_id_, deadline);
  if (!r) return r.error();
  return ok();
}

Status Page::set_hidden(bool hidden, Deadline deadline) {
  // A minimized window is what makes a headless page "hidden" (as a background tab does in a
  // browser with a screen): the page gets a real visibilitychange.
  auto window = browser_.call("Browser.getWindowForTarget", {{"targetId", target_id_}}, "", deadline);
  if (!window) return window.error();
  const json bounds = {{"windowState", hidden ? "minimized" : "normal"}};
  if (auto r = browser_.call("Browser.setWindowBounds", {{"windowId", window_id(*window)}, {"bounds", bounds}}, "",
                             deadline);
      !r) {
    return r.error();
  }
  const std::string want = hidden ? "hidden" : "visible";
  auto state = wait_until(fmt::format("document.visibilityState === '{}'", want), std::min(deadline, deadline_in(5s)),
                          fmt::format("the page to become {}", want), 20ms);
  if (!state) return state.error();
  return ok();
}

}  // namespace wgb::browser
