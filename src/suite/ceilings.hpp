// The ceilings an earlier result document measured on an adapter (`run --ceilings FILE`), read
// from its typed rows; the plausibility check (plausibility.hpp) compares rows with them. Native
// only: the browser engine takes no --ceilings.
#pragma once

#include "report/files.hpp"
#include "webgpu_bench/expected.hpp"
#include "webgpu_bench/options.hpp"

namespace wgb {

// Linear streaming rates with their footprints (memory-read/-write/-copy: 2 x working_set_bytes;
// read-linear, write-linear: footprint_bytes), the peak 32-bit instruction rate (the best ok
// f32-fma-* or i32-mad-* row / 2), and the best ok rate per peak class. Usage error, naming the
// document, when it names no adapter or holds none of these rows.
Expected<MeasuredCeilings> measured_ceilings_from(const report::Document& doc);

}  // namespace wgb
