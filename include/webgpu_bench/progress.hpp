// Progress of a suite run, as seed 000 "Displaying progress" specifies: an event stream from the
// scheduler (ProgressEvent) and the SuiteProgress estimator that turns it into a fraction and an
// honest ETA. The engine never prints; the CLI draws.
#pragma once

#include "measure/progress.hpp"

namespace wgb {
using measure::ProgressEvent;
using measure::SuiteProgress;
}  // namespace wgb
