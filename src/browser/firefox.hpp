// A local headless Firefox driven over WebDriver BiDi (Firefox has no DevTools protocol): a fresh
// profile whose user.js enables WebGPU, `--remote-debugging-port=0` (the port is read from the
// profile's WebDriverBiDiServer.json), one session and its one browsing context as a PageDriver.
// The browser is a process::Child: its content processes end with it.
//
//   auto ff = Firefox::launch({.env = {"VK_DRIVER_FILES=/abs/lvp_icd.json"}});
//   (*ff)->navigate("http://127.0.0.1:8080/run?filter=read-linear&autorun=1", deadline_in(60s));
//   auto done = (*ff)->wait_until("window.wgbState.phase === 'done'", deadline_in(600s), "the run");
#pragma once

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "browser/page_driver.hpp"
#include "browser/runtimes.hpp"
#include "browser/websocket.hpp"
#include "process/child.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::browser {

struct FirefoxOptions {
  // A path, or empty for $WGB_FIREFOX, else the first of firefox-esr, firefox found on PATH.
  std::string program;
  std::vector<std::string> env;                    // process::Options::env for the browser
  std::chrono::milliseconds start_timeout{90000};  // launch to BiDi listening (a slow first start)
};

// The preferences a fresh profile needs for WebGPU (and nothing on first start), as user.js text.
std::string firefox_user_js();

class Firefox : public PageDriver {
 public:
  static Expected<std::unique_ptr<Firefox>> launch(const FirefoxOptions& options);
  ~Firefox() override;  // ends the session, the browser's process group, removes the profile
  Firefox(const Firefox&) = delete;
  Firefox& operator=(const Firefox&) = delete;

  Status navigate(const std::string& url, Deadline deadline) override;
  Expected<nlohmann::json> evaluate(const std::string& expression, Deadline deadline) override;

  const std::string& version() const { return version_; }  // "153.8.0"
  const std::string& user_agent() const { return user_agent_; }
  const std::string& program() const { return program_; }
  pid_t pid() const { return child_.pid(); }
  // The browser's log, last lines (for an error message).
  std::string log_tail() const;

 protected:
  bool transient(const Error& e) const override;

 private:
  explicit Firefox(ProgramAndProfile found)
      : profile_dir_(std::move(found.profile)), program_(std::move(found.program)) {}
  Expected<nlohmann::json> call(const std::string& method, const nlohmann::json& params, Deadline deadline);
  // An error about the connection, completed by what the process says when it is gone.
  Error gone(const std::string& what, const Error& e);

  process::Child child_;
  WebSocket ws_;
  int next_id_ = 1;
  std::string profile_dir_, program_, version_, user_agent_, context_;
};

}  // namespace wgb::browser
