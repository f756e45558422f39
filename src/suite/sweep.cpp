// Sweeps: points, the adapter's limits, the run loop (see sweep.hpp).
#include "suite/sweep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <sstream>

#include "measure/units.hpp"
#include "suite/row.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb {

namespace {

constexpr std::uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The row of a point the adapter cannot run: the definition's identity, `skipped`, the reason.
BenchmarkResult skipped_row(const BenchmarkDefinition& d, const std::string& reason) {
  BenchmarkResult r = definition_row(d, 0);
  r.status = RowStatus::Skipped;
  r.message = reason;
  return r;
}

// A point that measured a rate (the others cannot tell whether the benchmark responds).
bool measured(const BenchmarkResult& r) {
  return (r.status == RowStatus::Ok || r.status == RowStatus::Throttled || r.status == RowStatus::Suspect) && r.value > 0;
}

}  // namespace

std::string sweep_value_text(const std::string& parameter, std::uint64_t v) {
  return parameter == "size" ? measure::format_bytes(static_cast<double>(v)) : std::to_string(v);
}

std::string sweep_parameter_text(const std::string& parameter) {
  if (parameter == "size") return "buffer or working-set size";
  return parameter == "workgroup" ? "invocations per workgroup" : "invocations in flight";
}

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
  if (*lo > *hi) {
    return make_error(ErrorKind::Usage, fmt::format("--from {} is above --to {}", sweep_value_text(parameter, *lo),
                                                    sweep_value_text(parameter, *hi)));
  }
  // Powers of two from `from`: cache transitions sit at powers of two.
  for (std::uint64_t v = *lo; v <= *hi; v *= 2) {
    spec.values.push_back(v);
    if (v > UINT64_MAX / 2) break;
  }
  if (spec.values.back() != *hi) spec.values.push_back(*hi);
  if (spec.values.size() > 64) return make_error(ErrorKind::Usage, "the sweep has more than 64 points");
  return spec;
}

void limit_sweep(SweepSpec& spec, std::uint64_t limit, const std::string& limit_name) {
  if (spec.parameter != "size" && spec.parameter != "workgroup") return;
  // Each skipped point's row says why; the document lists them under sweep.skipped.
  for (auto v : spec.values) {
    if (v <= limit) continue;
    spec.skipped[v] = fmt::format("{} is above the adapter's {}: {}", sweep_value_text(spec.parameter, v), limit_name,
                                  sweep_value_text(spec.parameter, limit));
  }
}

Status run_sweep(const BenchmarkDefinition& def, const SuiteOptions& base, SweepSpec& spec,
                 const std::function<void(BenchmarkResult&)>& on_row,
                 const std::function<void(std::size_t, std::size_t)>& on_point) {
  std::optional<BenchmarkResult> previous;  // the last measured point
  auto tag = [&](BenchmarkResult& row, std::size_t i) {
    row.index = i;
    row.parameters["sweep"] = {{"parameter", spec.parameter}, {"value", spec.values[i]},
                               {"option", sweep_option_name(spec.parameter)}};
  };
  for (std::size_t i = 0; i < spec.values.size(); ++i) {
    if (on_point) on_point(i, spec.values.size());
    if (base.cancel.cancelled()) {
      spec.notes.push_back(fmt::format("cancelled before {} {}", sweep_parameter_text(spec.parameter),
                                       sweep_value_text(spec.parameter, spec.values[i])));
      return make_error(ErrorKind::Cancelled, "cancelled");
    }
    if (const auto skip = spec.skipped.find(spec.values[i]); skip != spec.skipped.end()) {
      BenchmarkResult row = skipped_row(def, skip->second);
      tag(row, i);
      on_row(row);
      continue;
    }
    SuiteOptions o = base;
    o.benchmarks = {def};
    apply_sweep_value(o, spec.parameter, spec.values[i]);
    std::optional<BenchmarkResult> got;
    auto st = run_suite(o, [&](const BenchmarkResult& r) { got = r; });
    if (!got) return st ? Status(make_error(ErrorKind::Failed, "the suite returned no row")) : st;
    BenchmarkResult& row = *got;
    tag(row, i);
    on_row(row);
    if (!st) return st;
    if (!measured(row)) continue;
    if (previous) {
      // Does the benchmark respond to the option? Its own parameters or its work model must change.
      // What was measured is not an input: the calibrated knob and the launch rule's timings
      // (docs/method.md#streaming) differ from run to run.
      auto strip = [](nlohmann::json p, const std::string& knob) {
        for (const char* measured : {"sweep", "repetitions_per_batch", "launch_ms", "dispatch_ms", "launch_share"}) {
          p.erase(measured);
        }
        if (!knob.empty()) p.erase(knob);
        return p;
      };
      const bool same_params =
          strip(previous->parameters, previous->knob_name) == strip(row.parameters, row.knob_name);
      // Work scales with the calibrated knob (loop count, passes); compare it per knob step.
      auto per_knob = [](const BenchmarkResult& r, double v) { return v / static_cast<double>(std::max<std::uint64_t>(r.knob, 1)); };
      auto same = [&](double a, double b) { return per_knob(*previous, a) == per_knob(row, b); };
      const bool same_work = same(previous->work.bytes_read, row.work.bytes_read) &&
                             same(previous->work.bytes_written, row.work.bytes_written) &&
                             same(previous->work.operations, row.work.operations);
      if (same_params && same_work) {
        spec.notes.push_back(fmt::format(
            "{} does not vary with the {}: its parameters and work model are the same at {} and {}; sweep stopped",
            def.id, sweep_parameter_text(spec.parameter),
            sweep_value_text(spec.parameter, previous->parameters["sweep"]["value"].get<std::uint64_t>()),
            sweep_value_text(spec.parameter, spec.values[i])));
        spec.values.resize(i + 1);
        return ok();
      }
    }
    previous = row;
  }
  return ok();
}

nlohmann::json sweep_json(const std::string& benchmark, const SweepSpec& spec) {
  nlohmann::json skipped = nlohmann::json::array();
  for (const auto& [v, why] : spec.skipped) skipped.push_back({{"value", v}, {"reason", why}});
  return {{"benchmark", benchmark},
          {"parameter", spec.parameter},
          {"option", sweep_option_name(spec.parameter)},
          {"unit", spec.parameter == "size"        ? "B"
                   : spec.parameter == "workgroup" ? "invocations per workgroup"
                                                   : "threads"},
          {"values", spec.values},
          {"skipped", skipped},
          {"notes", spec.notes}};
}

}  // namespace wgb
