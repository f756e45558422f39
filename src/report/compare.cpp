// Two result documents side by side (see compare.hpp for the rules).
#include "report/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <set>

#include "report/files.hpp"
#include "report/host_section.hpp"
#include "report/implementation.hpp"
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
  if (v.is_number_float()) return fmt::format("{:.6g}", v.get<double>());
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
      Difference d{k, removed.empty() ? "" : fmt::format("only a: {}", fmt::join(removed, ", ")),
                   added.empty() ? "" : fmt::format("only b: {}", fmt::join(added, ", "))};
      d.removed = std::move(removed);
      d.added = std::move(added);
      d.is_set = true;
      out.push_back(std::move(d));
      continue;
    }
    out.push_back({k, text_of(va), text_of(vb), {}, {}, false});
  }
}

nlohmann::json without_volatile_parameters(nlohmann::json p) {
  if (p.is_object()) p.erase("repetitions_per_batch");  // calibrated per run
  return p;
}

}  // namespace

std::vector<ClockFigure> clock_figures(const Document& doc) {
  std::vector<ClockFigure> out;
  auto add = [&out](const std::string& what, std::optional<double> mhz, std::string source) {
    // Figures read at one instant (observed) or measured (sustained) move between runs of the same
    // machine; the nominal ones (base, max, TSC) do not.
    const bool moving = what.find("observed") != std::string::npos || what.find("sustained") != std::string::npos;
    if (mhz && *mhz > 0) {
      out.push_back({what, *mhz, 0, std::move(source), {}, moving ? kObservedClockTolerance : kClockTolerance, false});
    }
  };
  const HostDescriptionRecord host = read_host_description(doc.machine);
  if (!host.clocks.empty()) {
    for (const auto& [key, what] :
         std::vector<std::pair<const char*, const char*>>{{"base", "base"},
                                                          {"max", "max"},
                                                          {"observed_at_start", "observed at start"},
                                                          {"sustained_at_start", "sustained at start"},
                                                          {"observed_at_finish", "observed at finish"},
                                                          {"sustained_at_finish", "sustained at finish"}}) {
      if (const HostClockFigure* c = find_clock(host.clocks, key)) add(what, c->mhz, c->source);
    }
  } else {  // documents written before machine.host.clocks
    if (host.base_khz) add("base", static_cast<double>(*host.base_khz) / 1000, "cpufreq base_frequency");
    if (host.max_khz) add("max", static_cast<double>(*host.max_khz) / 1000, "cpufreq cpuinfo_max_freq");
    add("observed at start", host.observed_mhz, "/proc/cpuinfo \"cpu MHz\"");
    add("observed at finish", host.observed_mhz_at_finish, "/proc/cpuinfo \"cpu MHz\"");
  }
  // The host suite's own measurements on its pinned cores.
  const HostSuiteRecord suite = read_host_suite_record(doc.machine);
  add("host suite: base (TSC)", suite.clock.tsc_mhz, "measured: TSC rate (host suite)");
  add("host suite: sustained",
      suite.clock.sustained_add_chain_mhz ? std::optional<double>(suite.clock.sustained_add_chain_mhz->median)
                                          : std::nullopt,
      "measured: add chain after every timed region, median (host suite)");
  return out;
}

Comparison compare_documents(const Document& a, const Document& b) {
  Comparison c;
  // Host clocks: every figure either document states, side by side.
  const auto ca = clock_figures(a), cb = clock_figures(b);
  for (const auto& fa : ca) {
    ClockFigure f = fa;
    const auto it = std::find_if(cb.begin(), cb.end(), [&](const ClockFigure& x) { return x.what == fa.what; });
    if (it != cb.end()) {
      f.b_mhz = it->a_mhz;
      f.source_b = it->source_a;
      f.differs = std::fabs(f.b_mhz / f.a_mhz - 1) > f.tolerance;
    } else {
      f.differs = true;
    }
    c.clocks.push_back(std::move(f));
  }
  for (const auto& fb : cb) {
    if (std::none_of(ca.begin(), ca.end(), [&](const ClockFigure& x) { return x.what == fb.what; })) {
      c.clocks.push_back({fb.what, 0, fb.a_mhz, {}, fb.source_a, fb.tolerance, true});
    }
  }
  diff_section({{"implementation", implementation_json(a.implementation)}},
               {{"implementation", implementation_json(b.implementation)}}, "implementation", c.differences);
  diff_section({{"machine", a.machine}}, {{"machine", b.machine}}, "machine", c.differences);
  diff_section({{"build", a.build}}, {{"build", b.build}}, "build", c.differences);
  diff_section({{"options", a.options}}, {{"options", b.options}}, "options", c.differences);

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
      cr.dispersion_a = row_dispersion(ra).relative;
      cr.dispersion_b = row_dispersion(rb).relative;
      const Significance d = compare_estimates({ra.value, cr.dispersion_a}, {rb.value, cr.dispersion_b});
      cr.ratio = d.ratio;
      cr.combined = d.dispersion;
      cr.noise = d.allowance;
      cr.significant = d.differs();
    }
    if (cr.status_a != cr.status_b) cr.differences.push_back(fmt::format("status {} -> {}", cr.status_a, cr.status_b));
    if (ra.statistic != rb.statistic) {
      cr.differences.push_back(fmt::format("statistic {} -> {}", to_string(ra.statistic), to_string(rb.statistic)));
    }
    if (ra.metric.unit != rb.metric.unit) cr.differences.push_back(fmt::format("unit {} -> {}", ra.metric.unit, rb.metric.unit));
    // Details last (shown with -v): the kernel's hash and the parameters.
    if (ra.wgsl_hash != rb.wgsl_hash) {
      cr.differences.push_back(fmt::format("WGSL {} -> {}", ra.wgsl_hash, rb.wgsl_hash));
      ++cr.details;
    }
    const auto pa = without_volatile_parameters(ra.parameters), pb = without_volatile_parameters(rb.parameters);
    if (pa != pb) {
      std::vector<Difference> d;
      diff_section(nlohmann::json{{"parameters", pa}}, nlohmann::json{{"parameters", pb}}, "parameters", d);
      for (const auto& x : d) {
        cr.differences.push_back(fmt::format("{} {} -> {}", x.what, x.a, x.b));
        ++cr.details;
      }
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

CompareSummary summarize(const Comparison& c) {
  CompareSummary s;
  s.in_both = c.rows.size();
  double log_sum = 0;
  for (const auto& r : c.rows) {
    if (!r.measured_both || !(r.ratio > 0)) continue;
    ++s.measured_both;
    log_sum += std::log(r.ratio);
    if (!r.significant) {
      ++s.unchanged;
    } else if (r.ratio > 1) {
      ++s.faster;
    } else {
      ++s.slower;
    }
  }
  if (s.measured_both > 0) s.geomean = std::exp(log_sum / static_cast<double>(s.measured_both));
  return s;
}

namespace {

std::string describe(const Document& d) {
  std::string adapter = d.host_suite() ? "host CPU" : d.adapter.device;
  if (adapter.empty()) adapter = d.adapter.description.empty() ? "unknown adapter" : d.adapter.description;
  // A document measured elsewhere than natively names its runtime and WebGPU implementation.
  if (d.implementation.runtime != "native" && !d.implementation.runtime.empty()) {
    adapter = implementation_text(d.implementation) + " on " + adapter;
  }
  return fmt::format("{} ({}, {} {}, {})", d.origin, adapter, d.rows.size(), d.rows.size() == 1 ? "row" : "rows",
                     d.started_at.empty() ? "no date" : d.started_at);
}

std::string plural(std::size_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string rtrim(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// Words (each but the last followed by `sep`) filled into lines of at most `width` columns: the
// first line starts with `first`, the others with `indent` spaces. A word is never split unless it
// alone is wider than a line.
std::vector<std::string> fill(const std::vector<std::string>& words, const std::string& first, std::size_t indent,
                              std::size_t width, const std::string& sep = ", ") {
  std::vector<std::string> lines;
  std::string line = first;
  bool has_word = false;
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::string piece = words[i] + (i + 1 < words.size() ? sep : "");
    if (has_word && line.size() + rtrim(piece).size() > width) {
      lines.push_back(rtrim(line));
      line = std::string(indent, ' ');
    }
    while (line.size() + rtrim(piece).size() > width && line.size() < width) {
      const std::size_t room = width - line.size();
      lines.push_back(line + piece.substr(0, room));
      piece = piece.substr(room);
      line = std::string(indent, ' ');
    }
    line += piece;
    has_word = true;
  }
  if (has_word || lines.empty()) lines.push_back(rtrim(line));
  return lines;
}

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> out;
  std::string w;
  for (char ch : text) {
    if (ch == ' ') {
      if (!w.empty()) out.push_back(std::move(w));
      w.clear();
    } else {
      w += ch;
    }
  }
  if (!w.empty()) out.push_back(std::move(w));
  return out;
}

void put(std::ostream& out, const std::vector<std::string>& lines) {
  for (const auto& l : lines) out << l << '\n';
}

// "machine.adapter.limits" for "machine.adapter.limits.maxBindGroups".
std::string parent_of(const std::string& path) {
  const auto dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(0, dot);
}

void write_differences(std::ostream& out, const Comparison& c, const CompareStyle& style) {
  if (c.differences.empty()) {
    out << "machine, build and options: identical\n";
    return;
  }
  out << "what differs (machine, build, options):\n";
  // Fields only one document has: one line per side (the names with -v), grouped by their parent.
  std::vector<std::string> only_a, only_b;
  for (const auto& d : c.differences) {
    if (d.is_set) {
      const std::string head = fmt::format("  {}: +{}/-{} (b adds {}, drops {})", d.what, d.added.size(),
                                           d.removed.size(), d.added.size(), d.removed.size());
      out << head << '\n';
      const std::size_t shown = style.verbose ? SIZE_MAX : 12;
      for (const auto& [sign, names] : {std::pair{"+ ", &d.added}, std::pair{"- ", &d.removed}}) {
        if (names->empty()) continue;
        std::vector<std::string> list(names->begin(), names->begin() + std::min(names->size(), shown));
        if (names->size() > list.size())
          list.push_back(fmt::format("and {} more (-v lists them)", names->size() - list.size()));
        put(out, fill(list, std::string("    ") + sign, 6, style.width));
      }
      continue;
    }
    if (d.a == "(absent)" || d.b == "(absent)") {
      (d.a == "(absent)" ? only_b : only_a).push_back(d.what);
      continue;
    }
    auto shown = [](const std::string& v) { return v.empty() ? std::string("(empty)") : v; };
    const std::string one = fmt::format("  {}: {} -> {}", d.what, shown(d.a), shown(d.b));
    if (one.size() <= style.width) {
      out << one << '\n';
    } else {
      out << "  " << d.what << ":\n";
      put(out, fill(split_words(d.a), "    a: ", 7, style.width, " "));
      put(out, fill(split_words(d.b), "    b: ", 7, style.width, " "));
    }
  }
  for (const auto& [side, names] : {std::pair{"a", &only_a}, std::pair{"b", &only_b}}) {
    if (names->empty()) continue;
    if (style.verbose) {
      put(out, fill(*names, fmt::format("  {} only in {}: ", plural(names->size(), "field", "fields"), side), 4,
                    style.width));
      continue;
    }
    std::vector<std::pair<std::string, std::size_t>> groups;
    for (const auto& n : *names) {
      const std::string p = parent_of(n);
      if (groups.empty() || groups.back().first != p) groups.emplace_back(p, 0);
      ++groups.back().second;
    }
    std::vector<std::string> parts;
    for (const auto& [p, n] : groups) parts.push_back(fmt::format("{} ({})", p, n));
    put(out,
        fill(parts, fmt::format("  {} only in {} (-v names them): ", plural(names->size(), "field", "fields"), side), 4,
             style.width));
  }
}

void write_clocks(std::ostream& out, const Comparison& c, const CompareStyle& style) {
  if (c.clocks.empty()) return;
  const bool any = std::any_of(c.clocks.begin(), c.clocks.end(), [](const ClockFigure& f) { return f.differs; });
  const std::string head =
      any ? fmt::format(
                "host clocks (a frequency difference changes every rate; DIFFERS: beyond {:.0f} % for nominal, "
                "{:.0f} % for observed clocks):",
                100 * kClockTolerance, 100 * kObservedClockTolerance)
          : fmt::format("host clocks (the same within tolerance: {:.0f} % for nominal, {:.0f} % for observed clocks):",
                        100 * kClockTolerance, 100 * kObservedClockTolerance);
  put(out, fill(split_words(head), "", 2, style.width, " "));
  std::size_t w = 0;
  for (const auto& f : c.clocks) w = std::max(w, f.what.size());
  auto mhz = [](double v) { return v > 0 ? fmt::format("{:.0f} MHz", v) : std::string("not stated"); };
  for (const auto& f : c.clocks) {
    const std::string change = f.a_mhz > 0 && f.b_mhz > 0 ? fmt::format("{:+.1f}%", 100 * (f.b_mhz / f.a_mhz - 1)) : "";
    std::string line = fmt::format("  {:<{}}  {:>10}  {:>10}  {:>7}{}", f.what, w, mhz(f.a_mhz), mhz(f.b_mhz), change,
                                   f.differs ? "  DIFFERS" : "");
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
    if (style.verbose) {
      const std::string src = f.source_a == f.source_b || f.source_b.empty() || f.source_a.empty()
                                  ? fmt::format("source: {}", f.source_a.empty() ? f.source_b : f.source_a)
                                  : fmt::format("sources: a {}; b {}", f.source_a, f.source_b);
      put(out, fill(split_words(src), "      ", 6, style.width, " "));
    }
  }
}

}  // namespace

void write_comparison(std::ostream& out, const Comparison& c, const Document& a, const Document& b,
                      std::optional<double> fail_pct, const CompareStyle& style) {
  put(out, fill(split_words(describe(a)), "a: ", 3, style.width, " "));
  put(out, fill(split_words(describe(b)), "b: ", 3, style.width, " "));
  if (const auto ia = implementation_text(a.implementation), ib = implementation_text(b.implementation); ia != ib) {
    // Two implementations, not two runs of one: the ratios say what one costs against the other.
    put(out, fill(split_words(fmt::format("different WebGPU implementations: a {}, b {}; b/a compares them (and "
                                          "their adapters, where those differ too)", ia, ib)),
                  "", 0, style.width, " "));
  }

  // The answer first.
  const auto sum = summarize(c);
  std::vector<std::string> parts;
  if (sum.measured_both > 0) {
    parts.push_back(fmt::format("{} measured in both: geometric mean of b/a {:.3f} ({:+.1f}%);", sum.measured_both,
                                sum.geomean, 100 * (sum.geomean - 1)));
    parts.push_back(
        fmt::format("{} faster, {} slower, {} unchanged (within noise)", sum.faster, sum.slower, sum.unchanged));
  } else {
    parts.push_back(sum.in_both == 0 ? std::string("no benchmark in both documents")
                                     : fmt::format("none of the {} in both has a rate in both",
                                                   plural(sum.in_both, "benchmark", "benchmarks")));
  }
  if (sum.in_both > sum.measured_both && sum.measured_both > 0) {
    parts.back() += ";";
    parts.push_back(fmt::format("{} without a rate in one of them", sum.in_both - sum.measured_both));
  }
  if (!c.only_a.empty() || !c.only_b.empty()) {
    parts.back() += ";";
    parts.push_back(fmt::format("{} only in a, {} only in b", c.only_a.size(), c.only_b.size()));
  }
  std::vector<std::string> words;
  for (const auto& p : parts) {
    for (auto& w : split_words(p)) words.push_back(std::move(w));
  }
  put(out, fill(words, "summary: ", 9, style.width, " "));
  out << '\n';

  std::vector<std::array<std::string, 6>> lines;
  if (!c.rows.empty()) lines.push_back({"benchmark", "a", "b", "b/a", "noise", "verdict"});
  std::vector<std::vector<std::string>> notes;
  if (!c.rows.empty()) notes.emplace_back();
  std::size_t hidden = 0;
  for (const auto& r : c.rows) {
    std::array<std::string, 6> l;
    l[0] = r.key;
    l[1] = r.a > 0 ? format_rate(r.a, r.unit.substr(0, r.unit.size() - 2)) : r.status_a;
    l[2] = r.b > 0 ? format_rate(r.b, r.unit.substr(0, r.unit.size() - 2)) : r.status_b;
    l[3] = r.measured_both ? fmt::format("{:.3f} ({:+.1f}%)", r.ratio, 100 * (r.ratio - 1)) : "-";
    l[4] = r.measured_both ? fmt::format("{:.1f}%", 100 * r.noise) : "-";
    l[5] = r.measured_both ? (!r.significant ? "unchanged" : r.ratio > 1 ? "faster" : "slower") : "-";
    lines.push_back(std::move(l));
    const std::size_t shown = style.verbose ? r.differences.size() : r.differences.size() - r.details;
    if (shown < r.differences.size()) ++hidden;
    notes.emplace_back(r.differences.begin(), r.differences.begin() + static_cast<std::ptrdiff_t>(shown));
  }
  std::array<std::size_t, 6> w{};
  for (const auto& l : lines) {
    for (std::size_t i = 0; i < 6; ++i) w[i] = std::max(w[i], l[i].size());
  }
  // The benchmark column gives way when the line would not fit: a longer id gets a line of its own.
  const std::size_t rest = w[1] + w[2] + w[3] + w[4] + w[5] + 10;
  if (w[0] + rest > style.width) w[0] = std::max<std::size_t>(9, style.width > rest ? style.width - rest : 9);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto l = lines[i];
    if (l[0].size() > w[0]) {
      out << l[0] << '\n';
      l[0].clear();
    }
    std::string s = fmt::format("{:<{}}  {:>{}}  {:>{}}  {:>{}}  {:>{}}  {:<{}}", l[0], w[0], l[1], w[1], l[2], w[2],
                                l[3], w[3], l[4], w[4], l[5], w[5]);
    while (!s.empty() && s.back() == ' ') s.pop_back();
    out << s << '\n';
    if (i == 0) out << std::string(std::min(style.width, w[0] + rest), '-') << '\n';
    for (const auto& n : notes[i]) put(out, fill(split_words(n), "    ", 6, style.width, " "));
  }
  if (!c.rows.empty()) {
    put(out, fill(split_words(fmt::format("noise = what a change must exceed (docs/method.md#differ): the rows' "
                                          "combined dispersion, at least {:.0f}%; a change within it is unchanged",
                                          100 * kNoiseFloor)),
                  "", 0, style.width, " "));
  }
  if (hidden > 0) {
    out << (hidden == 1
                ? std::string("1 row differs in its WGSL hash or recorded parameters: -v shows them\n")
                : fmt::format("{} rows differ in their WGSL hash or recorded parameters: -v shows them\n", hidden));
  }
  for (const auto& [side, keys] : {std::pair{"a", &c.only_a}, std::pair{"b", &c.only_b}}) {
    if (keys->empty()) continue;
    constexpr std::size_t kShown = 16;  // the rest with -v
    std::vector<std::string> list(
        keys->begin(),
        keys->begin() + static_cast<std::ptrdiff_t>(style.verbose ? keys->size() : std::min(keys->size(), kShown)));
    if (list.size() < keys->size())
      list.push_back(fmt::format("and {} more (-v lists them)", keys->size() - list.size()));
    put(out, fill(list, fmt::format("only in {} ({}): ", side, keys->size()), 4, style.width));
  }
  out << '\n';
  write_differences(out, c, style);
  write_clocks(out, c, style);
  if (fail_pct) {
    const auto reg = regressions(c, *fail_pct);
    std::vector<std::string> items = reg;
    if (items.empty()) items.push_back("none");
    put(out, fill(items, fmt::format("regressions beyond {}%: ", *fail_pct), 4, style.width));
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
                    {"noise", r.noise},
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
                      {"tolerance", f.tolerance},
                      {"differs", f.differs}});
  }
  const auto sum = summarize(c);
  nlohmann::json j{
      {"schema", "webgpu-bench/comparison"},
      {"schema_version", 1},
      {"rows", rows},
      {"only_a", c.only_a},
      {"only_b", c.only_b},
      {"differences", diffs},
      {"clocks", clocks},
      {"summary",
       {{"in_both", sum.in_both},
        {"measured_both", sum.measured_both},
        {"geometric_mean_ratio", sum.measured_both > 0 ? nlohmann::json(sum.geomean) : nlohmann::json(nullptr)},
        {"faster", sum.faster},
        {"slower", sum.slower},
        {"unchanged", sum.unchanged},
        {"noise_floor", kNoiseFloor}}}};
  if (fail_pct) {
    j["fail_on_regression_pct"] = *fail_pct;
    j["regressions"] = regressions(c, *fail_pct);
  }
  return j;
}

}  // namespace wgb::report
