// A small SVG chart writer for the HTML report: linear or logarithmic axes with ticks, lines,
// markers with whiskers, and horizontal bar charts. Every string that reaches the output is
// escaped. Produces inline <svg> elements (no scripts, no external references). Bounded for any
// input: whatever the doubles (subnormal, huge, NaN, -0, equal min and max) and however many
// points, every loop runs a bounded number of times and the output stays small (svg.cpp's kMax*).
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace wgb::report::svg {

// Escapes & < > " ' for text and attribute values (HTML and SVG alike).
std::string escape(std::string_view s);

struct Axis {
  std::string label;
  bool log = false;
  double min = 0, max = 1;
  enum class Labels { Plain, Si, Binary } labels = Labels::Plain;  // "0.5", "3G", "16 KiB"
  std::string unit;  // appended to Si tick labels: "B/s" -> "100GB/s"
};

// An axis covering `values` (non-positive and non-finite values ignored on log axes): log axes
// snap to whole decades (powers of two for Binary), linear axes start at 0 and end at a nice step.
Axis fit_axis(const std::vector<double>& values, std::string label, bool log, Axis::Labels labels = Axis::Labels::Plain,
              std::string unit = {});

// Compact tick text: 1e9 -> "1G", 2.5e6 -> "2.5M", 0.25 -> "0.25".
std::string si_compact(double v);

class Plot {
 public:
  Plot(std::string id, std::string title, Axis x, Axis y, int width = 760, int height = 430);
  double sx(double x) const;
  double sy(double y) const;
  // A polyline through the points inside the plot (log axes drop non-positive values).
  void line(const std::vector<std::pair<double, double>>& pts, const std::string& css_class, const std::string& title = {});
  // A dashed line between two points in data space.
  void segment(double x0, double y0, double x1, double y1, const std::string& css_class);
  void point(double x, double y, const std::string& css_class, const std::string& tooltip, bool hollow = false);
  void whisker(double x, double y_low, double y_high, const std::string& css_class);
  // A text label beside a data point, inside the plot area and over no other label
  // (report/label_layout.hpp); false, and nothing drawn, when there is no room for it.
  bool label(double x, double y, const std::string& text, const std::string& css_class = "lbl");
  void legend(const std::vector<std::pair<std::string, std::string>>& entries);  // (css class, text)
  std::string render() const;
  int points() const { return points_; }

 private:
  std::string id_, title_;
  Axis x_, y_;
  int w_, h_;
  int left_ = 84, right_ = 20, top_ = 34, bottom_ = 52;
  std::string body_;
  std::vector<std::pair<std::string, std::string>> legend_;
  std::vector<std::array<double, 3>> labels_;  // placed labels: x, y, width (collision avoidance)
  int points_ = 0;
  int dropped_ = 0;  // markers beyond the per-plot bound: counted in a note, not drawn
};

struct Bar {
  std::string label;
  double value = 0, low = 0, high = 0;  // whisker from low to high (0: none)
  std::string tooltip;
  std::string css_class = "bar";
};
// Horizontal bars with whiskers, one per entry, scaled to the largest high/value; value labels use
// SI prefixes and `unit`.
std::string bar_chart(const std::string& id, const std::string& title, const std::vector<Bar>& bars,
                      const std::string& unit, int width = 760);

}  // namespace wgb::report::svg
