// Per-family verdicts of the shader technique comparisons: which variant was fastest,
// and whether its lead is larger than the measured dispersion; otherwise the family is
// "inconclusive". Pure functions from result rows to verdicts to text.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "report/model.hpp"
#include "webgpu_bench/result.hpp"

namespace wgb::report {

// One measured variant: its headline rate and the dispersion range of its rate (the rates at the
// q3 and q1 per-repetition times, widened to include the headline).
struct VariantRate {
  std::string id;
  double value = 0, low = 0, high = 0;
  std::size_t samples = 0;
  bool throttled = false;  // the row was flagged throttled: ranked, never part of a clear verdict
};

struct FamilyVerdict {
  enum class Outcome {
    Clear,         // the fastest variant's whole range lies above the runner-up's whole range
    Inconclusive,  // the ranges overlap, or too few samples to know the dispersion
    Standalone,    // one variant only (the dependent chain, or all siblings missing): nothing to rank
    NoResult,      // no variant of the family produced a rate
  };
  std::string family;
  std::string unit;                    // metric unit counted per second
  std::vector<VariantRate> ranked;     // rows with a rate (ok or throttled), fastest first
  std::vector<std::string> unranked;   // "id (status: reason)" for rows without a usable rate
  Outcome outcome = Outcome::NoResult;
  std::string fastest, runner_up;      // empty when not applicable
  double lead = 0;                     // fastest / runner-up - 1
  std::string explanation;             // why the outcome (ranges, sample counts, ns/hop)
  std::string caveat;                  // what the ranking does not establish
};

const char* to_string(FamilyVerdict::Outcome o) noexcept;

// Groups the rows of category "technique" (with a family) by family, in order of first
// appearance. Ok and throttled rows are ranked; skipped, error, suspect or cancelled rows are
// listed as unranked with their reason. A clear verdict needs non-overlapping rate ranges, at least
// 3 kept samples on both sides, and neither of the top two rows flagged throttled.
std::vector<FamilyVerdict> family_verdicts(const std::vector<BenchmarkResult>& rows);
std::vector<FamilyVerdict> family_verdicts(const std::vector<ReportRow>& rows);

// The reminder every verdict carries: a ranking is evidence for this workload on this GPU and
// runtime only.
extern const char* const kVerdictScope;
// How the dispersion enters a verdict (the rate ranges compared), in words.
extern const char* const kVerdictRule;

// The verdict in one short phrase: "fastest workgroup-256", "inconclusive", "standalone", "no result".
std::string verdict_headline(const FamilyVerdict& v);

// The verdicts as the result document's "technique_verdicts" array (docs/results-schema.md): per
// family the fastest variant, its lead, the rate ranges it was compared with, conclusive or
// "inconclusive", and the scope reminder. Empty array without technique rows.
nlohmann::json verdicts_json(const std::vector<FamilyVerdict>& verdicts);

// The verdicts as text, ending with the reminder that a ranking holds for this workload on this
// GPU and runtime only. Writes nothing when `verdicts` is empty.
void write_verdicts(std::ostream& out, const std::vector<FamilyVerdict>& verdicts);

// Derived numbers a technique row carries for readers of the result document: for the dependent
// chain, parameters["ns_per_hop"] = 1e9 / (hops/s) (with its low/high range) and a note saying it
// includes loop and dispatch cost. Rows of other families are left unchanged.
void annotate_technique_row(BenchmarkResult& row);

}  // namespace wgb::report
