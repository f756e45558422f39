// PageDriver::wait_until (page_driver.hpp), shared by the DevTools and the BiDi clients.
#include "browser/page_driver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <thread>

namespace wgb::browser {

using namespace std::chrono_literals;

bool PageDriver::transient(const Error& e) const {
  const std::string& m = e.message;
  return m.find("context") != std::string::npos || m.find("timed out") != std::string::npos;
}

Expected<nlohmann::json> PageDriver::wait_until(const std::string& expression, Deadline deadline,
                                                const std::string& what, std::chrono::milliseconds poll) {
  for (;;) {
    // A single evaluation never outlives the deadline, and a stuck one gets at most 30 s.
    auto v = evaluate(expression, std::min(deadline, deadline_in(30s)));
    if (!v) {
      // A navigation replaces the document between two polls: its context is gone, the next one
      // answers. Anything else (an exception, a crash, a closed browser) ends the wait.
      if (!transient(v.error())) return v.error();
    } else if (!(v->is_null() || (v->is_boolean() && !v->get<bool>()) ||
                 (v->is_string() && v->get<std::string>().empty()) || (v->is_number() && v->get<double>() == 0))) {
      return v;
    }
    if (Clock::now() >= deadline) return make_error(ErrorKind::Failed, fmt::format("timed out waiting for {}", what));
    std::this_thread::sleep_for(poll);
  }
}

}  // namespace wgb::browser
