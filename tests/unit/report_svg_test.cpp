// The SVG chart writer with extreme doubles of every class and very many points: every axis, tick,
// marker, line, label and bar stays bounded in work and output size. Pins the defect where a run
// whose rate was a subnormal double (5e-324) sent the axis ticks into an unbounded loop (a page
// view took 17 GB and never finished).
#include "report/svg.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace wgb::report::svg {
namespace {

using Clock = std::chrono::steady_clock;

const std::vector<double>& extremes() {
  static const std::vector<double> v = {
      std::numeric_limits<double>::denorm_min(),  // 5e-324
      1e-310,                                     // subnormal
      std::numeric_limits<double>::min(),         // smallest normal
      1e-300,
      1e-30,
      -0.0,
      0.0,
      1.0,
      1e15,
      1e300,
      std::numeric_limits<double>::max(),
      -std::numeric_limits<double>::max(),
      -1e-310,
      std::numeric_limits<double>::infinity(),
      -std::numeric_limits<double>::infinity(),
      std::numeric_limits<double>::quiet_NaN(),
  };
  return v;
}

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

// One chart over `values` on both axes, each label kind, log and linear.
std::string draw(const std::vector<double>& values, bool log, Axis::Labels labels) {
  Axis x = fit_axis(values, "x", log, labels, "B/s");
  Axis y = fit_axis(values, "y", log, labels, "B/s");
  Plot plot("p", "t", x, y);
  std::vector<std::pair<double, double>> pts;
  for (double v : values) pts.emplace_back(v, v);
  plot.line(pts, "l");
  for (double v : values) {
    plot.point(v, v, "d", "tip");
    plot.whisker(v, v / 2, v * 2, "w");
    plot.label(v, v, "label");
    plot.segment(v, v, -v, v, "s");
  }
  return plot.render();
}

TEST(Svg, EveryExtremeDoubleAloneAndTogetherDrawsBounded) {
  const auto start = Clock::now();
  for (bool log : {false, true}) {
    for (auto labels : {Axis::Labels::Plain, Axis::Labels::Si, Axis::Labels::Binary}) {
      for (double v : extremes()) {
        const std::string one = draw({v}, log, labels);            // one point: min == max
        const std::string same = draw({v, v, v}, log, labels);     // equal min and max
        const std::string pair = draw({v, 1.0}, log, labels);
        for (const auto* s : {&one, &same, &pair}) {
          EXPECT_LT(s->size(), 16u * 1024) << v << " log=" << log;
          EXPECT_LE(count(*s, "class=\"tick\""), 50u) << v;
          EXPECT_EQ(s->find("inf"), std::string::npos) << v << ": " << *s;
          EXPECT_EQ(s->find("nan"), std::string::npos) << v;
        }
      }
      const std::string all = draw(extremes(), log, labels);
      EXPECT_LT(all.size(), 32u * 1024);
    }
  }
  // Hundreds of charts: well under a second on any machine; a loop that depends on the value
  // would never end (the test binary's timeout catches it).
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(20));
}

TEST(Svg, AxesAreFiniteAndOrdered) {
  for (bool log : {false, true}) {
    for (double v : extremes()) {
      for (const auto& values : {std::vector<double>{v}, std::vector<double>{v, 1e-3}, std::vector<double>{-v, v}}) {
        const Axis a = fit_axis(values, "a", log);
        EXPECT_TRUE(std::isfinite(a.min) && std::isfinite(a.max)) << v;
        EXPECT_LT(a.min, a.max) << v << " log=" << log;
        if (log) {
          EXPECT_GT(a.min, 0) << v;
        }
        EXPECT_FALSE(std::signbit(a.min) && a.min == 0) << "-0 axis start";
      }
    }
  }
}

TEST(Svg, CoordinatesStayShortForHugeScales) {
  // A hand-made axis of a tiny span: the scale maps 1e300 to ~1e600 user units; every coordinate
  // is clamped to a few digits instead of printing hundreds.
  Axis x{.label = "x", .log = false, .min = 0, .max = 1e-300};
  Axis y{.label = "y", .log = false, .min = 1, .max = 1};  // degenerate: max == min
  Plot plot("p", "t", x, y);
  plot.point(1e300, 1e300, "d", "tip");
  plot.line({{0, 0}, {1e300, -1e300}}, "l");
  const std::string s = plot.render();
  EXPECT_LT(s.size(), 4096u);
  EXPECT_EQ(s.find("00000000000000"), std::string::npos) << s;
}

TEST(Svg, AMillionPointsStaySmall) {
  std::vector<double> xs(1'000'000);
  std::vector<std::pair<double, double>> pts(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    xs[i] = 1.0 + static_cast<double>(i);
    pts[i] = {xs[i], std::sqrt(xs[i])};
  }
  const auto start = Clock::now();
  Plot plot("p", "t", fit_axis(xs, "x", true), fit_axis(xs, "y", false));
  plot.line(pts, "l");
  for (const auto& [x, y] : pts) {
    plot.point(x, y, "d", "");
    plot.label(x, y, "l");
  }
  const std::string s = plot.render();
  EXPECT_LT(s.size(), 1u << 20) << "a million points drew " << s.size() << " bytes";
  EXPECT_NE(s.find("more points not drawn"), std::string::npos);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(10));
}

TEST(Svg, BarChartsAreBounded) {
  std::vector<Bar> bars;
  for (double v : extremes()) bars.push_back({.label = "b", .value = v, .low = v / 2, .high = v * 2});
  const std::string few = bar_chart("b", "t", bars, "B");
  EXPECT_LT(few.size(), 16u * 1024);
  EXPECT_EQ(few.find("nan\""), std::string::npos);
  // 1e308 B/s written with every digit would be ~300 characters.
  EXPECT_EQ(few.find("00000000000000"), std::string::npos) << few;

  std::vector<Bar> many(1'000'000, Bar{.label = "b", .value = 1e9});
  const std::string s = bar_chart("b", "t", many, "B");
  EXPECT_LT(s.size(), 1u << 20);
  EXPECT_NE(s.find("more not drawn"), std::string::npos);
}

TEST(Svg, SiCompactIsShortForEveryDouble) {
  for (double v : extremes()) EXPECT_LT(si_compact(v).size(), 16u) << v << " -> " << si_compact(v);
  EXPECT_EQ(si_compact(2.5e9), "2.5G");
}

}  // namespace
}  // namespace wgb::report::svg
