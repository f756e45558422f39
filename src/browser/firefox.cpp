// The WebDriver BiDi client of firefox.hpp: the Firefox process (a process::Child with a fresh
// profile in a temporary folder), one WebSocket to its BiDi server, one session, one context.
#include "browser/firefox.hpp"

#include <fmt/format.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "browser/protocol_messages.hpp"
#include "browser/runtimes.hpp"

namespace wgb::browser {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

// The port Firefox chose, from the profile's WebDriverBiDiServer.json (0: not written yet).
int bidi_port_of(const fs::path& profile) {
  std::ifstream in(profile / "WebDriverBiDiServer.json");
  if (!in) return 0;
  std::stringstream s;
  s << in.rdbuf();
  return bidi_port(s.str());
}

}  // namespace

std::string firefox_user_js() {
  return
      // WebGPU: off by default on Linux in this release, and its blocklist refuses software adapters.
      "user_pref(\"dom.webgpu.enabled\", true);\n"
      "user_pref(\"gfx.webgpu.ignore-blocklist\", true);\n"
      // Nothing on first start that would load pages or open dialogs beside the measurement.
      "user_pref(\"browser.shell.checkDefaultBrowser\", false);\n"
      "user_pref(\"browser.startup.homepage_override.mstone\", \"ignore\");\n"
      "user_pref(\"datareporting.policy.dataSubmissionEnabled\", false);\n"
      "user_pref(\"toolkit.telemetry.reportingpolicy.firstRun\", false);\n"
      "user_pref(\"app.update.auto\", false);\n"
      "user_pref(\"extensions.update.enabled\", false);\n";
}

Expected<std::unique_ptr<Firefox>> Firefox::launch(const FirefoxOptions& options) {
  auto found = program_and_profile(find_firefox(options.program), "wgb-firefox");
  if (!found) return found.error();
  std::unique_ptr<Firefox> f(new Firefox(std::move(*found)));
  {
    std::ofstream prefs(fs::path(f->profile_dir_) / "user.js");
    prefs << firefox_user_js();
    if (!prefs) return make_error(ErrorKind::Io, fmt::format("cannot write {}/user.js", f->profile_dir_));
  }
  process::Options po;
  po.argv = {f->program_, "--headless", "--no-remote", "--profile", f->profile_dir_, "--remote-debugging-port=0",
             "about:blank"};
  po.env = options.env;
  po.env.emplace_back("MOZ_CRASHREPORTER_DISABLE=1");
  po.log = f->profile_dir_ + "/firefox.log";
  auto child = process::Child::spawn(po);
  if (!child) return make_error(ErrorKind::NoAdapter, child.error().message);
  f->child_ = std::move(*child);

  const auto deadline = deadline_in(options.start_timeout);
  int port = 0;
  while ((port = bidi_port_of(f->profile_dir_)) == 0) {
    if (auto exit = f->child_.poll()) {
      return make_error(ErrorKind::NoAdapter, fmt::format("{} exited ({}) before WebDriver BiDi listened: {}",
                                                          f->program_, exit->describe(), f->log_tail()));
    }
    if (Clock::now() >= deadline) {
      return make_error(ErrorKind::Failed, fmt::format("{} did not open WebDriver BiDi within {} s: {}", f->program_,
                                                       options.start_timeout.count() / 1000, f->log_tail()));
    }
    std::this_thread::sleep_for(50ms);
  }
  auto ws = WebSocket::connect("127.0.0.1", port, "/session", deadline_in(10s));
  if (!ws) return ws.error();
  f->ws_ = std::move(*ws);
  auto session = f->call("session.new", {{"capabilities", json::object()}}, deadline_in(30s));
  if (!session) return session.error();
  const BidiSession caps = read_bidi_session(*session);
  f->version_ = caps.browser_version;
  f->user_agent_ = caps.user_agent;
  auto tree = f->call("browsingContext.getTree", json::object(), deadline_in(30s));
  if (!tree) return tree.error();
  const auto context = first_context(*tree);
  if (!context) return make_error(ErrorKind::Failed, "Firefox's WebDriver BiDi session has no browsing context");
  f->context_ = *context;
  return f;
}

Firefox::~Firefox() {
  if (ws_.is_open()) {
    // Best effort: session.end and browser.close let Firefox leave cleanly; the group ends anyway.
    (void)ws_.send_text(json{{"id", next_id_++}, {"method", "browser.close"}, {"params", json::object()}}.dump(),
                        deadline_in(1s));
    ws_.close();
  }
  if (child_.running()) (void)child_.wait(process::deadline_in(5s));
  child_.terminate(0ms);
  if (!profile_dir_.empty()) {
    std::error_code ec;
    fs::remove_all(profile_dir_, ec);
  }
}

std::string Firefox::log_tail() const {
  // Headless Firefox's harmless complaints about a compositor it does not need.
  return child_.log_tail(3, [](std::string_view l) {
    return l.find("headless mode") != std::string_view::npos || l.find("RenderCompositorSWGL") != std::string_view::npos;
  });
}

Error Firefox::gone(const std::string& what, const Error& e) {
  // A closed connection usually means the browser itself went away: say how, with its log.
  if (auto exit = child_.poll()) {
    return make_error(ErrorKind::Failed, fmt::format("{}: Firefox {} ({})", what, exit->describe(), log_tail()));
  }
  return make_error(e.kind, fmt::format("{}: {}", what, e.message));
}

Expected<json> Firefox::call(const std::string& method, const json& params, Deadline deadline) {
  const int id = next_id_++;
  if (auto st = ws_.send_text(protocol_command(id, method, params), deadline); !st) return gone(method, st.error());
  for (;;) {
    auto text = ws_.receive(deadline);
    if (!text) return gone(method, text.error());
    const ProtocolMessage reply = read_bidi_message(*text);
    if (!reply.is_object || reply.id != id) continue;  // events, late answers
    if (reply.error) return make_error(ErrorKind::Failed, fmt::format("{}: {}", method, *reply.error));
    return reply.result;
  }
}

Status Firefox::navigate(const std::string& url, Deadline deadline) {
  auto r = call("browsingContext.navigate", {{"context", context_}, {"url", url}, {"wait", "complete"}}, deadline);
  if (!r) return make_error(r.error().kind, fmt::format("cannot load {}: {}", url, r.error().message));
  return ok();
}

Expected<json> Firefox::evaluate(const std::string& expression, Deadline deadline) {
  // BiDi answers with its own typed serialization; JSON text made in the page is simpler to read.
  const std::string wrapped =
      fmt::format("(async () => {{ const v = await ({}); return v === undefined ? 'null' : JSON.stringify(v); }})()",
                  expression);
  auto r = call("script.evaluate",
                {{"expression", wrapped}, {"target", {{"context", context_}}}, {"awaitPromise", true},
                 {"resultOwnership", "none"}},
                deadline);
  if (!r) return r.error();
  Evaluated e = read_bidi_evaluation(*r);
  if (e.exception) return make_error(ErrorKind::Failed, fmt::format("JavaScript error: {}", *e.exception));
  return std::move(e.value);
}

bool Firefox::transient(const Error& e) const {
  // While a navigation replaces the document BiDi may answer that the realm or context is gone.
  const std::string& m = e.message;
  return PageDriver::transient(e) || m.find("no such frame") != std::string::npos ||
         m.find("dead object") != std::string::npos || m.find("navigat") != std::string::npos;
}

}  // namespace wgb::browser
