// Sizes as a person reads them, shared by the suite (sweep points) and every reporter.
#pragma once

#include <string>

namespace wgb::measure {

// Binary sizes: "16 KiB", "1 GiB", "1.50 MiB", "100 B"; "n/a" for a negative or non-finite value.
std::string format_bytes(double bytes);

}  // namespace wgb::measure
