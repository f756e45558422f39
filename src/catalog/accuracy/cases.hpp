// The accuracy measurements, one per builtin and range of inputs, each attached to the speed probe
// that times the builtin (src/catalog/compute/probes.cpp): `f32-sincos` carries sin and cos, inside
// [-pi, pi] where the specification bounds them and outside where it does not; `f32-f16-convert`
// carries both conversions. Their input sets are in cases.cpp, the method in docs/method.md#accuracy.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/accuracy/inputs.hpp"
#include "catalog/accuracy/spec.hpp"

namespace wgb::catalog::accuracy {

struct Case {
  std::string probe;       // the speed probe's id
  Builtin builtin;
  const Format* operand;   // the arguments' type
  const Format* result;    // the result's type
  std::string kernel;      // below kernels/: "accuracy/sin"
  std::string range;       // the inputs, short enough for a table column ("[-pi, pi]", "|x| > pi")
  bool bounded = true;     // false: the specification states no bound for this range
  bool absolute = false;   // the bound (and the error reported) is absolute rather than in ULPs
  std::function<std::vector<Arguments>()> inputs;  // deterministic
};

// Every case, in catalog order of their probes.
const std::vector<Case>& cases();
// The cases of one speed probe (none for a probe that times no float builtin).
std::vector<const Case*> cases_for(std::string_view probe_id);

// The number of f32 values a case evaluates (f16 cases list every value of their range).
inline constexpr std::size_t kF32Values = std::size_t{1} << 20;

}  // namespace wgb::catalog::accuracy
