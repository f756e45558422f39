// The accuracy cases and their input sets (src/catalog/accuracy/cases.hpp, inputs.hpp): every float
// builtin probe has its cases; every set is reproducible, made of values of its operand type, inside
// its range, and covers what the method says (subnormals, the ends of the range, every f16 value).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "catalog/accuracy/cases.hpp"
#include "webgpu_bench/suite.hpp"

namespace wgb::catalog::accuracy {
namespace {

bool contains(const std::vector<Arguments>& v, long double x) {
  return std::any_of(v.begin(), v.end(), [x](const Arguments& a) { return a.x == x; });
}

TEST(AccuracyCases, EveryFloatBuiltinProbeHasItsCasesAndNoOtherProbeHasAny) {
  std::set<std::string> ids;
  for (const auto& d : builtin_benchmarks()) ids.insert(d.id);
  for (const auto& c : cases()) EXPECT_TRUE(ids.count(c.probe)) << c.probe << " is no speed probe";
  for (const char* t : {"f32", "f16"}) {
    for (const char* op : {"div", "sqrt", "rsqrt", "log", "pow", "sincos"}) {
      EXPECT_FALSE(cases_for(std::string(t) + "-" + op).empty()) << t << "-" << op;
    }
  }
  EXPECT_EQ(cases_for("f32-sincos").size(), 4u);  // sin and cos, inside and outside [-pi, pi]
  EXPECT_EQ(cases_for("f32-f16-convert").size(), 2u);
  EXPECT_TRUE(cases_for("f32-fma-scalar").empty());
}

TEST(AccuracyCases, SetsAreReproducibleValuesOfTheirTypeInsideTheirRange) {
  for (const auto& c : cases()) {
    SCOPED_TRACE(c.probe + " " + c.range);
    const auto args = c.inputs();
    ASSERT_FALSE(args.empty());
    EXPECT_LE(args.size(), std::size_t{1} << 21);  // what one dispatch of the kernel covers
    EXPECT_TRUE(std::equal(args.begin(), args.end(), c.inputs().begin(),
                           [](const Arguments& a, const Arguments& b) { return a.x == b.x && a.y == b.y; }));
    const Format& f = *c.operand;
    const long double pi = pi_in(f);
    for (const auto& a : args) {
      ASSERT_TRUE(std::isfinite(a.x) && std::isfinite(a.y));
      ASSERT_EQ(round_to(a.x, f), a.x) << static_cast<double>(a.x);
      ASSERT_EQ(round_to(a.y, f), a.y) << static_cast<double>(a.y);
      const long double ax = std::fabs(a.x), ay = std::fabs(a.y);
      switch (c.builtin) {
        case Builtin::Sin:
        case Builtin::Cos: ASSERT_EQ(ax <= pi, c.bounded) << static_cast<double>(a.x); break;
        case Builtin::Log: ASSERT_EQ(a.x >= 0.5L && a.x <= 2, c.absolute) << static_cast<double>(a.x); break;
        case Builtin::Div:
          ASSERT_EQ(ay >= f.min_normal() && ay <= std::ldexp(1.0L, f.max_exponent - 1), c.bounded);
          break;
        case Builtin::Sqrt: ASSERT_GE(a.x, 0); break;
        case Builtin::InverseSqrt: ASSERT_GT(a.x, 0); break;
        case Builtin::Pow: ASSERT_GT(a.x, 0); ASSERT_LE(std::pow(a.x, a.y), f.max_finite()); break;
        case Builtin::ToF16: ASSERT_LE(ax, kF16.max_finite()); break;
        default: break;
      }
      if (c.builtin == Builtin::Log) {
        ASSERT_GT(a.x, 0);
      }
    }
  }
}

TEST(AccuracyCases, F32SetsCoverSubnormalsAndTheEndsOfTheirRange) {
  auto args_of = [](const std::string& probe, const std::string& range) {
    for (const Case* c : cases_for(probe)) {
      if (c->range == range) return c->inputs();
    }
    ADD_FAILURE() << probe << " " << range;
    return std::vector<Arguments>{};
  };
  auto subnormals = [](const std::vector<Arguments>& v) {
    return std::count_if(v.begin(), v.end(), [](const Arguments& a) { return kF32.subnormal(a.x); });
  };
  const auto sqrt = args_of("f32-sqrt", "x >= 0");
  EXPECT_GT(subnormals(sqrt), 1000);
  EXPECT_TRUE(contains(sqrt, 0) && contains(sqrt, kF32.max_finite()) && contains(sqrt, kF32.min_subnormal()));
  const auto sin = args_of("f32-sincos", "[-pi, pi]");
  EXPECT_GT(subnormals(sin), 1000);
  EXPECT_TRUE(contains(sin, pi_in(kF32)) && contains(sin, -pi_in(kF32)) && contains(sin, 0));
  const auto log = args_of("f32-log", "[0.5, 2]");
  EXPECT_TRUE(contains(log, 0.5L) && contains(log, 2) && contains(log, 1) && contains(log, 1 + 0x1p-23L) &&
              contains(log, 1 - 0x1p-24L));
  EXPECT_GT(subnormals(args_of("f32-log", "x>0, not [0.5, 2]")), 1000);
  EXPECT_GE(sin.size(), kF32Values / 2);
}

TEST(AccuracyCases, F16SetsHoldEveryValueOfTheirRange) {
  auto size_of = [](const std::string& probe, const std::string& range) -> std::size_t {
    for (const Case* c : cases_for(probe)) {
      if (c->range == range && c->operand == &kF16) return c->inputs().size();
    }
    return 0;
  };
  EXPECT_EQ(size_of("f16-sqrt", "x >= 0"), 31745u);  // +0, -0 and the 31,743 positive finite values
  EXPECT_EQ(size_of("f16-rsqrt", "x > 0"), 31743u);
  EXPECT_EQ(size_of("f16-sincos", "[-pi, pi]") + size_of("f16-sincos", "|x| > pi"), 63488u);  // every finite f16
  EXPECT_EQ(size_of("f16-log", "[0.5, 2]") + size_of("f16-log", "x>0, not [0.5, 2]"), 31743u);
  EXPECT_EQ(size_of("f32-f16-convert", "every f16"), 63488u);
}

}  // namespace
}  // namespace wgb::catalog::accuracy
