// The text of the progress bar with an honest ETA (docs/method.md#sampling), a pure function of a
// snapshot of SuiteProgress: the command line draws it on stderr, the browser engine sends it in
// its progress events, so both say the same thing.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>

#include "webgpu_bench/progress.hpp"

namespace wgb::report {

// Everything the bar shows, read from SuiteProgress at one instant.
struct ProgressSnapshot {
  double fraction = 0;                               // SuiteProgress::display_fraction()
  bool finished = false;                             // finish() was called: the only 100 %
  std::optional<double> remaining_s;                 // nullopt: unbounded pause (no ETA)
  std::optional<std::pair<double, double>> range_s;  // empirical uncertainty range
  bool approximate = true;                           // shown with a leading "~"
  std::size_t completed = 0, count = 0;
  std::string current, stage;  // benchmark id and its stage text
};
ProgressSnapshot snapshot(const SuiteProgress& p, std::string current = {}, std::string stage = {});

// "[#####-------]  21% 3/20 ~1m 05s left (50s-1m 20s)  read-linear: sample 2/10". Percent is
// floored and capped at 99 until `finished`; "paused" instead of an ETA while none exists.
std::string format_progress_line(const ProgressSnapshot& s, int bar_width = 24);

// "0.4s", "12s", "3m 05s", "1h 02m": unrounded below one second (still meaningful there).
std::string format_duration(double seconds);

}  // namespace wgb::report
