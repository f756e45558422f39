// A Chrome DevTools protocol client for driving a local headless Chromium: launch it with a private
// profile and --remote-debugging-port=0 (the port is read from DevToolsActivePort), open a page,
// navigate, evaluate JavaScript (promises awaited), wait for a condition, hide and show the page,
// and kill the browser (its whole process group) when the Browser object goes away. Loopback only;
// every wait has a deadline and fails with a sentence naming what it waited for.
//
//   auto b = Browser::launch_with_adapter({});   // retries once when the browser finds no adapter
//   auto page = (*b)->new_page(deadline_in(10s));
//   page->navigate("http://127.0.0.1:8080/run?filter=read-*&autorun=1", deadline_in(30s));
//   auto done = page->wait_until("window.wgbState && window.wgbState.phase === 'done'", deadline_in(600s));
#pragma once

#include <sys/types.h>

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "browser/page_driver.hpp"
#include "browser/protocol_messages.hpp"
#include "browser/runtimes.hpp"
#include "browser/websocket.hpp"
#include "process/child.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::browser {

struct LaunchOptions {
  // The program: a path, or empty for $WGB_CHROMIUM, else the first of chromium, chromium-browser,
  // google-chrome found on PATH.
  std::string chromium;
  bool unsafe_webgpu = true;  // --enable-unsafe-webgpu: without it Chromium on Linux offers no adapter
  std::vector<std::string> extra_flags;
  std::chrono::milliseconds start_timeout{30000};  // launch to DevTools listening
};

class Page;

class Browser {
 public:
  static Expected<std::unique_ptr<Browser>> launch(const LaunchOptions& options);
  // launch(), then ask navigator.gpu for an adapter on a blank page; when there is none (about one
  // start in 50 on SwiftShader) close this browser and start a second one. An error (NoAdapter) when
  // the second finds none either, with the page's reason.
  static Expected<std::unique_ptr<Browser>> launch_with_adapter(const LaunchOptions& options);
  ~Browser();  // closes the browser, kills its process group, removes the profile
  Browser(const Browser&) = delete;
  Browser& operator=(const Browser&) = delete;

  Expected<std::unique_ptr<Page>> new_page(Deadline deadline);
  // A command on the browser target (session_id empty) or on a page's session.
  Expected<nlohmann::json> call(const std::string& method, const nlohmann::json& params, const std::string& session_id,
                                Deadline deadline);
  std::string version() const { return version_; }  // "Chrome/156.0..."
  std::string user_agent() const { return user_agent_; }
  int port() const { return port_; }
  pid_t pid() const { return child_.pid(); }
  const std::string& program() const { return program_; }
  // The last lines of the browser's own log (without D-Bus noise), for error reports.
  std::string log_tail() const;
  // Console messages and uncaught exceptions of a session's page (the last 200), for error reports.
  std::vector<std::string> console(const std::string& session_id) const;

 private:
  explicit Browser(ProgramAndProfile found)
      : profile_dir_(std::move(found.profile)), program_(std::move(found.program)) {}
  void handle_event(const ProtocolMessage& message);
  void shut_down();

  process::Child child_;  // its own process group: the helpers end with it
  int port_ = 0;
  std::string profile_dir_, program_, version_, user_agent_;
  WebSocket ws_;
  int next_id_ = 1;
  std::map<std::string, std::deque<std::string>> console_;
  std::map<std::string, std::string> crashed_;  // session -> why
};

class Page : public PageDriver {
 public:
  Page(Browser& browser, std::string target_id, std::string session_id)
      : browser_(browser), target_id_(std::move(target_id)), session_id_(std::move(session_id)) {}
  // Loads `url` and waits for document.readyState "complete".
  Status navigate(const std::string& url, Deadline deadline) override;
  // The value of a JavaScript expression (a promise is awaited); an exception is an error with its text.
  Expected<nlohmann::json> evaluate(const std::string& expression, Deadline deadline) override;
  // Runs `source` in every document this page loads from now on, before the page's own scripts (in
  // the page's main thread only, not its workers).
  Status add_init_script(const std::string& source, Deadline deadline);
  // Hides the page (document.visibilityState "hidden", as a background tab) or shows it again.
  Status set_hidden(bool hidden, Deadline deadline);
  const std::string& session_id() const { return session_id_; }
  std::vector<std::string> console() const { return browser_.console(session_id_); }

 private:
  Browser& browser_;
  std::string target_id_, session_id_;
};

}  // namespace wgb::browser
