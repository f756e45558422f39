// The memory hierarchy inferred from two curves over the working set (docs/method.md#hierarchy):
// the dependent-load latency and the streaming bandwidth of re-reading a footprint. A pure function
// of the measured points, so it is tested on synthetic curves with known steps, and the same
// function serves the command (`webgpu-bench hierarchy`), the document's "hierarchy" section and
// the report. No clock, no device, no I/O.
//
// In short: each curve is put on a log scale (bandwidth negated, so both rise where a level ends),
// smoothed by a running median of three (a lone outlier never makes a step, a monotone step is left
// as it is), cut into constant pieces by an exact least-squares segmentation with a penalty per
// cut, and the pieces of three points or more that are flat within the noise become plateaus.
// Neighbouring plateaus whose difference is small against the noise, against their own spread, or
// under kMinStep are one plateau. Where the curve leaves a plateau for good is a boundary: the
// capacity lies between the last point on the plateau and the first point above it (widened
// downwards where a gradual rise may hide under the noise). Boundaries of the two curves that
// overlap are one; each level's latency and bandwidth are read from the plateau points between its
// boundaries, and a level with fewer than kMinPlateau such points is reported unresolved.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "report/model.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::report::hierarchy {

// Points a plateau needs (half an octave at the default four points per octave).
inline constexpr std::size_t kMinPlateau = 3;
// The smallest difference between two levels' values that counts as a step (10 %).
inline constexpr double kMinStep = 0.10;
// Tolerance of one point, in standard deviations of its noise.
inline constexpr double kBand = 3.0;

struct Point {
  double footprint = 0;   // bytes
  double value = 0;       // latency: ns per load; bandwidth: bytes/s
  double dispersion = 0;  // relative dispersion of the row (IQR / median); 0 when unknown
};

enum class Direction { Rising, Falling };  // how the curve moves past a level: latency rises, bandwidth falls

// A value with its relative uncertainty (±, e.g. 0.05 for ± 5 %), or why there is none.
struct Quantity {
  bool resolved = false;
  double value = 0;
  double uncertainty = 0;
  std::string reason;  // why it is not resolved
};

// One curve's plateaus and where it leaves them.
struct Plateau {
  std::size_t first = 0, last = 0;  // point indices (into the sorted, usable points)
  double value = 0;                 // median of the points' values
  double spread = 0;                // relative: the larger of the rows' dispersion and the points' spread
};
struct Boundary {
  double low = 0, high = 0;  // the capacity lies in (low, high]
  double estimate = 0;       // geometric middle of the interval
  double last_flat = 0;      // the footprint of the plateau's last point (at or above `low`)
  double step = 0;           // the next plateau's value over this one's (0 when the curve ends first)
  std::size_t after = 0;     // index of the plateau it ends
  bool short_next = false;   // the next plateau holds fewer than kMinPlateau points
};
struct CurveAnalysis {
  std::vector<Point> points;  // usable points, sorted by footprint
  double noise = 0;           // the per-point noise floor used (relative)
  std::vector<Plateau> plateaus;  // includes short ones (fewer than kMinPlateau points) between steps
  std::vector<Boundary> boundaries;
  std::vector<std::string> notes;
};
CurveAnalysis analyse_curve(std::span<const Point> points, Direction direction);

struct Level {
  std::string name;             // "L1", "L2", ... in the order found; "memory" past the last boundary
  Quantity capacity;            // bytes (unresolved for "memory": nothing larger was seen)
  double capacity_low = 0, capacity_high = 0;
  Quantity latency_ns;          // ns per dependent load
  Quantity bandwidth;           // bytes/s
  std::string evidence;         // which curves step at its capacity, in words
  double from_footprint = 0, to_footprint = 0;  // the footprints measured within the level
};

struct Inference {
  std::vector<Level> levels;
  std::vector<std::string> notes;  // what limits the inference (both curves' notes and the matching)
  CurveAnalysis latency, bandwidth;
  CurveAnalysis spread;  // the device-wide chase, when measured
};

// A curve's points from the rows of one benchmark (`read-latency` or `read-linear` in a hierarchy
// document): footprint (the chase's working_set_bytes, the stream's footprint_bytes), value (ns per
// hop, or the rate) of the row's fastest batch, and as its dispersion the gap to the next fastest
// (relative). Rows without a rate are left out.
std::vector<Point> points_from_rows(const std::vector<ReportRow>& rows, const std::string& benchmark);

// The levels from both curves. Either may be empty (its column is then unresolved throughout).
// `spread`, when given, is the device-wide chase (read-latency-spread): where it steps, its steps
// are the levels the device shares, and the single walker's latency-only steps over the footprints
// it covers give way (listed beside the nearest device-wide step within a factor of four, else in a
// note: a step one compute unit takes and the device does not).
Inference infer(std::span<const Point> latency, std::span<const Point> bandwidth,
                std::span<const Point> spread = {});

// The levels from a hierarchy document's rows: those of the benchmarks `latency`, `bandwidth` and
// `spread` (the device-wide chase; empty when it was not measured).
Inference infer_rows(const std::vector<ReportRow>& rows, const std::string& latency, const std::string& bandwidth,
                     const std::string& spread);
// What an inference read: "73 latency, 41 device-wide latency and 0 bandwidth points".
std::string points_text(const Inference& inference);

// The document's "hierarchy" section and back (docs/results-schema.md). Reading checks the types of
// the fields it needs and names the one that is wrong.
nlohmann::json to_json(const Inference& inference);
struct Section {
  std::vector<Level> levels;
  std::vector<std::string> notes;
  std::vector<Boundary> latency_boundaries, bandwidth_boundaries;  // each curve's own (low, high, estimate, step)
  std::vector<Boundary> spread_boundaries;                        // the device-wide chase's, when measured
};
Expected<Section> section_from_json(const nlohmann::json& j);
// The hierarchy document at `from` with its levels replaced by `inference` (inferred again from its
// rows), written atomically to `to`; every other field as it was.
Status write_inferred_again(const std::string& from, const std::string& to, const Inference& inference);

// The table: level, capacity ±, latency ±, bandwidth ±, evidence, laid out for `width` columns
// (the evidence goes under its row when it does not fit), then the notes.
void write_table(std::ostream& out, const std::vector<Level>& levels, const std::vector<std::string>& notes,
                 std::size_t width);

}  // namespace wgb::report::hierarchy
