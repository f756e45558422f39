// The accuracy of one floating-point builtin on one adapter, measured over a set of inputs against
// the exact result (docs/method.md#accuracy): what a result row carries beside the builtin's speed
// (`run --accuracy`). Plain data, standard library only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wgb {

// One evaluated input: its arguments, what the device returned and the exact result.
struct AccuracySample {
  std::vector<double> input;  // the arguments, as values of the builtin's operand type
  double output = 0;          // the device's result (may be NaN or infinite)
  double expected = 0;        // the exact result, rounded to a double
  double error = 0;           // in the entry's unit, against the closest reading the method allows
  std::vector<double> allowed;  // [low, high]: what the bound accepts for this input; empty without one
};

// One builtin over one range of inputs. A value outside the specification's bound is a finding
// (`within` false, `violations`, `worst_violation`), never an error of the tool: `status` is
// "measured" whatever the device returned; "skipped" (a missing feature, in `reason`) and "error"
// (the kernel did not compile or run, in `reason`) are the tool's.
struct BuiltinAccuracy {
  std::string builtin;  // "sin", "x / y", "inverseSqrt", "f16(x)", ...
  std::string type;     // the operand type: "f32", "f16" (a conversion: its source type)
  std::string result_type;  // "f32" or "f16"
  std::string range;    // the inputs, in words: "x in [-pi, pi]", "x > 0 outside [0.5, 2]", ...
  std::string status = "measured";  // "measured", "skipped", "error"
  std::string reason;
  std::string kernel;     // "accuracy/sin": the kernel file below kernels/
  std::string wgsl_hash;  // of the WGSL that ran
  std::string unit = "ulp";  // "ulp" or "absolute": the unit of max_error, mean_error and the bound

  std::uint64_t inputs = 0;             // values evaluated
  std::uint64_t excluded = 0;           // no error counted: no exact result in the result type's finite range
  std::uint64_t flushed = 0;            // explained only by a subnormal read or written as zero
  std::uint64_t correctly_rounded = 0;  // equal to the exact result rounded to nearest, ties to even
  std::uint64_t nonfinite = 0;          // NaN or infinite outputs where every reading is finite
  double max_error = 0, mean_error = 0;  // in `unit`; max is +inf when an output is not finite
  double max_ulp = 0, mean_ulp = 0;      // always in ULPs of the result type
  AccuracySample worst;                  // the input with the largest error

  std::string bound;              // the specification's requirement in words; empty: none for this range
  std::optional<double> bound_value;  // in `unit`, when the bound is one number (not per input)
  std::optional<bool> within;     // every value inside its bound; empty when there is no bound
  std::uint64_t violations = 0;   // values outside their bound
  std::optional<AccuracySample> worst_violation;  // the largest error among them
};

}  // namespace wgb
