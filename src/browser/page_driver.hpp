// What automation needs of a page in a headless browser, whatever protocol reaches it: Chromium's
// DevTools protocol (cdp.hpp) or WebDriver BiDi in Firefox (bidi.hpp). The /run page is driven the
// same way in both: navigate, then read window.wgbState until the run ends.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "browser/websocket.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::browser {

class PageDriver {
 public:
  virtual ~PageDriver() = default;
  // Loads `url` and waits until the document is complete.
  virtual Status navigate(const std::string& url, Deadline deadline) = 0;
  // The value of a JavaScript expression as JSON (a promise is awaited); an exception is an error
  // with its text.
  virtual Expected<nlohmann::json> evaluate(const std::string& expression, Deadline deadline) = 0;
  // Evaluates `expression` every `poll` until its value is truthy and returns that value; `what`
  // names the condition in the timeout error. A navigation between two polls is not an error.
  Expected<nlohmann::json> wait_until(const std::string& expression, Deadline deadline, const std::string& what,
                                      std::chrono::milliseconds poll = std::chrono::milliseconds(100));

 protected:
  // Whether an evaluation error only means the document was being replaced (the next poll answers).
  virtual bool transient(const Error& e) const;
};

}  // namespace wgb::browser
