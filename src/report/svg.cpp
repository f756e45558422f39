// SVG chart writer (see svg.hpp).
#include "report/svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "report/label_layout.hpp"
#include "report/table.hpp"

namespace wgb::report::svg {

std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string si_compact(double v) {
  static const char* kBig[] = {"", "k", "M", "G", "T", "P", "E"};
  static const char* kSmall[] = {"", "m", "\u00b5", "n", "p"};
  if (v == 0 || !std::isfinite(v)) return v == 0 ? "0" : "n/a";
  double a = std::fabs(v);
  int p = 0;
  if (a >= 1000) {
    while (a >= 1000 && p < 6) {
      a /= 1000;
      ++p;
    }
    return fmt::format("{}{:g}{}", v < 0 ? "-" : "", std::round(a * 100) / 100, kBig[p]);
  }
  if (a >= 0.01) return fmt::format("{}{:g}", v < 0 ? "-" : "", std::round(a * 1000) / 1000);
  while (a < 1 && p < 4) {
    a *= 1000;
    ++p;
  }
  if (a < 1) return fmt::format("{:.3g}", v);  // below the smallest prefix
  return fmt::format("{}{:g}{}", v < 0 ? "-" : "", std::round(a * 100) / 100, kSmall[p]);
}

namespace {

// Every drawing loop and every number written below is bounded whatever the data: a stored
// document may hold any finite double (subnormal, 1e308, -0) or a million points, and a page must
// stay small and fast. Values are clamped to this magnitude before any arithmetic.
constexpr double kMaxMagnitude = 1e300;
constexpr int kMaxTicks = 24;            // per axis
constexpr std::size_t kMaxLinePoints = 2000;  // per polyline: evenly thinned beyond
constexpr int kMaxMarkers = 2000;        // points per plot: the rest are counted, not drawn
constexpr std::size_t kMaxLabels = 200;  // text labels per plot
constexpr std::size_t kMaxLegend = 32;
constexpr std::size_t kMaxBars = 500;    // bars per chart: the rest are counted, not drawn
constexpr double kMaxCoordinate = 1e5;   // user units: keeps every coordinate a few characters

double clamp_value(double v) { return std::isfinite(v) ? std::clamp(v, -kMaxMagnitude, kMaxMagnitude) : v; }

// A coordinate in user units, finite and a few digits long whatever the scale produced.
double clamp_coordinate(double v) {
  if (std::isnan(v)) return 0;
  return std::clamp(v, -kMaxCoordinate, kMaxCoordinate);
}

double nice_step(double span, int target_ticks) {
  const double raw = span / std::max(1, target_ticks);
  if (!(raw > 0) || !std::isfinite(raw)) return 0;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  if (!(mag > 0) || !std::isfinite(mag)) return 0;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * mag >= raw) return m * mag;
  }
  return 10 * mag;
}

// Text of a number that stays short for any double (fmt's {:.0f} of 1e300 has 301 digits).
std::string short_number(double v) { return fmt::format("{:.4g}", v); }

std::string tick_text(const Axis& a, double v) {
  switch (a.labels) {
    case Axis::Labels::Binary: return std::fabs(v) < 0x1p60 ? format_bytes(v) : short_number(v) + " B";
    case Axis::Labels::Si: return si_compact(v) + a.unit;
    case Axis::Labels::Plain: break;
  }
  return fmt::format("{:g}", v);
}

// The exponent range of a log axis: whole powers of `base` whose values are normal doubles.
double log_base(const Axis& a) { return a.labels == Axis::Labels::Binary ? 2.0 : 10.0; }
double max_exponent(double base) { return base == 2.0 ? 1000 : 300; }

std::vector<double> ticks(const Axis& a) {
  std::vector<double> t;
  if (!std::isfinite(a.min) || !std::isfinite(a.max) || !(a.max > a.min)) return t;
  if (a.log) {
    if (!(a.min > 0)) return t;
    const double base = log_base(a), cap = max_exponent(base);
    const double lo = std::clamp(std::ceil(std::log(a.min) / std::log(base) - 1e-9), -cap, cap);
    const double hi = std::clamp(std::floor(std::log(a.max) / std::log(base) + 1e-9), -cap, cap);
    if (!(hi >= lo)) return t;
    const long n = static_cast<long>(hi - lo) + 1;
    const long step = std::max(1L, (n + 9) / 10);  // at most ~10 labels
    for (long i = 0; i < n && t.size() < static_cast<std::size_t>(kMaxTicks); i += step) {
      t.push_back(std::pow(base, lo + static_cast<double>(i)));
    }
  } else {
    const double step = nice_step(a.max - a.min, 6);
    const double first = step > 0 ? std::ceil(a.min / step) : NAN;
    const double count = step > 0 ? std::floor((a.max + step * 1e-9) / step) - first + 1 : NAN;
    if (!std::isfinite(first) || !std::isfinite(count) || count < 1 || count > kMaxTicks) {
      return {a.min, a.max};  // a span the steps cannot divide sanely: its two ends
    }
    for (int i = 0; i < static_cast<int>(count); ++i) t.push_back((first + i) * step);
  }
  return t;
}

std::string f1(double v) { return fmt::format("{:.1f}", clamp_coordinate(v)); }

// Data never touches the frame: markers at the ends of a range stay whole.
constexpr double kPad = 10;

}  // namespace

Axis fit_axis(const std::vector<double>& values, std::string label, bool log, Axis::Labels labels, std::string unit) {
  Axis a;
  a.label = std::move(label);
  a.log = log;
  a.labels = labels;
  a.unit = std::move(unit);
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (double v : values) {
    if (!std::isfinite(v) || (log && v <= 0)) continue;
    v = clamp_value(v);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (log) {
    if (!(lo <= hi)) {
      lo = 1;
      hi = 10;
    }
    const double base = log_base(a), cap = max_exponent(base);
    const double e_lo = std::clamp(std::floor(std::log(lo) / std::log(base) + 1e-9), -cap, cap);
    double e_hi = std::clamp(std::ceil(std::log(hi) / std::log(base) - 1e-9), -cap, cap);
    if (e_hi <= e_lo) e_hi = e_lo + 1;
    a.min = std::pow(base, e_lo);
    a.max = std::pow(base, e_hi);
  } else {
    if (!(lo <= hi)) {
      lo = 0;
      hi = 1;
    }
    a.min = std::min(0.0, lo);
    // A span too small to divide (all values 0, or subnormal) becomes [min, min + 1].
    const double span = hi - a.min;
    const double step = span > std::max(1e-300, std::fabs(hi) * 1e-12) ? nice_step(span, 6) : 0;
    a.max = step > 0 ? std::ceil(hi / step) * step : a.min + 1;
    if (!std::isfinite(a.max) || a.max <= a.min) a.max = a.min + std::max(1.0, std::fabs(a.min));
  }
  if (a.min == 0) a.min = 0;  // -0 prints as "-0"
  return a;
}

Plot::Plot(std::string id, std::string title, Axis x, Axis y, int width, int height)
    : id_(std::move(id)), title_(std::move(title)), x_(std::move(x)), y_(std::move(y)), w_(width), h_(height) {}

double Plot::sx(double x) const {
  const double f = x_.log ? (std::log(x) - std::log(x_.min)) / (std::log(x_.max) - std::log(x_.min))
                          : (x - x_.min) / (x_.max - x_.min);
  return left_ + kPad + f * (w_ - left_ - right_ - 2 * kPad);
}

double Plot::sy(double y) const {
  const double f = y_.log ? (std::log(y) - std::log(y_.min)) / (std::log(y_.max) - std::log(y_.min))
                          : (y - y_.min) / (y_.max - y_.min);
  return h_ - bottom_ - kPad - f * (h_ - top_ - bottom_ - 2 * kPad);
}

void Plot::line(const std::vector<std::pair<double, double>>& pts, const std::string& css_class, const std::string& title) {
  std::string d;
  // A polyline of more points than a chart has pixels draws nothing more: keep every k-th point
  // (and the last), so a million points cost what kMaxLinePoints do.
  const std::size_t stride = pts.size() / kMaxLinePoints + 1;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    if (i % stride != 0 && i + 1 != pts.size()) continue;
    const auto [x, y] = pts[i];
    if ((x_.log && x <= 0) || (y_.log && y <= 0) || !std::isfinite(x) || !std::isfinite(y)) continue;
    d += fmt::format("{}{},{}", d.empty() ? "" : " ", f1(sx(x)), f1(sy(y)));
  }
  if (d.empty()) return;
  body_ += fmt::format("<polyline class=\"{}\" points=\"{}\">{}</polyline>\n", escape(css_class), d,
                       title.empty() ? "" : "<title>" + escape(title) + "</title>");
}

void Plot::segment(double x0, double y0, double x1, double y1, const std::string& css_class) {
  body_ += fmt::format("<line class=\"{}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n", escape(css_class), f1(sx(x0)),
                       f1(sy(y0)), f1(sx(x1)), f1(sy(y1)));
}

void Plot::point(double x, double y, const std::string& css_class, const std::string& tooltip, bool hollow) {
  if ((x_.log && x <= 0) || (y_.log && y <= 0) || !std::isfinite(x) || !std::isfinite(y)) return;
  if (points_ >= kMaxMarkers) {
    ++dropped_;
    return;
  }
  ++points_;
  body_ += fmt::format("<circle class=\"{}{}\" cx=\"{}\" cy=\"{}\" r=\"5\"><title>{}</title></circle>\n",
                       escape(css_class), hollow ? " hollow" : "", f1(sx(x)), f1(sy(y)), escape(tooltip));
}

void Plot::whisker(double x, double y_low, double y_high, const std::string& css_class) {
  if (points_ >= kMaxMarkers) return;  // whiskers go with markers: bounded the same way
  if ((y_.log && (y_low <= 0 || y_high <= 0)) || (x_.log && x <= 0) || !(y_high > y_low)) return;
  const double px = sx(x), a = sy(y_low), b = sy(y_high);
  body_ += fmt::format(
      "<path class=\"{}\" d=\"M{} {}V{}M{} {}H{}M{} {}H{}\"/>\n", escape(css_class), f1(px), f1(a), f1(b), f1(px - 4),
      f1(a), f1(px + 4), f1(px - 4), f1(b), f1(px + 4));
}

bool Plot::label(double x, double y, const std::string& text, const std::string& css_class) {
  if ((x_.log && x <= 0) || (y_.log && y <= 0) || !std::isfinite(x) || !std::isfinite(y)) return false;
  if (labels_.size() >= kMaxLabels) return false;  // the placement below is quadratic in the labels
  // Placement (report/label_layout.hpp): beside the point, never over an earlier label, never
  // outside the plot; false when there is no room (the caller names the point elsewhere).
  std::vector<labels::Box> placed;
  placed.reserve(labels_.size());
  for (const auto& l : labels_) placed.push_back({l[0], l[1], l[2], labels::kLabelHeight});
  const labels::Box area{static_cast<double>(left_), static_cast<double>(top_),
                         static_cast<double>(w_ - left_ - right_), static_cast<double>(h_ - top_ - bottom_)};
  const auto box = labels::place(sx(x), sy(y), labels::text_width(text), area, placed);
  if (!box) return false;
  labels_.push_back({box->x, box->y, box->w});
  // A label moved up or down from its point gets a thin leader to it.
  const double mid = box->y + box->h / 2;
  if (std::fabs(mid - sy(y)) > 4) {
    const bool right = box->x > sx(x);
    body_ += fmt::format("<line class=\"leader\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n",
                         f1(sx(x) + (right ? 4 : -4)), f1(sy(y)), f1(right ? box->x : box->x + box->w), f1(mid));
  }
  body_ += fmt::format("<text class=\"{}\" x=\"{}\" y=\"{}\">{}</text>\n", escape(css_class), f1(box->x + 1),
                       f1(box->y + box->h - 4), escape(text));
  return true;
}

void Plot::legend(const std::vector<std::pair<std::string, std::string>>& entries) {
  legend_.assign(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(std::min(entries.size(), kMaxLegend)));
}

std::string Plot::render() const {
  const double x0 = left_, x1 = w_ - right_, y0 = top_, y1 = h_ - bottom_;
  const int total_h = h_ + (legend_.empty() ? 0 : 22);  // the legend sits in a row under the plot
  std::string s = fmt::format(
      "<svg id=\"{}\" class=\"chart\" role=\"img\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\">\n"
      "<title>{}</title>\n<text class=\"ttl\" x=\"{}\" y=\"20\">{}</text>\n"
      "<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n",
      escape(id_), w_, total_h, w_, total_h, escape(title_), left_, escape(title_), f1(x0), f1(y0), f1(x1 - x0),
      f1(y1 - y0));
  for (double t : ticks(x_)) {
    const double px = sx(t);
    s += fmt::format("<line class=\"grid\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/><text class=\"tick\" x=\"{0}\" "
                     "y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
                     f1(px), f1(y0), f1(y1), f1(y1 + 16), escape(tick_text(x_, t)));
  }
  for (double t : ticks(y_)) {
    const double py = sy(t);
    s += fmt::format("<line class=\"grid\" x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\"/><text class=\"tick\" x=\"{3}\" "
                     "y=\"{4}\" text-anchor=\"end\">{5}</text>\n",
                     f1(x0), f1(py), f1(x1), f1(x0 - 6), f1(py + 4), escape(tick_text(y_, t)));
  }
  s += fmt::format("<text class=\"axis\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", f1((x0 + x1) / 2),
                   h_ - 12, escape(x_.label));
  s += fmt::format("<text class=\"axis\" transform=\"translate(16 {}) rotate(-90)\" text-anchor=\"middle\">{}</text>\n",
                   f1((y0 + y1) / 2), escape(y_.label));
  s += fmt::format("<svg x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"{} {} {} {}\" overflow=\"hidden\">\n",
                   f1(x0), f1(y0), f1(x1 - x0), f1(y1 - y0), f1(x0), f1(y0), f1(x1 - x0), f1(y1 - y0));
  s += body_;
  if (dropped_ > 0) {
    s += fmt::format("<text class=\"lbl\" x=\"{}\" y=\"{}\">{} more points not drawn</text>\n", f1(x0 + 6),
                     f1(y0 + 14), dropped_);
  }
  s += "</svg>\n";
  double lx = x0;
  const double ly = h_ + 12;
  for (const auto& [cls, text] : legend_) {
    s += fmt::format("<rect class=\"{}\" x=\"{}\" y=\"{}\" width=\"12\" height=\"4\"/><text class=\"lbl\" x=\"{}\" "
                     "y=\"{}\">{}</text>\n",
                     escape(cls), f1(lx), f1(ly - 4), f1(lx + 16), f1(ly), escape(text));
    lx += 16 + 6.2 * static_cast<double>(text.size()) + 18;
  }
  s += "</svg>\n";
  return s;
}

std::string bar_chart(const std::string& id, const std::string& title, const std::vector<Bar>& bars,
                      const std::string& unit, int width) {
  const int row_h = 26, top = 34, label_w = 220, right = 110;
  const std::size_t shown = std::min(bars.size(), kMaxBars);
  const int height = top + row_h * static_cast<int>(shown) + 30 + (shown < bars.size() ? row_h : 0);
  double vmax = 0;
  for (std::size_t i = 0; i < shown; ++i) {
    for (double v : {bars[i].value, bars[i].high}) {
      if (std::isfinite(v)) vmax = std::max(vmax, clamp_value(v));
    }
  }
  if (!(vmax > 0)) vmax = 1;
  const double plot_w = width - label_w - right;
  auto px = [&](double v) {
    const double f = std::isfinite(v) ? std::max(0.0, clamp_value(v)) / vmax : 0.0;
    return label_w + std::min(f, 1.0) * plot_w;
  };
  // format_rate writes every digit of its mantissa: beyond the largest prefix, a short exponent.
  auto value_text = [&unit](double v) {
    return std::isfinite(v) && std::fabs(v) >= 1e21 ? short_number(v) + " " + unit + "/s" : format_rate(v, unit);
  };
  std::string s = fmt::format(
      "<svg id=\"{}\" class=\"chart bars\" role=\"img\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\">\n"
      "<title>{}</title>\n<text class=\"ttl\" x=\"8\" y=\"20\">{}</text>\n",
      escape(id), width, height, width, height, escape(title), escape(title));
  for (std::size_t i = 0; i < shown; ++i) {
    const auto& b = bars[i];
    const double y = top + row_h * static_cast<double>(i);
    s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", label_w - 8, f1(y + 16),
                     escape(b.label));
    s += fmt::format("<rect class=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"18\"><title>{}</title></rect>\n",
                     escape(b.css_class), label_w, f1(y + 3), f1(px(b.value) - label_w), escape(b.tooltip));
    if (b.high > b.low && b.low > 0) {
      const double yc = y + 12;
      s += fmt::format("<path class=\"whisker\" d=\"M{0} {1}H{2}M{0} {3}V{4}M{2} {3}V{4}\"/>\n", f1(px(b.low)), f1(yc),
                       f1(px(b.high)), f1(yc - 5), f1(yc + 5));
    }
    s += fmt::format("<text class=\"lbl\" x=\"{}\" y=\"{}\">{}</text>\n", f1(std::max(px(b.value), px(b.high)) + 6),
                     f1(y + 16), escape(value_text(b.value)));
  }
  if (shown < bars.size()) {
    s += fmt::format("<text class=\"lbl\" x=\"8\" y=\"{}\">{} more not drawn</text>\n",
                     top + row_h * static_cast<int>(shown) + 16, bars.size() - shown);
  }
  s += "</svg>\n";
  return s;
}

}  // namespace wgb::report::svg
