// Per-family verdicts of the technique comparisons (see verdict.hpp).
#include "report/verdict.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "report/table.hpp"

namespace wgb::report {

namespace {

constexpr std::size_t kMinSamples = 3;  // fewer kept samples give no usable dispersion

// What a family's ranking does not establish: the caveat that travels with every verdict.
std::string family_caveat(const std::string& family) {
  if (family == "workgroup") return "workgroup results depend on the shader's resource needs";
  if (family == "layout") return "layout conversion and upload are excluded (data assumed already in the layout)";
  if (family == "tile") return "tile results depend on the amount of reuse";
  if (family == "reduction") return "reductions compare complete segment sums, not full-array sums";
  if (family == "branch-vec4") return "branch results depend on the conditions and the work in each arm";
  if (family == "atomic") return "the histogram has one fixed contention distribution";
  if (family == "dependent-chain") return "not a physical memory-cycle measurement";
  return {};
}

std::string range_text(const VariantRate& r, const std::string& unit) {
  return fmt::format("[{}, {}]", format_rate(r.low, unit), format_rate(r.high, unit));
}

std::string ns_per_hop_text(double hops_per_s) { return fmt::format("{:.3g} ns/hop", 1e9 / hops_per_s); }

}  // namespace

const char* const kVerdictScope =
    "A ranking holds for this workload on this GPU and runtime only: it is evidence for a similar shader, "
    "not the best technique for every shader on this GPU. Compare results from the same timing method "
    "and treat small or inconsistent differences as inconclusive.";

const char* const kVerdictRule =
    "a variant's rate range is the rate at its q3..q1 repetition times, widened to include its headline; the lead "
    "is conclusive when the fastest variant's range lies wholly above the runner-up's, both have at least 3 kept "
    "samples and neither was throttled";

const char* to_string(FamilyVerdict::Outcome o) noexcept {
  switch (o) {
    case FamilyVerdict::Outcome::Clear: return "clear";
    case FamilyVerdict::Outcome::Inconclusive: return "inconclusive";
    case FamilyVerdict::Outcome::Standalone: return "standalone";
    case FamilyVerdict::Outcome::NoResult: return "no result";
  }
  return "unknown";
}

std::vector<FamilyVerdict> family_verdicts(const std::vector<BenchmarkResult>& rows) {
  std::vector<FamilyVerdict> out;
  auto slot = [&out](const BenchmarkResult& r) -> FamilyVerdict& {
    for (auto& v : out) {
      if (v.family == r.family) return v;
    }
    FamilyVerdict v;
    v.family = r.family;
    v.unit = r.metric.unit;
    v.caveat = family_caveat(r.family);
    out.push_back(std::move(v));
    return out.back();
  };
  for (const auto& r : rows) {
    if (r.category != "technique" || r.family.empty()) continue;
    FamilyVerdict& v = slot(r);
    // Throttled rows were measured (their kept runs are valid) and are ranked, but they can never
    // make a verdict clear; suspect rows have an implausible rate and are never ranked.
    const bool measured = r.status == RowStatus::Ok || r.status == RowStatus::Throttled;
    if (!measured || !(r.value > 0)) {
      v.unranked.push_back(fmt::format("{} ({}{}{})", r.id, to_string(r.status), r.message.empty() ? "" : ": ",
                                       r.message));
      continue;
    }
    VariantRate rate{r.id, r.value, r.value, r.value, r.stats.count, r.status == RowStatus::Throttled};
    if (r.value_low > 0) rate.low = std::min(rate.low, r.value_low);
    if (r.value_high > 0) rate.high = std::max(rate.high, r.value_high);
    v.ranked.push_back(rate);
  }

  for (auto& v : out) {
    std::stable_sort(v.ranked.begin(), v.ranked.end(),
                     [](const VariantRate& a, const VariantRate& b) { return a.value > b.value; });
    if (v.ranked.empty()) {
      v.outcome = FamilyVerdict::Outcome::NoResult;
      v.explanation = "no variant produced a rate";
      continue;
    }
    const VariantRate& first = v.ranked[0];
    v.fastest = first.id;
    if (v.ranked.size() == 1) {
      v.outcome = FamilyVerdict::Outcome::Standalone;
      if (v.family == "dependent-chain") {
        v.explanation = fmt::format(
            "a standalone cost probe with no alternative to rank: {} (1e9 / hops per s; IQR {} .. {}); "
            "amortised, including loop and dispatch cost{}",
            ns_per_hop_text(first.value), ns_per_hop_text(first.high), ns_per_hop_text(first.low),
            first.throttled ? " (row flagged throttled)" : "");
      } else {
        v.explanation = "only one variant has a rate: nothing to rank";
      }
      continue;
    }
    const VariantRate& second = v.ranked[1];
    v.runner_up = second.id;
    v.lead = first.value / second.value - 1.0;
    if (first.throttled || second.throttled) {
      v.outcome = FamilyVerdict::Outcome::Inconclusive;
      v.explanation = fmt::format("{} leads {} by {:.1f}%, but {} was still throttling (timing noise beyond the "
                                  "cooldown budget)",
                                  first.id, second.id, 100.0 * v.lead,
                                  first.throttled && second.throttled ? "each"
                                  : first.throttled                   ? first.id
                                                                      : second.id);
    } else if (first.samples < kMinSamples || second.samples < kMinSamples) {
      v.outcome = FamilyVerdict::Outcome::Inconclusive;
      v.explanation = fmt::format("{} leads {} by {:.1f}%, but with {} and {} kept samples the dispersion is "
                                  "unknown (need {} each)",
                                  first.id, second.id, 100.0 * v.lead, first.samples, second.samples, kMinSamples);
    } else if (first.low > second.high) {
      v.outcome = FamilyVerdict::Outcome::Clear;
      v.explanation = fmt::format("{} leads {} by {:.1f}%; their rate ranges {} and {} do not overlap", first.id,
                                  second.id, 100.0 * v.lead, range_text(first, v.unit), range_text(second, v.unit));
    } else {
      v.outcome = FamilyVerdict::Outcome::Inconclusive;
      v.explanation = fmt::format("{} leads {} by {:.1f}%, within the measured dispersion: rate ranges {} and {} "
                                  "overlap",
                                  first.id, second.id, 100.0 * v.lead, range_text(first, v.unit),
                                  range_text(second, v.unit));
    }
  }
  return out;
}

std::vector<FamilyVerdict> family_verdicts(const std::vector<ReportRow>& rows) {
  std::vector<BenchmarkResult> plain;
  plain.reserve(rows.size());
  for (const auto& r : rows) plain.push_back(r.result);
  return family_verdicts(plain);
}

std::string verdict_headline(const FamilyVerdict& v) {
  switch (v.outcome) {
    case FamilyVerdict::Outcome::Clear:
      return "fastest " + v.fastest;
    case FamilyVerdict::Outcome::Inconclusive:
      return "inconclusive";
    case FamilyVerdict::Outcome::Standalone:
      return "standalone";
    case FamilyVerdict::Outcome::NoResult:
      return "no result";
  }
  return "unknown";
}

nlohmann::json verdicts_json(const std::vector<FamilyVerdict>& verdicts) {
  nlohmann::json out = nlohmann::json::array();
  auto variant = [](const VariantRate& r) {
    return nlohmann::json{{"id", r.id},
                          {"value", r.value},
                          {"range", {r.low, r.high}},
                          {"samples", r.samples},
                          {"throttled", r.throttled}};
  };
  for (const auto& v : verdicts) {
    nlohmann::json f;
    f["family"] = v.family;
    f["unit"] = v.unit + "/s";
    f["outcome"] = to_string(v.outcome);
    f["conclusive"] = v.outcome == FamilyVerdict::Outcome::Clear;
    f["verdict"] = verdict_headline(v);
    f["fastest"] = v.fastest.empty() ? nlohmann::json(nullptr) : nlohmann::json(v.fastest);
    f["runner_up"] = v.runner_up.empty() ? nlohmann::json(nullptr) : nlohmann::json(v.runner_up);
    f["lead"] = v.runner_up.empty() ? nlohmann::json(nullptr) : nlohmann::json(v.lead);
    // The dispersion the lead was compared with: the two rate ranges and the rule.
    nlohmann::json d;
    d["rule"] = kVerdictRule;
    d["fastest_range"] = v.ranked.empty() ? nlohmann::json(nullptr) : nlohmann::json{v.ranked[0].low, v.ranked[0].high};
    d["runner_up_range"] =
        v.ranked.size() < 2 ? nlohmann::json(nullptr) : nlohmann::json{v.ranked[1].low, v.ranked[1].high};
    f["dispersion"] = std::move(d);
    nlohmann::json ranked = nlohmann::json::array();
    for (const auto& r : v.ranked) ranked.push_back(variant(r));
    f["ranked"] = std::move(ranked);
    f["unranked"] = v.unranked;
    f["explanation"] = v.explanation;
    f["caveat"] = v.caveat;
    f["scope"] = kVerdictScope;
    out.push_back(std::move(f));
  }
  return out;
}

void write_verdicts(std::ostream& out, const std::vector<FamilyVerdict>& verdicts) {
  if (verdicts.empty()) return;
  out << "\ntechnique verdicts (compare rates within a family only; a rate range is the rate at the q3..q1 "
         "repetition times, widened to include the headline):\n";
  for (const auto& v : verdicts) {
    std::string head;
    switch (v.outcome) {
      case FamilyVerdict::Outcome::Clear:
        head = fmt::format("fastest {} ({})", v.fastest, format_rate(v.ranked[0].value, v.unit));
        break;
      case FamilyVerdict::Outcome::Inconclusive:
        head = fmt::format("inconclusive (fastest measured: {}, {})", v.fastest,
                           format_rate(v.ranked[0].value, v.unit));
        break;
      case FamilyVerdict::Outcome::Standalone:
        head = fmt::format("{} ({})", v.fastest, format_rate(v.ranked[0].value, v.unit));
        break;
      case FamilyVerdict::Outcome::NoResult: head = "no result"; break;
    }
    out << fmt::format("  {}: {}\n    {}\n", v.family, head, v.explanation);
    if (v.ranked.size() > 2) {
      std::string order;
      for (const auto& r : v.ranked) order += (order.empty() ? "" : " > ") + r.id + (r.throttled ? " (throttled)" : "");
      out << fmt::format("    order of the headline rates: {}\n", order);
    }
    for (const auto& u : v.unranked) out << fmt::format("    not ranked: {}\n", u);
    if (!v.caveat.empty()) out << fmt::format("    note: {}\n", v.caveat);
  }
  out << kVerdictScope << '\n';
}

void annotate_technique_row(BenchmarkResult& row) {
  if (row.category != "technique" || row.family != "dependent-chain" || !(row.value > 0)) return;
  row.parameters["ns_per_hop"] = 1e9 / row.value;
  if (row.value_low > 0 && row.value_high > 0) {
    row.parameters["ns_per_hop_range"] = {1e9 / row.value_high, 1e9 / row.value_low};
  }
  row.notes.push_back(fmt::format("{} = 1e9 / (hops/s): amortised over the hops of one dispatch, including loop and "
                                  "dispatch cost; not a physical memory-cycle time",
                                  ns_per_hop_text(row.value)));
}

}  // namespace wgb::report
