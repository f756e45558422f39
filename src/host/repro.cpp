// The host suite's second-process comparison, and its arguments (report/repro.hpp's rewrite).
#include "host/repro.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/repro.hpp"

namespace wgb::host {

namespace {

using json = nlohmann::json;

double num(const json& j, const char* key, double fallback = 0) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : fallback;
}

}  // namespace

bool timings_agree(double a_ms, double b_ms, double iqr_a_ms, double iqr_b_ms) noexcept {
  return std::fabs(a_ms - b_ms) <= std::max(iqr_a_ms, iqr_b_ms);
}

ReproOutcome compare_and_mark(json& first, const json& second) {
  ReproOutcome out;
  json rows = json::array();
  if (!first.contains("rows") || !second.contains("rows")) return out;
  for (auto& row : first["rows"]) {
    const auto id = row.value("id", std::string());
    const json* other = nullptr;
    for (const auto& r : second["rows"]) {
      if (r.value("id", std::string()) == id) other = &r;
    }
    if (other == nullptr || row.value("status", "") != "ok" || other->value("status", "") != "ok") continue;
    const double a = num(row, "time_ms"), b = num(*other, "time_ms");
    const double ia = row.contains("stats_ms") ? num(row["stats_ms"], "iqr") : 0;
    const double ib = other->contains("stats_ms") ? num((*other)["stats_ms"], "iqr") : 0;
    const bool agree = timings_agree(a, b, ia, ib);
    ++out.rows_compared;
    const double disp = std::max(ia, ib);
    row["repro"] = {{"first_ms", a},
                    {"second_ms", b},
                    {"dispersion_ms", disp},
                    {"agree", agree},
                    {"rule", "|first - second| <= max(IQR first, IQR second) of the per-pass times"}};
    if (!agree) {
      ++out.rows_rejected;
      out.rejected_ids.push_back(id);
      row["status"] = "suspect";
      const std::string why = fmt::format(
          "rejected by the second-process re-run: {:.4g} ms vs {:.4g} ms differ by {:.2f}%, more than the dispersion "
          "({:.2f}%)",
          a, b, a > 0 ? 100 * std::fabs(a - b) / a : 0.0, a > 0 ? 100 * disp / a : 0.0);
      const auto msg = row.value("message", std::string());
      row["message"] = msg.empty() ? why : msg + "; " + why;
    }
    // Series points: matched by series name and the x value.
    int pc = 0, pd = 0;
    if (row.contains("parameters") && row["parameters"].contains("series") && other->contains("parameters") &&
        (*other)["parameters"].contains("series")) {
      for (auto& s : row["parameters"]["series"]) {
        const auto name = s.value("name", std::string());
        const auto x = s.value("x", std::string());
        for (const auto& s2 : (*other)["parameters"]["series"]) {
          if (s2.value("name", std::string()) != name) continue;
          for (auto& p : s["points"]) {
            for (const auto& p2 : s2["points"]) {
              if (!p.contains(x) || !p2.contains(x) || p[x] != p2[x]) continue;
              const bool ok = timings_agree(num(p, "time_ms"), num(p2, "time_ms"), num(p, "q3_ms") - num(p, "q1_ms"),
                                            num(p2, "q3_ms") - num(p2, "q1_ms"));
              p["repro_second_ms"] = num(p2, "time_ms");
              p["repro_agree"] = ok;
              ++pc;
              if (!ok) ++pd;
            }
          }
        }
      }
    }
    out.points_compared += pc;
    out.points_disagreeing += pd;
    row["repro"]["points_compared"] = pc;
    row["repro"]["points_disagreeing"] = pd;
    rows.push_back({{"id", id},
                    {"agree", agree},
                    {"first_ms", a},
                    {"second_ms", b},
                    {"dispersion_ms", disp},
                    {"points_compared", pc},
                    {"points_disagreeing", pd}});
  }
  out.json = {{"rows", rows},
              {"rows_compared", out.rows_compared},
              {"rows_rejected", out.rows_rejected},
              {"points_compared", out.points_compared},
              {"points_disagreeing", out.points_disagreeing},
              {"second_started_at", second.value("started_at", std::string())},
              {"second_machine_clock", second.contains("machine") && second["machine"].contains("host") &&
                                               second["machine"]["host"].contains("clock")
                                           ? second["machine"]["host"]["clock"]
                                           : json(nullptr)}};
  return out;
}

std::vector<std::string> repro_arguments(const std::vector<std::string>& argv, const std::string& json_path) {
  if (argv.empty()) return report::second_run_arguments(argv, json_path, /*mark=*/false);
  std::vector<std::string> out{argv.front()};
  const auto rest = report::second_run_arguments({argv.begin() + 1, argv.end()}, json_path, /*mark=*/false);
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

}  // namespace wgb::host
