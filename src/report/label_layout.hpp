// Where a chart's text labels go: each label beside its point, never over a label placed before
// and never outside the plot area. Points that crowd one spot (kernels drawn at a roofline's edge,
// a cluster of equal rates) get their labels stacked above and below the point on the side that
// has room; a label that fits nowhere is left out, and the caller says which (the point keeps its
// tooltip). Pure geometry in pixels: report/svg.cpp draws, this decides.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace wgb::report::labels {

struct Box {
  double x = 0, y = 0, w = 0, h = 0;  // top-left corner and size, in pixels
  bool overlaps(const Box& o) const { return x < o.x + o.w && o.x < x + w && y < o.y + o.h && o.y < y + h; }
  bool inside(const Box& area) const {
    return x >= area.x && y >= area.y && x + w <= area.x + area.w && y + h <= area.y + area.h;
  }
};

// The width of `text` at the charts' label size (11 px system-ui): a conservative per-character
// estimate, so that estimated boxes that do not overlap do not overlap on screen either.
double text_width(std::string_view text);
inline constexpr double kLabelHeight = 15;  // an 11 px font's box with its ascent and descent, and a gap

// The box of a label for the point (px, py) that fits inside `area` and overlaps none of `placed`:
// right of the point, then left of it, then stacked in steps of one line above and below on either
// side (nearest first), up to `max_steps` lines away. nullopt when there is no such place.
std::optional<Box> place(double px, double py, double width, const Box& area, const std::vector<Box>& placed,
                         int max_steps = 8);

}  // namespace wgb::report::labels
