// Sweeps: points, clamping, the run loop and the series table (see sweep.hpp).
#include "report/sweep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <sstream>

#include "report/table.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb::report {

namespace {

constexpr std::uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string value_text(const std::string& parameter, std::uint64_t v) {
  return parameter == "size" ? format_bytes(static_cast<double>(v)) : std::to_string(v);
}

bool latency_like(const BenchmarkResult& r) {
  return r.metric.unit == "hop" || r.metric.unit == "load" || r.category == "latency";
}

}  // namespace

Expected<std::uint64_t> parse_size(std::string_view text) {
  std::string s(text);
  s.erase(0, s.find_first_not_of(" \t"));
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  if (i == 0 || i > 19) return make_error(ErrorKind::Usage, fmt::format("'{}' is not a size (e.g. 4096, 16K, 64MiB, 1G)", s));
  const std::uint64_t n = std::stoull(s.substr(0, i));
  const std::string suffix = lower(s.substr(i));
  std::uint64_t mult = 0;
  if (suffix.empty() || suffix == "b") mult = 1;
  if (suffix == "k" || suffix == "kb" || suffix == "kib") mult = kKiB;
  if (suffix == "m" || suffix == "mb" || suffix == "mib") mult = kMiB;
  if (suffix == "g" || suffix == "gb" || suffix == "gib") mult = kGiB;
  if (mult == 0) return make_error(ErrorKind::Usage, fmt::format("'{}': unknown size suffix '{}' (use K, M, G)", s, s.substr(i)));
  if (n > UINT64_MAX / mult) return make_error(ErrorKind::Usage, fmt::format("'{}' is too large", s));
  return n * mult;
}

std::string sweep_option_name(const std::string& parameter) {
  if (parameter == "size") return "bandwidth_bytes, working_set_bytes";
  return parameter == "workgroup" ? "compute_workgroup_size" : "compute_threads";
}

void apply_sweep_value(SuiteOptions& options, const std::string& parameter, std::uint64_t value) {
  if (parameter == "size") {
    options.bandwidth_bytes = value;
    options.working_set_bytes = value;
  } else if (parameter == "workgroup") {
    options.compute_workgroup_size = static_cast<std::uint32_t>(value);
  } else {
    options.compute_threads = static_cast<std::uint32_t>(value);
  }
}

Expected<SweepSpec> make_sweep_spec(const std::string& parameter, const std::string& from, const std::string& to,
                                    const std::string& list) {
  SweepSpec spec;
  spec.parameter = parameter;
  if (parameter != "size" && parameter != "threads" && parameter != "workgroup") {
    return make_error(ErrorKind::Usage, fmt::format("--param '{}': expected size, threads or workgroup", parameter));
  }
  const bool size = parameter == "size";
  auto parse = [&](const std::string& t) -> Expected<std::uint64_t> {
    auto v = parse_size(t);
    if (!v) return v;
    if (*v == 0) return make_error(ErrorKind::Usage, fmt::format("'{}': a sweep point must be positive", t));
    if (!size && (*v > UINT32_MAX || lower(t).find_first_of("kmgb") != std::string::npos)) {
      return make_error(ErrorKind::Usage, fmt::format("'{}' is not a {}", t,
                                                      parameter == "workgroup" ? "workgroup size" : "thread count"));
    }
    return v;
  };
  if (!list.empty()) {
    std::stringstream ss(list);
    std::string item;
    while (std::getline(ss, item, ',')) {
      if (item.find_first_not_of(" \t") == std::string::npos) continue;
      auto v = parse(item);
      if (!v) return std::move(v).error();
      if (std::find(spec.values.begin(), spec.values.end(), *v) == spec.values.end()) spec.values.push_back(*v);
    }
    if (spec.values.empty()) return make_error(ErrorKind::Usage, "--values is empty");
    return spec;
  }
  const bool workgroup = parameter == "workgroup";
  auto lo = parse(from.empty() ? (size ? "16K" : workgroup ? "32" : "64") : from);
  if (!lo) return std::move(lo).error();
  auto hi = parse(to.empty() ? (size ? "1G" : workgroup ? "1024" : "1048576") : to);
  if (!hi) return std::move(hi).error();
  if (*lo > *hi) return make_error(ErrorKind::Usage, fmt::format("--from {} is above --to {}", *lo, *hi));
  // Powers of two from `from`: the cache transitions sit at powers of two (seed 004).
  for (std::uint64_t v = *lo; v <= *hi; v *= 2) {
    spec.values.push_back(v);
    if (v > UINT64_MAX / 2) break;
  }
  if (spec.values.back() != *hi) spec.values.push_back(*hi);
  if (spec.values.size() > 64) return make_error(ErrorKind::Usage, "the sweep has more than 64 points");
  return spec;
}

void clamp_sweep(SweepSpec& spec, std::uint64_t limit, const std::string& limit_name) {
  if (spec.parameter != "size" && spec.parameter != "workgroup") return;
  const bool size = spec.parameter == "size";
  // Sizes: the probes need multiples of 16; keep it round. Workgroup sizes: the limit itself.
  const std::uint64_t cap = size ? limit & ~std::uint64_t{255} : limit;
  auto text = [&](std::uint64_t v) { return size ? format_bytes(static_cast<double>(v)) : std::to_string(v); };
  std::vector<std::uint64_t> out;
  std::vector<std::string> clamped;
  for (auto v : spec.values) {
    std::uint64_t x = v;
    if (v > cap) {
      clamped.push_back(text(v));
      x = cap;
    }
    if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  }
  if (!clamped.empty()) {
    spec.notes.push_back(fmt::format("{} exceed(s) the adapter's {} ({}): clamped to {}", fmt::join(clamped, ", "),
                                     limit_name, text(limit), text(cap)));
  }
  spec.values = std::move(out);
}

Status run_sweep(const BenchmarkDefinition& def, const SuiteOptions& base, SweepSpec& spec,
                 const std::function<void(BenchmarkResult&)>& on_row) {
  std::optional<BenchmarkResult> previous;  // the last measured point
  for (std::size_t i = 0; i < spec.values.size(); ++i) {
    if (base.cancel.cancelled()) {
      spec.notes.push_back(fmt::format("cancelled before {} = {}", spec.parameter, value_text(spec.parameter, spec.values[i])));
      return make_error(ErrorKind::Cancelled, "cancelled");
    }
    SuiteOptions o = base;
    o.benchmarks = {def};
    apply_sweep_value(o, spec.parameter, spec.values[i]);
    std::optional<BenchmarkResult> got;
    auto st = run_suite(o, [&](const BenchmarkResult& r) { got = r; });
    if (!got) return st ? Status(make_error(ErrorKind::Failed, "the suite returned no row")) : st;
    BenchmarkResult& row = *got;
    row.index = i;
    row.parameters["sweep"] = {{"parameter", spec.parameter}, {"value", spec.values[i]},
                               {"option", sweep_option_name(spec.parameter)}};
    on_row(row);
    if (!st) return st;
    if (!has_rate(row)) continue;
    if (previous) {
      // Does the benchmark respond to the option? Its own parameters or its work model must change.
      auto strip = [](nlohmann::json p) {
        p.erase("sweep");
        p.erase("repetitions_per_batch");
        return p;
      };
      const bool same_params = strip(previous->parameters) == strip(row.parameters);
      // Operations scale with the calibrated loop count; compare them per knob step.
      auto per_knob = [](const BenchmarkResult& r) { return r.work.operations / static_cast<double>(std::max<std::uint64_t>(r.knob, 1)); };
      const bool same_work = previous->work.bytes_read == row.work.bytes_read &&
                             previous->work.bytes_written == row.work.bytes_written && per_knob(*previous) == per_knob(row);
      if (same_params && same_work) {
        spec.notes.push_back(fmt::format(
            "{} has no {} knob: its parameters and work model are the same at {} and {} ({} is ignored); sweep stopped",
            def.id, spec.parameter, value_text(spec.parameter, previous->parameters["sweep"]["value"].get<std::uint64_t>()),
            value_text(spec.parameter, spec.values[i]), sweep_option_name(spec.parameter)));
        spec.values.resize(i + 1);
        return ok();
      }
    }
    previous = row;
  }
  return ok();
}

nlohmann::json sweep_json(const std::string& benchmark, const SweepSpec& spec) {
  return {{"benchmark", benchmark},
          {"parameter", spec.parameter},
          {"option", sweep_option_name(spec.parameter)},
          {"unit", spec.parameter == "size"        ? "B"
                   : spec.parameter == "workgroup" ? "invocations per workgroup"
                                                   : "threads"},
          {"values", spec.values},
          {"notes", spec.notes}};
}

void write_sweep_table(std::ostream& out, const std::vector<ReportRow>& rows, const std::string& parameter) {
  const bool latency = std::any_of(rows.begin(), rows.end(), [](const auto& r) { return latency_like(r.result); });
  std::vector<std::array<std::string, 7>> lines;
  lines.push_back({parameter, "status", "rate", "statistic", "dispersion", latency ? "latency" : "", "notes"});
  for (const auto& row : rows) {
    const auto& r = row.result;
    std::array<std::string, 7> l;
    const auto it = r.parameters.find("sweep");
    if (it != r.parameters.end() && it->contains("value") && (*it)["value"].is_number_unsigned()) {
      l[0] = value_text(parameter, (*it)["value"].get<std::uint64_t>());
    }
    const bool rate = has_rate(r);
    l[1] = to_string(r.status);
    l[2] = rate ? format_rate(r.value, r.metric.unit) : "-";
    l[3] = rate ? fmt::format("{} of {}", to_string(r.statistic), r.stats.count) : "-";
    l[4] = rate ? dispersion_text(r) : "-";
    l[5] = latency ? (rate ? fmt::format("{:.3g} ns/{}", 1e9 / r.value, r.metric.unit) : "-") : "";
    l[6] = r.message;
    lines.push_back(std::move(l));
  }
  std::array<std::size_t, 6> w{};
  for (const auto& l : lines) {
    for (std::size_t c = 0; c < 6; ++c) w[c] = std::max(w[c], l[c].size());
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& l = lines[i];
    std::string s = fmt::format("{:>{}}  {:<{}}  {:>{}}  {:<{}}  {:>{}}", l[0], w[0], l[1], w[1], l[2], w[2], l[3], w[3],
                                l[4], w[4]);
    std::size_t width = w[0] + w[1] + w[2] + w[3] + w[4] + 8;
    if (w[5] > 0) {
      s += fmt::format("  {:>{}}", l[5], w[5]);
      width += w[5] + 2;
    }
    if (!l[6].empty()) s += "  " + l[6];
    while (!s.empty() && s.back() == ' ') s.pop_back();
    out << s << '\n';
    if (i == 0) out << std::string(width, '-') << '\n';
  }
}

}  // namespace wgb::report
