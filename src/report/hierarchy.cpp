// The inference of memory levels from latency and bandwidth curves (hierarchy.hpp,
// docs/method.md#hierarchy), its document section and its table.
#include "report/hierarchy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <string_view>

#include "report/facts.hpp"
#include "report/files.hpp"
#include "report/model.hpp"
#include "report/noise.hpp"
#include "report/table.hpp"

namespace wgb::report::hierarchy {

namespace {

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double hi = v[mid];
  if (v.size() % 2 == 1) return hi;
  return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid)) + hi) / 2;
}

constexpr double kInf = std::numeric_limits<double>::infinity();
// The largest relative spread of a level's points that still gives it a value.
constexpr double kMaxSpread = 0.5;

double median3(double a, double b, double c) { return std::max(std::min(a, b), std::min(std::max(a, b), c)); }

// A running median of three: a lone outlier never survives it, and a monotone stretch (a step or a
// ramp) comes out unchanged. The ends use Tukey's rule (the median of the end point, its smoothed
// neighbour and the straight line through the next two), so a last point alone cannot make a step.
std::vector<double> smooth(const std::vector<double>& z) {
  const std::size_t n = z.size();
  std::vector<double> m = z;
  if (n < 3) return m;
  for (std::size_t i = 1; i + 1 < n; ++i) m[i] = median3(z[i - 1], z[i], z[i + 1]);
  if (n >= 4) {
    m[0] = median3(z[0], m[1], 3 * m[1] - 2 * m[2]);
    m[n - 1] = median3(z[n - 1], m[n - 2], 3 * m[n - 2] - 2 * m[n - 3]);
  }
  return m;
}

// Exact least-squares segmentation into constant pieces (optimal partitioning): minimises the
// weighted squared residuals plus `penalty` per piece. Returns the first index of every piece.
std::vector<std::size_t> segment(const std::vector<double>& m, const std::vector<double>& sigma, double penalty) {
  const std::size_t n = m.size();
  std::vector<double> w(n + 1, 0), s(n + 1, 0), q(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const double wi = 1 / (sigma[i] * sigma[i]);
    w[i + 1] = w[i] + wi;
    s[i + 1] = s[i] + wi * m[i];
    q[i + 1] = q[i] + wi * m[i] * m[i];
  }
  auto cost = [&](std::size_t a, std::size_t b) {  // points a..b-1
    const double sw = w[b] - w[a], sm = s[b] - s[a];
    return std::max(0.0, q[b] - q[a] - sm * sm / sw);
  };
  std::vector<double> best(n + 1, std::numeric_limits<double>::infinity());
  std::vector<std::size_t> from(n + 1, 0);
  best[0] = 0;
  for (std::size_t j = 1; j <= n; ++j) {
    for (std::size_t i = 0; i < j; ++i) {
      const double c = best[i] + cost(i, j) + penalty;
      if (c < best[j]) {
        best[j] = c;
        from[j] = i;
      }
    }
  }
  std::vector<std::size_t> starts;
  for (std::size_t j = n; j > 0; j = from[j]) starts.push_back(from[j]);
  std::reverse(starts.begin(), starts.end());
  return starts;
}

// A plateau while it is being built: indices and statistics of the smoothed log values.
struct Run {
  std::size_t first = 0, last = 0;
  double center = 0;  // median of the smoothed log values
  double half_range = 0;
  double sigma = 0;   // median per-point noise
  std::size_t size() const { return last - first + 1; }
};

Run make_run(std::size_t a, std::size_t b, const std::vector<double>& m, const std::vector<double>& sigma) {
  Run r{a, b};
  std::vector<double> v(m.begin() + static_cast<std::ptrdiff_t>(a), m.begin() + static_cast<std::ptrdiff_t>(b) + 1);
  r.center = median_of(v);
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  r.half_range = (*hi - *lo) / 2;
  r.sigma = median_of(
      std::vector<double>(sigma.begin() + static_cast<std::ptrdiff_t>(a), sigma.begin() + static_cast<std::ptrdiff_t>(b) + 1));
  return r;
}

// Whether points a..b rise or fall steeply: a least-squares slope over the index that is more than
// kBand standard errors from zero and would move kMinPlateau points by more than kMinStep. Such a
// piece is part of a transition, never a level, however flat its points are against a wide noise
// band; a slow approach to a level (a cache with random replacement keeping part of a larger
// working set) stays a plateau.
bool sloped(std::size_t a, std::size_t b, const std::vector<double>& m, const std::vector<double>& sigma) {
  const std::size_t n = b - a + 1;
  if (n < 3) return false;
  const double xbar = static_cast<double>(a + b) / 2;
  double sxx = 0, sxy = 0, s2 = 0;
  for (std::size_t i = a; i <= b; ++i) {
    const double dx = static_cast<double>(i) - xbar;
    sxx += dx * dx;
    sxy += dx * m[i];
    s2 += sigma[i] * sigma[i];
  }
  const double slope = sxy / sxx;
  const double se = std::sqrt(s2 / static_cast<double>(n) / sxx);
  return std::abs(slope) > kBand * se && std::abs(slope) * static_cast<double>(kMinPlateau) > std::log1p(kMinStep);
}

// How far two neighbouring plateaus are from being two levels: their difference over the larger
// of (a) kMinStep, (b) kBand standard errors of the difference, (c) twice the narrower one's
// spread (a slow drift cut into pieces steps no more between the pieces than it moves within
// them; the narrower, so that a loose plateau beside a step cannot swallow it). Below 1 they are
// one plateau.
double step_score(const Run& a, const Run& b) {
  const double jump = std::abs(b.center - a.center);
  const double se = std::sqrt(a.sigma * a.sigma / static_cast<double>(a.size()) +
                              b.sigma * b.sigma / static_cast<double>(b.size()));
  const double need = std::max({std::log1p(kMinStep), kBand * se, 2 * std::min(a.half_range, b.half_range)});
  return jump / need;
}

std::string bytes_text(double b) { return format_bytes(b); }

}  // namespace

CurveAnalysis analyse_curve(std::span<const Point> input, Direction direction) {
  CurveAnalysis out;
  for (const auto& p : input) {
    if (std::isfinite(p.footprint) && p.footprint > 0 && std::isfinite(p.value) && p.value > 0) {
      out.points.push_back({p.footprint, p.value, std::isfinite(p.dispersion) ? std::max(0.0, p.dispersion) : 0.0});
    }
  }
  std::sort(out.points.begin(), out.points.end(), [](const Point& a, const Point& b) { return a.footprint < b.footprint; });
  out.points.erase(std::unique(out.points.begin(), out.points.end(),
                               [](const Point& a, const Point& b) { return a.footprint == b.footprint; }),
                   out.points.end());
  const std::size_t n = out.points.size();
  if (n < kMinPlateau) {
    // A curve that was not measured at all needs no note: each level's value says so.
    if (!input.empty()) out.notes.push_back(fmt::format("{} usable points: a plateau needs {}", n, kMinPlateau));
    return out;
  }
  const double sign = direction == Direction::Rising ? 1.0 : -1.0;
  std::vector<double> z(n), sigma(n);
  for (std::size_t i = 0; i < n; ++i) z[i] = sign * std::log(out.points[i].value);
  // The noise of one point: its row's dispersion, the curve's own point-to-point scatter (the
  // median absolute difference of neighbours, as a standard deviation: most neighbours share a
  // plateau, so steps barely move it) and the floor of the rule for two measurements.
  std::vector<double> diffs;
  for (std::size_t i = 0; i + 1 < n; ++i) diffs.push_back(std::abs(z[i + 1] - z[i]));
  const double scatter = 1.4826 * median_of(diffs) / std::sqrt(2.0);
  out.noise = std::max(kNoiseFloor, scatter);
  for (std::size_t i = 0; i < n; ++i) sigma[i] = std::max(out.noise, out.points[i].dispersion);
  const std::vector<double> m = smooth(z);

  // Pieces, then the plateaus among them: pieces flat within the band, of kMinPlateau points, or
  // of two points held between two steps (a level too short to resolve, reported as such).
  const auto starts = segment(m, sigma, 2 * kBand * kBand);
  std::vector<Run> runs;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    const std::size_t a = starts[k], b = (k + 1 < starts.size() ? starts[k + 1] : n) - 1;
    Run r = make_run(a, b, m, sigma);
    auto flat = [&](const Run& x) {
      for (std::size_t i = x.first; i <= x.last; ++i) {
        if (std::abs(m[i] - x.center) > kBand * sigma[i]) return false;
      }
      return true;
    };
    // A piece may carry a transition's first or last points (the segmentation pays a penalty per
    // cut): they are trimmed from its ends, the farther from its median first, while a plateau
    // could remain.
    while (!flat(r) && r.size() > kMinPlateau) {
      const bool front = std::abs(m[r.first] - r.center) >= std::abs(m[r.last] - r.center);
      r = make_run(front ? r.first + 1 : r.first, front ? r.last : r.last - 1, m, sigma);
    }
    if (!flat(r) || sloped(r.first, r.last, m, sigma)) continue;
    if (r.size() >= kMinPlateau) {
      runs.push_back(r);
    } else if (r.size() == 2 && a > 0 && b + 1 < n) {
      // Step, flat, step: the rise inside the pair is small against the rises into and out of it,
      // in the measured points as well as the smoothed ones (a lone outlier beside a gradual rise
      // makes two smoothed points equal: on an H200 an L1 that keeps part of a larger footprint
      // read 99 and 117 ns next to a disturbed 358, and smoothing made both 117).
      const double in = m[a] - m[a - 1], leave = m[b + 1] - m[b];
      const double across = std::max(std::abs(m[b] - m[a]), std::abs(z[b] - z[a]));
      if (in * leave > 0 && across < std::min(std::abs(in), std::abs(leave)) / 4) runs.push_back(r);
    }
  }
  // Neighbours that do not step apart are one plateau (the weakest pair first).
  while (runs.size() > 1) {
    std::size_t weakest = 0;
    double score = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k + 1 < runs.size(); ++k) {
      const double s = step_score(runs[k], runs[k + 1]);
      if (s < score) {
        score = s;
        weakest = k;
      }
    }
    if (score >= 1) break;
    runs[weakest] = make_run(runs[weakest].first, runs[weakest + 1].last, m, sigma);
    runs.erase(runs.begin() + static_cast<std::ptrdiff_t>(weakest) + 1);
  }
  if (runs.empty()) {
    out.notes.push_back("no plateau: no stretch of the curve is flat within its noise");
    return out;
  }
  if (runs.front().first > 0 && m[0] > runs.front().center + kBand * sigma[0]) {
    const auto& pb = out.points[runs.front().first];
    out.notes.push_back(fmt::format(
        "{} below {}: there the kernel is limited by something other than the memory, so no level is read there",
        direction == Direction::Rising ? "latency falls as the footprint grows" : "bandwidth rises with the footprint",
        bytes_text(pb.footprint)));
  }
  // A fall (latency down, bandwidth up as the footprint grows) is no level's end: what came before
  // it was limited by something else, so those plateaus are left out of every level.
  std::size_t keep_from = 0;
  for (std::size_t k = 0; k + 1 < runs.size(); ++k) {
    if (runs[k + 1].center < runs[k].center) {
      keep_from = k + 1;
      const auto& pa = out.points[runs[k].last];
      const auto& pb = out.points[runs[k + 1].first];
      out.notes.push_back(fmt::format(
          "{} {} between {} and {}: below {} the kernel is limited by something other than the memory, so no "
          "level is read there",
          direction == Direction::Rising ? "latency falls" : "bandwidth rises",
          direction == Direction::Rising ? "as the footprint grows" : "with the footprint", bytes_text(pa.footprint),
          bytes_text(pb.footprint), bytes_text(pb.footprint)));
    }
  }
  runs.erase(runs.begin(), runs.begin() + static_cast<std::ptrdiff_t>(keep_from));
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const Run& r = runs[k];
    Plateau p;
    p.first = r.first;
    p.last = r.last;
    std::vector<double> values, disp, logs;
    for (std::size_t i = r.first; i <= r.last; ++i) {
      values.push_back(out.points[i].value);
      disp.push_back(out.points[i].dispersion);
      logs.push_back(z[i]);
    }
    p.value = median_of(values);
    const double center = median_of(logs);
    for (auto& l : logs) l = std::abs(l - center);
    p.spread = std::max({kNoiseFloor, median_of(disp), 1.4826 * median_of(logs)});
    out.plateaus.push_back(p);
    if (k + 1 == runs.size()) break;
    // The onset: the first point from which the curve stays above this plateau's band up to the
    // next plateau. The capacity lies between the point before it and it; a gradual rise (a
    // cache that keeps part of a larger footprint) may hide under the band at the point before,
    // by up to band / step of it, so the interval reaches that much lower.
    const Run& next = runs[k + 1];
    std::size_t onset = next.first;
    for (std::size_t i = next.first; i > r.first + 1; --i) {
      const double above = m[i - 1] - r.center;
      if (above > std::max(kBand * sigma[i - 1], r.half_range)) {
        onset = i - 1;
      } else {
        break;
      }
    }
    Boundary b;
    b.after = out.plateaus.size() - 1;
    b.high = out.points[onset].footprint;
    const double step = std::exp(next.center - r.center);
    b.step = direction == Direction::Rising ? step : 1 / step;
    const double hidden = std::min(0.5, kBand * sigma[onset - 1] / std::max(step - 1, 1e-9));
    b.last_flat = out.points[onset - 1].footprint;
    b.low = b.last_flat * (1 - hidden);
    b.estimate = std::sqrt(b.low * b.high);
    b.short_next = next.size() < kMinPlateau;
    out.boundaries.push_back(b);
  }
  if (runs.back().last + 1 < n && m[n - 1] > runs.back().center + kBand * sigma[n - 1]) {
    // The curve leaves its last plateau for good and never settles: a level ends there, and what
    // follows is no level this run can read.
    const Run& r = runs.back();
    std::size_t onset = r.last + 1;
    Boundary b;
    b.after = out.plateaus.size() - 1;
    b.high = out.points[onset].footprint;
    b.last_flat = out.points[onset - 1].footprint;
    const double rise = std::exp(m[onset] - r.center) - 1;
    b.low = b.last_flat * (1 - std::min(0.5, kBand * sigma[onset - 1] / std::max(rise, 1e-9)));
    b.estimate = std::sqrt(b.low * b.high);
    b.short_next = true;
    out.boundaries.push_back(b);
  }
  if (runs.back().last + 1 < n) {
    out.notes.push_back(fmt::format("{} does not settle after {}: the curve still moves at the largest footprint ({})",
                                    direction == Direction::Rising ? "latency" : "bandwidth",
                                    bytes_text(out.points[runs.back().last].footprint), bytes_text(out.points.back().footprint)));
  }
  return out;
}

namespace {

// A boundary of either curve, or of both.
struct Edge {
  double low = 0, high = 0, estimate = 0;
  double last_flat = 0;  // the last plateau point below it (the larger of the two curves')
  bool latency = false, bandwidth = false;
  bool spread = false;                  // the device-wide chase's last step (infer())
  std::vector<double> seen_from_one;    // the single walker's boundaries it stands for
};

// A level's value from one curve: the points of its plateaus (short ones included) whose footprint
// lies inside (lo, hi).
Quantity level_value(const CurveAnalysis& c, double lo, double hi, const char* what) {
  Quantity q;
  std::vector<double> values, disp, logs;
  for (const auto& p : c.plateaus) {
    for (std::size_t i = p.first; i <= p.last; ++i) {
      const auto& pt = c.points[i];
      if (pt.footprint <= lo || pt.footprint >= hi) continue;
      values.push_back(pt.value);
      disp.push_back(pt.dispersion);
      logs.push_back(std::log(pt.value));
    }
  }
  if (c.points.empty()) {
    q.reason = fmt::format("no {} points", what);
    return q;
  }
  if (values.size() < kMinPlateau) {
    q.reason = values.empty() ? fmt::format("the {} curve has no plateau here", what)
                              : fmt::format("{} {} point{} on a plateau here ({} needed)", values.size(), what,
                                            values.size() == 1 ? "" : "s", kMinPlateau);
    return q;
  }
  q.resolved = true;
  q.value = median_of(values);
  const double center = median_of(logs);
  for (auto& l : logs) l = std::abs(l - center);
  q.uncertainty = std::max({kNoiseFloor, median_of(disp), 1.4826 * median_of(logs)});
  if (q.uncertainty > kMaxSpread) {
    // Points that spread this far are no level's value (on a CPU adapter under load, or below the
    // footprint where the kernel stops being limited by the memory): said, not averaged.
    q.resolved = false;
    q.reason = fmt::format("the {} points here spread by ± {:.0f} % (more than {:.0f} %)", what, 100 * q.uncertainty,
                           100 * kMaxSpread);
  }
  return q;
}

double spacing(const CurveAnalysis& c) {
  std::vector<double> r;
  for (std::size_t i = 0; i + 1 < c.points.size(); ++i) r.push_back(c.points[i + 1].footprint / c.points[i].footprint);
  return r.empty() ? 2.0 : median_of(r);
}

}  // namespace

Inference infer(std::span<const Point> latency, std::span<const Point> bandwidth, std::span<const Point> spread) {
  Inference inf;
  inf.latency = analyse_curve(latency, Direction::Rising);
  inf.bandwidth = analyse_curve(bandwidth, Direction::Falling);
  for (const auto& n : inf.latency.notes) inf.notes.push_back("latency: " + n);
  for (const auto& n : inf.bandwidth.notes) inf.notes.push_back("bandwidth: " + n);

  // Boundaries of the two curves are one where their intervals, each widened by one point
  // spacing, overlap; the capacity is then their common part (the latency curve's when none).
  std::vector<Edge> edges;
  const double sl = spacing(inf.latency), sb = spacing(inf.bandwidth);
  std::vector<bool> used(inf.bandwidth.boundaries.size(), false);
  for (const auto& b : inf.latency.boundaries) {
    Edge e{b.low, b.high, b.estimate, b.last_flat, true, false};
    for (std::size_t j = 0; j < inf.bandwidth.boundaries.size(); ++j) {
      const auto& c = inf.bandwidth.boundaries[j];
      if (used[j] || b.low / sl > c.high * sb || c.low / sb > b.high * sl) continue;
      used[j] = true;
      e.bandwidth = true;
      e.last_flat = std::max(e.last_flat, c.last_flat);
      const double lo = std::max(b.low, c.low), hi = std::min(b.high, c.high);
      if (lo < hi) {
        e.low = lo;
        e.high = hi;
        e.estimate = std::sqrt(lo * hi);
      }
      break;
    }
    edges.push_back(e);
  }
  for (std::size_t j = 0; j < inf.bandwidth.boundaries.size(); ++j) {
    const auto& c = inf.bandwidth.boundaries[j];
    if (!used[j]) edges.push_back({c.low, c.high, c.estimate, c.last_flat, false, true});
  }
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.estimate < b.estimate; });

  // The device-wide chase (walkers on every compute unit, device-coherent read-modify-writes that
  // skip each unit's private cache) speaks for the levels the device shares over the footprints it
  // covers.
  // There one walker sees a shared cache from its own unit: it may step where the part near it runs
  // out, again where the rest does, and where its own address translation runs out. So where the
  // device-wide chase steps, the single walker's latency-only steps over that range give way: each
  // is listed beside the device-wide step within a factor of four of it, and any other is said in a
  // note (a step of one unit that the device as a whole does not take).
  if (!spread.empty()) {
    inf.spread = analyse_curve(spread, Direction::Rising);
    for (const auto& n : inf.spread.notes) inf.notes.push_back("device-wide latency: " + n);
    if (inf.spread.boundaries.empty()) {
      inf.notes.push_back(fmt::format(
          "device-wide latency: no step between {} and {}: the shared cache is smaller or larger than that range, "
          "or the walkers did not run at once",
          bytes_text(inf.spread.points.front().footprint), bytes_text(inf.spread.points.back().footprint)));
    } else {
      const double from = inf.spread.points.front().footprint, to = inf.spread.points.back().footprint;
      std::vector<Edge> shared;
      for (const auto& b : inf.spread.boundaries) shared.push_back({b.low, b.high, b.estimate, b.last_flat, false, false, true, {}});
      std::vector<double> alone;
      std::erase_if(edges, [&](const Edge& e) {
        if (!e.latency || e.bandwidth || e.estimate < from || e.estimate > to) return false;
        Edge* nearest = nullptr;
        for (auto& x : shared) {
          if (!nearest || std::fabs(std::log(x.estimate / e.estimate)) < std::fabs(std::log(nearest->estimate / e.estimate))) {
            nearest = &x;
          }
        }
        if (std::fabs(std::log(nearest->estimate / e.estimate)) <= std::log(4.0)) {
          nearest->seen_from_one.push_back(e.estimate);
        } else {
          alone.push_back(e.estimate);
        }
        return true;
      });
      for (const double f : alone) {
        inf.notes.push_back(fmt::format(
            "latency: one compute unit's chase steps at {}, the device-wide chase does not: no level of the memory the "
            "device shares (for one unit, the reach of its address translation, for instance)",
            bytes_text(f)));
      }
      for (auto& x : shared) edges.push_back(std::move(x));
      std::sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) { return x.estimate < y.estimate; });
    }
  }

  const double first = std::min(inf.latency.points.empty() ? kInf : inf.latency.points.front().footprint,
                                inf.bandwidth.points.empty() ? kInf : inf.bandwidth.points.front().footprint);
  const double last = std::max(inf.latency.points.empty() ? 0.0 : inf.latency.points.back().footprint,
                               inf.bandwidth.points.empty() ? 0.0 : inf.bandwidth.points.back().footprint);
  if (!(first <= last)) {
    inf.notes.push_back("no usable point in either curve: nothing to infer");
    return inf;
  }
  for (std::size_t k = 0; k <= edges.size(); ++k) {
    Level l;
    const bool last_level = k == edges.size();
    l.name = last_level ? (edges.empty() ? "one level" : "memory") : fmt::format("L{}", k + 1);
    // The level's values come from the plateau points from the first one past the boundary below
    // it to the last one before the boundary above it.
    const double lo = k == 0 ? 0.0 : edges[k - 1].high * (1 - 1e-9);
    const double hi = last_level ? kInf : edges[k].last_flat * (1 + 1e-9);
    l.from_footprint = k == 0 ? first : edges[k - 1].estimate;
    l.to_footprint = last_level ? last : edges[k].estimate;
    l.latency_ns = level_value(inf.latency, lo, hi, "latency");
    l.bandwidth = level_value(inf.bandwidth, lo, hi, "bandwidth");
    if (last_level) {
      l.capacity.reason = edges.empty() ? fmt::format("no boundary between {} and {}", bytes_text(first), bytes_text(last))
                                        : fmt::format("no boundary past it up to {}", bytes_text(last));
      l.evidence = edges.empty() ? "no step in either curve" : "past the last step";
    } else {
      const Edge& e = edges[k];
      l.capacity.resolved = true;
      l.capacity.value = e.estimate;
      l.capacity.uncertainty = std::sqrt(e.high / e.low) - 1;
      l.capacity_low = e.low;
      l.capacity_high = e.high;
      if (e.spread) {
        std::string seen;
        for (const double f : e.seen_from_one) seen += (seen.empty() ? "" : ", ") + bytes_text(f);
        l.evidence = seen.empty() ? "device-wide latency steps"
                                  : fmt::format("device-wide latency steps (one unit's steps at {})", seen);
      } else {
        l.evidence = e.latency && e.bandwidth ? "latency and bandwidth step"
                     : e.latency              ? "latency steps, bandwidth does not"
                                              : "bandwidth steps, latency does not";
      }
    }
    inf.levels.push_back(std::move(l));
  }
  return inf;
}

std::vector<Point> points_from_rows(const std::vector<ReportRow>& rows, const std::string& benchmark) {
  std::vector<Point> out;
  for (const auto& rr : rows) {
    const BenchmarkResult& r = rr.result;
    if (r.id != benchmark || !has_rate(r)) continue;
    const bool latency = r.metric.unit == "hop";
    const RowFacts facts = row_facts(r);
    const std::optional<double> footprint = latency ? facts.working_set_bytes : facts.footprint_bytes;
    if (!footprint) continue;
    // The fastest batch: another process only ever adds time, and the curve wants the memory's
    // own cost. How well that minimum is pinned is the gap to the next fastest batch.
    std::vector<double> t = r.samples_ms;
    std::sort(t.begin(), t.end());
    const bool two = t.size() >= 2 && t[0] > 0 && r.time_ms > 0;
    const double rate = two ? r.value * r.time_ms / t[0] : r.value;
    const double dispersion = two ? t[1] / t[0] - 1 : r.stats.median > 0 ? r.stats.iqr / r.stats.median : 0;
    out.push_back({*footprint, latency ? 1e9 / rate : rate, dispersion});
  }
  return out;
}

Inference infer_rows(const std::vector<ReportRow>& rows, const std::string& latency, const std::string& bandwidth,
                     const std::string& spread) {
  return infer(points_from_rows(rows, latency), points_from_rows(rows, bandwidth),
               spread.empty() ? std::vector<Point>{} : points_from_rows(rows, spread));
}

std::string points_text(const Inference& inf) {
  return fmt::format("{} latency{} and {} bandwidth points", inf.latency.points.size(),
                     inf.spread.points.empty() ? "" : fmt::format(", {} device-wide latency", inf.spread.points.size()),
                     inf.bandwidth.points.size());
}

}  // namespace wgb::report::hierarchy

namespace wgb::report::hierarchy {

namespace {

nlohmann::json quantity_json(const Quantity& q) {
  if (!q.resolved) return {{"resolved", false}, {"reason", q.reason}};
  return {{"resolved", true}, {"value", q.value}, {"uncertainty", q.uncertainty}};
}

nlohmann::json curve_json(const CurveAnalysis& c) {
  nlohmann::json boundaries = nlohmann::json::array(), plateaus = nlohmann::json::array();
  for (const auto& b : c.boundaries) {
    boundaries.push_back({{"low_bytes", b.low}, {"high_bytes", b.high}, {"estimate_bytes", b.estimate}, {"step", b.step}});
  }
  for (const auto& p : c.plateaus) {
    plateaus.push_back({{"from_bytes", c.points[p.first].footprint},
                        {"to_bytes", c.points[p.last].footprint},
                        {"points", p.last - p.first + 1},
                        {"value", p.value},
                        {"spread", p.spread}});
  }
  return {{"points", c.points.size()}, {"noise", c.noise}, {"plateaus", plateaus}, {"boundaries", boundaries}};
}

// The error of a field that is missing or has another type.
Error field_error(const std::string& where, const char* what) {
  return Error{ErrorKind::Usage, fmt::format("hierarchy: {} is missing or not {}", where, what)};
}

Expected<double> number_at(const nlohmann::json& j, const char* key, const std::string& where) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return field_error(where + "." + key, "a number");
  return it->get<double>();
}

Expected<Quantity> quantity_from(const nlohmann::json& j, const char* key, const std::string& where) {
  const auto it = j.find(key);
  const std::string at = where + "." + key;
  if (it == j.end() || !it->is_object()) return field_error(at, "an object");
  const auto r = it->find("resolved");
  if (r == it->end() || !r->is_boolean()) return field_error(at + ".resolved", "a boolean");
  Quantity q;
  q.resolved = r->get<bool>();
  if (!q.resolved) {
    const auto why = it->find("reason");
    if (why == it->end() || !why->is_string()) return field_error(at + ".reason", "a string");
    q.reason = why->get<std::string>();
    return q;
  }
  auto v = number_at(*it, "value", at);
  if (!v) return std::move(v).error();
  auto u = number_at(*it, "uncertainty", at);
  if (!u) return std::move(u).error();
  q.value = *v;
  q.uncertainty = *u;
  return q;
}

Expected<std::vector<Boundary>> boundaries_from(const nlohmann::json& curves, const char* curve) {
  std::vector<Boundary> out;
  const auto c = curves.find(curve);
  if (c == curves.end()) return out;
  const std::string where = fmt::format("curves.{}.boundaries", curve);
  const auto list = c->find("boundaries");
  if (!c->is_object() || list == c->end() || !list->is_array()) return field_error(where, "an array");
  for (std::size_t i = 0; i < list->size(); ++i) {
    const auto& b = (*list)[i];
    const std::string at = fmt::format("{}[{}]", where, i);
    Boundary x;
    for (auto [key, dst] : {std::pair{"low_bytes", &x.low}, std::pair{"high_bytes", &x.high},
                            std::pair{"estimate_bytes", &x.estimate}, std::pair{"step", &x.step}}) {
      auto v = number_at(b, key, at);
      if (!v) return std::move(v).error();
      *dst = *v;
    }
    out.push_back(x);
  }
  return out;
}

// Columns a string takes on a terminal: its code points ("±" is two bytes, one column).
std::size_t columns(std::string_view s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string pad(const std::string& s, std::size_t width, bool right) {
  const std::string fill(width > columns(s) ? width - columns(s) : 0, ' ');
  return right ? fill + s : s + fill;
}

std::string quantity_text(const Quantity& q, const std::function<std::string(double)>& format) {
  if (!q.resolved) return "unresolved";
  return fmt::format("{} ± {:.0f} %", format(q.value), std::max(1.0, 100 * q.uncertainty));
}

}  // namespace

nlohmann::json to_json(const Inference& inf) {
  nlohmann::json levels = nlohmann::json::array();
  for (const auto& l : inf.levels) {
    nlohmann::json j = {{"name", l.name},
                        {"capacity_bytes", quantity_json(l.capacity)},
                        {"latency_ns", quantity_json(l.latency_ns)},
                        {"bandwidth_bytes_per_s", quantity_json(l.bandwidth)},
                        {"evidence", l.evidence},
                        {"from_footprint_bytes", l.from_footprint},
                        {"to_footprint_bytes", l.to_footprint}};
    if (l.capacity.resolved) {
      j["capacity_low_bytes"] = l.capacity_low;
      j["capacity_high_bytes"] = l.capacity_high;
    }
    levels.push_back(std::move(j));
  }
  nlohmann::json curves = {{"latency", curve_json(inf.latency)}, {"bandwidth", curve_json(inf.bandwidth)}};
  if (!inf.spread.points.empty()) curves["spread"] = curve_json(inf.spread);
  return {{"method", "docs/method.md#hierarchy"}, {"levels", levels}, {"notes", inf.notes}, {"curves", curves}};
}

Expected<Section> section_from_json(const nlohmann::json& j) {
  Section s;
  if (!j.is_object()) return field_error("the section", "an object");
  const auto levels = j.find("levels");
  if (levels == j.end() || !levels->is_array()) return field_error("levels", "an array");
  for (std::size_t i = 0; i < levels->size(); ++i) {
    const auto& l = (*levels)[i];
    const std::string at = fmt::format("levels[{}]", i);
    Level x;
    const auto name = l.find("name");
    if (!l.is_object() || name == l.end() || !name->is_string()) return field_error(at + ".name", "a string");
    x.name = name->get<std::string>();
    if (const auto e = l.find("evidence"); e != l.end() && e->is_string()) x.evidence = e->get<std::string>();
    auto capacity = quantity_from(l, "capacity_bytes", at);
    if (!capacity) return std::move(capacity).error();
    auto latency = quantity_from(l, "latency_ns", at);
    if (!latency) return std::move(latency).error();
    auto bandwidth = quantity_from(l, "bandwidth_bytes_per_s", at);
    if (!bandwidth) return std::move(bandwidth).error();
    x.capacity = *capacity;
    x.latency_ns = *latency;
    x.bandwidth = *bandwidth;
    for (auto [key, dst] : {std::pair{"capacity_low_bytes", &x.capacity_low}, std::pair{"capacity_high_bytes", &x.capacity_high},
                            std::pair{"from_footprint_bytes", &x.from_footprint},
                            std::pair{"to_footprint_bytes", &x.to_footprint}}) {
      if (const auto v = l.find(key); v != l.end() && v->is_number()) *dst = v->get<double>();
    }
    s.levels.push_back(std::move(x));
  }
  if (const auto n = j.find("notes"); n != j.end() && n->is_array()) {
    for (const auto& v : *n) {
      if (v.is_string()) s.notes.push_back(v.get<std::string>());
    }
  }
  if (const auto c = j.find("curves"); c != j.end() && c->is_object()) {
    auto lat = boundaries_from(*c, "latency");
    if (!lat) return std::move(lat).error();
    auto bw = boundaries_from(*c, "bandwidth");
    if (!bw) return std::move(bw).error();
    auto spread = boundaries_from(*c, "spread");
    if (!spread) return std::move(spread).error();
    s.latency_boundaries = std::move(*lat);
    s.bandwidth_boundaries = std::move(*bw);
    s.spread_boundaries = std::move(*spread);
  }
  return s;
}

void write_table(std::ostream& out, const std::vector<Level>& levels, const std::vector<std::string>& notes,
                 std::size_t width) {
  const std::array<const char*, 5> head = {"level", "capacity", "latency", "bandwidth", "evidence"};
  std::vector<std::array<std::string, 5>> cells;
  for (const auto& l : levels) {
    cells.push_back({l.name, l.capacity.resolved ? quantity_text(l.capacity, [](double v) { return format_bytes(v); })
                                                 : std::string("-"),
                     quantity_text(l.latency_ns, [](double v) { return fmt::format("{:.3g} ns", v); }),
                     quantity_text(l.bandwidth, [](double v) { return format_rate(v, "B"); }), l.evidence});
  }
  std::array<std::size_t, 5> w{};
  for (std::size_t c = 0; c < 5; ++c) {
    w[c] = columns(head[c]);
    for (const auto& r : cells) w[c] = std::max(w[c], columns(r[c]));
  }
  const std::size_t fixed = w[0] + w[1] + w[2] + w[3] + 8;  // four columns and their gaps
  const bool evidence_inline = fixed + 2 + w[4] <= width;
  auto line = [&](const std::array<std::string, 5>& r) {
    std::string s = pad(r[0], w[0], false) + "  " + pad(r[1], w[1], true) + "  " + pad(r[2], w[2], true) + "  " +
                    pad(r[3], w[3], true);
    if (evidence_inline) {
      s += "  " + r[4];
    } else if (!r[4].empty() && r[4] != head[4]) {
      s += "\n" + wrap_text(r[4], width, 4, 4);
      if (!s.empty() && s.back() == '\n') s.pop_back();
    }
    return s + "\n";
  };
  out << line({head[0], head[1], head[2], head[3], head[4]});
  out << std::string(std::min(width, evidence_inline ? fixed + 2 + w[4] : fixed), '-') << '\n';
  for (const auto& r : cells) out << line(r);
  for (const auto& l : levels) {
    for (const auto& [what, q] : {std::pair{"latency", &l.latency_ns}, std::pair{"bandwidth", &l.bandwidth}}) {
      if (!q->resolved && !q->reason.empty() && q->reason != fmt::format("no {} points", what)) {
        out << wrap_text(fmt::format("{} {}: {}", l.name, what, q->reason), width, 0, 2) << '\n';
      }
    }
  }
  for (const auto& n : notes) out << wrap_text("note: " + n, width, 0, 2) << '\n';
}

Status write_inferred_again(const std::string& from, const std::string& to, const Inference& inference) {
  auto doc = load_result_document(from);  // the checks and errors every reader of a document has
  if (!doc) return std::move(doc).error();
  (*doc)["hierarchy"] = to_json(inference);
  return write_json_atomic(to, *doc);
}

}  // namespace wgb::report::hierarchy
