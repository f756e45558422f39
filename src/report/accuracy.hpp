// The accuracy of the builtins a row times, as the documents and the console show it
// (docs/method.md#accuracy, docs/results-schema.md `rows[].accuracy`): its JSON form both ways and
// the table that puts each builtin's error beside its probe's rate. Pure: no Dawn, no measurement.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "report/model.hpp"
#include "webgpu_bench/accuracy.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::report {

// `rows[].accuracy`: one object per entry. Doubles that are not finite (a NaN or infinite output,
// an infinite error or allowed end) are written as the strings "nan", "inf", "-inf".
nlohmann::json accuracy_json(const std::vector<BuiltinAccuracy>& entries);
// Reads what accuracy_json wrote; the error names the entry and the field that has the wrong type.
Expected<std::vector<BuiltinAccuracy>> accuracy_from_json(const nlohmann::json& j);

// The builtin as tables show it: "sin", "x / y", "inverseSqrt"; a conversion as "f32->f16".
std::string builtin_text(const BuiltinAccuracy& e);
// An error in the entry's unit: "0.502" (ULPs), "2.4e-07" (absolute), "inf", "0".
std::string error_text(double error, const std::string& unit);
// The bound as tables show it: "2.5 ulp", "4.9e-04 abs", "inherited", "either", "-" (none).
std::string bound_text(const BuiltinAccuracy& e);
// "within", "OUTSIDE", "-" (no bound), or the entry's status when it did not measure.
std::string verdict_text(const BuiltinAccuracy& e);
// The input as text: "x = 3.1415925", "x = 1.5, y = -3.25e-38".
std::string input_text(const AccuracySample& s);

// After a run with --accuracy: every builtin's error beside its probe's rate, one line per entry,
// fitted to `width` (the mean, then the rate, are left out of a narrower table, and a line says so);
// under it, every entry outside its bound with its worst input, and the entries that could not be
// measured with the reason. Nothing when no row carries accuracy.
void write_accuracy_table(std::ostream& out, const std::vector<ReportRow>& rows, std::size_t width);

}  // namespace wgb::report
