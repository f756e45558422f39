// Row matching and the disagreement rule of the reproducibility check (see repro.hpp).
#include "report/repro.hpp"


#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include "report/facts.hpp"

namespace wgb::report {

const char* const kReproRule =
    "a row disagrees when |v2/v1 - 1| > max(floor, sqrt(d1^2 + d2^2)), v = headline rate, d = the "
    "run's reported relative dispersion (IQR/median for median rows, CV for best-run rows), floor = "
    "the noise floor or the sampler's tolerance, whichever is larger (docs/method.md#differ)";

namespace {

// The rule's floor, raised to the sampler's tolerance when that is coarser: the engine resolves no
// difference finer than the tolerance it converged to.
double repro_floor(double tolerance) { return std::max(kNoiseFloor, tolerance); }

}  // namespace

ReproCheck compare_repro(const BenchmarkResult& first, const BenchmarkResult& second, double tolerance) {
  ReproCheck c;
  c.second_status = to_string(second.status);
  c.second_value = second.value;
  c.second_time_ms = second.time_ms;
  const bool m1 = has_rate(first), m2 = has_rate(second);
  if (!m1 && !m2) {
    c.verdict = "not-compared";
    c.reason = fmt::format("not measured in either run ({} / {})", to_string(first.status), to_string(second.status));
    return c;
  }
  if (m1 != m2) {
    c.verdict = "disagree";
    c.reason = fmt::format("measured in one run only ({} / {}{})", to_string(first.status),
                           to_string(second.status), second.message.empty() ? "" : ": " + second.message);
    return c;
  }
  c.dispersion_first = row_dispersion(first).relative;
  c.dispersion_second = row_dispersion(second).relative;
  const Significance d =
      compare_estimates({first.value, c.dispersion_first}, {second.value, c.dispersion_second}, repro_floor(tolerance));
  c.ratio = d.ratio;
  c.difference = d.change;
  c.allowed = d.allowance;
  c.verdict = d.same() ? "agree" : "disagree";
  c.reason = fmt::format(
      "{:.2f}% apart, allowed {:.2f}% (dispersion {:.2f}% / {:.2f}%, combined {:.2f}%, floor {:.2f}%)", 100 * d.change,
      100 * d.allowance, 100 * c.dispersion_first, 100 * c.dispersion_second, 100 * d.dispersion, 100 * d.floor);
  return c;
}

ReproSummary apply_repro(std::vector<ReportRow>& first, const std::vector<ReportRow>& second, double tolerance) {
  // Match by key and occurrence: the n-th row with a key in the first run pairs with the n-th in
  // the second (the same arguments give the same benchmark list, in the same order).
  std::map<std::string, std::vector<const BenchmarkResult*>> by_key;
  for (const auto& row : second) by_key[row_key(row.result)].push_back(&row.result);
  std::map<std::string, std::size_t> seen;
  ReproSummary s;
  s.tolerance = tolerance;
  for (auto& row : first) {
    const std::string key = row_key(row.result);
    const std::size_t n = seen[key]++;
    const auto it = by_key.find(key);
    if (it == by_key.end() || n >= it->second.size()) {
      ReproCheck c;
      c.verdict = "disagree";
      c.second_status = "missing";
      c.reason = "the second run has no such row";
      row.repro = c;
    } else {
      row.repro = compare_repro(row.result, *it->second[n], tolerance);
    }
    if (row.repro->verdict != "disagree") continue;
    s.disagreeing.push_back(key);
    BenchmarkResult& r = row.result;
    if (has_rate(r)) {
      r.status = RowStatus::Suspect;
      const std::string why = "the second process disagrees beyond the dispersion (repro)";
      r.message = r.message.empty() ? why : r.message + "; " + why;
    }
  }
  s.verdict = s.disagreeing.empty() ? "pass" : "fail";
  return s;
}

ReproSummary repro_incomplete(std::vector<ReportRow>& first, const std::string& reason, double tolerance) {
  for (auto& row : first) {
    ReproCheck c;
    c.verdict = "not-compared";
    c.second_status = "missing";
    c.reason = reason;
    row.repro = c;
  }
  return ReproSummary{"incomplete", tolerance, {}, reason};
}

PointsCompared compare_points(std::vector<ReportRow>& first, const std::vector<ReportRow>& second, double tolerance) {
  PointsCompared out;
  for (auto& row : first) {
    const RowFacts mine = row_facts(row.result);
    if (mine.curves.empty()) continue;
    const BenchmarkResult* other = nullptr;
    for (const auto& r : second) {
      if (r.result.id == row.result.id) other = &r.result;
    }
    if (other == nullptr) continue;
    const RowFacts theirs = row_facts(*other);
    if (theirs.curves.empty()) continue;
    int compared = 0, disagreeing = 0;
    for (std::size_t c = 0; c < mine.curves.size(); ++c) {
      const Curve& s = mine.curves[c];
      for (const Curve& s2 : theirs.curves) {
        if (s2.name != s.name) continue;
        for (std::size_t p = 0; p < s.points.size(); ++p) {
          const CurvePoint& a = s.points[p];
          for (const CurvePoint& b : s2.points) {
            if (!a.at(s.x) || !b.at(s.x) || *a.at(s.x) != *b.at(s.x)) continue;
            const bool agree = compare_estimates({a.value.value_or(0), a.iqr_relative.value_or(0)},
                                                 {b.value.value_or(0), b.iqr_relative.value_or(0)},
                                                 repro_floor(tolerance))
                                   .same();
            set_point_repro(row.result, c, p, b.time_ms.value_or(0), agree);
            ++compared;
            disagreeing += agree ? 0 : 1;
          }
        }
      }
    }
    if (row.repro) row.repro->reason += fmt::format("; curve points: {} of {} disagree", disagreeing, compared);
    out.compared += compared;
    out.disagreeing += disagreeing;
  }
  return out;
}

nlohmann::json to_json(const ReproSecondRun& r) {
  nlohmann::json j = {
      {"command", r.command}, {"exec", r.exec}, {"started_at", r.started_at}, {"finished_at", r.finished_at}};
  // Present only when known, as a reader tells "not started" from "started" by them.
  auto optional = [&j](const char* key, const auto& value) {
    if (value) j[key] = *value;
  };
  optional("exit_code", r.exit_code), optional("state", r.state), optional("test_perturbation", r.test_perturbation);
  optional("rows", r.rows), optional("points_compared", r.points_compared);
  optional("points_disagreeing", r.points_disagreeing);
  return j;
}

nlohmann::json repro_summary_json(const ReproSummary& s) {
  nlohmann::json j{{"verdict", s.verdict},
                   {"rule", kReproRule},
                   {"tolerance", s.tolerance},
                   {"floor", repro_floor(s.tolerance)},
                   {"disagreeing", s.disagreeing}};
  if (!s.reason.empty()) j["reason"] = s.reason;
  return j;
}

std::vector<std::string> second_run_arguments(const std::vector<std::string>& args, const std::string& json_path) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--repro" || a == "-q" || a == "--quiet" || a == kSecondRunFlag) continue;
    // Outputs and submissions belong to the first run only (a second process that submitted would
    // land every --repro run twice on the results server).
    if (a == "--json" || a == "--csv" || a == "--submit" || a == "--submit-token" || a == "--token") {
      ++i;  // and its value
      continue;
    }
    if (a.rfind("--json=", 0) == 0 || a.rfind("--csv=", 0) == 0 || a.rfind("--repro=", 0) == 0 ||
        a.rfind("--submit=", 0) == 0 || a.rfind("--submit-token=", 0) == 0 || a.rfind("--token=", 0) == 0) {
      continue;
    }
    out.push_back(a);
  }
  out.insert(out.end(), {"--json", json_path, "--quiet", kSecondRunFlag});
  return out;
}

Expected<std::optional<TestPerturbation>> test_perturbation_from_env() {
  const char* v = std::getenv(kPerturbEnv);
  if (v == nullptr || *v == '\0') return std::optional<TestPerturbation>{};
  const std::string s = v;
  const auto eq = s.rfind('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 >= s.size()) {
    return make_error(ErrorKind::Usage, fmt::format("{}='{}': expected <benchmark id>=<factor>", kPerturbEnv, s));
  }
  TestPerturbation p;
  p.id = s.substr(0, eq);
  char* end = nullptr;
  const std::string factor = s.substr(eq + 1);
  p.factor = std::strtod(factor.c_str(), &end);
  if (end == factor.c_str() || *end != '\0' || !(p.factor > 0) || !std::isfinite(p.factor)) {
    return make_error(ErrorKind::Usage, fmt::format("{}='{}': the factor must be a positive number", kPerturbEnv, s));
  }
  return std::optional<TestPerturbation>{p};
}

bool apply_test_perturbation(BenchmarkResult& row, const TestPerturbation& p) {
  if (row.id != p.id || !has_rate(row)) return false;
  const double f = p.factor;
  for (auto& t : row.samples_ms) t *= f;
  for (auto& t : row.throttled_ms) t *= f;
  auto& s = row.stats;
  for (double* x : {&s.min, &s.max, &s.mean, &s.median, &s.stddev, &s.ci95, &s.q1, &s.q3, &s.iqr}) *x *= f;
  row.time_ms *= f;
  row.value /= f;
  row.value_low /= f;
  row.value_high /= f;
  row.notes.push_back(fmt::format("TEST-ONLY: times multiplied by {} after measurement ({})", f, kPerturbEnv));
  return true;
}

}  // namespace wgb::report
