// Sweeps: points, the adapter's limits, the run loop (see sweep.hpp).
#include "suite/sweep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>

#include "measure/units.hpp"
#include "report/facts.hpp"
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

namespace {
double steady_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

SweepRun::SweepRun(BenchmarkDefinition def, SuiteOptions base, SweepSpec& spec)
    : def_(std::move(def)), base_(std::move(base)), spec_(spec), t0_s_(steady_s()) {}

std::vector<double> SweepRun::estimates_s() const {
  double one = -1;
  for (auto v : spec_.values) {
    if (spec_.skipped.count(v) != 0) continue;
    SuiteOptions probe = base_;
    probe.benchmarks = {def_};
    probe.on_progress = nullptr;
    apply_sweep_value(probe, spec_.parameter, v);
    SuiteRun guess = run_suite(std::move(probe));
    if (guess.start()) {
      const auto e = guess.initial_estimates_s();
      if (!e.empty()) one = e.front();
    }
    break;
  }
  std::vector<double> out;
  for (auto v : spec_.values) out.push_back(spec_.skipped.count(v) != 0 ? 0.0 : one);
  return out;
}

std::optional<BenchmarkResult> SweepRun::next() {
  if (done_ || i_ >= spec_.values.size()) return std::nullopt;
  const std::size_t i = i_++;
  const std::uint64_t value = spec_.values[i];
  auto tag = [&](BenchmarkResult& row) {
    row.index = i;
    report::set_sweep_point(row, {spec_.parameter, value, sweep_option_name(spec_.parameter)});
  };
  auto event = [&](ProgressEvent e) {
    if (!base_.on_progress) return;
    e.index = i;
    e.now_s = steady_s() - t0_s_;
    e.id = sweep_value_text(spec_.parameter, value);
    base_.on_progress(e);
  };
  if (base_.cancel.cancelled()) {
    spec_.notes.push_back(fmt::format("cancelled before {} {}", sweep_parameter_text(spec_.parameter),
                                      sweep_value_text(spec_.parameter, value)));
    fatal_ = make_error(ErrorKind::Cancelled, "cancelled");
    done_ = true;
    return std::nullopt;
  }
  if (const auto skip = spec_.skipped.find(value); skip != spec_.skipped.end()) {
    ProgressEvent e;  // known to cost nothing
    e.kind = ProgressEvent::Kind::Resolved;
    e.stage = "resolved";
    event(e);
    BenchmarkResult row = skipped_row(def_, skip->second);
    tag(row);
    return row;
  }
  SuiteOptions o = base_;
  o.benchmarks = {def_};
  apply_sweep_value(o, spec_.parameter, value);
  o.on_progress = [&, i](const ProgressEvent& e) {
    if (e.kind == ProgressEvent::Kind::SuiteStart && i > 0) return;
    event(e);
  };
  std::optional<BenchmarkResult> got;
  auto st = run_suite(o, [&](const BenchmarkResult& r) { got = r; });
  if (!got) {
    fatal_ = st ? make_error(ErrorKind::Failed, "the suite returned no row") : st.error();
    done_ = true;
    return std::nullopt;
  }
  BenchmarkResult& row = *got;
  tag(row);
  if (!st) {
    fatal_ = st.error();
    done_ = true;
    return row;
  }
  if (!measured(row)) return row;
  if (previous_) {
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
        strip(previous_->parameters, previous_->knob_name) == strip(row.parameters, row.knob_name);
    // Work scales with the calibrated knob (loop count, passes); compare it per knob step.
    auto per_knob = [](const BenchmarkResult& r, double v) { return v / static_cast<double>(std::max<std::uint64_t>(r.knob, 1)); };
    auto same = [&](double a, double b) { return per_knob(*previous_, a) == per_knob(row, b); };
    const bool same_work = same(previous_->work.bytes_read, row.work.bytes_read) &&
                           same(previous_->work.bytes_written, row.work.bytes_written) &&
                           same(previous_->work.operations, row.work.operations);
    if (same_params && same_work) {
      spec_.notes.push_back(fmt::format(
          "{} does not vary with the {}: its parameters and work model are the same at {} and {}; sweep stopped",
          def_.id, sweep_parameter_text(spec_.parameter), sweep_value_text(spec_.parameter, previous_value_),
          sweep_value_text(spec_.parameter, value)));
      spec_.values.resize(i + 1);
      done_ = true;
      return row;
    }
  }
  previous_ = row;
  previous_value_ = value;
  return row;
}

Status run_sweep(const BenchmarkDefinition& def, const SuiteOptions& base, SweepSpec& spec,
                 const std::function<void(BenchmarkResult&)>& on_row,
                 const std::function<void(std::size_t, std::size_t)>& on_point) {
  SweepRun run(def, base, spec);
  for (std::size_t i = 0;; ++i) {
    if (on_point && i < spec.values.size()) on_point(i, spec.values.size());
    auto row = run.next();
    if (!row) break;
    on_row(*row);
  }
  if (run.fatal()) return *run.fatal();
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
