// Native idling for the timed loop (sleep.hpp).
#include "suite/sleep.hpp"

#include <chrono>
#include <thread>

namespace wgb {

void sleep_ms(double ms) {
  if (ms > 0) std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(ms));
}

}  // namespace wgb
