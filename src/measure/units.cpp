// Sizes as a person reads them (units.hpp). The standard library only, like the rest of measure.
#include "measure/units.hpp"

#include <cmath>
#include <cstdio>

namespace wgb::measure {

std::string format_bytes(double bytes) {
  static const char* kUnit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  if (!std::isfinite(bytes) || bytes < 0) return "n/a";
  int p = 0;
  double v = bytes;
  while (v >= 1024.0 && p < 5) {
    v /= 1024.0;
    ++p;
  }
  const int decimals = v == std::floor(v) ? 0 : v >= 100 ? 0 : v >= 10 ? 1 : 2;
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f %s", decimals, v, kUnit[p]);
  return buf;
}

}  // namespace wgb::measure
