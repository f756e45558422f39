// Host side of the subgroup-matrix family: seeded small-integer operands, the choice between the
// accumulate and cancel modes (whichever keeps every value exact), the closed-form reference, the
// storage encodings (f16 bits, packed i8/u8) and the exact comparison.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "catalog/subgroup_matrix/subgroup_matrix.hpp"
#include "gpu/hash.hpp"

namespace wgb::catalog::subgroup_matrix {

namespace {

// Knob bounds. The accumulate mode is used when it allows at least kMinAccumulateIterations (so
// the scheduler can still calibrate a long dispatch); kMaxIterations caps every mode.
constexpr std::uint64_t kMinAccumulateIterations = 1u << 14;
constexpr std::uint64_t kMaxIterations = 1u << 20;

// Signed data in [-2, 2], unsigned in [0, 3]: dense (few zeros) but small enough to stay exact.
std::int64_t small_value(std::uint32_t index, std::uint32_t seed, bool allow_negative) {
  const std::uint32_t h = gpu::hash32(index ^ seed);
  return allow_negative ? static_cast<std::int64_t>(h % 5) - 2 : static_cast<std::int64_t>(h % 4);
}

std::vector<std::int64_t> seeded(std::size_t count, std::uint32_t seed, bool allow_negative) {
  std::vector<std::int64_t> v(count);
  for (std::size_t i = 0; i < count; ++i)
    v[i] = small_value(static_cast<std::uint32_t>(i), seed, allow_negative);
  return v;
}

// out (M x N) += A (M x K) * B (K x N), all row-major.
void multiply_add(const Shape& s, const std::int64_t* a, const std::int64_t* b, std::int64_t* out) {
  for (std::uint32_t r = 0; r < s.m; ++r) {
    for (std::uint32_t c = 0; c < s.n; ++c) {
      std::int64_t sum = 0;
      for (std::uint32_t k = 0; k < s.k; ++k) sum += a[r * s.k + k] * b[k * s.n + c];
      out[r * s.n + c] += sum;
    }
  }
}

std::vector<std::int64_t> product(const Shape& s, const std::vector<std::int64_t>& a,
                                  const std::vector<std::int64_t>& b) {
  std::vector<std::int64_t> p(static_cast<std::size_t>(s.m) * s.n, 0);
  multiply_add(s, a.data(), b.data(), p.data());
  return p;
}

std::int64_t max_abs(const std::vector<std::int64_t>& v) {
  std::int64_t m = 0;
  for (auto x : v) m = std::max(m, std::abs(x));
  return m;
}

}  // namespace

const char* name(Mode m) { return m == Mode::Accumulate ? "accumulate" : "cancel"; }

double exact_limit(Scalar result) {
  switch (result) {
    case Scalar::F16:
      return 2048;  // 11-bit significand
    case Scalar::F32:
      return 16777216;  // 24-bit significand
    case Scalar::I32:   // the validator's sentinel is -2^31
    case Scalar::U32:
      return 2147483647;  // kept below the 2^31 sentinel
    case Scalar::I8:
      return 127;
    case Scalar::U8:
      return 255;
  }
  return 0;
}

std::optional<Plan> make_plan(const Shape& s, const KernelConfig& cfg, std::uint32_t seed) {
  if (cfg.accumulators == 0 || cfg.unroll == 0 || cfg.unroll % 2 != 0) return std::nullopt;
  const bool allow_negative = is_signed(s.component) && is_signed(s.result);
  const std::size_t mn = static_cast<std::size_t>(s.m) * s.n;
  Plan plan;
  Operands& ops = plan.operands;
  ops.a = seeded(static_cast<std::size_t>(s.m) * s.k, seed ^ 0xA5A5A5A5u, allow_negative);
  ops.b0 = seeded(static_cast<std::size_t>(s.k) * s.n, seed ^ 0x3C3C3C3Cu, allow_negative);
  ops.c = seeded(mn * cfg.accumulators, seed ^ 0x5EED0C0Cu, allow_negative);
  // Distinct first elements make the accumulators provably different chains.
  for (std::uint32_t j = 0; j < cfg.accumulators; ++j) {
    ops.c[j * mn] = allow_negative ? static_cast<std::int64_t>(j) - cfg.accumulators / 2 : j;
  }

  // Bounds that hold for every partial sum inside a multiply-accumulate, whatever order the
  // hardware adds in: Q = |A| * |B0| bounds each step's contribution.
  std::vector<std::int64_t> abs_a(ops.a), abs_b(ops.b0);
  for (auto& x : abs_a) x = std::abs(x);
  for (auto& x : abs_b) x = std::abs(x);
  const double q = static_cast<double>(max_abs(product(s, abs_a, abs_b)));
  const double c_max = static_cast<double>(max_abs(ops.c));
  const double limit = exact_limit(s.result);

  // Accumulate: after n steps a value is C + n*A*B0, so |value| <= c_max + n*q.
  // steps = iterations * unroll + 1 <= (limit - c_max) / q.
  std::uint64_t accumulate_max = kMaxIterations;
  if (q > 0) {
    const double steps = std::floor((limit - c_max) / q);
    accumulate_max = steps < 1 ? 0
                               : static_cast<std::uint64_t>(
                                     std::min<double>((steps - 1) / cfg.unroll, kMaxIterations));
  }
  if (accumulate_max >= kMinAccumulateIterations || (!allow_negative && accumulate_max >= 1)) {
    plan.mode = Mode::Accumulate;
    ops.b1 = ops.b0;
    plan.max_iterations = accumulate_max;
    return plan;
  }
  // Cancel: values alternate between C and C + A*B0; a step starting from C + A*B0 stays within
  // c_max + 2q.
  if (allow_negative && c_max + 2 * q <= limit) {
    plan.mode = Mode::Cancel;
    ops.b1 = ops.b0;
    for (auto& x : ops.b1) x = -x;
    plan.max_iterations = kMaxIterations;
    return plan;
  }
  return std::nullopt;
}

std::vector<std::int64_t> expected_results(const Shape& s, const KernelConfig& cfg,
                                           const Operands& ops, std::uint64_t iterations) {
  const std::size_t mn = static_cast<std::size_t>(s.m) * s.n;
  const auto p0 = product(s, ops.a, ops.b0);
  const auto p1 = product(s, ops.a, ops.b1);
  const auto pairs = static_cast<std::int64_t>(iterations) * (cfg.unroll / 2);
  std::vector<std::int64_t> out(ops.c);
  for (std::uint32_t j = 0; j < cfg.accumulators; ++j) {
    for (std::size_t e = 0; e < mn; ++e) out[j * mn + e] += p0[e] + pairs * (p0[e] + p1[e]);
  }
  return out;
}

std::vector<std::int64_t> simulate_results(const Shape& s, const KernelConfig& cfg,
                                           const Operands& ops, std::uint64_t iterations) {
  const std::size_t mn = static_cast<std::size_t>(s.m) * s.n;
  std::vector<std::int64_t> acc(ops.c);
  auto step = [&](const std::vector<std::int64_t>& b) {
    for (std::uint32_t j = 0; j < cfg.accumulators; ++j)
      multiply_add(s, ops.a.data(), b.data(), &acc[j * mn]);
  };
  for (std::uint64_t i = 0; i < iterations; ++i) {
    for (std::uint32_t u = 0; u < cfg.unroll; ++u) step(u % 2 == 0 ? ops.b0 : ops.b1);
  }
  step(ops.b0);
  return acc;
}

std::uint16_t f16_from_int(std::int64_t v) {
  if (v == 0) return 0;
  const std::uint16_t sign = v < 0 ? 0x8000 : 0;
  const auto m = static_cast<std::uint32_t>(std::min<std::int64_t>(std::abs(v), 2048));
  const int e = std::bit_width(m) - 1;  // m = 1.f * 2^e, e <= 11
  const std::uint32_t mantissa = (e <= 10 ? m << (10 - e) : m >> (e - 10)) & 0x3FFu;
  return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(e + 15) << 10 | mantissa);
}

double f16_to_double(std::uint16_t bits) {
  const double sign = (bits & 0x8000) != 0 ? -1.0 : 1.0;
  const int e = (bits >> 10) & 0x1F;
  const int f = bits & 0x3FF;
  if (e == 0) return sign * std::ldexp(f, -24);
  if (e == 31) return f == 0 ? sign * HUGE_VAL : std::nan("");
  return sign * std::ldexp(1024 + f, e - 25);
}

std::vector<std::byte> encode(Scalar s, const std::vector<std::int64_t>& values) {
  std::vector<std::byte> out;
  auto put = [&out](const void* p, std::size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    out.insert(out.end(), b, b + n);
  };
  for (auto v : values) {
    switch (s) {
      case Scalar::F16: {
        const std::uint16_t h = f16_from_int(v);
        put(&h, 2);
        break;
      }
      case Scalar::F32: {
        const auto f = static_cast<float>(v);
        put(&f, 4);
        break;
      }
      case Scalar::I32:
      case Scalar::U32: {
        const auto w = static_cast<std::uint32_t>(v);
        put(&w, 4);
        break;
      }
      case Scalar::I8:
      case Scalar::U8: {
        // Element e is byte e of the buffer: four per 32-bit word, lowest byte first.
        const auto b = static_cast<std::uint8_t>(v);
        put(&b, 1);
        break;
      }
    }
  }
  out.resize((out.size() + 3) / 4 * 4, std::byte{0});
  return out;
}

std::vector<double> decode(Scalar s, const std::vector<std::byte>& bytes, std::size_t count) {
  std::vector<double> out;
  out.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    switch (s) {
      case Scalar::F16: {
        std::uint16_t h = 0;
        if ((i + 1) * 2 <= bytes.size()) std::memcpy(&h, bytes.data() + i * 2, 2);
        out.push_back(f16_to_double(h));
        break;
      }
      case Scalar::F32: {
        float f = std::nanf("");
        if ((i + 1) * 4 <= bytes.size()) std::memcpy(&f, bytes.data() + i * 4, 4);
        out.push_back(f);
        break;
      }
      case Scalar::I32: {
        std::int32_t v = INT32_MIN;
        if ((i + 1) * 4 <= bytes.size()) std::memcpy(&v, bytes.data() + i * 4, 4);
        out.push_back(v);
        break;
      }
      case Scalar::U32: {
        std::uint32_t v = 0x80000000u;
        if ((i + 1) * 4 <= bytes.size()) std::memcpy(&v, bytes.data() + i * 4, 4);
        out.push_back(v);
        break;
      }
      case Scalar::I8:
      case Scalar::U8: {
        std::uint8_t v = 0;
        if (i < bytes.size()) std::memcpy(&v, bytes.data() + i, 1);
        out.push_back(s == Scalar::I8 ? static_cast<double>(static_cast<std::int8_t>(v)) : v);
        break;
      }
    }
  }
  return out;
}

Status compare_results(const Shape& s, const KernelConfig& cfg, const std::vector<double>& got,
                       const std::vector<std::int64_t>& expected_one_slot, std::uint32_t slots) {
  const std::size_t mn = static_cast<std::size_t>(s.m) * s.n;
  const std::size_t per_slot = mn * cfg.accumulators;
  if (expected_one_slot.size() != per_slot || got.size() != per_slot * slots) {
    return make_error(ErrorKind::Failed,
                      fmt::format("result size mismatch: got {} values, expected {} x {}",
                                  got.size(), slots, per_slot));
  }
  std::size_t bad = 0;
  std::string first;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const auto want = static_cast<double>(expected_one_slot[i % per_slot]);
    if (got[i] == want) continue;  // exact: all values are integers the result type holds exactly
    if (bad++ == 0) {
      const std::size_t slot = i / per_slot, j = (i % per_slot) / mn, e = i % mn;
      first = fmt::format("probe {}, accumulator {}, row {}, column {}: got {}, expected {}", slot,
                          j, e / s.n, e % s.n, got[i], want);
    }
  }
  if (bad == 0) return ok();
  return make_error(ErrorKind::Failed,
                    fmt::format("{} of {} values differ; first at {}", bad, got.size(), first));
}

}  // namespace wgb::catalog::subgroup_matrix
