// A broken calling contract (a programming error, never bad input): natively a std::logic_error
// that tests can expect; in a build without exceptions (the browser engine) a message and abort.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace wgb::measure {

[[noreturn]] inline void contract_violation(const char* what) {
#if defined(__cpp_exceptions)
  throw std::logic_error(what);
#else
  std::fprintf(stderr, "%s\n", what);
  std::abort();
#endif
}

}  // namespace wgb::measure
