// Two result documents side by side (see compare.hpp for the rules).
#include "report/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <map>
#include <optional>
#include <set>

#include "report/table.hpp"

namespace wgb::report {

namespace {

// Values measured per run (clocks, submit cost) are not part of "what differs".
// Clocks are compared on their own (Comparison::clocks), with their sources and a tolerance.
bool volatile_key(const std::string& path) {
  static const std::set<std::string> kVolatile{"machine.adapter.index",     "machine.dawn.empty_submit_ms",
                                               "machine.host.observed_mhz", "machine.host.observed_mhz_at_finish",
                                               "machine.host.base_khz",     "machine.host.max_khz"};
  return kVolatile.count(path) != 0 || path.rfind("machine.host.clocks.", 0) == 0 ||
         path.rfind("machine.host.clock.", 0) == 0;
}

std::optional<double> number_at(const nlohmann::json& j, std::initializer_list<const char*> path) {
  const nlohmann::json* p = &j;
  for (const char* k : path) {
    if (!p->is_object() || !p->contains(k)) return std::nullopt;
    p = &(*p)[k];
  }
  if (!p->is_number()) return std::nullopt;
  return p->get<double>();
}

void flatten(const nlohmann::json& j, const std::string& path, std::map<std::string, nlohmann::json>& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) flatten(v, path.empty() ? k : path + "." + k, out);
  } else {
    out[path] = j;
  }
}

std::string text_of(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "(absent)";
  return v.dump();
}

bool strings_only(const nlohmann::json& v) {
  return v.is_array() && std::all_of(v.begin(), v.end(), [](const auto& x) { return x.is_string(); });
}

void diff_section(const nlohmann::json& a, const nlohmann::json& b, const std::string& section,
                  std::vector<Difference>& out) {
  std::map<std::string, nlohmann::json> fa, fb;
  if (a.contains(section)) flatten(a[section], section, fa);
  if (b.contains(section)) flatten(b[section], section, fb);
  std::set<std::string> keys;
  for (const auto& [k, v] : fa) keys.insert(k);
  for (const auto& [k, v] : fb) keys.insert(k);
  for (const auto& k : keys) {
    if (volatile_key(k)) continue;
    const nlohmann::json va = fa.count(k) ? fa[k] : nlohmann::json(nullptr);
    const nlohmann::json vb = fb.count(k) ? fb[k] : nlohmann::json(nullptr);
    if (va == vb) continue;
    if (strings_only(va) && strings_only(vb)) {
      // Sets (toggles, features): say what was added and removed rather than dumping both lists.
      std::set<std::string> sa(va.begin(), va.end()), sb(vb.begin(), vb.end());
      std::vector<std::string> removed, added;
      std::set_difference(sa.begin(), sa.end(), sb.begin(), sb.end(), std::back_inserter(removed));
      std::set_difference(sb.begin(), sb.end(), sa.begin(), sa.end(), std::back_inserter(added));
      if (removed.empty() && added.empty()) continue;  // same set, another order
      out.push_back({k, removed.empty() ? "" : fmt::format("only a: {}", fmt::join(removed, ", ")),
                     added.empty() ? "" : fmt::format("only b: {}", fmt::join(added, ", "))});
      continue;
    }
    out.push_back({k, text_of(va), text_of(vb)});
  }
}

nlohmann::json without_volatile_parameters(nlohmann::json p) {
  if (p.is_object()) p.erase("repetitions_per_batch");  // calibrated per run
  return p;
}

}  // namespace

std::vector<ClockFigure> clock_figures(const nlohmann::json& doc) {
  std::vector<ClockFigure> out;
  auto add = [&out](const std::string& what, std::optional<double> mhz, std::string source) {
    if (mhz && *mhz > 0) out.push_back({what, *mhz, 0, std::move(source), {}, false});
  };
  static const nlohmann::json kEmpty = nlohmann::json::object();
  const auto& host = doc.contains("machine") && doc["machine"].is_object() && doc["machine"].contains("host")
                         ? doc["machine"]["host"]
                         : kEmpty;
  if (host.contains("clocks") && host["clocks"].is_object()) {
    for (const auto& [key, what] :
         std::vector<std::pair<const char*, const char*>>{{"base", "base"},
                                                          {"max", "max"},
                                                          {"observed_at_start", "observed at start"},
                                                          {"sustained_at_start", "sustained at start"},
                                                          {"observed_at_finish", "observed at finish"},
                                                          {"sustained_at_finish", "sustained at finish"}}) {
      const auto& f = host["clocks"].contains(key) ? host["clocks"][key] : kEmpty;
      add(what, number_at(f, {"mhz"}), f.value("source", std::string()));
    }
  } else {  // documents written before machine.host.clocks
    if (auto khz = number_at(host, {"base_khz"})) add("base", *khz / 1000, "cpufreq base_frequency");
    if (auto khz = number_at(host, {"max_khz"})) add("max", *khz / 1000, "cpufreq cpuinfo_max_freq");
    add("observed at start", number_at(host, {"observed_mhz"}), "/proc/cpuinfo \"cpu MHz\"");
    add("observed at finish", number_at(host, {"observed_mhz_at_finish"}), "/proc/cpuinfo \"cpu MHz\"");
  }
  // The host suite's own measurements on its pinned cores.
  add("host suite: base (TSC)", number_at(host, {"clock", "base", "tsc_mhz"}), "measured: TSC rate (host suite)");
  add("host suite: sustained", number_at(host, {"clock", "sustained_add_chain_mhz", "median"}),
      "measured: add chain after every timed region, median (host suite)");
  return out;
}

Comparison compare_documents(const LoadedDocument& a, const LoadedDocument& b) {
  Comparison c;
  // Host clocks: every figure either document states, side by side.
  const auto ca = clock_figures(a.json), cb = clock_figures(b.json);
  for (const auto& fa : ca) {
    ClockFigure f = fa;
    const auto it = std::find_if(cb.begin(), cb.end(), [&](const ClockFigure& x) { return x.what == fa.what; });
    if (it != cb.end()) {
      f.b_mhz = it->a_mhz;
      f.source_b = it->source_a;
      f.differs = std::fabs(f.b_mhz / f.a_mhz - 1) > kClockTolerance;
    } else {
      f.differs = true;
    }
    c.clocks.push_back(std::move(f));
  }
  for (const auto& fb : cb) {
    if (std::none_of(ca.begin(), ca.end(), [&](const ClockFigure& x) { return x.what == fb.what; })) {
      c.clocks.push_back({fb.what, 0, fb.a_mhz, {}, fb.source_a, true});
    }
  }
  for (const char* section : {"machine", "build", "options"}) diff_section(a.json, b.json, section, c.differences);

  std::map<std::string, std::vector<const BenchmarkResult*>> in_b;
  for (const auto& row : b.rows) in_b[row_key(row.result)].push_back(&row.result);
  std::map<std::string, std::size_t> used;
  for (const auto& row : a.rows) {
    const auto& ra = row.result;
    const std::string key = row_key(ra);
    const std::size_t n = used[key]++;
    const auto it = in_b.find(key);
    if (it == in_b.end() || n >= it->second.size()) {
      c.only_a.push_back(key);
      continue;
    }
    const auto& rb = *it->second[n];
    CompareRow cr;
    cr.key = n == 0 ? key : fmt::format("{}#{}", key, n + 1);
    cr.unit = ra.metric.unit + "/s";
    cr.status_a = to_string(ra.status);
    cr.status_b = to_string(rb.status);
    cr.a = has_rate(ra) ? ra.value : 0;
    cr.b = has_rate(rb) ? rb.value : 0;
    cr.measured_both = has_rate(ra) && has_rate(rb);
    if (cr.measured_both) {
      cr.ratio = rb.value / ra.value;
      cr.dispersion_a = row_dispersion(ra).relative;
      cr.dispersion_b = row_dispersion(rb).relative;
      cr.combined = std::hypot(cr.dispersion_a, cr.dispersion_b);
      cr.significant = std::fabs(cr.ratio - 1.0) > cr.combined;
    }
    if (ra.wgsl_hash != rb.wgsl_hash) cr.differences.push_back(fmt::format("WGSL {} -> {}", ra.wgsl_hash, rb.wgsl_hash));
    if (ra.statistic != rb.statistic) {
      cr.differences.push_back(fmt::format("statistic {} -> {}", to_string(ra.statistic), to_string(rb.statistic)));
    }
    if (ra.metric.unit != rb.metric.unit) cr.differences.push_back(fmt::format("unit {} -> {}", ra.metric.unit, rb.metric.unit));
    const auto pa = without_volatile_parameters(ra.parameters), pb = without_volatile_parameters(rb.parameters);
    if (pa != pb) {
      std::vector<Difference> d;
      diff_section(nlohmann::json{{"parameters", pa}}, nlohmann::json{{"parameters", pb}}, "parameters", d);
      for (const auto& x : d) cr.differences.push_back(fmt::format("{} {} -> {}", x.what, x.a, x.b));
    }
    c.rows.push_back(std::move(cr));
  }
  std::map<std::string, std::size_t> count_a;
  for (const auto& row : a.rows) ++count_a[row_key(row.result)];
  std::map<std::string, std::size_t> seen_b;
  for (const auto& row : b.rows) {
    const std::string key = row_key(row.result);
    if (++seen_b[key] > count_a[key]) c.only_b.push_back(key);
  }
  return c;
}

std::vector<std::string> regressions(const Comparison& c, double pct) {
  std::vector<std::string> out;
  const double floor = 1.0 - pct / 100.0;
  for (const auto& r : c.rows) {
    if (r.measured_both && r.ratio < floor) {
      out.push_back(fmt::format("{} ({:+.1f}%)", r.key, 100 * (r.ratio - 1)));
    } else if (r.a > 0 && r.status_b == "error") {
      out.push_back(fmt::format("{} (error in b)", r.key));
    }
  }
  return out;
}

namespace {

std::string describe(const LoadedDocument& d) {
  const auto& j = d.json;
  std::string adapter = "unknown adapter";
  if (j.contains("machine") && j["machine"].contains("adapter") && j["machine"]["adapter"].is_object()) {
    const auto& a = j["machine"]["adapter"];
    adapter = a.value("device", std::string());
    if (adapter.empty()) adapter = a.value("description", std::string("unknown adapter"));
  }
  return fmt::format("{} ({}, {} rows, {})", d.path.string(), adapter, d.rows.size(),
                     j.value("started_at", std::string("no date")));
}

}  // namespace

void write_comparison(std::ostream& out, const Comparison& c, const LoadedDocument& a, const LoadedDocument& b,
                      std::optional<double> fail_pct) {
  out << "a: " << describe(a) << '\n' << "b: " << describe(b) << '\n';
  if (c.differences.empty()) {
    out << "machine, build and options: identical\n";
  } else {
    out << "what differs (machine, build, options):\n";
    for (const auto& d : c.differences) {
      out << fmt::format("  {}: {} | {}\n", d.what, d.a.empty() ? "-" : d.a, d.b.empty() ? "-" : d.b);
    }
  }
  if (!c.clocks.empty()) {
    out << fmt::format(
        "host clocks (a frequency difference changes what a kernel does per second; 'DIFFERS' beyond "
        "{:.0f}%):\n",
        100 * kClockTolerance);
    auto mhz = [](double v, const std::string& src) {
      return v > 0 ? fmt::format("{:.0f} MHz ({})", v, src) : std::string("not stated");
    };
    for (const auto& f : c.clocks) {
      const std::string change =
          f.a_mhz > 0 && f.b_mhz > 0 ? fmt::format(" {:+.1f}%", 100 * (f.b_mhz / f.a_mhz - 1)) : "";
      out << fmt::format("  {}: {} | {}{}{}\n", f.what, mhz(f.a_mhz, f.source_a), mhz(f.b_mhz, f.source_b), change,
                         f.differs ? "  DIFFERS" : "");
    }
  }
  std::vector<std::array<std::string, 7>> lines;
  lines.push_back({"benchmark", "a", "b", "b/a", "dispersion", "significant", "notes"});
  for (const auto& r : c.rows) {
    std::array<std::string, 7> l;
    l[0] = r.key;
    l[1] = r.a > 0 ? format_rate(r.a, r.unit.substr(0, r.unit.size() - 2)) : r.status_a;
    l[2] = r.b > 0 ? format_rate(r.b, r.unit.substr(0, r.unit.size() - 2)) : r.status_b;
    l[3] = r.measured_both ? fmt::format("{:.3f} ({:+.1f}%)", r.ratio, 100 * (r.ratio - 1)) : "-";
    l[4] = r.measured_both ? fmt::format("{:.2f}%", 100 * r.combined) : "-";
    l[5] = r.measured_both ? (r.significant ? "yes" : "no") : "-";
    l[6] = fmt::format("{}", fmt::join(r.differences, "; "));
    lines.push_back(std::move(l));
  }
  std::array<std::size_t, 6> w{};
  for (const auto& l : lines) {
    for (std::size_t i = 0; i < 6; ++i) w[i] = std::max(w[i], l[i].size());
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& l = lines[i];
    std::string s = fmt::format("{:<{}}  {:>{}}  {:>{}}  {:>{}}  {:>{}}  {:<{}}", l[0], w[0], l[1], w[1], l[2], w[2],
                                l[3], w[3], l[4], w[4], l[5], w[5]);
    if (!l[6].empty()) s += "  " + l[6];
    while (!s.empty() && s.back() == ' ') s.pop_back();
    out << s << '\n';
    if (i == 0) out << std::string(w[0] + w[1] + w[2] + w[3] + w[4] + w[5] + 10, '-') << '\n';
  }
  out << "dispersion = sqrt(d_a^2 + d_b^2) of the rows' relative dispersions; significant = |b/a - 1| exceeds it\n";
  if (!c.only_a.empty()) out << fmt::format("only in a: {}\n", fmt::join(c.only_a, ", "));
  if (!c.only_b.empty()) out << fmt::format("only in b: {}\n", fmt::join(c.only_b, ", "));
  if (fail_pct) {
    const auto reg = regressions(c, *fail_pct);
    out << fmt::format("regressions beyond {}%: {}\n", *fail_pct, reg.empty() ? "none" : fmt::format("{}", fmt::join(reg, ", ")));
  }
}

nlohmann::json comparison_json(const Comparison& c, std::optional<double> fail_pct) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : c.rows) {
    rows.push_back({{"key", r.key},
                    {"unit", r.unit},
                    {"status_a", r.status_a},
                    {"status_b", r.status_b},
                    {"a", r.a},
                    {"b", r.b},
                    {"ratio", r.measured_both ? nlohmann::json(r.ratio) : nlohmann::json(nullptr)},
                    {"dispersion_a", r.dispersion_a},
                    {"dispersion_b", r.dispersion_b},
                    {"combined_dispersion", r.combined},
                    {"significant", r.significant},
                    {"differences", r.differences}});
  }
  nlohmann::json diffs = nlohmann::json::array();
  for (const auto& d : c.differences) diffs.push_back({{"what", d.what}, {"a", d.a}, {"b", d.b}});
  nlohmann::json clocks = nlohmann::json::array();
  for (const auto& f : c.clocks) {
    auto mhz = [](double v) { return v > 0 ? nlohmann::json(v) : nlohmann::json(nullptr); };
    clocks.push_back({{"what", f.what},
                      {"a_mhz", mhz(f.a_mhz)},
                      {"b_mhz", mhz(f.b_mhz)},
                      {"source_a", f.source_a},
                      {"source_b", f.source_b},
                      {"differs", f.differs}});
  }
  nlohmann::json j{{"schema", "webgpu-bench/comparison"},
                   {"schema_version", 1},
                   {"rows", rows},
                   {"only_a", c.only_a},
                   {"only_b", c.only_b},
                   {"differences", diffs},
                   {"clocks", clocks}};
  if (fail_pct) {
    j["fail_on_regression_pct"] = *fail_pct;
    j["regressions"] = regressions(c, *fail_pct);
  }
  return j;
}

}  // namespace wgb::report
