// Label placement for the charts (see label_layout.hpp).
#include "report/label_layout.hpp"

#include <algorithm>
#include <cmath>

namespace wgb::report::labels {

double text_width(std::string_view text) {
  // 11 px system-ui: digits and lower-case letters average ~6 px; 6.6 keeps a margin for wide
  // glyphs (m, w, capitals) so that boxes estimated apart stay apart when drawn.
  return 6.6 * static_cast<double>(text.size()) + 2;
}

std::optional<Box> place(double px, double py, double width, const Box& area, const std::vector<Box>& placed,
                         int max_steps) {
  constexpr double kGap = 7;  // from the point's centre to the label (the marker's radius is 5)
  const double h = kLabelHeight;
  // Prefer the side with more room first: labels of points in the right part of the plot go left.
  const bool left_first = px > area.x + 0.6 * area.w;
  for (int step = 0; step <= max_steps; ++step) {
    for (int sign : {-1, 1}) {
      if (step == 0 && sign == 1) continue;
      const double dy = sign * step * h;
      for (int side = 0; side < 2; ++side) {
        const bool left = (side == 0) == left_first;
        Box b{left ? px - kGap - width : px + kGap, py - h / 2 + dy, width, h};
        if (!b.inside(area)) continue;
        if (std::any_of(placed.begin(), placed.end(), [&](const Box& o) { return o.overlaps(b); })) continue;
        return b;
      }
    }
  }
  return std::nullopt;
}

}  // namespace wgb::report::labels
