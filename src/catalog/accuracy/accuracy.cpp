// The accuracy pass (accuracy.hpp): kernels on the device, errors against the exact results on the
// host, counted as docs/method.md#accuracy states.
#include "catalog/accuracy/accuracy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace wgb::catalog::accuracy {

namespace {

// The output buffer's fill before the kernel runs: a signalling NaN no arithmetic produces, so a
// result still equal to it was never written.
constexpr std::uint32_t kUnwritten = 0x7fa5a5a5U;
constexpr std::uint32_t kWorkgroup = 64;  // prelude.wgsl's @workgroup_size
constexpr std::uint32_t kMaxGroups = 65535;  // per dimension, WebGPU's default limit

bool two_arguments(Builtin b) { return b == Builtin::Div || b == Builtin::Pow; }

std::uint32_t bits_of(long double x, const Format& f) {
  return half(f) ? f16_bits(x) : f32_bits(static_cast<float>(x));
}
long double value_of(std::uint32_t bits, const Format& f) {
  return half(f) ? f16_value(static_cast<std::uint16_t>(bits & 0xffffU)) : f32_value(bits);
}

// The specification's bound when it is one number for the whole range (in the case's unit).
std::optional<double> fixed_bound(const Case& c) {
  if (!c.bounded) return std::nullopt;
  const Requirement& r = requirement(c.builtin);
  const bool h = half(*c.result);
  switch (c.builtin) {
    case Builtin::Div:
    case Builtin::InverseSqrt: return h ? r.ulps16 : r.ulps32;
    case Builtin::Log:
    case Builtin::Sin:
    case Builtin::Cos:
      if (c.absolute) return h ? r.absolute16 : r.absolute32;
      return h ? r.ulps16 : r.ulps32;
    case Builtin::ToF32: return 0.0;
    default: return std::nullopt;  // inherited, or per input (either neighbour)
  }
}

// One way the specification lets an implementation read a value: the exact arguments, or with a
// subnormal argument read as a zero (of either sign: which one is not specified); and, where that
// reading's exact result is below the smallest normal, that result written as zero. A reading
// with a zero argument may have no value (0 / 0): then a NaN is what it leads to.
struct Reading {
  long double exact = 0;
  std::optional<Interval> accepted;
  bool flush = false;
};

std::vector<Reading> readings(const Case& c, const Arguments& a) {
  std::vector<Reading> out;
  const Format& in = *c.operand;
  const Format& res = *c.result;
  std::vector<Arguments> args = {a};
  if (in.subnormal(a.x)) {
    for (const long double z : {0.0L, -0.0L}) args.push_back({z, a.y});
  }
  if (two_arguments(c.builtin) && in.subnormal(a.y)) {
    const std::size_t n = args.size();
    for (std::size_t i = 0; i < n; ++i) {
      for (const long double z : {0.0L, -0.0L}) args.push_back({args[i].x, z});
    }
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    const long double r = exact(c.builtin, args[i].x, args[i].y);
    if (std::isnan(r) && i == 0) continue;  // outside the domain: no reading (the input is excluded)
    Reading rd{r, c.bounded ? accepted(c.builtin, args[i].x, args[i].y, res) : std::nullopt, i > 0};
    if (res.subnormal(r)) {
      if (rd.accepted) {
        rd.accepted->lo = std::min(rd.accepted->lo, 0.0L);
        rd.accepted->hi = std::max(rd.accepted->hi, 0.0L);
      }
      out.push_back(rd);
      out.push_back(Reading{std::copysign(0.0L, r), rd.accepted, true});
      continue;
    }
    out.push_back(rd);
  }
  return out;
}

long double error_in(bool absolute, long double y, long double exact, const Format& f) {
  if (std::isnan(exact)) return std::isnan(y) ? 0 : kInf;  // a reading without a value (0 / 0)
  if (!absolute) return ulp_error(y, exact, f);
  if (y == exact) return 0;
  if (!std::isfinite(y) || !std::isfinite(exact)) return kInf;
  return std::fabs(y - exact);
}

AccuracySample sample(const Arguments& a, bool two, long double y, long double exact, long double error,
                      const std::optional<Interval>& allowed) {
  AccuracySample s;
  s.input = two ? std::vector<double>{static_cast<double>(a.x), static_cast<double>(a.y)}
                : std::vector<double>{static_cast<double>(a.x)};
  s.output = static_cast<double>(y);
  s.expected = static_cast<double>(exact);
  s.error = static_cast<double>(error);
  if (allowed) s.allowed = {static_cast<double>(allowed->lo), static_cast<double>(allowed->hi)};
  return s;
}

BuiltinAccuracy entry_of(const Case& c) {
  BuiltinAccuracy e;
  e.builtin = requirement(c.builtin).expression;
  e.type = c.operand->name;
  e.result_type = c.result->name;
  e.range = c.range;
  e.kernel = c.kernel;
  e.unit = c.absolute ? "absolute" : "ulp";
  if (c.bounded) e.bound = requirement_text(c.builtin, *c.result);
  e.bound_value = fixed_bound(c);
  return e;
}

}  // namespace

std::string source(const Case& c) {
  const bool a16 = half(*c.operand), r16 = half(*c.result);
  std::string s = (a16 || r16) ? "enable f16;\n" : "";
  s += fmt::format("alias A = {};\nalias R = {};\n", c.operand->name, c.result->name);
  s += a16 ? "fn load_a(w: u32) -> A { return bitcast<vec2<f16>>(w).x; }\n"
           : "fn load_a(w: u32) -> A { return bitcast<f32>(w); }\n";
  s += r16 ? "fn store_r(v: R) -> u32 { return bitcast<u32>(vec2<f16>(v, 0.0h)); }\n"
           : "fn store_r(v: R) -> u32 { return bitcast<u32>(v); }\n";
  return s + kernel_source("accuracy/prelude") + kernel_source(c.kernel);
}

Expected<std::vector<std::uint32_t>> evaluate(gpu::Context& gpu, const Case& c, std::span<const Arguments> args) {
  const std::size_t n = args.size();
  if (n == 0) return make_error(ErrorKind::Failed, "no inputs");
  const std::uint64_t groups = (n + kWorkgroup - 1) / kWorkgroup;
  if (groups > std::uint64_t{kMaxGroups} * kMaxGroups) return make_error(ErrorKind::Failed, "too many inputs");
  const std::string label = fmt::format("{} {} ({})", c.kernel, c.operand->name, c.range);
  auto pipeline = gpu.pipeline(source(c), label);
  if (!pipeline) return std::move(pipeline).error();
  std::vector<std::uint32_t> words(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    words[2 * i] = bits_of(args[i].x, *c.operand);
    words[2 * i + 1] = bits_of(args[i].y, *c.operand);
  }
  auto in = gpu.buffer_with(std::span<const std::uint32_t>(words), kStorage, "accuracy arguments");
  if (!in) return std::move(in).error();
  const std::vector<std::uint32_t> fill(n, kUnwritten);
  auto out = gpu.buffer_with(std::span<const std::uint32_t>(fill), kStorage, "accuracy results");
  if (!out) return std::move(out).error();
  const gpu::BindingResource bindings[] = {*in, *out};
  auto group = gpu.bind_group(*pipeline, bindings, label);
  if (!group) return std::move(group).error();
  const auto gx = static_cast<std::uint32_t>(std::min<std::uint64_t>(groups, kMaxGroups));
  const auto gy = static_cast<std::uint32_t>((groups + gx - 1) / gx);
  auto ran = gpu.run_pass([&](wgpu::ComputePassEncoder& pass) {
    pass.SetPipeline(*pipeline);
    pass.SetBindGroup(0, *group);
    pass.DispatchWorkgroups(gx, gy, 1);
  });
  if (!ran) return std::move(ran).error();
  auto results = gpu.read_as<std::uint32_t>(*out, 0, n);
  if (!results) return std::move(results).error();
  const auto unwritten = std::count(results->begin(), results->end(), kUnwritten);
  if (unwritten > 0) {
    return make_error(ErrorKind::Failed, fmt::format("the kernel left {} of {} results unwritten", unwritten, n));
  }
  return results;
}

BuiltinAccuracy compare(const Case& c, std::span<const Arguments> args, std::span<const std::uint32_t> results) {
  BuiltinAccuracy e = entry_of(c);
  const Format& res = *c.result;
  const bool two = two_arguments(c.builtin);
  e.inputs = args.size();
  long double sum = 0, sum_ulp = 0;
  std::uint64_t finite = 0, counted = 0;
  bool have_worst = false;
  for (std::size_t i = 0; i < args.size() && i < results.size(); ++i) {
    const long double y = value_of(results[i], res);
    const auto rds = readings(c, args[i]);
    // The exact arguments' reading must exist and be a finite value of the result type, and in a
    // bounded range the bound must apply to it; otherwise no error can be counted.
    if (rds.empty() || rds[0].flush || !std::isfinite(rds[0].exact) || std::fabs(rds[0].exact) > res.max_finite() ||
        (c.bounded && !rds[0].accepted)) {
      ++e.excluded;
      continue;
    }
    ++counted;
    // The error against the reading that explains the result best.
    std::size_t best = 0;
    long double err = kInf, err_ulp = kInf;
    for (std::size_t k = 0; k < rds.size(); ++k) {
      const long double ek = error_in(c.absolute, y, rds[k].exact, res);
      if (ek < err) {
        err = ek;
        err_ulp = error_in(false, y, rds[k].exact, res);
        best = k;
      }
    }
    // A result that correct rounding gives too (an underflow to zero) owes nothing to flushing.
    const bool nearest = y == round_to(rds[0].exact, res);
    if (nearest) ++e.correctly_rounded;
    if (rds[best].flush && !nearest) ++e.flushed;
    if (!std::isfinite(y) && std::isinf(err)) ++e.nonfinite;
    if (std::isfinite(err)) {
      sum += err;
      sum_ulp += err_ulp;
      ++finite;
    }
    e.max_ulp = std::max(e.max_ulp, static_cast<double>(err_ulp));
    if (!have_worst || err > e.max_error) {
      e.max_error = static_cast<double>(err);
      e.worst = sample(args[i], two, y, rds[0].exact, err, rds[0].accepted);
      have_worst = true;
    }
    if (!c.bounded) continue;
    const bool inside = std::any_of(rds.begin(), rds.end(), [y](const Reading& r) {
      return r.accepted && r.accepted->contains(y);
    });
    if (inside) continue;
    ++e.violations;
    if (!e.worst_violation || err > e.worst_violation->error) {
      e.worst_violation = sample(args[i], two, y, rds[0].exact, err, rds[0].accepted);
    }
  }
  if (finite > 0) {
    e.mean_error = static_cast<double>(sum / finite);
    e.mean_ulp = static_cast<double>(sum_ulp / finite);
  }
  if (c.bounded && counted > 0) e.within = e.violations == 0;
  return e;
}

BuiltinAccuracy measure(gpu::Context& gpu, const Case& c, const FeatureProbe& has_feature) {
  if (half(*c.operand) || half(*c.result)) {
    if (auto st = require_feature(gpu, "shader-f16", has_feature); !st) {
      BuiltinAccuracy e = entry_of(c);
      e.status = "skipped";
      e.reason = st.error().message;
      return e;
    }
  }
  const std::vector<Arguments> args = c.inputs();
  auto results = evaluate(gpu, c, args);
  if (!results) {
    BuiltinAccuracy e = entry_of(c);
    e.status = "error";
    e.reason = results.error().message;
    e.inputs = args.size();
    return e;
  }
  BuiltinAccuracy e = compare(c, args, *results);
  e.wgsl_hash = gpu::source_hash(source(c));
  return e;
}

std::vector<BuiltinAccuracy> measure_probe(gpu::Context& gpu, std::string_view probe_id,
                                           const FeatureProbe& has_feature) {
  std::vector<BuiltinAccuracy> out;
  for (const Case* c : cases_for(probe_id)) out.push_back(measure(gpu, *c, has_feature));
  return out;
}

}  // namespace wgb::catalog::accuracy
