// The roofline of a result document (its derived quantities): the ceilings are measured in
// the same document (peak bandwidth from the memory suite's rows or the streaming rows, peak
// FLOP rate from f32-fma-vec4 / f16-fma-vec4), and every row gets its arithmetic intensity and
// fraction_of_roofline. A row at 0.9 is finished; a row below 0.2 has an unexplained bottleneck; a
// memory row above 1.0 is marked (a cache window, or flagged as wrong), never drawn silently.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "report/model.hpp"

namespace wgb::report {

inline constexpr double kRooflineLowFraction = 0.2;

// The derived quantities of one measurement: flops and bytes from the kernel's cost model, peaks
// from the machine characterisation.
struct Rates {
  double flops_per_second;
  double bytes_per_second;
  double arithmetic_intensity;
  double fraction_of_roofline;
};
constexpr Rates derive(double seconds, double flops, double bytes, double peak_flops, double peak_bandwidth) noexcept {
  const double f = flops / seconds;
  const double b = bytes / seconds;
  const double intensity = flops / bytes;
  const double bound = peak_bandwidth * intensity < peak_flops ? peak_bandwidth * intensity : peak_flops;
  return {f, b, intensity, f / bound};
}

// The same fraction written so it also holds at the edges derive() cannot express (no FLOPs: a pure
// memory kernel; no bytes: a register-only ALU probe): the shortest time the roofline allows,
// max(bytes / peak_bandwidth, flops / peak_flops), over the measured time. Equal to derive()'s
// fraction_of_roofline whenever flops and bytes are both positive. A zero peak means "that roof
// does not apply" and the corresponding work must be zero.
constexpr double roofline_fraction(double seconds, double flops, double bytes, double peak_flops,
                                   double peak_bandwidth) noexcept {
  const double t_mem = bytes > 0 ? bytes / peak_bandwidth : 0.0;
  const double t_alu = flops > 0 ? flops / peak_flops : 0.0;
  return (t_mem > t_alu ? t_mem : t_alu) / seconds;
}

struct Ceiling {
  double value = 0;  // B/s or FLOP/s
  std::string from;  // the row id it was measured by
};

struct Ceilings {
  std::optional<Ceiling> bandwidth;
  std::map<std::string, Ceiling> flops;  // by precision: "f32", "f16"
  // Why a ceiling is missing although its row ran: "read-linear is throttled" (a ceiling comes
  // from an ok row only). Empty when the row is not in the document.
  std::string bandwidth_unusable;
  std::map<std::string, std::string> flops_unusable;
};

// The benchmark ids that define the ceilings, in order of preference.
// {"memory-read", "memory-write", "memory-copy"}, then {"read-linear", "write-linear"}
const std::vector<std::string>& bandwidth_ceiling_ids();
const std::map<std::string, std::string>& flops_ceiling_ids();  // precision -> id
// The host suite's ceilings: host-stream-triad (else the best other STREAM kernel) and
// host-fma-f32 / host-fma-f64.
const std::map<std::string, std::string>& host_flops_ceiling_ids();

// The best measured (status ok) value of the ceiling-defining rows: the GPU's; in a document with
// no GPU ceiling (a host document), the host CPU's. A launch-bound row is suspect, never ok, so it
// never defines a ceiling.
Ceilings find_ceilings(const std::vector<ReportRow>& rows);
// The host CPU's ceilings from the host suite's rows (the derived quantities on the host).
Ceilings find_host_ceilings(const std::vector<ReportRow>& rows);
// Rows of the host suite (category "host"): placed under the host's ceilings, never the GPU's.
bool is_host_row(const BenchmarkResult& r);

// The precision of a FLOP row: parameters.precision when given, else the id's prefix ("f16-..."),
// else "f32".
std::string flop_precision(const BenchmarkResult& r);

Roofline roofline_for(const BenchmarkResult& r, const Ceilings& c);

// A memory-bound row above 1.0 of its ceiling is never drawn silently: "cache-window" for a gather
// or scatter window a cache may hold (a cache rate, to be read against a cache ceiling, not
// DRAM's), "flagged" for any other (the row or the ceiling's row is wrong); "" when not above.
// Derived from the row and its roofline, so documents written before it get it too.
std::string over_ceiling(const BenchmarkResult& r, const Roofline& roof);
std::string over_ceiling(const ReportRow& row);

// Sets every row's roofline; returns the ceilings used.
Ceilings apply_roofline(std::vector<ReportRow>& rows);

// The document-level summary: ceilings, threshold, rows below it, rows without a ceiling, memory
// rows above their ceiling (each with its over_ceiling kind).
nlohmann::json roofline_summary_json(const std::vector<ReportRow>& rows, const Ceilings& c);

}  // namespace wgb::report
