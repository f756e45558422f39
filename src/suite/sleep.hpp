// The one way the timed loop idles (idle gaps, cooldowns, transitions): natively the thread sleeps
// (sleep.cpp); the browser engine blocks its worker on the page's timer instead (src/web/).
#pragma once

namespace wgb {

// Sleeps about `ms` milliseconds (callers slice long waits so a cancel is seen promptly).
void sleep_ms(double ms);

}  // namespace wgb
